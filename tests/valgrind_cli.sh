#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `cairn` tool under Valgrind's memcheck: no invalid read or write, no use of uninitialised
# values, no definite or possible leak, on short runs of scenes of every kind: one small scene in
# each contact method, a mesh, a heightfield, hulls, joints with every writer (CSV, joint CSV,
# recording), a FOSSSim XML scene, and `cairn info` on a scene and on a recording. About a minute.
# The CTest test valgrind_cli (registered when valgrind is found, never in sanitizer builds: the
# two do not mix) and tools/analyze.sh run it.
# usage: valgrind_cli.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
if ! command -v valgrind >/dev/null 2>&1; then
	echo "skipped: valgrind not found"
	exit 77
fi
T=$(mktemp -d "${BUILD_DIR}/valgrind_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
S=$SOURCE_DIR/scenes

# memcheck: any error (leaks of the kinds "definite" and "possible" included) exits 99, which
# tells Valgrind's verdict apart from the tool's own exit status
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,possible \
		--track-origins=yes "$CAIRN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
clean() {
	[ "$rc" -eq 0 ] && ! grep -q "^==[0-9]*==" "$T/err"
}

# every method on the bouncing balls, long enough for the balls to land and bounce
for method in impulse lcp velocity-projection gr-lcp gr-velocity-projection penalty analytic-impulse constraint; do
	vg run "$S/bouncing_balls.json" --method "$method" --duration 1.5 --quiet
	check "bouncing_balls in $method: memcheck clean" clean
done

# geometry: a mesh, a heightfield, hulls
vg run "$S/mesh_drop.json" --duration 1 --quiet
check "mesh_drop: memcheck clean" clean
vg run "$S/terrain.json" --duration 0.5 --quiet
check "terrain: memcheck clean" clean
vg run "$S/jacks.json" --duration 0.5 --quiet
check "jacks: memcheck clean" clean

# joints with every writer, then the recording read back
vg run "$S/chain.json" --duration 1 --quiet --csv "$T/chain.csv" --joints-csv "$T/joints.csv" --record "$T/chain.cnrec"
check "chain with CSV, joint CSV and a recording: memcheck clean" clean
vg info "$T/chain.cnrec"
check "info on the recording: memcheck clean" clean
vg info "$S/chain.json"
check "info on the scene: memcheck clean" clean

# a FOSSSim XML scene: two triangles falling onto each other under gravity
cat >"$T/triangles.xml" <<'EOF'
<scene>
  <simtype type="rigid-body"/>
  <duration time="1.0"/>
  <rigidbodyintegrator type="symplectic-euler" dt="0.01"/>
  <rigidbodycollisionhandling detection="all-pairs" response="lcp"/>
  <rigidbodygravityforce fx="0.0" fy="-10.0"/>
  <rigidbodyvertex x="-1" y="4" m="1"/>
  <rigidbodyvertex x="1" y="4" m="1"/>
  <rigidbodyvertex x="0" y="3" m="1"/>
  <rigidbodyvertex x="-1" y="2" m="1"/>
  <rigidbodyvertex x="1" y="2" m="1"/>
  <rigidbodyvertex x="0" y="1" m="1"/>
  <rigidbody p="0" p="1" p="2" vx="0.0" vy="-1.0" omega="0.5" r="0.1"/>
  <rigidbody p="3" p="4" p="5" vx="0.0" vy="0.0" omega="0.0" r="0.1"/>
</scene>
EOF
vg run "$T/triangles.xml" --quiet --csv "$T/triangles.csv"
check "FOSSSim XML scene: memcheck clean" clean

# an error path: a scene that does not load frees what it read
printf '{"bodies": [{"name": "a", "shapes": [{"type": "sphere", "radius": -1}]}]}' >"$T/bad.json"
vg run "$T/bad.json" --quiet
check "a bad scene exits 2" test "$rc" -eq 2
check "a bad scene: memcheck clean" bash -c "! grep -q '^==[0-9]*==' '$T/err'"

cli_summary valgrind_cli
