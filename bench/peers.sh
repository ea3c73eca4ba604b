#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cairn against its peers (issue 15): runs Cairn (1 and 2 workers) and whichever peer benchmark
# programs are available (Box3D 1 and 2 threads, Jolt 1 and 2 threads, Bullet from Debian) on the
# peers' pyramid (sleeping off), 3000-box fall and 20-box tower, every configuration as its own
# process, the rounds interleaved, and prints one markdown table of medians: ms/step (mean over all
# steps of a run), each peer's ratio to Cairn, and the drift (the pyramid's largest displacement,
# the tower's largest horizontal drift). The scenes come from ../shared/peers/make_cairn_scenes.py
# (Cairn) and ../shared/peers/common.h (the peers): one generator, the same worlds.
#
# Peers are built with ../shared/peers/build.sh into $PEERS_BUILD (default /tmp/peers_build) when
# their programs are missing; Box3D and Jolt from source trees in /tmp (unpacked from the bare git
# mirrors in /work/.mirror when present). Nothing is built or unpacked inside the repository. A peer
# that cannot be built is reported as absent. Never run by CTest except as a smoke test
# (tests/cli_bench_peers.sh: --quick --cairn-only); results go to docs/benchmarks.md.
#
# usage: bench/peers.sh [--steps N] [--repeat R] [--quick] [--cairn-only] [--no-build] [--cairn EXE]
#   --steps N     steps of every scene (default: the scenes' own, pyramid 500, fall3000 1000, tower20 1000)
#   --repeat R    processes per configuration, interleaved; the table shows medians (default 3)
#   --quick       10 steps and 1 repeat unless --steps/--repeat say otherwise (a smoke test)
#   --cairn-only  no peers: Cairn's columns only, the peers' shown as absent
#   --no-build    do not build missing peers; use what $PEERS_BUILD holds
#   --cairn EXE   the cairn tool (default: $CAIRN, else build/cairn of this source tree)
# environment: PEERS_DIR (default ../shared/peers beside the source tree), PEERS_BUILD,
#   BOX3D_SRC (default /tmp/box3d), JOLT_SRC (default /tmp/jolt), BOX3D_MIRROR, JOLT_MIRROR (bare git
#   repositories to unpack the sources from when the source trees are missing)
# exit status: 0 the table was printed, 1 a Cairn run failed, 2 bad option or missing scene generator
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CAIRN_EXE=${CAIRN:-$ROOT/build/cairn}
PEERS_DIR=${PEERS_DIR:-$(cd "$ROOT/.." && pwd)/shared/peers}
PEERS_BUILD=${PEERS_BUILD:-/tmp/peers_build}
BOX3D_SRC=${BOX3D_SRC:-/tmp/box3d}
JOLT_SRC=${JOLT_SRC:-/tmp/jolt}
BOX3D_MIRROR=${BOX3D_MIRROR:-/work/.mirror/erincatto+box3d/repo}
JOLT_MIRROR=${JOLT_MIRROR:-/work/.mirror/jrouwe+JoltPhysics/repo}

steps=""
repeat=""
quick=0
cairn_only=0
build=1
usage() { sed -n 's/^# \{0,1\}//; /^usage:/,/^exit status/p' "$0"; }
while [ $# -gt 0 ]; do
	case $1 in
	--steps) steps=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--repeat) repeat=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--quick) quick=1; shift ;;
	--cairn-only) cairn_only=1; shift ;;
	--no-build) build=0; shift ;;
	--cairn) CAIRN_EXE=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	-h | --help) usage; exit 0 ;;
	*) echo "peers.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
if [ $quick = 1 ]; then
	steps=${steps:-10}
	repeat=${repeat:-1}
fi
repeat=${repeat:-3}
for v in "$repeat" ${steps:+"$steps"}; do
	case $v in '' | *[!0-9]* | 0*) echo "peers.sh: --steps and --repeat take a positive whole number, got '$v'" >&2; exit 2 ;; esac
done
if [ ! -x "$CAIRN_EXE" ]; then
	echo "peers.sh: no cairn tool at $CAIRN_EXE (build it, or give --cairn EXE)" >&2
	exit 2
fi
if [ ! -f "$PEERS_DIR/make_cairn_scenes.py" ]; then
	echo "peers.sh: no scene generator $PEERS_DIR/make_cairn_scenes.py (set PEERS_DIR)" >&2
	exit 2
fi

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT/scenes" && python3 "$PEERS_DIR/make_cairn_scenes.py" "$OUT/scenes" >/dev/null || { echo "peers.sh: make_cairn_scenes.py failed" >&2; exit 2; }

# --- peers: build what is missing ---------------------------------------------------------------
# unpacks a bare mirror's HEAD into DIR (the files git cannot read, such as Jolt's large Assets, left out)
unpack() {
	local mirror=$1 dir=$2 exclude=$3
	[ -e "$dir" ] && return 0
	[ -d "$mirror" ] || return 1
	mkdir -p "$dir" && git -C "$mirror" archive HEAD -- . ${exclude:+":(exclude)$exclude"} | tar -x -C "$dir"
}
have() { [ -x "$PEERS_BUILD/$1" ]; }
if [ $cairn_only = 0 ] && [ $build = 1 ] && ! { have bench_box3d && have bench_jolt && have bench_bullet; }; then
	unpack "$BOX3D_MIRROR" "$BOX3D_SRC" "" 2>/dev/null
	unpack "$JOLT_MIRROR" "$JOLT_SRC" Assets 2>/dev/null
	mkdir -p "$PEERS_BUILD"
	echo "building the peers into $PEERS_BUILD (log: $PEERS_BUILD/build.log)" >&2
	# build.sh skips an engine whose source variable is empty
	b3=""; [ -f "$BOX3D_SRC/CMakeLists.txt" ] && b3=$BOX3D_SRC
	jt=""; [ -f "$JOLT_SRC/Build/CMakeLists.txt" ] && jt=$JOLT_SRC
	BOX3D_SRC=$b3 JOLT_SRC=$jt BUILD="$PEERS_BUILD" nice -n10 bash "$PEERS_DIR/build.sh" >"$PEERS_BUILD/build.log" 2>&1 ||
		echo "peers.sh: build.sh failed (see $PEERS_BUILD/build.log); running the peers that were built" >&2
fi

# --- the runs -----------------------------------------------------------------------------------
# configurations: NAME PROGRAM-KIND THREADS; peers absent are left out here and shown as absent
configs="cairn1 cairn 1
cairn2 cairn 2"
if [ $cairn_only = 0 ]; then
	have bench_box3d && configs+=$'\nbox3d1 bench_box3d 1\nbox3d2 bench_box3d 2'
	have bench_jolt && configs+=$'\njolt1 bench_jolt 1\njolt2 bench_jolt 2'
	have bench_bullet && configs+=$'\nbullet bench_bullet 1'
fi
# scene: the peers' name, Cairn's file, the default steps
scenes="pyramid pyramid_nosleep 500
fall3000 fall3000 1000
tower tower20 1000"

# one line per run in $OUT/results: CONFIG SCENE MS MAXDISP MAXHDRIFT [7 Cairn stage columns]
status=0
for ((round = 1; round <= repeat; ++round)); do
	while read -r scene file scene_steps; do
		n=${steps:-$scene_steps}
		while read -r name kind threads; do
			if [ "$kind" = cairn ]; then
				if ! "$CAIRN_EXE" bench "$OUT/scenes/$file.json" --steps "$n" --repeat 1 --workers "$threads" \
					>"$OUT/run" 2>"$OUT/err"; then
					echo "peers.sh: cairn bench $file --workers $threads failed: $(head -c 300 "$OUT/err")" >&2
					status=1
					continue
				fi
				# name bodies steps workers median min speedup contacts points awake
				# broad narrow solve integr contin finish island maxdisp maxhdrift
				awk -v c="$name" -v s="$scene" -v f="$file" '$1 == f && NF == 19 {
					print c, s, $5, $18, $19, $11, $12, $13, $14, $15, $16, $17 }' "$OUT/run" >>"$OUT/results"
			else
				extra=""
				[ "$kind" = bench_bullet ] || extra="--threads $threads"
				# shellcheck disable=SC2086
				timeout 900 "$PEERS_BUILD/$kind" --scene "$scene" --steps "$n" $extra >"$OUT/run" 2>"$OUT/err"
				awk -v c="$name" -v s="$scene" '/^RESULT / {
					for (i = 2; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
					print c, s, v["all_mean"], v["maxdisp"], v["maxhdrift"] }' "$OUT/run" >>"$OUT/results"
			fi
		done <<<"$configs"
	done <<<"$scenes"
done

# --- the table ----------------------------------------------------------------------------------
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n1)
echo "peers.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), Cairn $commit, $(nproc) CPUs${cpu:+ ($cpu)}, load average$(uptime | sed 's/.*load average//')"
echo "steps: ${steps:-pyramid 500, fall3000 1000, tower20 1000}; $repeat process(es) per configuration, interleaved; medians"
echo
touch "$OUT/results"
awk -v cairn_only=$cairn_only -v have_box3d="$(have bench_box3d && echo 1)" -v have_jolt="$(have bench_jolt && echo 1)" \
	-v have_bullet="$(have bench_bullet && echo 1)" '
function median(key,    n, i, j, t, a) {
	n = count[key]
	if (n == 0) return ""
	for (i = 1; i <= n; ++i) a[i] = val[key, i]
	for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : 0.5 * (a[n / 2] + a[n / 2 + 1])
}
function add(key, v) { count[key] += 1; val[key, count[key]] = v }
function present(c) {
	if (c ~ /^cairn/) return 1
	if (cairn_only) return 0
	return (c ~ /^box3d/ && have_box3d) || (c ~ /^jolt/ && have_jolt) || (c ~ /^bullet/ && have_bullet)
}
# ms/step cell: the median, and for a peer its ratio to Cairn at the same thread count (Bullet: 1)
function ms(c, s,    m, base) {
	if (!present(c)) return "absent"
	m = median(c SUBSEP s SUBSEP "ms")
	if (m == "") return "failed"
	if (c ~ /^cairn/) return sprintf("%.2f", m)
	base = median((c ~ /2$/ ? "cairn2" : "cairn1") SUBSEP s SUBSEP "ms")
	return base > 0 ? sprintf("%.2f (%.2fx)", m, m / base) : sprintf("%.2f", m)
}
function drift(c, s, what,    m) {
	if (!present(c)) return "absent"
	m = median(c SUBSEP s SUBSEP what)
	return m == "" ? "failed" : sprintf("%.2f", 100 * m)
}
{
	add($1 SUBSEP $2 SUBSEP "ms", $3); add($1 SUBSEP $2 SUBSEP "disp", $4); add($1 SUBSEP $2 SUBSEP "hdrift", $5)
	if (NF >= 12) for (k = 6; k <= 12; ++k) add($1 SUBSEP $2 SUBSEP "stage" k, $k)
}
END {
	split("cairn1 cairn2 box3d1 box3d2 jolt1 jolt2 bullet", cs, " ")
	print "| scene | Cairn 1 worker | Cairn 2 workers | Cairn speed-up | Box3D 1T | Box3D 2T | Jolt 1T | Jolt 2T | Bullet |"
	print "|---|---|---|---|---|---|---|---|---|"
	ns = split("pyramid fall3000 tower", ss, " ")
	split("pyramid (sleeping off), ms/step|fall3000, ms/step|tower20, ms/step", label, "|")
	for (i = 1; i <= ns; ++i) {
		a = median("cairn1" SUBSEP ss[i] SUBSEP "ms"); b = median("cairn2" SUBSEP ss[i] SUBSEP "ms")
		line = "| " label[i]
		for (j = 1; j <= 7; ++j) {
			line = line " | " ms(cs[j], ss[i])
			if (j == 2) line = line " | " (a != "" && b > 0 ? sprintf("%.2fx", a / b) : "")
		}
		print line " |"
	}
	line = "| pyramid largest displacement, cm"
	for (j = 1; j <= 7; ++j) { line = line " | " drift(cs[j], "pyramid", "disp"); if (j == 2) line = line " | " }
	print line " |"
	line = "| tower20 largest horizontal drift, cm"
	for (j = 1; j <= 7; ++j) { line = line " | " drift(cs[j], "tower", "hdrift"); if (j == 2) line = line " | " }
	print line " |"
	print ""
	print "ms/step: mean over all steps of a run, median of the runs; (Nx): peer / Cairn at the same thread count"
	print "(Bullet: / Cairn 1 worker), below 1 = the peer is faster. Cairn: double precision, the scene method"
	print "(impulse); Box3D, Jolt, Bullet: float. absent: not built; failed: it ran but printed no result."
	split("broad narrow solve integr contin finish island", st, " ")
	for (w = 1; w <= 2; ++w) {
		c = "cairn" w
		if (count[c SUBSEP "pyramid" SUBSEP "stage6"] == 0) continue
		line = sprintf("Cairn pyramid stages at %d worker%s, ms/step (median of runs):", w, w > 1 ? "s" : "")
		for (k = 6; k <= 12; ++k) line = line sprintf(" %s %.3f", st[k - 5], median(c SUBSEP "pyramid" SUBSEP "stage" k))
		print line
	}
}' "$OUT/results"
exit $status
