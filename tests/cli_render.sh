#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `cairn render` and the demo's video as a user runs them: PNG folders, MP4, GIF and WebM with
# the frame count and size ffprobe reads back, --frames, --fps, --keep-pov, cameras, FOSSSim
# polygons, re-rendering into a folder, bad options, a missing POV-Ray or FFmpeg, Ctrl-C (nothing
# left behind), and `cairn demo` writing its video and poster. Skipped, visibly, without povray.
# usage: cli_render.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_render.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

if ! command -v povray >/dev/null 2>&1; then
	echo "SKIP: povray is not installed (apt-get install povray); CI installs it"
	exit 77
fi
have_ffmpeg=1
if ! command -v ffmpeg >/dev/null 2>&1 || ! command -v ffprobe >/dev/null 2>&1; then
	echo "SKIP (video parts): ffmpeg is not installed (apt-get install ffmpeg); CI installs it"
	have_ffmpeg=0
fi

BALLS="$SOURCE_DIR/scenes/bouncing_balls.json"
SMALL=(--size 64x48 --quiet)

# frames and size of a video: "COUNT WIDTH HEIGHT"
probe() {
	ffprobe -v error -count_frames -select_streams v:0 \
		-show_entries stream=nb_read_frames,width,height -of csv=p=0 "$1" |
		awk -F, '{ print $3, $1, $2 }'
}

# no output and no work folder left in a folder
clean_folder() {
	test -z "$(ls -A "$1")"
}

# --- a folder of PNG frames --------------------------------------------------------------------
run render "$BALLS" -o "$T/frames" --fps 10 --frames 3:7 "${SMALL[@]}"
check "render to a folder exits 0" test $rc -eq 0
check "render --frames 3:7 writes frames 3 to 6" test "$(cd "$T/frames" && ls | tr '\n' ' ')" = "frame_00003.png frame_00004.png frame_00005.png frame_00006.png "
check "render --quiet prints nothing" test ! -s "$T/out"
check "no work folder left" test -z "$(find "$T" -maxdepth 1 -name '.cairn-render-*')"
check "a frame is a PNG of the size asked" bash -c "file '$T/frames/frame_00003.png' | grep -q '64 x 48'"

# again into the same folder, keeping the .pov files: old frames replaced
run render "$BALLS" -o "$T/frames" --fps 10 --frames 0:2 --keep-pov "${SMALL[@]}"
check "re-render into the folder exits 0" test $rc -eq 0
check "re-render replaces the frames and keeps the .pov" test "$(cd "$T/frames" && ls | tr '\n' ' ')" = "frame_00000.png frame_00000.pov frame_00001.png frame_00001.pov "
check "a kept .pov names POV-Ray 3.7" grep -q '^#version 3.7;' "$T/frames/frame_00000.pov"

# the summary line without --quiet
run render "$BALLS" -o "$T/one" --fps 10 --frames 0:1 --size 64x48
check "render prints what it wrote" grep -q "^rendered 1 frames of 64x48 (draft) in .* s per frame; wrote $T/one" "$T/out"
check "render says where the time went" grep -q "^time: simulation or loading .* s, writing .pov files .* s (Cairn); POV-Ray .* s; FFmpeg .* s$" "$T/out"

# on a terminal (script gives one), a progress line: frames done, their rate, the time left
if command -v script >/dev/null 2>&1; then
	script -qec "'$CAIRN' render '$BALLS' -o '$T/tty' --fps 10 --frames 0:3 --size 64x48" "$T/tty.log" >/dev/null 2>&1
	check "a progress line on a terminal" grep -q "render: \[#*-*\] 3/3 frames  [0-9.]* frames/s  0:0[0-9] left" "$T/tty.log"
	run render "$BALLS" -o "$T/notty" --fps 10 --frames 0:2 --size 64x48
	check "no progress line off a terminal" bash -c "! grep -q 'frames/s' '$T/err'"
fi

# --- cameras: the scene's named ones and the automatic one ---------------------------------------
cat >"$T/cams.json" <<'EOF'
{ "cairn": 1, "duration": 0.5, "fps": 10,
  "bodies": [ { "name": "ground", "type": "static", "shapes": [{ "type": "plane", "normal": [0, 0, 1] }] },
              { "name": "ball", "position": [0, 0, 2], "shapes": [{ "type": "sphere", "radius": 0.3 }] } ],
  "cameras": [ { "name": "high", "position": [0, -6, 6] },
               { "name": "chase", "type": "follow", "body": "ball", "offset": [2, -3, 1] },
               { "name": "rider", "type": "mounted", "body": "ball", "offset": [0, 0, 0.5], "look_at": [1, 0, 0.4] },
               { "name": "fly", "type": "path", "keys": [ { "time": 0, "position": [5, -5, 3] },
                                                         { "time": 0.5, "position": [-5, -5, 3] } ] } ] }
EOF
for cam in high chase rider fly; do
	run render "$T/cams.json" -o "$T/cam_$cam" --camera $cam --frames 0:2 "${SMALL[@]}"
	check "render --camera $cam exits 0" test $rc -eq 0
	check "render --camera $cam writes 2 frames" test "$(ls "$T/cam_$cam" | wc -l)" -eq 2
done
run render "$T/cams.json" -o "$T/cam_pov" --camera high --frames 0:1 --keep-pov "${SMALL[@]}"
check "the fixed camera's position in POV-Ray's axes (x, z, y)" grep -q "location <0, 6, -6>" "$T/cam_pov/frame_00000.pov"
run render "$T/cams.json" -o "$T/cam_none" --camera nobody "${SMALL[@]}"
check "unknown --camera exits 2" test $rc -eq 2
check "unknown --camera lists the cameras" grep -q "no such camera (it has: high, chase, rider, fly)" "$T/err"
check "unknown --camera writes nothing" test ! -e "$T/cam_none"

# --- a FOSSSim scene: planar polygons seen from above ------------------------------------------
cat >"$T/planar.xml" <<'EOF'
<scene>
  <duration time="0.2"/>
  <rigidbodyintegrator type="symplectic-euler" dt="0.01"/>
  <rigidbodyvertex x="-1" y="-1" m="1"/>
  <rigidbodyvertex x="1" y="-1" m="1"/>
  <rigidbodyvertex x="1" y="1" m="1"/>
  <rigidbodyvertex x="-1" y="1" m="1"/>
  <rigidbodyvertex x="3" y="0" m="1"/>
  <rigidbodyvertex x="5" y="0" m="1"/>
  <rigidbody p="0" p="1" p="2" p="3" vx="0" vy="0" omega="1" r="0.1"/>
  <rigidbody p="4" p="5" vx="0" vy="1" omega="0" r="0.2"/>
</scene>
EOF
run render "$T/planar.xml" -o "$T/planar" --fps 10 --frames 0:1 --keep-pov "${SMALL[@]}"
check "render of FOSSSim polygons exits 0" test $rc -eq 0
check "polygons become prisms" grep -q "prism { linear_sweep" "$T/planar/frame_00000.pov"
check "a planar scene is seen from above (sky along the picture's y: POV z)" grep -q "sky <0, 0, 1>" "$T/planar/frame_00000.pov"

# --- videos ------------------------------------------------------------------------------------
if [ $have_ffmpeg -eq 1 ]; then
	run render "$BALLS" -o "$T/balls.mp4" --fps 12 --frames 0:12 --size 96x64 --quiet
	check "render to .mp4 exits 0" test $rc -eq 0
	check "the MP4 has 12 frames of 96x64" test "$(probe "$T/balls.mp4")" = "12 96 64"
	check "the MP4 is H.264" bash -c "ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 '$T/balls.mp4' | grep -q h264"
	run render "$BALLS" -o "$T/balls.gif" --fps 12 --frames 0:5 "${SMALL[@]}"
	check "render to .gif exits 0" test $rc -eq 0
	check "the GIF has 5 frames of 64x48" test "$(probe "$T/balls.gif")" = "5 64 48"
	run render "$BALLS" -o "$T/balls.webm" --fps 12 --frames 0:4 "${SMALL[@]}"
	check "render to .webm exits 0" test $rc -eq 0
	check "the WebM has 4 frames of 64x48" test "$(probe "$T/balls.webm")" = "4 64 48"
	run render "$BALLS" -o "$T/sbs.mp4" --fps 12 --frames 0:3 --stereo side-by-side "${SMALL[@]}"
	check "a side-by-side video is twice as wide" test "$(probe "$T/sbs.mp4")" = "3 128 48"
	run render "$BALLS" -o "$T/kept.mp4" --fps 12 --frames 0:2 --keep-pov "${SMALL[@]}"
	check "--keep-pov beside a video: OUT-pov/" test "$(ls "$T/kept-pov" | tr '\n' ' ')" = "frame_00000.pov frame_00001.pov "
	check "no work folder left after videos" test -z "$(find "$T" -maxdepth 1 -name '.cairn-render-*')"
fi

# --- bad input: a clear message, exit 2, nothing written ----------------------------------------
mkdir -p "$T/bad"
bad() {
	local what=$1 message=$2
	shift 2
	run render "$@"
	check "$what: exits 2" test $rc -eq 2
	check "$what: says why" grep -q -- "$message" "$T/err"
	check "$what: writes nothing" clean_folder "$T/bad"
}
bad "no -o" "render needs -o OUT" "$BALLS"
bad "no input" "render needs a scene or recording" -o "$T/bad/x"
bad "bad --size" "expected WIDTHxHEIGHT" "$BALLS" -o "$T/bad/x" --size 64by48
bad "tiny --size" "each in \[16, 8192\]" "$BALLS" -o "$T/bad/x" --size 8x8
bad "odd size for a video" "a video needs an even width and height" "$BALLS" -o "$T/bad/x.mp4" --size 65x48
bad "unknown --stereo" "expected anaglyph, red-green or side-by-side" "$BALLS" -o "$T/bad/x" --stereo wiggle
bad "unknown --quality" "expected draft or final" "$BALLS" -o "$T/bad/x" --quality best
bad "bad --frames" "expected A:B" "$BALLS" -o "$T/bad/x" --frames 7
bad "--frames past the end" "the recording has output frames 0:" "$BALLS" -o "$T/bad/x" --frames 900:901 --quiet
bad "an .avi output" "cannot write .avi" "$BALLS" -o "$T/bad/x.avi"
bad "a missing scene" "cannot open" "$T/bad/none.json" -o "$T/bad/x"
"$CAIRN" run "$BALLS" --record "$T/rec.cnrec" --quiet
bad "--camera on a recording" "is a recording, which has no cameras" "$T/rec.cnrec" -o "$T/bad/x" --camera high
run render "$T/rec.cnrec" -o "$T/from_recording" --frames 0:2 "${SMALL[@]}"
check "render of a recording exits 0" test $rc -eq 0
check "render of a recording writes its frames" test "$(ls "$T/from_recording" | wc -l)" -eq 2
touch "$T/bad/file"
run render "$BALLS" -o "$T/bad/file" "${SMALL[@]}"
check "a file where the folder should be: exits 2" test $rc -eq 2
check "a file where the folder should be: kept" test -f "$T/bad/file" -a ! -s "$T/bad/file"
rm -f "$T/bad/file"

# --- a missing POV-Ray or FFmpeg: which package to install, nothing written ----------------------
mkdir -p "$T/nopath"
PATH="$T/nopath" "$CAIRN" render "$BALLS" -o "$T/bad/x" >"$T/out" 2>"$T/err"
rc=$?
check "without povray: exits 1" test $rc -eq 1
check "without povray: names the package" grep -q "apt-get install povray" "$T/err"
ln -s "$(command -v povray)" "$T/nopath/povray"
PATH="$T/nopath" "$CAIRN" render "$BALLS" -o "$T/bad/x.mp4" >"$T/out" 2>"$T/err"
rc=$?
check "without ffmpeg: exits 1 for a video" test $rc -eq 1
check "without ffmpeg: names the package" grep -q "apt-get install ffmpeg" "$T/err"
check "without the helpers: nothing written" clean_folder "$T/bad"

# --- Ctrl-C: exit 130, nothing left --------------------------------------------------------------
mkdir -p "$T/stop"
"$CAIRN" render "$BALLS" -o "$T/stop/balls.mp4" --size 320x240 --quality final >"$T/out" 2>"$T/err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
check "interrupted render exits 130" test $rc -eq 130
check "interrupted render says so" grep -q "interrupted" "$T/err"
check "interrupted render leaves nothing" clean_folder "$T/stop"
# POV-Ray runs in the work folder, so one still running would have its folder there
povray_in_stop() {
	for p in $(pgrep -x povray); do readlink "/proc/$p/cwd"; done | grep -q "$T/stop"
}
still_running=no
povray_in_stop && still_running=yes
check "interrupted render leaves no POV-Ray running" test $still_running = no

# --- the demo: a video and a poster -------------------------------------------------------------
if [ $have_ffmpeg -eq 1 ]; then
	run demo --out "$T/demo"
	check "demo exits 0" test $rc -eq 0
	check "demo writes demo.mp4" test -s "$T/demo/demo.mp4"
	check "demo's video: 97 frames of 640x480 (4 s at 24 fps)" test "$(probe "$T/demo/demo.mp4")" = "97 640 480"
	check "demo writes a poster of 640x480" bash -c "file '$T/demo/demo.png' | grep -q '640 x 480'"
	check "demo says where the video is" grep -q "wrote $T/demo/demo.mp4" "$T/out"
	check "demo leaves no work folder" test -z "$(find "$T/demo" -name '.cairn-render-*')"
fi
PATH="$T/empty-path" "$CAIRN" demo --out "$T/demo-plain" >"$T/out" 2>"$T/err"
rc=$?
check "demo without POV-Ray: exits 0" test $rc -eq 0
check "demo without POV-Ray: says which package" grep -q "no video: POV-Ray is not installed (apt-get install povray)" "$T/out"
check "demo without POV-Ray: still writes the CSV and recording" test -s "$T/demo-plain/demo.csv" -a -s "$T/demo-plain/demo.cnrec"
check "demo without POV-Ray: no video" test ! -e "$T/demo-plain/demo.mp4"

cli_summary cli_render
