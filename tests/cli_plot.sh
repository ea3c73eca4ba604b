#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn plot`: the SVG (well-formed, one polyline and one legend entry per series, a panel per
# unit, axis labels with units) for a scene, a recording and a CSV; a scene's sampled energy, kinetic
# energy and momentum at t = 0 against the closed forms; a recording's speeds by central differences
# against g t in free fall and a CSV's speeds from its velocity columns; the default bodies (the
# ones that move the most); bad input; PNG through rsvg-convert; Ctrl-C.
# usage: cli_plot.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_plot.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# the SVG is well-formed XML: xmllint when there is one, else the elements it must have
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		head -n 2 "$1" | grep -q '^<svg ' && tail -n 1 "$1" | grep -q '^</svg>$'
	fi
}
# lines drawn, legend entries (their 3-pixel swatches) and panels (their rotated y axis labels)
polylines() { grep -c '<polyline ' "$1"; }
legends() { grep -c 'stroke-width="3"/>' "$1"; }
panels() { grep -c 'transform="rotate(-90' "$1"; }
# column N of row R (1: the header) of a CSV
cell() { awk -F, -v r="$2" -v n="$3" 'NR == r { print $n; exit }' "$1"; }
# no file at all in $T named like the prefix (outputs, .tmp files)
nothing_named() { test -z "$(find "$T" -maxdepth 1 -name "$1*" -print -quit)"; }

# --- help -----------------------------------------------------------------------------------
run plot --help
check "plot --help exits 0" test $rc -eq 0
check "plot --help prints its usage" grep -q "^usage: cairn plot" "$T/out"
check "plot --help has an example" grep -q "^  cairn plot " "$T/out"
cp "$T/out" "$T/help1"
run help plot
check "help plot equals plot --help" cmp -s "$T/out" "$T/help1"
run --help
check "cairn --help lists plot" grep -q "^  plot " "$T/out"

# --- a scene: a thrown ball and a dropped stone, no ground -------------------------------------
# timestep 0.01 s at 20 fps: k = 5 steps per frame, 20 frames in 1 s, 100 steps; sampled at t = 0
# and after every step
cat >"$T/drop.json" <<'EOF'
{ "cairn": 1, "name": "drop", "gravity": [0, 0, -9.81], "timestep": 0.01, "fps": 20, "duration": 1, "sleep": false,
  "bodies": [
    { "name": "ball", "position": [0, 0, 2], "velocity": [1.5, 0, 0], "shapes": [ { "type": "sphere", "radius": 0.1 } ] },
    { "name": "stone", "position": [0, 5, 3], "shapes": [ { "type": "sphere", "radius": 0.1 } ] }
  ] }
EOF
run plot "$T/drop.json" -o "$T/e.svg"
check "scene, default series: exits 0" test $rc -eq 0
check "scene, default series: well-formed SVG" well_formed "$T/e.svg"
check "scene, default series: one line (energy)" test "$(polylines "$T/e.svg")" -eq 1
check "scene, default series: one legend entry" test "$(legends "$T/e.svg")" -eq 1
check "scene, default series: legend names energy" grep -q '>energy</text>' "$T/e.svg"
check "scene, default series: y axis with its unit" grep -q '>E = kinetic + potential (J)</text>' "$T/e.svg"
check "scene, default series: x axis with its unit" grep -q '>time (s)</text>' "$T/e.svg"
check "scene: the title is the scene name" grep -q '>drop</text>' "$T/e.svg"
check "scene: the summary line names the samples" grep -q "101 samples from t = 0 to 1 s, 1 series: energy" "$T/out"
check "scene: wrote the SVG" grep -q "^wrote $T/e.svg$" "$T/out"

run plot "$T/drop.json" --series energy,kinetic,potential,momentum,height,speed --bodies ball -o "$T/s.svg" --csv "$T/s.csv"
check "scene, every series: exits 0" test $rc -eq 0
check "scene, every series: well-formed SVG" well_formed "$T/s.svg"
# energy, kinetic, potential, momentum x, y, z, ball height, ball speed
check "scene, every series: 8 lines" test "$(polylines "$T/s.svg")" -eq 8
check "scene, every series: 8 legend entries" test "$(legends "$T/s.svg")" -eq 8
# J, kg m/s, m, m/s
check "scene, every series: 4 panels, one per unit" test "$(panels "$T/s.svg")" -eq 4
check "scene: y axis of momentum in kg m/s" grep -q '>linear momentum (kg m/s)</text>' "$T/s.svg"
check "scene: y axis of height in m (z up)" grep -q '>height = z (m)</text>' "$T/s.svg"
check "scene: y axis of speed in m/s" grep -q '>speed (m/s)</text>' "$T/s.svg"
check "scene: legend names momentum z" grep -q '>momentum z</text>' "$T/s.svg"
check "scene: legend names ball speed" grep -q '>ball speed</text>' "$T/s.svg"
check "scene: one colour per series" test "$(grep -o 'polyline fill="none" stroke="#[0-9a-f]*"' "$T/s.svg" | sort -u | wc -l)" -eq 8
check "scene: CSV header names the series" test "$(head -n 1 "$T/s.csv")" = "time,energy,kinetic,potential,momentum x,momentum y,momentum z,ball height,ball speed"
check "scene: CSV has t = 0 and 100 steps" test "$(tail -n +2 "$T/s.csv" | wc -l)" -eq 101
check "scene: CSV ends at t = 1" test "$(tail -n 1 "$T/s.csv" | cut -d, -f1)" = "1"
# the closed forms at t = 0: m = 1000 kg/m^3 4/3 pi 0.1^3 = 4.18879 kg per ball; the potential is
# m g z (zero at the origin) of both, the kinetic energy the ball's m v^2 / 2, the momentum m v
m=$(awk 'BEGIN { printf "%.12g", 1000 * 4 / 3 * 3.141592653589793 * 0.001 }')
e0=$(awk -v m="$m" 'BEGIN { printf "%.12g", m * 9.81 * 2 + m * 9.81 * 3 + m * 1.5 * 1.5 / 2 }')
check "scene: E(0) = m g z + m v^2 / 2 (both balls)" near "$(cell "$T/s.csv" 2 2)" "$e0" "$(awk -v e="$e0" 'BEGIN { print 1e-7 * e }')"
check "scene: kinetic(0) = m v^2 / 2" near "$(cell "$T/s.csv" 2 3)" "$(awk -v m="$m" 'BEGIN { printf "%.12g", m * 1.125 }')" 1e-6
check "scene: momentum x(0) = m v" near "$(cell "$T/s.csv" 2 5)" "$(awk -v m="$m" 'BEGIN { printf "%.12g", m * 1.5 }')" 1e-6
check "scene: ball height(0) = 2" test "$(cell "$T/s.csv" 2 8)" = "2"
check "scene: ball speed(0) = 1.5" test "$(cell "$T/s.csv" 2 9)" = "1.5"
# the energy is the sum of the two others at every sample
check "scene: energy = kinetic + potential throughout" awk -F, 'NR > 1 { d = $2 - $3 - $4; if (d < 0) d = -d; if (d > 1e-6 * $2) exit 1 }' "$T/s.csv"
check "scene: no .tmp left" nothing_named "s.svg.tmp"

# --title, escaped; --quiet
run plot "$T/drop.json" --title 'a <b> & "c"' -o "$T/t.svg" --quiet
check "--title: exits 0" test $rc -eq 0
check "--title: escaped, the SVG stays well-formed" well_formed "$T/t.svg"
check "--title: the text is there" grep -q '>a &lt;b&gt; &amp; &quot;c&quot;</text>' "$T/t.svg"
check "--quiet: nothing on stdout" test ! -s "$T/out"

# --- default bodies: the five that move the most ----------------------------------------------
# no gravity, body i moves at i m/s: b6 to b2 have the longest paths, in that order; the static
# post, though named first, is never chosen
{
	echo '{ "cairn": 1, "name": "movers", "gravity": [0, 0, 0], "duration": 0.5, "bodies": ['
	echo '  { "name": "post", "type": "static", "position": [0, -3, 0], "shapes": [ { "type": "box", "half_extents": [0.1, 0.1, 0.1] } ] }'
	for i in 0 1 2 3 4 5 6; do
		echo "  , { \"name\": \"b$i\", \"position\": [0, $i, 0], \"velocity\": [$i, 0, 0], \"shapes\": [ { \"type\": \"sphere\", \"radius\": 0.1 } ] }"
	done
	echo '] }'
} >"$T/movers.json"
run plot "$T/movers.json" --series speed -o "$T/m.svg" --csv "$T/m.csv"
check "default bodies: exits 0" test $rc -eq 0
check "default bodies: five lines" test "$(polylines "$T/m.svg")" -eq 5
check "default bodies: five legend entries" test "$(legends "$T/m.svg")" -eq 5
check "default bodies: the five fastest, fastest first" test "$(head -n 1 "$T/m.csv")" = "time,b6 speed,b5 speed,b4 speed,b3 speed,b2 speed"
check "default bodies: the summary names them" grep -q "the 5 that move the most: b6, b5, b4, b3, b2" "$T/out"

# --- a recording of the free fall: speeds by central differences ------------------------------
"$CAIRN" run "$T/drop.json" --record "$T/drop.cnrec" --csv "$T/drop.csv" --quiet
check "the run for the recording exits 0" test $? -eq 0
run plot "$T/drop.cnrec" -o "$T/r.svg"
check "recording, default series: exits 0" test $rc -eq 0
check "recording, default series: well-formed SVG" well_formed "$T/r.svg"
check "recording, default series: a height line per moving body" test "$(polylines "$T/r.svg")" -eq 2
check "recording, default series: two legend entries" test "$(legends "$T/r.svg")" -eq 2
check "recording: legend names the stone's height" grep -q '>stone height</text>' "$T/r.svg"
check "recording: the title is the recorded scene name" grep -q '>drop</text>' "$T/r.svg"
run plot "$T/drop.cnrec" --series position,speed --bodies stone,ball -o "$T/r2.svg" --csv "$T/r2.csv"
check "recording, position and speed: exits 0" test $rc -eq 0
# stone x, y, z, ball x, y, z, stone speed, ball speed
check "recording, position and speed: 8 lines" test "$(polylines "$T/r2.svg")" -eq 8
check "recording, position and speed: 8 legend entries" test "$(legends "$T/r2.svg")" -eq 8
check "recording, position and speed: 2 panels (m, m/s)" test "$(panels "$T/r2.svg")" -eq 2
check "recording: CSV header in the bodies' given order" test "$(head -n 1 "$T/r2.csv")" = "time,stone x,stone y,stone z,ball x,ball y,ball z,stone speed,ball speed"
check "recording: one row per frame" test "$(tail -n +2 "$T/r2.csv" | wc -l)" -eq 21
# The stone falls from rest: v(t) = g t. The steps are symplectic Euler (sub-steps of h' <= h =
# 0.01 s), whose positions are those of the exact fall shifted by half a sub-step, so the central
# difference between frames, exact for a parabola, reads g (t + h'/2): within g h / 2 at the
# frames in between. The first and last frames take one-sided differences over a frame interval
# D = 0.05 s: within g (D + h) / 2.
check "recording: interior speeds are g t within g h / 2" awk -F, 'NR > 2 { row[NR] = $1 " " $8 } END {
	for (r = 3; r < NR; ++r) { split(row[r], f, " "); d = f[2] - 9.81 * f[1]; if (d < 0) d = -d; if (d > 9.81 * 0.01 / 2 + 1e-9) exit 1 } }' "$T/r2.csv"
check "recording: end speeds are g t within g (D + h) / 2" awk -F, 'NR == 2 || NR == 22 {
	d = $8 - 9.81 * $1; if (d < 0) d = -d; if (d > 9.81 * (0.05 + 0.01) / 2 + 1e-9) exit 1 }' "$T/r2.csv"
check "recording: the ball's speed at t = 0.5 is sqrt(1.5^2 + (g t)^2) within g h / 2" near "$(cell "$T/r2.csv" 12 9)" "$(awk 'BEGIN { printf "%.12g", sqrt(1.5 * 1.5 + (9.81 * 0.5) ^ 2) }')" 0.05
check "recording: the stone's z is the run's CSV z" test "$(cell "$T/r2.csv" 12 4)" = "$(awk -F, '$1 == 0.5 && $2 == "stone" { print $5 }' "$T/drop.csv")"

# --- the run's CSV: speeds from the velocity columns ------------------------------------------
run plot "$T/drop.csv" --series height,speed --bodies stone -o "$T/c.svg" --csv "$T/c.csv"
check "CSV: exits 0" test $rc -eq 0
check "CSV: well-formed SVG" well_formed "$T/c.svg"
check "CSV: 2 lines" test "$(polylines "$T/c.svg")" -eq 2
check "CSV: 2 legend entries" test "$(legends "$T/c.svg")" -eq 2
check "CSV: CSV header" test "$(head -n 1 "$T/c.csv")" = "time,stone height,stone speed"
# symplectic Euler's velocities are exact in free fall: v = g t to round-off
check "CSV: speeds are g t" awk -F, 'NR > 1 { d = $3 - 9.81 * $1; if (d < 0) d = -d; if (d > 1e-6) exit 1 }' "$T/c.csv"
check "CSV: heights are the run's z" test "$(cell "$T/c.csv" 12 2)" = "$(awk -F, '$1 == 0.5 && $2 == "stone" { print $5 }' "$T/drop.csv")"
run plot "$T/drop.csv" -o "$T/c2.svg"
check "CSV, default: a height line per body" test "$(polylines "$T/c2.svg")" -eq 2
check "CSV, default: the title is the file name" grep -q '>drop.csv</text>' "$T/c2.svg"
# a body name with a comma and quotes, quoted as RFC 4180 asks
printf 'time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n0,"a,""q""",0,0,1,1,0,0,0,0,0,0,0,0,0\n1,"a,""q""",0,0,3,1,0,0,0,0,0,0,0,0,0\n' >"$T/quoted.csv"
run plot "$T/quoted.csv" -o "$T/q.svg" --csv "$T/q.csv"
check "CSV, a quoted name: exits 0" test $rc -eq 0
check "CSV, a quoted name: in the legend, escaped" grep -q '>a,&quot;q&quot; height</text>' "$T/q.svg"
check "CSV, a quoted name: quoted again in the output CSV" test "$(head -n 1 "$T/q.csv")" = 'time,"a,""q"" height"'

# --- bad input: exit 2, nothing written --------------------------------------------------------
bad() {
	local what=$1
	shift
	run plot "$@" -o "$T/bad.svg" --csv "$T/bad.csv"
	check "$what: exits 2" test $rc -eq 2
	check "$what: says so" grep -q "^cairn: error: " "$T/err"
	check "$what: writes nothing" nothing_named "bad."
}
bad "unknown series" "$T/drop.json" --series energy,nonsense
check "unknown series is named" grep -q "unknown series 'nonsense'" "$T/err"
bad "a repeated series" "$T/drop.json" --series speed,speed --bodies ball
bad "unknown body (scene)" "$T/drop.json" --series speed --bodies ball,nobody
check "unknown body is named" grep -q "no body named 'nobody'" "$T/err"
bad "unknown body (recording)" "$T/drop.cnrec" --bodies nobody
bad "unknown body (CSV)" "$T/drop.csv" --bodies nobody
bad "energy of a recording" "$T/drop.cnrec" --series energy
bad "momentum of a CSV" "$T/drop.csv" --series momentum
bad "--bodies without a body series" "$T/drop.json" --bodies ball
bad "--duration of a recording" "$T/drop.cnrec" --duration 1
printf 'time,body,x,y,z\n0,a,0,0,0\n' >"$T/header.csv"
bad "a CSV with a wrong header" "$T/header.csv"
check "a wrong header is explained" grep -q "header must be time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz" "$T/err"
printf 'time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n0,a,0,0,x,1,0,0,0,0,0,0,0,0,0\n' >"$T/number.csv"
bad "a CSV with a bad number" "$T/number.csv"
check "a bad number is located" grep -q "number.csv:2: z: 'x' is not a finite number" "$T/err"
printf 'time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n' >"$T/empty.csv"
bad "a CSV without rows" "$T/empty.csv"
head -c 60 "$T/drop.cnrec" >"$T/cut.cnrec"
bad "a truncated recording" "$T/cut.cnrec"
bad "a missing scene" "$T/missing.json"
bad "a missing CSV" "$T/missing.csv"
bad "a negative duration" "$T/drop.json" --duration -1
run plot "$T/drop.json" -o "$T/bad.pdf"
check "-o FILE.pdf exits 2" test $rc -eq 2
run plot "$T/drop.json"
check "no output asked for exits 2" test $rc -eq 2
run plot -o "$T/bad.svg"
check "no input exits 2" test $rc -eq 2
run plot "$T/drop.json" -o "$T/no/such/dir/e.svg"
check "an unwritable output exits 1" test $rc -eq 1
check "an unwritable output leaves nothing" test ! -e "$T/no"

# --- PNG ------------------------------------------------------------------------------------
PATH=/nonexistent "$CAIRN" plot "$T/drop.json" -o "$T/nopng.png" --csv "$T/nopng.csv" >"$T/out" 2>"$T/err"
rc=$?
check "PNG without rsvg-convert exits 1" test $rc -eq 1
check "PNG without rsvg-convert names the package" grep -q "librsvg2-bin" "$T/err"
check "PNG without rsvg-convert writes nothing" nothing_named "nopng"
if command -v rsvg-convert >/dev/null 2>&1; then
	run plot "$T/drop.json" --series height,speed --bodies ball -o "$T/p.png"
	check "PNG: exits 0" test $rc -eq 0
	check "PNG: a PNG file" test "$(head -c 8 "$T/p.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a"
	check "PNG: no .tmp left" nothing_named "p.png.tmp"
else
	echo "SKIPPED: PNG output not checked: rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)"
fi

# --- Ctrl-C ---------------------------------------------------------------------------------
# the penalty method on the 1240-box pyramid takes tens of seconds per step; SIGINT 2 s in stops it
"$CAIRN" plot "$SOURCE_DIR/scenes/pyramid.json" --method penalty -o "$T/slow.svg" --csv "$T/slow.csv" >"$T/out" 2>"$T/err" &
pid=$!
sleep 2
kill -INT $pid
for _ in $(seq 300); do
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
check "Ctrl-C exits 130 (got $rc)" test $rc -eq 130
check "Ctrl-C says so" grep -q "interrupted" "$T/err"
check "Ctrl-C leaves no output" nothing_named "slow."

cli_summary "cli_plot"
