#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times `cairn render` at 640x480, draft and final, on the can toss and the 100-body heap, and
# splits each run into Cairn's part (simulating, writing .pov files) and POV-Ray's, from the
# "time:" line render prints. Never run by CTest; results go to docs/benchmarks.md.
# usage: bench/render_bench.sh [CAIRN_EXE] [FRAMES_DRAFT] [FRAMES_FINAL]
set -euo pipefail
CAIRN=${1:-build/cairn}
DRAFT_FRAMES=${2:-30}
FINAL_FRAMES=${3:-8}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

printf "%-10s %-6s %6s %9s %11s %12s %10s %9s\n" scene quality frames "wall s" "s/frame" "CPU s/frame" "Cairn s" "Cairn %"
for scene in can_toss heap100; do
	for quality in draft final; do
		frames=$DRAFT_FRAMES
		[ "$quality" = final ] && frames=$FINAL_FRAMES
		# frames from the middle of the motion, where the bodies are spread out
		first=15
		/usr/bin/time -f "%U %S" -o "$OUT/cpu" "$CAIRN" render "$ROOT/scenes/$scene.json" -o "$OUT/frames" \
			--fps 30 --size 640x480 --quality $quality --frames $first:$((first + frames)) >"$OUT/log"
		rm -rf "$OUT/frames"
		wall=$(sed -n 's/^rendered .* in \([0-9.]*\) s:.*/\1/p' "$OUT/log")
		cairn=$(sed -n 's/^time: simulation or loading \([0-9.]*\) s, writing .pov files \([0-9.]*\) s.*/\1 \2/p' "$OUT/log")
		cpu=$(awk '{ print $1 + $2 }' "$OUT/cpu")
		awk -v s=$scene -v q=$quality -v n=$frames -v w="$wall" -v c="$cairn" -v cpu="$cpu" 'BEGIN {
			split(c, p, " "); own = p[1] + p[2]
			printf "%-10s %-6s %6d %9.2f %11.3f %12.3f %10.4f %8.2f%%\n", s, q, n, w, w / n, cpu / n, own, 100 * own / (w + p[1])
		}'
	done
done
