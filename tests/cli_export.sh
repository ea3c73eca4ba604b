#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn export` (glTF 2.0): scenes and recordings to .glb and .gltf + .bin, every shape, finish,
# texture and camera type, FOSSSim polygons, joints (nodes and pieces, `cairn info` of their
# recording); the files pass the Khronos glTF validator (npm
# gltf-validator, installed once per build tree from tests/gltf/package-lock.json) and Blender 3.4's
# own importer (headless) puts every body where `cairn run --csv` says it is; bad input fails with
# the file named and leaves no output. The validator part is skipped when npm is missing and the
# Blender part when blender is, each with a visible SKIP line (the test then reports skipped, 77).
# usage: cli_export.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$(cd "$3" && pwd)
T=$(mktemp -d "${BUILD_DIR}/cli_export.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
skipped=0
BALLS="$SOURCE_DIR/scenes/bouncing_balls.json"
# the files the validator and Blender look at
exported=()

# no output file and no temporary beside it
absent() {
	local f
	for f in "$@"; do
		[ ! -e "$f" ] && [ ! -e "$f.tmp" ] || return 1
	done
}

# --- help -----------------------------------------------------------------------------------
run export --help
cp "$T/out" "$T/help1"
check "export --help exits 0" test $rc -eq 0
check "export --help prints its usage" grep -q "^usage: cairn export" "$T/out"
run help export
check "help export equals export --help" cmp -s "$T/out" "$T/help1"
run --help
check "cairn --help lists export" grep -q "^  export " "$T/out"

# --- a scene and its recording --------------------------------------------------------------
run export "$BALLS" -o "$T/balls.glb" --quiet
check "export SCENE -o .glb exits 0" test $rc -eq 0
check "--quiet prints nothing" test ! -s "$T/out"
check "the .glb is there, no .tmp left" bash -c "test -s '$T/balls.glb' && test ! -e '$T/balls.glb.tmp'"
check "it starts with the GLB magic and version 2" test "$(head -c 4 "$T/balls.glb")$(od -A n -t u4 -j 4 -N 4 "$T/balls.glb" | tr -d ' ')" = "glTF2"
check "the GLB header holds the file's length" test "$(od -A n -t u4 -j 8 -N 4 "$T/balls.glb" | tr -d ' ')" -eq "$(wc -c <"$T/balls.glb")"
exported+=("$T/balls.glb")

run export "$BALLS" -o "$T/balls.gltf"
check "export SCENE -o .gltf exits 0" test $rc -eq 0
check "it says what it wrote" grep -q "^wrote $T/balls.gltf and $T/balls.bin: " "$T/out"
check "the .gltf names its buffer beside it" grep -q '"uri":[[:space:]]*"balls.bin"' "$T/balls.gltf"
check "the .bin is there" test -s "$T/balls.bin"
check "no .tmp left" bash -c "test ! -e '$T/balls.bin.tmp' && test ! -e '$T/balls.gltf.tmp'"
exported+=("$T/balls.gltf")

run run "$BALLS" --record "$T/balls.cnrec" --csv "$T/balls.csv" --quiet
check "run --record --csv exits 0" test $rc -eq 0
run export "$T/balls.cnrec" -o "$T/rec.gltf" --quiet
check "export RECORDING -o .gltf exits 0" test $rc -eq 0
# the same motion either way: the meshes and keys (the .bin) are the same bytes (the JSON differs
# only by the camera, which a recording does not carry)
check "a scene and its recording export the same buffer" cmp -s "$T/balls.bin" "$T/rec.bin"
run export "$T/balls.cnrec" -o "$T/rec30.glb" --fps 30 --quiet
check "export RECORDING --fps 30 (every second frame) exits 0" test $rc -eq 0
exported+=("$T/rec.gltf" "$T/rec30.glb")

# --- every shape, finish, a texture, every camera type --------------------------------------
# a 2 x 2 PNG beside the scene: texture names are relative to the scene's folder
mkdir -p "$T/look"
echo "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGNgYGj4/x+IGRj+AxlADABJ2Qn5CmvZlgAAAABJRU5ErkJggg==" |
	base64 -d >"$T/look/tiles.png"
cat >"$T/look/look.json" <<'EOF'
{
  "cairn": 1,
  "name": "look",
  "timestep": 0.01,
  "duration": 0.5,
  "fps": 20,
  "materials": {
    "steel": { "density": 7800, "appearance": { "color": [0.8, 0.8, 0.85], "finish": "metal" } },
    "glass": { "density": 2500, "appearance": { "color": [0.8, 0.9, 1.0], "finish": "glass", "ior": 1.45 } },
    "tiles": { "density": 1000, "appearance": { "finish": "matte", "texture": "tiles.png" } },
    "oak": { "density": 700, "appearance": { "color": [0.6, 0.4, 0.2], "finish": "wood" } },
    "stone": { "density": 2500, "appearance": { "color": [0.9, 0.9, 0.9], "finish": "marble" } },
    "tyre": { "density": 1100, "appearance": { "color": [0.1, 0.1, 0.1], "finish": "rubber" } },
    "chalk": { "density": 1100, "appearance": { "color": [0.9, 0.9, 0.8], "finish": "matte" } }
  },
  "bodies": [
    { "name": "ground", "type": "static", "shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ] },
    { "name": "crate", "material": "steel", "position": [0, 0, 1], "euler_deg": [10, 20, 30],
      "shapes": [ { "type": "box", "half_extents": [0.5, 0.3, 0.2] },
                  { "type": "sphere", "radius": 0.2, "position": [0.5, 0, 0.3], "material": "glass" } ] },
    { "name": "pill", "material": "tiles", "position": [2, 0, 1], "angular_velocity": [1, 2, 3],
      "shapes": [ { "type": "capsule", "radius": 0.2, "half_height": 0.4 } ] },
    { "name": "log", "material": "oak", "position": [-2, 0, 1],
      "shapes": [ { "type": "cylinder", "radius": 0.3, "half_height": 0.5 } ] },
    { "name": "slab", "material": "stone", "type": "kinematic", "position": [0, 3, 0.5], "velocity": [1, 0, 0],
      "shapes": [ { "type": "box", "half_extents": [0.5, 0.5, 0.1] } ] },
    { "name": "wheel", "material": "tyre", "position": [0, -3, 1],
      "shapes": [ { "type": "cylinder", "radius": 0.4, "half_height": 0.1 } ] },
    { "name": "dice", "material": "chalk", "position": [-3, -3, 1], "shapes": [ { "type": "box", "half_extents": [0.1, 0.1, 0.1] } ] },
    { "name": "plain", "position": [3, 3, 2], "shapes": [ { "type": "sphere", "radius": 0.3 } ] }
  ],
  "cameras": [
    { "name": "front", "type": "fixed", "position": [0, -10, 3], "look_at": [0, 0, 1], "fov_deg": 60 },
    { "name": "chase", "type": "follow", "body": "crate", "offset": [0, -5, 2] },
    { "name": "onboard", "type": "mounted", "body": "pill", "offset": [0, 0, 1], "look_at": [1, 0, 0] },
    { "name": "fly", "type": "path", "keys": [ { "time": 0, "position": [5, -5, 3], "look_at": [0, 0, 0] },
                                               { "time": 0.5, "position": [-5, -5, 3], "look_at": [0, 0, 1] } ] }
  ]
}
EOF
for camera in front chase onboard fly; do
	run export "$T/look/look.json" -o "$T/look_$camera.glb" --camera "$camera" --quiet
	check "export --camera $camera exits 0" test $rc -eq 0
	exported+=("$T/look_$camera.glb")
done
check "the texture's bytes are in the .glb" grep -q "IHDR" "$T/look_front.glb"
check "a moving camera adds tracks (a bigger file than the fixed one)" test "$(wc -c <"$T/look_chase.glb")" -gt "$(wc -c <"$T/look_front.glb")"
run export "$T/look/look.json" -o "$T/look.gltf" --quiet
check "export of the styled scene to .gltf exits 0" test $rc -eq 0
check "glass declares its extensions" bash -c "grep -q KHR_materials_transmission '$T/look.gltf' && grep -q KHR_materials_ior '$T/look.gltf'"
exported+=("$T/look.gltf")

# --- FOSSSim polygons (a planar world): a triangle onto a table with legs (not convex) ----------
cat >"$T/table.xml" <<'EOF'
<scene>
  <simtype type="rigid-body"/>
  <description text="A triangle falls onto a table with legs."/>
  <duration time="0.5"/>
  <rigidbodyintegrator type="symplectic-euler" dt="0.01"/>
  <rigidbodycollisionhandling detection="all-pairs" response="lcp"/>
  <rigidbodygravityforce fx="0.0" fy="-10.0"/>
  <rigidbodyvertex x="-0.5" y="1.0" m="1"/>
  <rigidbodyvertex x="0.5" y="1.0" m="1"/>
  <rigidbodyvertex x="0.0" y="0.5" m="1"/>
  <rigidbodyvertex x="-2.0" y="0.0" m="1"/>
  <rigidbodyvertex x="2.0" y="0.0" m="1"/>
  <rigidbodyvertex x="2.0" y="-1.0" m="1"/>
  <rigidbodyvertex x="1.5" y="-1.0" m="1"/>
  <rigidbodyvertex x="1.5" y="-0.3" m="1"/>
  <rigidbodyvertex x="-1.5" y="-0.3" m="1"/>
  <rigidbodyvertex x="-1.5" y="-1.0" m="1"/>
  <rigidbodyvertex x="-2.0" y="-1.0" m="1"/>
  <rigidbody p="0" p="1" p="2" vx="0.0" vy="0.0" omega="1.0" r="0.05"/>
  <rigidbody p="3" p="4" p="5" p="6" p="7" p="8" p="9" p="10" vx="0.0" vy="0.0" omega="0.0" r="0.05" fixed="1"/>
</scene>
EOF
run export "$T/table.xml" -o "$T/table.glb" --quiet
check "export of a FOSSSim scene (polygons) exits 0" test $rc -eq 0
exported+=("$T/table.glb")

# --- joints: a node per joint, its pieces animated between the anchors -----------------------
# a pendulum on a rod from a static pivot, a wheel hung from a static frame by a spring and a damper
# (a shock absorber), a ball joint, and a fuse that breaks at once; every body has a shape
cat >"$T/swing.json" <<'EOF'
{
  "cairn": 1,
  "name": "swing",
  "timestep": 0.005,
  "duration": 1,
  "fps": 60,
  "bodies": [
    { "name": "pivot", "type": "static", "position": [0, 0, 2], "shapes": [ { "type": "box", "half_extents": [0.05, 0.05, 0.05] } ] },
    { "name": "bob", "position": [1, 0, 2], "shapes": [ { "type": "sphere", "radius": 0.15 } ] },
    { "name": "frame", "type": "static", "position": [3, 0, 2], "shapes": [ { "type": "box", "half_extents": [0.3, 0.1, 0.05] } ] },
    { "name": "wheel", "position": [3, 0, 1.2], "velocity": [0, 0, 1], "shapes": [ { "type": "sphere", "radius": 0.2 } ] },
    { "name": "top", "position": [-2, 0, 2], "angular_velocity": [0, 0, 3], "shapes": [ { "type": "cylinder", "radius": 0.2, "half_height": 0.05 } ] },
    { "name": "spark", "position": [-4, 0, 2], "shapes": [ { "type": "sphere", "radius": 0.1 } ] }
  ],
  "joints": [
    { "name": "rod", "type": "distance", "bodies": ["bob", "pivot"], "anchors": [[1, 0, 2], [0, 0, 2]] },
    { "name": "coil", "type": "spring", "bodies": ["wheel", "frame"], "anchors": [[3, 0, 1.2], [3, 0, 1.95]],
      "stiffness": 400, "damping": 0, "rest_length": 0.6 },
    { "name": "shock", "type": "damper", "bodies": ["wheel", "frame"], "anchors": [[3, 0, 1.2], [3, 0, 1.95]], "damping": 5 },
    { "name": "spindle", "type": "ball", "bodies": ["top"], "anchor": [-2, 0, 2.2] },
    { "name": "fuse", "type": "ball", "bodies": ["spark"], "anchor": [-4, 0, 2.2], "break_force": 0.1 }
  ]
}
EOF
run export "$T/swing.json" -o "$T/swing.glb" --quiet
check "export of a scene with joints exits 0" test $rc -eq 0
exported+=("$T/swing.glb")
run export "$T/swing.json" -o "$T/swing.gltf" --quiet
check "  and to .gltf" test $rc -eq 0
exported+=("$T/swing.gltf")
for type in distance spring damper ball; do
	check "  a $type joint node" grep -q "\"cairnJointType\":[[:space:]]*\"$type\"" "$T/swing.gltf"
done

# --- hulls, meshes and heightfields ------------------------------------------------------------
# the jacks (compounds of hulls) share one mesh per hull; the staircase mesh and the PNG terrain
# export as their triangles
for scene in jacks stairs_mesh terrain; do
	run export "$SOURCE_DIR/scenes/$scene.json" -o "$T/$scene.glb" --fps 10 --quiet
	check "export of $scene.json (hulls, meshes, heightfields) exits 0" test $rc -eq 0
	exported+=("$T/$scene.glb")
done
run export "$SOURCE_DIR/scenes/jacks.json" -o "$T/jacks.gltf" --fps 10 --quiet
# 36 jacks of 3 hulls each: one glTF mesh per arm and material (steel, brass), six in all
check "  the 108 hull shapes of jacks.json share 6 glTF meshes" \
	test "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for m in d['meshes'] if m.get('name','').startswith('hull')))" "$T/jacks.gltf" 2>/dev/null)" = 6
for piece in "rod rod" "coil coil" "shock cylinder" "shock rod" "spindle sphere" "fuse sphere"; do
	check "  a piece node '$piece'" grep -q "\"name\":[[:space:]]*\"$piece\"" "$T/swing.gltf"
done
check "  pieces are scaled by their tracks" grep -q '"path":[[:space:]]*"scale"' "$T/swing.gltf"
run run "$T/swing.json" --record "$T/swing.cnrec" --csv "$T/swing.csv" --quiet
check "run --record of a scene with joints exits 0" test $rc -eq 0
run info "$T/swing.cnrec"
check "cairn info: a recording of format version 4" grep -q "(format version 4)$" "$T/out"
check "cairn info: the joints by type" grep -q "^joints: *5 (2 ball, 1 distance, 1 spring, 1 damper)$" "$T/out"
check "cairn info: a joint with its bodies" grep -q "^  rod  *distance  *bob - pivot$" "$T/out"
check "cairn info: a joint to the world" grep -q "^  spindle  *ball  *top - (world)$" "$T/out"
check "cairn info: the fuse broke in the first frame interval" grep -q "^  fuse  *ball  *spark - (world), broken at t = 0.0166666667 s$" "$T/out"
run export "$T/swing.cnrec" -o "$T/swing_rec.gltf" --quiet
check "a recording with joints exports the same buffer as its scene" cmp -s "$T/swing.bin" "$T/swing_rec.bin"

# --- bad input: one line naming the file and the reason, no output ---------------------------
run export "$T/missing.json" -o "$T/bad.glb"
check "a missing scene exits 2" test $rc -eq 2
check "  and names it" grep -q "missing.json" "$T/err"
check "  and leaves no output" absent "$T/bad.glb"
run export "$T/look/look.json" -o "$T/bad.glb" --camera nosuch
check "an unknown --camera exits 2" test $rc -eq 2
check "  and lists the scene's cameras" grep -q "nosuch.*front, chase, onboard, fly" "$T/err"
check "  and leaves no output" absent "$T/bad.glb"
run export "$T/balls.cnrec" -o "$T/bad.glb" --camera front
check "--camera with a recording exits 2" test $rc -eq 2
check "  and says a recording has no cameras" grep -q "balls.cnrec is a recording" "$T/err"
run export "$BALLS" -o "$T/no/such/folder/out.glb"
check "an unwritable output exits 1" test $rc -eq 1
check "  and names it" grep -q "no/such/folder/out.glb" "$T/err"
run export "$BALLS" -o "$T/bad.obj"
check "an output that is neither .glb nor .gltf exits 2" test $rc -eq 2
check "  and says why" grep -q "bad.obj: the file name must end in .glb" "$T/err"
run export "$BALLS"
check "no -o exits 2" test $rc -eq 2
run export "$T/balls.cnrec" -o "$T/bad.glb" --fps 25
check "--fps that is not the recording's rate over a whole number exits 2" test $rc -eq 2
check "  and leaves no output" absent "$T/bad.glb"
sed 's/"tiles.png"/"gone.png"/' "$T/look/look.json" >"$T/look/gone.json"
run export "$T/look/gone.json" -o "$T/bad.gltf"
check "a missing texture exits 1" test $rc -eq 1
check "  and names the texture" grep -q "gone.png" "$T/err"
check "  and leaves no output" absent "$T/bad.gltf" "$T/bad.bin"
check "every error is one line" test "$(wc -l <"$T/err")" -eq 1

# --- the Khronos glTF validator -------------------------------------------------------------
NPM=${NPM:-npm}
if ! command -v "$NPM" >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "SKIP: npm not found: the glTF validator part (tools/install-deps.sh installs nodejs and npm)"
	skipped=1
else
	# installed once per build tree (never into the source tree), again when the lock file changes
	V="$BUILD_DIR/gltf-validator"
	mkdir -p "$V"
	cp "$SOURCE_DIR/tests/gltf/validate.mjs" "$V/"
	if ! cmp -s "$SOURCE_DIR/tests/gltf/package-lock.json" "$V/installed-lock.json"; then
		cp "$SOURCE_DIR/tests/gltf/package.json" "$SOURCE_DIR/tests/gltf/package-lock.json" "$V/"
		rm -f "$V/installed-lock.json"
		if (cd "$V" && "$NPM" ci --no-audit --no-fund >"$T/npm.log" 2>&1); then
			cp "$SOURCE_DIR/tests/gltf/package-lock.json" "$V/installed-lock.json"
		else
			echo "npm ci failed:"
			tail -n 20 "$T/npm.log"
		fi
	fi
	node "$V/validate.mjs" "${exported[@]}" >"$T/validator.txt" 2>&1
	vrc=$?
	check "the glTF validator reports no errors in any file" test $vrc -eq 0
	for f in "${exported[@]}"; do
		check "validator: $(basename "$f"): 0 errors" grep -q "^$f: 0 errors, " "$T/validator.txt"
	done
	if [ $vrc -ne 0 ]; then
		grep -v ": 0 errors" "$T/validator.txt" | head -n 40
	fi
fi

# --- Blender 3.4's glTF importer ------------------------------------------------------------
BLENDER=${BLENDER:-blender}
if ! command -v "$BLENDER" >/dev/null 2>&1; then
	echo "SKIP: blender not found: the Blender import part (tools/install-deps.sh installs it)"
	skipped=1
else
	bodies=$(run info "$T/balls.cnrec"; sed -n 's/^bodies: *\([0-9]*\).*/\1/p' "$T/out")
	# the first and the last moving body of the CSV, at three times: "BODY FRAME X Y Z QW QX QY QZ"
	# with FRAME = t * fps
	first=$(sed -n 2p "$T/balls.csv" | cut -d, -f2)
	last=$(awk -F, 'NR > 1 && $1 == 0 { b = $2 } END { print b }' "$T/balls.csv")
	keys() {
		awk -F, -v fps="$1" -v a="$first" -v b="$last" \
			'($1 == 0.5 || $1 == 1 || $1 == 2.5) && ($2 == a || $2 == b) { printf "%s %d %s %s %s %s %s %s %s\n", $2, $1 * fps + 0.5, $3, $4, $5, $6, $7, $8, $9 }' \
			"$T/balls.csv"
	}
	keys 60 >"$T/keys60.txt"
	keys 30 >"$T/keys30.txt"
	check "the CSV gives 6 positions to compare" test "$(wc -l <"$T/keys60.txt")" -eq 6
	for case in "balls.glb 60 keys60.txt" "rec30.glb 30 keys30.txt"; do
		read -r file fps keys <<<"$case"
		HOME="$T/home" timeout 120 "$BLENDER" -b --factory-startup --python-exit-code 1 \
			--python "$SOURCE_DIR/tests/gltf/blender_import.py" -- "$T/$file" "$fps" "$bodies" "$T/$keys" \
			>"$T/blender.txt" 2>&1
		brc=$?
		check "blender imports $file (exit 0)" test $brc -eq 0
		check "blender checked $file" grep -q "^blender import: " "$T/blender.txt"
		# each of the script's checks counts as one
		pass=$((pass + $(grep -c '^ok: ' "$T/blender.txt")))
		fail=$((fail + $(grep -c '^FAIL: ' "$T/blender.txt")))
		grep '^FAIL: ' "$T/blender.txt"
		[ $brc -ne 0 ] && tail -n 15 "$T/blender.txt"
	done
	# the joints: the rod's cylinder runs from the bob (its anchor is the bob's origin) to the fixed
	# pivot at every checked frame
	awk -F, '($1 == 0.25 || $1 == 0.5 || $1 == 1) && $2 == "bob" { printf "bob %d %s %s %s %s %s %s %s\n", $1 * 60 + 0.5, $3, $4, $5, $6, $7, $8, $9 }' \
		"$T/swing.csv" >"$T/swing_keys.txt"
	awk -F, '($1 == 0.25 || $1 == 0.5 || $1 == 1) && $2 == "bob" { printf "rod_rod %d %s %s %s 0 0 2\n", $1 * 60 + 0.5, $3, $4, $5 }' \
		"$T/swing.csv" >"$T/swing_pieces.txt"
	check "the CSV gives 3 positions of the bob" test "$(wc -l <"$T/swing_pieces.txt")" -eq 3
	HOME="$T/home" timeout 120 "$BLENDER" -b --factory-startup --python-exit-code 1 \
		--python "$SOURCE_DIR/tests/gltf/blender_import.py" -- "$T/swing.glb" 60 6 "$T/swing_keys.txt" 5 "$T/swing_pieces.txt" \
		>"$T/blender.txt" 2>&1
	brc=$?
	check "blender imports swing.glb (exit 0)" test $brc -eq 0
	pass=$((pass + $(grep -c '^ok: ' "$T/blender.txt")))
	fail=$((fail + $(grep -c '^FAIL: ' "$T/blender.txt")))
	grep '^FAIL: ' "$T/blender.txt"
	[ $brc -ne 0 ] && tail -n 15 "$T/blender.txt"
fi

cli_summary cli_export || exit 1
[ $skipped -eq 0 ] || exit 77
