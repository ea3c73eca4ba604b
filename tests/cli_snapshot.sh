#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn run --save-state / --at / --from-state` as a user meets them: a run stopped at a frame and
# continued from its snapshot writes the same CSV rows and ends with the same hash as the run that
# never stopped (several methods and kinds of scene: contacts, joints, a mesh, a FOSSSim scene with
# springs); bad snapshots and bad combinations are refused with a message and status 2.
# usage: cli_snapshot.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_snapshot.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

# resume NAME SCENE METHOD DURATION AT: straight run vs stopped at AT and continued
resume() {
	local name=$1 scene=$2 method=$3 duration=$4 at=$5
	run run "$scene" --method "$method" --duration "$duration" --csv "$T/$name.full.csv" --hash --quiet
	check "$name: straight run exits 0" test $rc -eq 0
	local straight
	straight=$(grep '^hash' "$T/out")
	run run "$scene" --method "$method" --duration "$duration" --save-state "$T/$name.cnsnap" --at "$at" --quiet
	check "$name: --save-state --at $at exits 0" test $rc -eq 0
	check "$name: the snapshot is written" test -s "$T/$name.cnsnap"
	run run "$scene" --method "$method" --duration "$duration" --from-state "$T/$name.cnsnap" --csv "$T/$name.rest.csv" --hash --quiet
	check "$name: --from-state exits 0" test $rc -eq 0
	check "$name: the continued run ends with the straight run's hash" test "$(grep '^hash' "$T/out")" = "$straight"
	# the rows from AT on are the straight run's, bit for bit in the printed digits
	awk -F, -v t="$at" 'NR > 1 && $1 + 0 >= t - 1e-9' "$T/$name.full.csv" >"$T/$name.tail"
	tail -n +2 "$T/$name.rest.csv" >"$T/$name.rest"
	check "$name: the continued CSV has rows" test -s "$T/$name.rest"
	check "$name: the continued CSV equals the straight run's from t = $at" cmp -s "$T/$name.tail" "$T/$name.rest"
}

resume dominoes "$SOURCE_DIR/scenes/dominoes.json" impulse 1.5 0.75
resume chain "$SOURCE_DIR/scenes/chain.json" impulse 1 0.5
resume balls_lcp "$SOURCE_DIR/scenes/bouncing_balls.json" lcp 1 0.5
resume balls_penalty "$SOURCE_DIR/scenes/bouncing_balls.json" penalty 0.5 0.25
resume cradle_constraint "$SOURCE_DIR/scenes/cradle.json" constraint 0.3 0.1
resume stairs "$SOURCE_DIR/scenes/stairs_mesh.json" impulse 1 0.5
FOSSSIM=$SOURCE_DIR/../shared/reference/fosssim/t3m1/springtests
if [ -d "$FOSSSIM" ]; then
	spring=$(ls "$FOSSSIM"/*.xml | head -1)
	resume fosssim_spring "$spring" impulse 1 0.5
fi

# --at 0 saves the starting state; --save-state alone the state at the end
SCENE=$SOURCE_DIR/scenes/bouncing_balls.json
run run "$SCENE" --duration 0.5 --save-state "$T/start.cnsnap" --at 0 --quiet
check "--at 0 exits 0" test $rc -eq 0
run run "$SCENE" --duration 0.5 --from-state "$T/start.cnsnap" --hash --quiet
a=$(grep '^hash' "$T/out")
run run "$SCENE" --duration 0.5 --hash --quiet
check "continuing from t = 0 is the plain run" test "$(grep '^hash' "$T/out")" = "$a"
run run "$SCENE" --duration 0.5 --save-state "$T/end.cnsnap" --quiet
check "--save-state alone exits 0" test $rc -eq 0
check "--save-state alone writes the file" test -s "$T/end.cnsnap"

# refusals: status 2 and a message naming the problem
run run "$SCENE" --duration 0.5 --from-state "$T/end.cnsnap"
check "a snapshot at the run's end is refused" test $rc -eq 2
check "  ... saying its time is not before the end" grep -q "not before the run's end" "$T/err"
run run "$SCENE" --from-state "$T/start.cnsnap" --method lcp
check "another method than the snapshot's is refused" test $rc -eq 2
check "  ... naming the snapshot's method" grep -q "saved with the impulse method" "$T/err"
run run "$SCENE" --duration 0.5 --save-state "$T/x.cnsnap" --at 2
check "--at after the end is refused" test $rc -eq 2
check "  ... before anything is written" test ! -e "$T/x.cnsnap"
run run "$SCENE" --at 1
check "--at without --save-state is refused" test $rc -eq 2
printf 'CAIRNSNP and then nothing' >"$T/bad.cnsnap"
run run "$SCENE" --from-state "$T/bad.cnsnap"
check "a damaged snapshot is refused" test $rc -eq 2
check "  ... naming the file" grep -q "bad.cnsnap: snapshot:" "$T/err"
head -c 2000 "$T/start.cnsnap" >"$T/short.cnsnap"
run run "$SCENE" --from-state "$T/short.cnsnap"
check "a truncated snapshot is refused" test $rc -eq 2
check "  ... as damaged or truncated" grep -q "damaged or truncated" "$T/err"
run run "$SCENE" --from-state "$T/missing.cnsnap"
check "a missing snapshot is refused" test $rc -eq 2
check "  ... naming the file" grep -q "missing.cnsnap" "$T/err"

cli_summary cli_snapshot
