#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cairn tool on bad input: every broken scene in tests/data/bad (EXPECTED.txt lists
# "file.json<TAB>substring of the message") exits 2 with the loader's message and the file name;
# unknown commands and options, bad option values, missing and corrupt files exit 2; an
# unwritable output exits 1; and in every case no output file is left behind.
# usage: cli_bad_input.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
# absolute, since some checks run from other directories
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
BAD="$SOURCE_DIR/tests/data/bad"
T=$(mktemp -d "${BUILD_DIR}/cli_bad_input.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/work"

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# runs cairn inside $T/work with stdout in $T/out, stderr in $T/err and the status in $rc
run() {
	(cd "$T/work" && "$CAIRN" "$@") >"$T/out" 2>"$T/err"
	rc=$?
}
# nothing was written into the work directory
no_output() { test -z "$(ls -A "$T/work")"; }
# stderr contains a fixed string
err_has() { grep -qF -- "$1" "$T/err"; }

GOOD="$SOURCE_DIR/tests/data/scene_minimal.json"

# --- every broken scene ---------------------------------------------------------------------
check "EXPECTED.txt exists" test -f "$BAD/EXPECTED.txt"
count=0
while IFS=$'\t' read -r file want || [ -n "$file" ]; do
	[ -z "$file" ] && continue
	case "$file" in \#*) continue ;; esac
	count=$((count + 1))
	run run "$BAD/$file" --csv out.csv --record out.cnrec
	check "$file: exits 2" test $rc -eq 2
	check "$file: message has '$want'" err_has "$want"
	check "$file: message names the file" err_has "$file"
	check "$file: message starts with 'cairn: error: '" grep -q "^cairn: error: " "$T/err"
	check "$file: no output file" no_output
	check "$file: nothing on stdout" test ! -s "$T/out"
	rm -rf "${T:?}/work/"*
	run info "$BAD/$file"
	check "info $file: exits 2" test $rc -eq 2
	check "info $file: message has '$want'" err_has "$want"
done <"$BAD/EXPECTED.txt"
check "EXPECTED.txt lists the broken scenes" test $count -gt 0
# every file in the folder is listed, so none goes untested
for path in "$BAD"/*.json; do
	check "$(basename "$path") is listed in EXPECTED.txt" grep -q "^$(basename "$path")	" "$BAD/EXPECTED.txt"
done

# --- missing file ---------------------------------------------------------------------------
run run no_such_scene.json --csv out.csv
check "missing scene: exits 2" test $rc -eq 2
check "missing scene: says it cannot open the file" err_has "no_such_scene.json: cannot open"
check "missing scene: no output" no_output
run info no_such_file.cnrec
check "info on a missing file exits 2" test $rc -eq 2
check "info on a missing file names it" err_has "no_such_file"

# --- unknown commands and options -----------------------------------------------------------
run frobnicate
check "unknown command: exits 2" test $rc -eq 2
check "unknown command: named" err_has "unknown command 'frobnicate'"
run help frobnicate
check "help on an unknown command exits 2" test $rc -eq 2
run run "$GOOD" --csv out.csv --frobnicate
check "unknown option: exits 2" test $rc -eq 2
check "unknown option: named" err_has "unknown option '--frobnicate'"
check "unknown option: no output" no_output
run run "$GOOD" --csv out.csv --hash=yes
check "a flag with a value exits 2" test $rc -eq 2
run run "$GOOD" --csv
check "option without its value: exits 2" test $rc -eq 2
check "option without its value: says so" err_has "--csv needs a value"
run run
check "run without a scene exits 2" test $rc -eq 2
run run "$GOOD" "$GOOD"
check "run with two scenes exits 2" test $rc -eq 2
run info
check "info without a file exits 2" test $rc -eq 2
run demo extra
check "demo with an argument exits 2" test $rc -eq 2
check "demo with an argument: no output" no_output

# --- bad option values ----------------------------------------------------------------------
for args in "--fps 0" "--fps -5" "--fps abc" "--fps 1e400" "--fps nan" "--duration -1" "--duration 1x" \
	"--duration inf" "--method magic" "--method=" "--workers 0" "--workers -1" "--workers 1.5" "--workers 65"; do
	# shellcheck disable=SC2086
	run run "$GOOD" --csv out.csv --record out.cnrec $args
	check "run $args: exits 2" test $rc -eq 2
	check "run $args: error message" grep -q "^cairn: error: " "$T/err"
	check "run $args: no output" no_output
done
check "bad --method lists the known methods" bash -c "cd '$T/work' && '$CAIRN' run '$GOOD' --method magic 2>&1 | grep -q 'known: impulse, lcp'"
run run "$GOOD" --csv out.csv --record out.csv
check "--csv and --record on one file: exits 2" test $rc -eq 2
check "--csv and --record on one file: no output" no_output
for args in "--steps 0" "--steps x" "--repeat 0" "--repeat -1" "--workers 0" "--workers 1,,2" "--workers 2,x" \
	"--workers ,"; do
	# shellcheck disable=SC2086
	run bench "$GOOD" $args
	check "bench $args: exits 2" test $rc -eq 2
done
run bench no_such_scene_name
check "bench on a missing scene exits 2" test $rc -eq 2
check "bench on a missing scene names it" err_has "no_such_scene_name"

# --- unwritable outputs: runtime failure, status 1, nothing left ----------------------------
run run "$GOOD" --csv no_such_dir/out.csv --duration 0.1
check "unwritable --csv: exits 1" test $rc -eq 1
check "unwritable --csv: says it cannot write" err_has "no_such_dir/out.csv.tmp: cannot write"
run run "$GOOD" --record no_such_dir/out.cnrec --csv out.csv --duration 0.1
check "unwritable --record: exits 1" test $rc -eq 1
check "unwritable --record: the CSV is not left behind" no_output
touch "$T/work/blocker"
run demo --out blocker/sub
check "demo into an unwritable place: exits 1" test $rc -eq 1
rm -f "$T/work/blocker"
check "demo into an unwritable place: nothing left" no_output
# an existing output is not replaced when the run fails
echo "old" >"$T/work/keep.csv"
run run "$BAD/negative_radius.json" --csv keep.csv
check "failed run keeps an existing output as it was" test "$(cat "$T/work/keep.csv")" = "old"
rm -f "$T/work/keep.csv"

# --- corrupt recordings ---------------------------------------------------------------------
"$CAIRN" run "$GOOD" --duration 0.5 --record "$T/good.cnrec" --quiet
check "a recording to corrupt was written" test -f "$T/good.cnrec"
size=$(wc -c <"$T/good.cnrec")
head -c $((size - 10)) "$T/good.cnrec" >"$T/cut.cnrec"
run info "$T/cut.cnrec"
check "info on a truncated recording: exits 2" test $rc -eq 2
check "info on a truncated recording: says truncated" err_has "truncated"
check "info on a truncated recording: names the file" err_has "cut.cnrec"
head -c 20 "$T/good.cnrec" >"$T/short.cnrec"
run info "$T/short.cnrec"
check "info on a header-only stub: exits 2" test $rc -eq 2
check "info on a header-only stub: says truncated" err_has "truncated"
{ head -c 8 "$T/good.cnrec"; printf '\x09\x00\x00\x00'; tail -c +13 "$T/good.cnrec"; } >"$T/v9.cnrec"
run info "$T/v9.cnrec"
check "info on a newer version: exits 2" test $rc -eq 2
check "info on a newer version: says so" err_has "unsupported recording format version 9"
printf 'not json, not a recording' >"$T/junk.txt"
run info "$T/junk.txt"
check "info on junk: exits 2" test $rc -eq 2
check "info on junk: syntax error" err_has "syntax error"

cli_summary
