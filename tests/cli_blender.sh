#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Blender add-on (integrations/blender/cairn) headless: Blender builds a ground box, a falling
# sphere and a turned box, the add-on exports them, runs this cairn and bakes the CSV back as
# keyframes; integrations/blender/tests/test_headless.py checks the scene JSON, the keyframes
# against the CSV, the operators and the error reports (one "ok:"/"FAIL:" line per check).
# Rigid body constraints: integrations/blender/tests/test_joints_export.py (python3, no Blender)
# checks the constraint -> joint mapping on plain data; test_joints_blender.py (in Blender)
# exports a hinged door and a chain of point constraints, runs and bakes them and checks that the
# keyframes keep each joint's point together.
# Skipped (exit 77) when blender is not installed (after the python3 test, which fails it).
# usage: cli_blender.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3

T=$(mktemp -d "${BUILD_DIR}/cli_blender.XXXXXX")
trap 'rm -rf "$T"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
TESTS="$SOURCE_DIR/integrations/blender/tests"

# the constraint -> joint mapping on plain data (scene_export.py needs no Blender)
if command -v python3 >/dev/null 2>&1; then
	python3 "$TESTS/test_joints_export.py" "$CAIRN" "$T/joints" >"$T/out" 2>"$T/err"
	rc=$?
	check "the joints export test runs to the end (exit 0)" test $rc -eq 0
	pass=$((pass + $(grep -c '^ok: ' "$T/out")))
	fail=$((fail + $(grep -c '^FAIL: ' "$T/out")))
	grep '^FAIL: ' "$T/out"
fi

BLENDER=${BLENDER:-blender}
if ! command -v "$BLENDER" >/dev/null 2>&1; then
	if [ "$fail" -ne 0 ]; then
		cli_summary cli_blender
		exit 1
	fi
	echo "SKIP: cli_blender: blender is not installed (tools/install-deps.sh installs it)"
	exit 77
fi

# Blender writes its user files (preferences, caches) under HOME: keep them in $T
HOME="$T/home" timeout 120 "$BLENDER" -b --factory-startup --python-exit-code 1 \
	--python "$SOURCE_DIR/integrations/blender/tests/test_headless.py" -- "$CAIRN" "$T/work" \
	>"$T/out" 2>"$T/err"
rc=$?
CLI_STDOUT_CHARS=4000
check "blender runs the add-on test to the end (exit 0)" test $rc -eq 0
check "the add-on test printed its checks" grep -q "^blender test: " "$T/out"
# each of the Python checks counts as one
pass=$((pass + $(grep -c '^ok: ' "$T/out")))
fail=$((fail + $(grep -c '^FAIL: ' "$T/out")))
grep '^FAIL: ' "$T/out"

# rigid body constraints: a hinged door and a chain of point constraints, baked
HOME="$T/home" timeout 120 "$BLENDER" -b --factory-startup --python-exit-code 1 \
	--python "$TESTS/test_joints_blender.py" -- "$CAIRN" "$T/joints_work" \
	>"$T/jout" 2>"$T/jerr"
rc=$?
check "blender runs the joints test to the end (exit 0)" test $rc -eq 0
pass=$((pass + $(grep -c '^ok: ' "$T/jout")))
fail=$((fail + $(grep -c '^FAIL: ' "$T/jout")))
grep '^FAIL: ' "$T/jout"
run run "$T/joints_work/scene.json" --csv "$T/joints_again.csv" --quiet
check "the exported joints scene runs with cairn run" test $rc -eq 0

# the scene the add-on wrote loads and runs on its own
run run "$T/work/scene.json" --csv "$T/again.csv" --quiet
check "the exported scene runs with cairn run" test $rc -eq 0
run info "$T/work/scene.json"
check "cairn info: 3 bodies, 1 static, 2 dynamic" grep -q "^bodies: *3 (1 static, 2 dynamic)$" "$T/out"
check "cairn info: shapes 1 sphere, 2 box" grep -q "^shapes: *3 (1 sphere, 2 box)$" "$T/out"

cli_summary cli_blender
