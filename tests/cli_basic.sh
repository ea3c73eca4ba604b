#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cairn tool on good input: help, version, run with CSV (header, frame times, row count,
# a closed-form free fall), hash, stats, record + info, info on a scene, demo, bench.
# usage: cli_basic.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
# absolute, since some checks run from other directories
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_basic.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

# --- help and version -----------------------------------------------------------------------
run --help
check "--help exits 0" test $rc -eq 0
check "--help prints usage on stdout" grep -q "^usage: cairn COMMAND" "$T/out"
check "--help lists every command" bash -c "grep -q ' run ' '$T/out' && grep -q ' info ' '$T/out' && grep -q ' demo ' '$T/out' && grep -q ' bench ' '$T/out'"
run --version
check "--version exits 0" test $rc -eq 0
check "--version prints 'cairn X.Y.Z'" grep -Eq '^cairn [0-9]+\.[0-9]+\.[0-9]+$' "$T/out"
for cmd in run info demo bench; do
	run help $cmd
	cp "$T/out" "$T/help1"
	check "help $cmd exits 0" test $rc -eq 0
	check "help $cmd prints its usage" grep -q "^usage: cairn $cmd" "$T/out"
	run $cmd --help
	check "$cmd --help exits 0" test $rc -eq 0
	check "$cmd --help equals help $cmd" cmp -s "$T/out" "$T/help1"
done
run
check "no command exits 2" test $rc -eq 2
check "no command prints usage on stderr" grep -q "usage: cairn" "$T/err"

# --- a tiny scene: a ground plane, a falling ball, a kinematic paddle, a resting box ----------
# timestep 0.03 s at 10 fps: k = ceil(0.1 / 0.03) = 4 steps of 0.025 s per frame
cat >"$T/tiny.json" <<'EOF'
{
  "cairn": 1,
  "name": "tiny",
  "description": "three moving bodies and a ground",
  "gravity": [0, 0, -9.81],
  "timestep": 0.03,
  "duration": 0.5,
  "fps": 10,
  "substeps": 4,
  "sleep": false,
  "bodies": [
    { "name": "ground", "type": "static", "shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ] },
    { "name": "ball", "position": [1, 2, 10], "shapes": [ { "type": "sphere", "radius": 0.5 } ] },
    { "name": "paddle", "type": "kinematic", "position": [-5, 0, 3], "velocity": [2, 0, 0],
      "shapes": [ { "type": "box", "half_extents": [0.5, 0.5, 0.1] } ] },
    { "name": "box", "position": [5, 5, 0.5], "shapes": [ { "type": "box", "half_extents": [0.5, 0.5, 0.5] } ] }
  ]
}
EOF

run run "$T/tiny.json" --csv "$T/tiny.csv"
check "run --csv exits 0" test $rc -eq 0
check "run --csv writes the file" test -f "$T/tiny.csv"
check "run leaves no .tmp file" test ! -e "$T/tiny.csv.tmp"
check "summary names the adjusted step (4 steps of 0.025 s per frame)" grep -q "steps of 0.025 s (4 per frame)" "$T/out"
check "summary says 6 frames at 10 fps" grep -q "6 frames at 10 fps" "$T/out"
check "CSV header is exact" test "$(head -n 1 "$T/tiny.csv")" = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
# 0.5 s at 10 fps: frames at 0, 0.1, ..., 0.5 = 6 frames; 3 non-static bodies each
check "CSV has frames x non-static bodies rows" test "$(tail -n +2 "$T/tiny.csv" | wc -l)" -eq 18
check "CSV has no static body" bash -c "! grep -q ',ground,' '$T/tiny.csv'"
check "frame times are multiples of 1/fps" test "$(tail -n +2 "$T/tiny.csv" | cut -d, -f1 | uniq | tr '\n' ' ')" = "0 0.1 0.2 0.3 0.4 0.5 "
check "first rows are at t = 0, in scene order" test "$(sed -n '2,4p' "$T/tiny.csv" | cut -d, -f1,2 | tr '\n' ' ')" = "0,ball 0,paddle 0,box "
check "frame 0 is the initial state of the ball" test "$(sed -n 2p "$T/tiny.csv")" = "0,ball,1,2,10,1,0,0,0,0,0,0,0,0,0"
check "every row has 15 columns" bash -c "awk -F, 'NF != 15 { exit 1 }' '$T/tiny.csv'"
# free fall with symplectic Euler on sub-steps h = 0.025 / 4: v = -g t exactly and
# z = z0 - g t^2 / 2 - g h t / 2 (see test_dynamics.c); %.9g printing limits agreement to ~1e-8
last_ball=$(grep ',ball,' "$T/tiny.csv" | tail -n 1)
z=$(echo "$last_ball" | cut -d, -f5)
vz=$(echo "$last_ball" | cut -d, -f12)
check "ball z at t = 0.5 matches the closed form" near "$z" "$(awk 'BEGIN { g = 9.81; t = 0.5; h = 0.025 / 4; printf "%.15g", 10 - g * t * t / 2 - g * h * t / 2 }')" 1e-7
check "ball vz at t = 0.5 is -g t" near "$vz" -4.905 1e-8
# the kinematic paddle moves at 2 m/s: x = -5 + 2 t
paddle_x=$(grep ',paddle,' "$T/tiny.csv" | tail -n 1 | cut -d, -f3)
check "kinematic paddle at x = -4 at t = 0.5" near "$paddle_x" -4 1e-9

# --duration and --fps override the scene; --quiet prints nothing
run run "$T/tiny.json" --duration 0.2 --fps=20 --csv "$T/short.csv" --quiet
check "run --quiet exits 0" test $rc -eq 0
check "run --quiet prints nothing" test ! -s "$T/out"
check "--duration 0.2 --fps 20 gives 5 frames" test "$(tail -n +2 "$T/short.csv" | wc -l)" -eq 15
run run "$T/tiny.json" --duration 0 --csv "$T/zero.csv" --quiet
check "--duration 0 writes frame 0 only" test "$(tail -n +2 "$T/zero.csv" | wc -l)" -eq 3

# --- hash -----------------------------------------------------------------------------------
run run "$T/tiny.json" --hash --quiet
check "run --hash exits 0" test $rc -eq 0
check "--hash prints one line 'hash 0x' and 16 hex digits" test "$(grep -Ec '^hash 0x[0-9a-f]{16}$' "$T/out")" -eq 1
check "--hash --quiet prints only the hash" test "$(wc -l <"$T/out")" -eq 1
hash1=$(cat "$T/out")
run run "$T/tiny.json" --hash --quiet
check "two runs give the same hash" test "$hash1" = "$(cat "$T/out")"
run run "$T/tiny.json" --hash --quiet --workers 3
check "--workers 3 gives the same hash" test "$hash1" = "$(cat "$T/out")"
run run "$T/tiny.json" --hash --quiet --duration 0.3
check "a shorter run gives another hash" test "$hash1" != "$(cat "$T/out")"

# --- stats ----------------------------------------------------------------------------------
run run "$T/tiny.json" --stats
check "run --stats exits 0" test $rc -eq 0
for word in "broad phase" "narrow phase" "solve" "integrate" "islands" "total" "bodies" "awake bodies" "pairs" "contacts" "touching" "manifold points"; do
	check "--stats prints '$word'" grep -q "^  $word " "$T/out"
done
check "--stats counts 20 steps" grep -q "^stats: 20 steps of 0.025 s" "$T/out"

# --- record, then info ----------------------------------------------------------------------
run run "$T/tiny.json" --record "$T/tiny.cnrec" --csv "$T/both.csv"
check "run --record exits 0" test $rc -eq 0
check "recording exists" test -f "$T/tiny.cnrec"
check "recording starts with the magic" test "$(head -c 8 "$T/tiny.cnrec")" = "CAIRNREC"
check "no .tmp left after --record" test ! -e "$T/tiny.cnrec.tmp"
# size from docs/recording-format.md: H = 36 + 4 + (12+6+144) + (12+4+144) + (12+6+144) + (12+3+144)
# = 683; 6 frames of 8 + 56 * 4 = 232 bytes
check "recording size follows the documented layout" test "$(wc -c <"$T/tiny.cnrec")" -eq $((683 + 6 * 232))
run info "$T/tiny.cnrec"
check "info on a recording exits 0" test $rc -eq 0
check "info shows the scene name" grep -q "^scene: *tiny$" "$T/out"
check "info shows 6 frames" grep -q "^frames: *6$" "$T/out"
check "info shows the fps" grep -q "^fps: *10$" "$T/out"
check "info shows the duration" grep -q "^duration: *0.5 s" "$T/out"
check "info shows the bodies" grep -q "^bodies: *4 (1 static, 1 kinematic, 2 dynamic)$" "$T/out"
check "info lists the ball" grep -Eq "^  ball +dynamic +1 shape: sphere$" "$T/out"

# --- info on a scene ------------------------------------------------------------------------
run info "$T/tiny.json"
check "info on a scene exits 0" test $rc -eq 0
check "scene info: name" grep -q "^scene: *tiny$" "$T/out"
check "scene info: description" grep -q "^description: *three moving bodies and a ground$" "$T/out"
check "scene info: method" grep -q "^method: *impulse (4 sub-steps)$" "$T/out"
check "scene info: timestep" grep -q "^timestep: *0.03 s$" "$T/out"
check "scene info: body counts" grep -q "^bodies: *4 (1 static, 1 kinematic, 2 dynamic)$" "$T/out"
check "scene info: shape counts" grep -q "^shapes: *4 (1 sphere, 2 box, 1 plane)$" "$T/out"
# dynamic mass at the default density 1000: ball 4/3 pi 0.5^3 * 1000 + box 1 m^3 * 1000
check "scene info: total mass" near "$(sed -n 's/^total mass: *\([^ ]*\) kg.*/\1/p' "$T/out")" "$(awk 'BEGIN { printf "%.15g", 4 / 3 * 3.14159265358979 * 0.125 * 1000 + 1000 }')" 1e-4
check "scene info: default material" grep -q "^  default .*density 1000 kg/m^3, friction 0.6, restitution 0" "$T/out"

# --- every shipped scene loads ---------------------------------------------------------------
for scene in "$SOURCE_DIR"/scenes/*.json; do
	run info "$scene"
	check "info $(basename "$scene") exits 0" test $rc -eq 0
done

# --- demo -----------------------------------------------------------------------------------
run demo --out "$T/demo/nested" --no-video
check "demo exits 0" test $rc -eq 0
check "demo writes demo.csv" test -f "$T/demo/nested/demo.csv"
check "demo writes demo.cnrec" test -f "$T/demo/nested/demo.cnrec"
check "demo leaves no .tmp" test -z "$(find "$T/demo" -name '*.tmp')"
check "demo says what it wrote" grep -q "wrote $T/demo/nested/demo.cnrec" "$T/out"
check "demo says how to look at it" grep -q "cairn info $T/demo/nested/demo.cnrec" "$T/out"
check "demo CSV header" test "$(head -n 1 "$T/demo/nested/demo.csv")" = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
run info "$T/demo/nested/demo.cnrec"
check "info on the demo recording exits 0" test $rc -eq 0
check "the demo is bouncing_balls" grep -q "^scene: *bouncing_balls$" "$T/out"
# the embedded copy is the scene file: same run, same CSV
run run "$SOURCE_DIR/scenes/bouncing_balls.json" --csv "$T/balls.csv" --quiet
check "demo CSV equals a run of scenes/bouncing_balls.json" cmp -s "$T/balls.csv" "$T/demo/nested/demo.csv"
(cd "$T" && "$CAIRN" demo --no-video >/dev/null 2>&1)
check "demo defaults to ./cairn-demo" test -f "$T/cairn-demo/demo.cnrec"

# --- bench (only that it works: timings are never checked) -----------------------------------
run bench "$T/tiny.json" --steps 5 --repeat 2
check "bench exits 0" test $rc -eq 0
check "bench prints a header" grep -q "^scene .*median .*min" "$T/out"
check "bench prints the drift columns" grep -Eq "^scene .*island +maxdisp +maxhdrift$" "$T/out"
check "bench row ends in two drift figures" grep -Eq "^tiny +4 +5 .* [0-9]+\.[0-9]{5} +[0-9]+\.[0-9]{5}$" "$T/out"
check "bench prints a row for the scene" grep -Eq "^tiny +4 +5 " "$T/out"
run bench "$T/tiny.json" --steps 5 --repeat 1 --workers 1,2
check "bench --workers 1,2 exits 0" test $rc -eq 0
check "bench --workers 1,2: a row per count" bash -c "grep -Eq '^tiny +4 +5 +1 ' '$T/out' && grep -Eq '^tiny +4 +5 +2 ' '$T/out'"
CAIRN_SCENES="$T" "$CAIRN" bench tiny --steps 2 --repeat 1 >"$T/out" 2>"$T/err"
check "bench finds NAME in \$CAIRN_SCENES" grep -Eq "^tiny +4 +2 " "$T/out"

cli_summary
