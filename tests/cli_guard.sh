#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The instability guard in `cairn run` (docs/reliability.md): tests/data/guard_fall.json drops two
# balls under "max_speed": 5 in steps of 1/60 s, so 'thrown' (at 4.5 m/s) crosses the bound at step
# 4 and 'ball' (from rest, g n h) at step 31. stop (the default) fails the run with the report on
# stderr and exit 1; --on-instability warn goes on and warns once per body; freeze-body stops both;
# --stats prints the counters and the last report; bad actions are bad input.
# usage: cli_guard.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$1
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_guard.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
SCENE=$SOURCE_DIR/tests/data/guard_fall.json
err_has() { grep -qF -- "$1" "$T/err"; }
out_has() { grep -qF -- "$1" "$T/out"; }

# --- stop: the default --------------------------------------------------------------------------
run run "$SCENE" --csv "$T/fall.csv" --stats
check "an unstable run exits 1" test $rc -eq 1
check "stderr names the body, the time, the step and the bound" \
	err_has "cairn: error: $SCENE: unstable: body 'thrown' at t = 0.0666666667 s (step 4): speed 5.154 m/s is above max_speed 5 m/s"
check "and the likely cause" err_has "likely cause: no deep overlap, large mass ratio or too large time step"
check "and how to go on" err_has "(--on-instability warn or freeze-body goes on; no output written)"
check "no CSV is written" test ! -e "$T/fall.csv"
run run "$SCENE" --on-instability stop --quiet
check "--on-instability stop is the same" err_has "unstable: body 'thrown' at t = 0.0666666667 s (step 4)"

# --- warn: once per body, the run goes on -------------------------------------------------------
run run "$SCENE" --on-instability warn --stats --csv "$T/fall.csv"
check "warn exits 0" test $rc -eq 0
check "warn: 'thrown' at step 4" \
	err_has "cairn: warning: $SCENE: unstable (warn): body 'thrown' at t = 0.0666666667 s (step 4): speed 5.154 m/s"
check "warn: 'ball' at step 31" err_has "unstable (warn): body 'ball' at t = 0.516666667 s (step 31): speed 5.0685 m/s"
check "one warning per body, not one per step" test "$(grep -c 'unstable (warn)' "$T/err")" -eq 2
check "the CSV is written" test -s "$T/fall.csv"
# 'thrown' is over the bound in steps 4 to 60, 'ball' in steps 31 to 60
check "--stats counts every body and step over the bound" grep -Eq "^  instabilities +87 " "$T/out"
check "--stats: nothing frozen" grep -Eq "^  frozen bodies +0 " "$T/out"
check "--stats: the last report" out_has "  last instability: body 'ball' at t = 1 s (step 60): speed 9.81 m/s is above max_speed 5 m/s (and 1 more body)"
check "--stats times the guard" grep -Eq "^  guard +[0-9.]+$" "$T/out"

# --- freeze-body: each ball stops at its step ---------------------------------------------------
run run "$SCENE" --on-instability freeze-body --stats --csv "$T/frozen.csv"
check "freeze-body exits 0" test $rc -eq 0
check "freeze-body warns for each body" test "$(grep -c 'unstable (freeze-body)' "$T/err")" -eq 2
check "--stats: two instabilities" grep -Eq "^  instabilities +2 " "$T/out"
check "--stats: two frozen bodies" grep -Eq "^  frozen bodies +2 " "$T/out"
# the CSV's last row of 'thrown' (time,body,x,y,z,...,vx,vy,vz,...): at rest since step 4, at
# z = 100 - 4.5 t - g t^2 / 2 of t = 4/60 (within the sub-steps' Euler error)
last=$(grep ',thrown,' "$T/frozen.csv" | tail -1)
check "the frozen body is at rest at the end" test "$(echo "$last" | cut -d, -f10-12)" = "0,0,0"
check "where it was frozen (4 steps from 100 m)" near "$(echo "$last" | cut -d, -f5)" 99.6782 0.002

# --- a stable scene: nothing to say -------------------------------------------------------------
run run "$SOURCE_DIR/scenes/tower10.json" --duration 2 --stats --quiet
check "a stable scene runs" test $rc -eq 0
check "a stable scene: no instability line" bash -c "! grep -q 'instabilit' '$T/out' '$T/err'"

# --- bad input --------------------------------------------------------------------------------------
run run "$SCENE" --on-instability explode
check "an unknown action is bad input" test $rc -eq 2
check "and says which are known" err_has "--on-instability: unknown action 'explode' (known: stop, warn, freeze-body)"
sed 's/"max_speed": 5/"on_instability": "explode"/' "$SCENE" >"$T/bad.json"
run run "$T/bad.json"
check "a scene's unknown action is bad input" test $rc -eq 2
check "named by its key" err_has "$T/bad.json: on_instability: unknown action \"explode\" (allowed: stop, warn, freeze-body)"
sed 's/"max_speed": 5/"max_speed": -5/' "$SCENE" >"$T/bad.json"
run run "$T/bad.json"
check "a negative max_speed is bad input" test $rc -eq 2
check "named by its key" err_has "$T/bad.json: max_speed: must be > 0"
run run --help
check "run --help lists --on-instability" out_has "--on-instability ACTION"

cli_summary cli_guard
