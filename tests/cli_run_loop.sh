#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn run` on the library's run loop, as a user meets it: output filters (--bodies, --every), the
# method list in `cairn --help`, a progress line on a terminal, and Ctrl-C that stops even a step
# that takes minutes (it answers inside the step) and leaves no output.
# usage: cli_run_loop.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_run_loop.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

# --- the method list ------------------------------------------------------------------------
run --help
for m in impulse lcp velocity-projection gr-lcp gr-velocity-projection penalty analytic-impulse constraint; do
	check "--help lists method $m" grep -Eq "^  $m +[a-zA-Z]" "$T/out"
done

# --- output filters -------------------------------------------------------------------------
SCENE=$SOURCE_DIR/scenes/bouncing_balls.json
run run "$SCENE" --duration 1 --fps 30 --csv "$T/all.csv" --quiet
check "full CSV run exits 0" test $rc -eq 0
bodies=$(tail -n +2 "$T/all.csv" | cut -d, -f2 | sort -u | wc -l)
first=$(tail -n +2 "$T/all.csv" | head -1 | cut -d, -f2)
second=$(tail -n +2 "$T/all.csv" | cut -d, -f2 | sort -u | grep -vx "$first" | head -1)
check "the scene has several moving bodies" test "$bodies" -ge 2
run run "$SCENE" --duration 1 --fps 30 --csv "$T/some.csv" --bodies "$first,$second" --every 3 --quiet
check "--bodies --every exits 0" test $rc -eq 0
# frames 0, 3, ..., 30: 11 frames of two bodies
check "--bodies --every writes 2 bodies x 11 frames" test "$(tail -n +2 "$T/some.csv" | wc -l)" -eq 22
check "--bodies keeps only the named bodies" test "$(tail -n +2 "$T/some.csv" | cut -d, -f2 | sort -u | wc -l)" -eq 2
check "--every 3 at 30 fps writes t = 0.1, 0.2, ..." grep -q "^0.1,$first," "$T/some.csv"
# the filtered rows are the full run's rows
check "filtered rows equal the full run's" bash -c "grep -F -x -f '$T/some.csv' '$T/all.csv' | wc -l | grep -qx 23"
run run "$SCENE" --duration 0.5 --record "$T/some.cnrec" --bodies "$first" --quiet
check "--bodies with --record exits 0" test $rc -eq 0
run info "$T/some.cnrec"
check "the recording holds one body" grep -Eq "^bodies: *1 " "$T/out"
run run "$SCENE" --csv "$T/x.csv" --bodies "$first,ghost"
check "an unknown body in --bodies exits 2" test $rc -eq 2
check "and names it" grep -q "no body named 'ghost'" "$T/err"
check "and writes nothing" test ! -e "$T/x.csv" -a ! -e "$T/x.csv.tmp"
run run "$SCENE" --csv "$T/x.csv" --every 0
check "--every 0 exits 2" test $rc -eq 2
run run "$SCENE" --bodies "$first" --hash
check "--bodies without an output exits 2" test $rc -eq 2

# --- a progress line on a terminal ----------------------------------------------------------
# `script` gives the run a terminal; a run of a few seconds draws the line
if command -v script >/dev/null 2>&1; then
	script -qec "$CAIRN run $SOURCE_DIR/scenes/fall3000.json --duration 4 --csv $T/fall.csv" /dev/null >"$T/tty" 2>&1
	check "a long run on a terminal shows steps per second" grep -q "steps/s" "$T/tty"
	check "and the time left" grep -q " left" "$T/tty"
	run run "$SOURCE_DIR/scenes/fall3000.json" --duration 1 --csv "$T/fall.csv"
	check "without a terminal there is no progress line" bash -c "! grep -q 'steps/s' '$T/err'"
else
	echo "skipped the progress line: no 'script' command"
fi

# --- Ctrl-C inside a long step --------------------------------------------------------------
# the penalty method on the 1240-box pyramid: one step of 1/60 s takes tens of seconds (42 s on the
# machine this was written on). SIGINT 2 s in must stop the run within the step: the answer comes
# after one of the step's internal steps, well under a second; 5 s is the bound checked.
"$CAIRN" run "$SOURCE_DIR/scenes/pyramid.json" --method penalty --csv "$T/slow.csv" >"$T/out" 2>"$T/err" &
pid=$!
sleep 2
kill -INT $pid
signalled=$(date +%s.%N)
for _ in $(seq 300); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
seconds=$(echo "$(date +%s.%N) - $signalled" | bc)
check "Ctrl-C exits 130 (got $rc)" test $rc -eq 130
check "Ctrl-C answers inside the step (${seconds} s after the signal)" awk -v s="$seconds" 'BEGIN { exit !(s < 5) }'
check "Ctrl-C says where it stopped" grep -q "interrupted at t = 0 s" "$T/err"
check "Ctrl-C leaves no output" test ! -e "$T/slow.csv" -a ! -e "$T/slow.csv.tmp"

cli_summary "cli_run_loop"
