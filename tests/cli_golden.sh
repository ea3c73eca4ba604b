#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Golden outputs: the final-state hash of every shipped scene in every contact method that runs it in
# reasonable time, of every FOSSSim reference scene in its own method, and the bytes of the CSV and
# recording of the small scenes, as recorded before the house redesign (issue 8). A change of any of
# them is a change of behaviour: a bug of a refactoring, or a physics change that must say so and
# regenerate the file on purpose. The impulse method's hashes are checked again on 2 workers (its
# solve, and the stages around it, run on the workers and must give the same bits).
#
# usage: cli_golden.sh CAIRN SOURCE_DIR WORK_DIR
# tests/data/golden.txt has one line per output: CLASS KIND METHOD PATH EXPECTED
#   CLASS  fast (under a second in a Release build: run everywhere, sanitizers included), full (run
#          unless CAIRN_FAST_TESTS is set), slow (a minute or more: only with CAIRN_SLOW_TESTS=1)
#   KIND   hash (the line `cairn run --hash` prints), csv or record (sha256 of the file written)
#   PATH   relative to the source tree, or reference:REL relative to ../shared/reference
# GOLDEN_WRITE=1 rewrites the file from the given tool instead of checking (keeps the classes of
# existing lines; new lines are classed by their run time).
set -u
CAIRN=$1
SOURCE_DIR=$2
T=$3/golden
mkdir -p "$T"
. "$SOURCE_DIR/tests/harness.sh"
REFERENCE=${CAIRN_REFERENCE_DIR:-$SOURCE_DIR/../shared/reference}
GOLDEN=$SOURCE_DIR/tests/data/golden.txt

# runs one entry (on WORKERS workers, default 1); prints the observed value (or "error: ..." on failure)
observe() {
	local kind=$1 method=$2 path=$3 workers=${4:-1}
	case $kind in
	hash)
		"$CAIRN" run "$path" --method "$method" --workers "$workers" --hash --quiet >"$T/out" 2>"$T/err" &&
			grep '^hash ' "$T/out" | sed 's/^hash //' || echo "error: $(head -c 300 "$T/err")"
		;;
	csv | record)
		rm -f "$T/file"
		"$CAIRN" run "$path" --method "$method" --"$kind" "$T/file" --quiet >"$T/out" 2>"$T/err" &&
			sha256sum "$T/file" | cut -c1-64 || echo "error: $(head -c 300 "$T/err")"
		;;
	esac
}

resolve() {
	case $1 in
	reference:*) echo "$REFERENCE/${1#reference:}" ;;
	*) echo "$SOURCE_DIR/$1" ;;
	esac
}

if [ "${GOLDEN_WRITE:-0}" = 1 ]; then
	# entries to write: the existing file's, else the standard set
	entries=$T/entries
	: >"$entries"
	methods="impulse lcp velocity-projection gr-lcp gr-velocity-projection penalty analytic-impulse constraint"
	for s in "$SOURCE_DIR"/scenes/*.json; do
		for m in $methods; do echo "hash $m scenes/$(basename "$s")" >>"$entries"; done
	done
	for s in bouncing_balls can_toss tower10 incline dominoes; do
		echo "csv impulse scenes/$s.json" >>"$entries"
		echo "record impulse scenes/$s.json" >>"$entries"
	done
	(cd "$REFERENCE" && find fosssim -name '*.xml' | sort) | while read -r x; do
		m=$(grep -o 'response="[a-z-]*"' "$REFERENCE/$x" | head -1 | sed 's/response="//; s/"//')
		echo "hash ${m:-lcp} reference:$x" >>"$entries"
	done
	out=$GOLDEN.new
	: >"$out"
	while read -r kind method path; do
		start=$(date +%s.%N)
		value=$(timeout "${GOLDEN_TIMEOUT:-300}" bash -c "$(declare -f observe); CAIRN='$CAIRN' T='$T' observe $kind $method '$(resolve "$path")'")
		seconds=$(echo "$(date +%s.%N) - $start" | bc)
		if [ -z "$value" ] || [[ $value == error* ]]; then
			echo "not recorded (${value:-timeout}): $kind $method $path" >&2
			continue
		fi
		class=slow
		awk -v s="$seconds" 'BEGIN { exit !(s < 1.0) }' && class=fast
		[ $class = slow ] && awk -v s="$seconds" 'BEGIN { exit !(s < 15.0) }' && class=full
		echo "$class $kind $method $path $value" >>"$out"
		echo "$class $kind $method $path $value ($seconds s)" >&2
	done <"$entries"
	mv "$out" "$GOLDEN"
	exit 0
fi

if [ ! -f "$GOLDEN" ]; then
	echo "FAIL: $GOLDEN is missing"
	exit 1
fi
skipped_reference=0
while read -r class kind method path expected; do
	case $class in
	'#'* | '') continue ;;
	full) [ -n "${CAIRN_FAST_TESTS:-}" ] && continue ;;
	slow) [ "${CAIRN_SLOW_TESTS:-0}" = 1 ] || continue ;;
	esac
	file=$(resolve "$path")
	if [[ $path == reference:* ]] && [ ! -e "$file" ]; then
		skipped_reference=$((skipped_reference + 1))
		continue
	fi
	value=$(observe "$kind" "$method" "$file")
	check "$kind of $path with $method is $expected (got $value)" test "$value" = "$expected"
	if [ "$kind" = hash ] && [ "$method" = impulse ]; then
		value=$(observe "$kind" "$method" "$file" 2)
		check "$kind of $path with $method on 2 workers is $expected (got $value)" test "$value" = "$expected"
	fi
done <"$GOLDEN"
cli_summary golden || exit 1
if [ $skipped_reference -gt 0 ]; then
	echo "skipped $skipped_reference entries: reference scenes not found in $REFERENCE"
	# 77: CTest reports the test as skipped (SKIP_RETURN_CODE)
	exit 77
fi
