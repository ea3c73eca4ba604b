#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn run SCENE.xml --record`: FOSSSim scenes (polygon bodies) record in format version 2, the
# file follows docs/recording-format.md byte for byte, its frames agree with the CSV and with the
# scene's stated behaviour (two triangles collide inelastically and move on together), and
# `cairn info` reads back the recording of every reference scene. Skipped with a message when the
# reference scenes (../shared/reference/fosssim, or $FOSSSIM_DIR) are absent.
# usage: cli_record_fosssim.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
FOSSSIM=${FOSSSIM_DIR:-$SOURCE_DIR/../shared/reference/fosssim}
if [ ! -f "$FOSSSIM/t3m2/lcp/test01.xml" ]; then
	echo "skipped: FOSSSim reference scenes not found in $FOSSSIM"
	# 77: CTest reports the test as skipped (SKIP_RETURN_CODE)
	exit 77
fi
T=$(mktemp -d "${BUILD_DIR}/cli_record_fosssim.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# every argument "A = B" holds (string equality; values hold no spaces)
all() {
	local eq
	for eq in "$@"; do
		[ "${eq%% = *}" = "${eq#* = }" ] || return 1
	done
}
# little-endian u32 / f64 values of FILE at byte OFFSET (COUNT of them), one per line
u32s() { od -A n -v --endian=little -t u4 -j "$2" -N $((4 * ${3:-1})) "$1" | tr -s ' ' '\n' | grep -v '^$'; }
f64s() { od -A n -v --endian=little -t f8 -j "$2" -N $((8 * ${3:-1})) "$1" | tr -s ' ' '\n' | grep -v '^$'; }

# --- two triangles (t3m2/lcp/test01.xml) ----------------------------------------------------
# body0: vertices (-1,4) (1,4) (0,3), body1: (-1,2) (1,2) (0,1), unit point masses, r = 0.1;
# body0 moves down at 1 m/s, no gravity, dt = 0.01, 2 s, so 50 fps: 101 frames.
SCENE="$FOSSSIM/t3m2/lcp/test01.xml"
REC="$T/tri.cnrec"
run run "$SCENE" --record "$REC" --csv "$T/tri.csv"
check "run --record on a FOSSSim scene exits 0" test $rc -eq 0
check "the recording exists" test -f "$REC"
check "no .tmp left" test ! -e "$REC.tmp"
check "run says what it wrote" grep -q "wrote $REC" "$T/out"
check "starts with the magic" test "$(head -c 8 "$REC")" = "CAIRNREC"
check "polygons need format version 2" test "$(u32s "$REC" 8)" = "2"
check "2 bodies, 101 frames" test "$(u32s "$REC" 12 2 | tr '\n' ' ')" = "2 101 "
# docs/recording-format.md: H = 36 + len("test01") + per body (12 + len("bodyN") + 144 + 4 + 24 V)
H=$((36 + 6 + 2 * (12 + 5 + 144 + 4 + 24 * 3)))
check "header size follows the documented layout" test "$(u32s "$REC" 20)" -eq $H
check "file size follows the documented layout" test "$(wc -c <"$REC")" -eq $((H + 101 * (8 + 56 * 2)))
# body0's shape record starts after the scene name and its body record's name, type and count
shape0=$((36 + 6 + 4 + 5 + 8))
check "body0's shape is a polygon" test "$(u32s "$REC" $shape0)" = "5"
check "its edge radius is r = 0.1" near "$(f64s "$REC" $((shape0 + 4)))" 0.1 0
check "it has 3 vertices" test "$(u32s "$REC" $((shape0 + 144)))" = "3"
# vertices relative to the centre of mass (0, 11/3): (-1, 1/3, 0), (1, 1/3, 0), (0, -2/3, 0)
vertices=$(f64s "$REC" $((shape0 + 148)) 9 | tr '\n' ' ')
read -r ax ay az bx by bz cx cy cz <<<"$vertices"
check "vertex 0 is (-1, 1/3, 0)" all "$ax = -1" "$az = 0" "$(near "$ay" 0.333333333333 1e-9 && echo y) = y"
check "vertex 1 is (1, 1/3, 0)" all "$bx = 1" "$bz = 0" "$(near "$by" 0.333333333333 1e-9 && echo y) = y"
check "vertex 2 is (0, -2/3, 0)" all "$cx = 0" "$cz = 0" "$(near "$cy" -0.666666666667 1e-9 && echo y) = y"

# the last frame: time, then x y z qw qx qy qz per body
last=$((H + 100 * (8 + 56 * 2)))
read -r t x0 y0 z0 w0 qx0 qy0 qz0 x1 y1 z1 w1 qx1 qy1 qz1 <<<"$(f64s "$REC" $last 15 | tr '\n' ' ')"
check "the last frame is at t = 2" near "$t" 2 1e-9
# The contact is inelastic and the masses equal (3 kg each): momentum conservation makes the
# centre of the pair move at -0.5 m/s throughout, (11/3 + 5/3)/2 - 0.5 * 2 = 5/3 at t = 2.
centre=$(awk -v a="$y0" -v b="$y1" 'BEGIN { printf "%.17g", (a + b) / 2 }')
check "the pair's centre moved at -0.5 m/s" near "$centre" 1.6666666666667 1e-9
# They touch when the gap 1 - t closes to r + r = 0.2, at t = 0.8, then move on together at
# -0.5 m/s: y0 = 11/3 - 0.8 - 0.6, y1 = 5/3 - 0.6, within one step of travel (0.01 m).
check "body0 ends at 11/3 - 1.4" near "$y0" 2.2666666666667 0.01
check "body1 ends at 5/3 - 0.6" near "$y1" 1.0666666666667 0.01
check "no sideways motion" all "$(near "$x0" 0 1e-10 && near "$x1" 0 1e-10 && echo y) = y"
check "no rotation, no tilt" all "$w0 = 1" "$w1 = 1" "$qz0 = 0" "$qz1 = 0" "$qx0$qy0$qx1$qy1 = 0000"
check "in the plane" all "$z0 = 0" "$z1 = 0"
# the recording and the CSV (9 significant digits) hold the same last poses
csv0=$(awk -F, '$1 == 2 && $2 == "body0" { print $4 }' "$T/tri.csv")
csv1=$(awk -F, '$1 == 2 && $2 == "body1" { print $4 }' "$T/tri.csv")
check "body0's last y equals the CSV's" near "$y0" "$csv0" 1e-8
check "body1's last y equals the CSV's" near "$y1" "$csv1" 1e-8

# --- cairn info reads it back ----------------------------------------------------------------
run info "$REC"
check "info on a FOSSSim recording exits 0" test $rc -eq 0
check "info names format version 2" grep -q "(format version 2)" "$T/out"
check "info counts 101 frames" grep -Eq "^frames: +101$" "$T/out"
check "info lists both bodies with one polygon each" test "$(grep -Ec "^  body[01] +dynamic +1 shape: polygon$" "$T/out")" -eq 2

# --- every reference scene records and reads back -------------------------------------------
# (springs and wind included; short runs under the sanitizer build, CAIRN_FAST_TESTS)
duration=()
if [ -n "${CAIRN_FAST_TESTS:-}" ]; then
	duration=(--duration 0.2)
fi
count=0
bad=0
while IFS= read -r scene; do
	count=$((count + 1))
	rm -f "$T/any.cnrec"
	if ! "$CAIRN" run "$scene" --record "$T/any.cnrec" --quiet "${duration[@]}" >"$T/out" 2>"$T/err"; then
		bad=$((bad + 1))
		echo "FAIL: cairn run --record $scene: $(head -c 300 "$T/err")"
	elif ! "$CAIRN" info "$T/any.cnrec" >"$T/out" 2>"$T/err" || ! grep -q "polygon" "$T/out"; then
		bad=$((bad + 1))
		echo "FAIL: cairn info on the recording of $scene: $(head -c 300 "$T/err")"
	fi
done < <(find "$FOSSSIM" -name '*.xml' | sort)
check "reference scenes found" test $count -gt 0
check "all $count reference scenes record and read back" test $bad -eq 0

cli_summary cli_record_fosssim
