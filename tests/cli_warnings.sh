#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scene warnings in the cairn tool: a valid scene that asks for what its world will not do (friction
# under a frictionless method, gravity off a planar world's plane) runs, and `run` (also with
# --quiet), `info`, `compare` and `demo` print each warning once on stderr as
# "cairn: warning: FILE: JSONPATH: reason"; scenes without such things print none.
# usage: cli_warnings.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$1
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_warnings.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# stderr contains a fixed string
err_has() { grep -qF -- "$1" "$T/err"; }
# how many lines of stderr contain a fixed string
err_count() { grep -cF -- "$1" "$T/err"; }

# a ball on the ground with the default material (friction 0.6) under a frictionless method
cat >"$T/vp.json" <<'JSON'
{
  "cairn": 1, "name": "vp", "method": "velocity-projection", "duration": 0.2, "fps": 20,
  "bodies": [
    { "name": "ground", "type": "static", "shapes": [ { "type": "plane" } ] },
    { "name": "ball", "position": [0, 0, 0.5], "shapes": [ { "type": "sphere", "radius": 0.5 } ] }
  ]
}
JSON
# a planar scene with the default gravity (along -z, off its plane) and frictionless materials
cat >"$T/planar.json" <<'JSON'
{
  "cairn": 1, "name": "planar", "planar": true, "duration": 0.2, "fps": 20,
  "materials": { "default": { "friction": 0 } },
  "bodies": [ { "name": "ball", "velocity": [1, 0, 0], "shapes": [ { "type": "sphere", "radius": 0.5 } ] } ]
}
JSON
FRICTION="cairn: warning: $T/vp.json: materials.default: friction 0.6 (the default: \"friction\" is not given) is ignored: method \"velocity-projection\" models no friction"
GRAVITY="cairn: warning: $T/planar.json: gravity: the default gravity [0, 0, -9.81] is off the xy-plane"

# --- run ------------------------------------------------------------------------------------
run run "$T/vp.json" --hash --csv "$T/vp.csv"
check "run with a warning exits 0" test $rc -eq 0
check "run prints the friction warning" err_has "$FRICTION"
check "the warning is printed once" test "$(err_count "cairn: warning:")" -eq 1
check "the run still writes its output" test -s "$T/vp.csv"
check "and its hash" grep -q "^hash 0x" "$T/out"
run run "$T/vp.json" --quiet
check "--quiet still prints the warning" err_has "$FRICTION"
check "--quiet prints nothing on stdout" test ! -s "$T/out"
run run "$T/vp.json" --method impulse --quiet
check "a method with friction: no warning" test ! -s "$T/err"
run run "$T/planar.json" --quiet
check "planar scene runs" test $rc -eq 0
check "planar scene: the gravity warning" err_has "$GRAVITY"
run run "$T/vp.json" --dump-contact-system --hash --quiet --duration 0.1
check "a scene loaded twice (--dump-contact-system) warns once" test "$(err_count "cairn: warning:")" -eq 1

# --- info -----------------------------------------------------------------------------------
run info "$T/vp.json"
check "info exits 0" test $rc -eq 0
check "info prints the warning" err_has "$FRICTION"
check "info still describes the scene" grep -q "^method: *velocity-projection" "$T/out"

# --- compare --------------------------------------------------------------------------------
run compare "$T/planar.json" --methods impulse,velocity-projection,lcp --duration 0.1
check "compare exits 0" test $rc -eq 0
check "compare: the gravity warning once, though the scene loads once per method" \
	test "$(err_count "$GRAVITY")" -eq 1
run compare "$T/vp.json" --methods impulse,constraint --duration 0.1
check "compare: the friction warning for the frictionless method" \
	err_has "ignored: method \"constraint\" models no friction"
check "compare: none for the method with friction" bash -c "! grep -q 'method \"impulse\"' '$T/err'"

# --- demo and the shipped scenes: nothing to warn about --------------------------------------
run demo --out "$T/demo" --no-video
check "demo exits 0" test $rc -eq 0
check "demo prints no warning" bash -c "! grep -q 'warning' '$T/err'"
for scene in "$SOURCE_DIR"/scenes/*.json; do
	run info "$scene"
	check "$(basename "$scene"): no warning" bash -c "! grep -q 'warning' '$T/err'"
done

cli_summary cli_warnings
