#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Joints from the command line: tests/data/joints_all.json (every joint type, point masses, fixed
# points, a fuse that breaks) runs with `cairn run --joints-csv`; the CSV has its columns, one row
# per joint per frame, each joint's type, and a pendulum on a ball joint (and a point mass on a
# rod) keeps its length within 1 mm; `cairn info` counts the joints; --joints-csv's errors exit 2
# (bad value) or 1 (unwritable) and leave no file.
# usage: cli_joints.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_joints.XXXXXX")
trap 'rm -rf "$T"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

SCENE="$SOURCE_DIR/tests/data/joints_all.json"
HEADER="time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken"
# the joints of the scene in file order, with their types
JOINTS="nail:ball hip:cone_twist knee:hinge rail:slider cardan:universal weld:fixed rod:distance a_nail:ball rope:distance shock:spring dashpot:damper table:point_on_plane fuse:ball"

# --- a run with every joint type ------------------------------------------------------------
run run "$SCENE" --joints-csv "$T/joints.csv" --csv "$T/bodies.csv"
check "run exits 0" test $rc -eq 0
check "run says it wrote the joint CSV" grep -qF "wrote $T/joints.csv" "$T/out"
check "no temporary file is left" test ! -e "$T/joints.csv.tmp"
check "the header names the columns" test "$(head -n 1 "$T/joints.csv")" = "$HEADER"
# 1 s at 60 fps: frames 0..60, 13 joints each
check "one row per joint per frame (61 x 13)" test "$(tail -n +2 "$T/joints.csv" | wc -l)" -eq $((61 * 13))
check "every row has 12 fields" awk -F, 'NR > 1 && NF != 12 { exit 1 }' "$T/joints.csv"
check "numbers in every numeric field, broken 0 or 1" awk -F, 'NR > 1 {
	for (i = 4; i <= 11; ++i) if ($i !~ /^-?[0-9.]+(e[-+][0-9]+)?$/) exit 1
	if ($1 !~ /^[0-9.]+(e[-+][0-9]+)?$/ || ($12 != "0" && $12 != "1")) exit 1 }' "$T/joints.csv"
# each frame lists the joints in file order with their scene-file types
i=0
for jt in $JOINTS; do
	i=$((i + 1))
	check "row $i of frame 0 is ${jt%%:*} (${jt#*:})" \
		test "$(sed -n "$((i + 1))p" "$T/joints.csv" | cut -d, -f1-3)" = "0,${jt%%:*},${jt#*:}"
	check "${jt%%:*} appears in all 61 frames" test "$(grep -c "^[^,]*,${jt%%:*},${jt#*:}," "$T/joints.csv")" -eq 61
done
check "frame 0 is at t = 0, the last at t = 1" bash -c "head -n 2 '$T/joints.csv' | tail -n 1 | grep -q '^0,' && tail -n 1 '$T/joints.csv' | grep -q '^1,'"
# at t = 0 no step has run: nothing is measured, nothing broken
check "frame 0: errors and reactions 0" awk -F, 'NR > 1 && $1 == 0 { for (i = 4; i <= 12; ++i) if ($i != 0) exit 1 }' "$T/joints.csv"

# the pendulum: the bob's centre stays 1 m from the nail at (0, 0, 3); the point mass 1 m from the hook
check "bob rows in the body CSV" test "$(grep -c '^[^,]*,bob,' "$T/bodies.csv")" -eq 61
check "the ball-joint pendulum keeps its length within 1e-3 m" awk -F, '$2 == "bob" {
	d = sqrt($3 ^ 2 + $4 ^ 2 + ($5 - 3) ^ 2) - 1; if (d < 0) d = -d; if (d >= 1e-3) exit 1; n++ } END { exit n != 61 }' "$T/bodies.csv"
check "the pendulum swings (it leaves its start by more than 1 m)" awk -F, '$2 == "bob" && $3 < 0 { found = 1 } END { exit !found }' "$T/bodies.csv"
check "the nail reports a linear error below 1e-3 m" awk -F, '$2 == "nail" { if ($4 >= 1e-3) exit 1; n++ } END { exit n != 61 }' "$T/joints.csv"
check "the point mass on a rod keeps its length within 1e-3 m" awk -F, '$2 == "weight" {
	d = sqrt(($3 - 12) ^ 2 + $4 ^ 2 + ($5 - 3) ^ 2) - 1; if (d < 0) d = -d; if (d >= 1e-3) exit 1; n++ } END { exit n != 61 }' "$T/bodies.csv"
# the fuse (1 N) holds 4.19 kg: it breaks in the first step and stays broken; nothing else breaks
check "the fuse is whole at t = 0 and broken in every later frame" awk -F, '$2 == "fuse" {
	if (($1 == 0) != ($12 == 0)) exit 1 } $2 != "fuse" && NR > 1 && $12 != 0 { exit 1 }' "$T/joints.csv"
check "run says the fuse broke, at the first step" grep -q "^joint 'fuse' broke at t = 0.00416666667 s (reaction [0-9.]* N, 0 N m)$" "$T/out"
check "and names no other joint" test "$(grep -c "^joint '.*' broke" "$T/out")" -eq 1
# the ball joint's reaction carries the bob's weight at the bottom of the swing: nonzero
check "the nail's reaction is measured" awk -F, '$2 == "nail" && $1 > 0 && ($6 != 0 || $8 != 0) { found = 1 } END { exit !found }' "$T/joints.csv"

# --every writes every n-th frame of the joints too; --bodies does not limit them
run run "$SCENE" --duration 0.5 --every 10 --bodies bob --csv "$T/bob.csv" --joints-csv "$T/every.csv" --quiet
check "--every 10: exits 0" test $rc -eq 0
check "--every 10: frames 0, 10, 20, 30 of 13 joints" test "$(tail -n +2 "$T/every.csv" | wc -l)" -eq $((4 * 13))
check "--every 10: times 0 to 0.5" test "$(cut -d, -f1 "$T/every.csv" | tail -n +2 | sort -u -g | tr '\n' ' ')" = "0 0.166666667 0.333333333 0.5 "

# a scene without joints: only the header
run run "$SOURCE_DIR/tests/data/scene_minimal.json" --duration 0.1 --joints-csv "$T/none.csv" --quiet
check "no joints: exits 0" test $rc -eq 0
check "no joints: the header alone" test "$(cat "$T/none.csv")" = "$HEADER"

# --- cairn info ---------------------------------------------------------------------------------
run info "$SCENE"
check "info exits 0" test $rc -eq 0
check "info counts the joints by type" grep -qx "joints: *13 (3 ball, 1 hinge, 1 slider, 1 universal, 1 cone_twist, 1 fixed, 2 distance, 1 spring, 1 damper, 1 point_on_plane)" "$T/out"
check "info counts point masses and fixed points as bodies" grep -qx "bodies: *16 (3 static, 13 dynamic)" "$T/out"
run info "$SOURCE_DIR/tests/data/scene_minimal.json"
check "info on a scene without joints says 0" grep -qx "joints: *0" "$T/out"

# --- --joints-csv errors ----------------------------------------------------------------------
mkdir -p "$T/work"
no_output() { test -z "$(ls -A "$T/work")"; }
run run "$SCENE" --joints-csv
check "--joints-csv without a value: exits 2" test $rc -eq 2
check "--joints-csv without a value: says so" grep -qF "option --joints-csv needs a value" "$T/err"
run run "$SCENE" --joints-csv ""
check "--joints-csv '': exits 2" test $rc -eq 2
check "--joints-csv '': says it needs a file name" grep -qF -- "--joints-csv needs a file name" "$T/err"
run run "$SCENE" --joints-csv "$T/work/same.csv" --csv "$T/work/same.csv"
check "--joints-csv and --csv on one file: exits 2" test $rc -eq 2
check "--joints-csv and --csv on one file: says so" grep -qF -- "--joints-csv and --csv name the same file" "$T/err"
check "--joints-csv and --csv on one file: nothing written" no_output
run run "$SCENE" --joints-csv "$T/work/same.cnrec" --record "$T/work/same.cnrec"
check "--joints-csv and --record on one file: exits 2" test $rc -eq 2
check "--joints-csv and --record on one file: nothing written" no_output
run run "$SCENE" --joints-csv "$T/work/missing/dir/j.csv"
check "unwritable --joints-csv: exits 1" test $rc -eq 1
check "unwritable --joints-csv: names the file" grep -qF "$T/work/missing/dir/j.csv" "$T/err"
check "unwritable --joints-csv: nothing written" no_output
# another output that cannot be written fails the run: the joint CSV is not left behind either
run run "$SCENE" --joints-csv "$T/work/j.csv" --record "$T/work/missing/r.cnrec"
check "failed run: exits 1" test $rc -eq 1
check "failed run: no joint CSV, no temporary file" no_output
# a scene error is bad input before anything is written
run run "$SOURCE_DIR/tests/data/bad/joint_unknown_body.json" --joints-csv "$T/work/j.csv"
check "scene with a bad joint: exits 2" test $rc -eq 2
check "scene with a bad joint: names the file and the path" grep -qF "joint_unknown_body.json: joints[0].bodies[0]: unknown body \"ghost\"" "$T/err"
check "scene with a bad joint: nothing written" no_output
# Ctrl-C (SIGINT) during a run leaves nothing
"$CAIRN" run "$SCENE" --duration 100000 --joints-csv "$T/work/j.csv" --quiet >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
check "interrupted run: exits 130" test $rc -eq 130
check "interrupted run: nothing written" no_output

cli_summary cli_joints
