#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Smoke test of bench/peers.sh (Cairn against Box3D, Jolt and Bullet), so the script cannot rot:
# Cairn alone, 10 steps of each scene, one run per configuration; checks that the markdown table is
# printed with Cairn's numbers and the peers shown as absent. Needs no peers and no network; the
# scenes come from ../shared/peers/make_cairn_scenes.py (skipped, 77, when that is absent).
# Timings are never checked.
# usage: cli_bench_peers.sh CAIRN_EXE SOURCE_DIR BUILD_DIR
set -u
CAIRN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SOURCE_DIR=$2
BUILD_DIR=$3
T=$(mktemp -d "${BUILD_DIR}/cli_bench_peers.XXXXXX")
trap 'rm -rf "$T"' EXIT

source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

PEERS_DIR=${PEERS_DIR:-$(cd "$SOURCE_DIR/.." && pwd)/shared/peers}
if [ ! -f "$PEERS_DIR/make_cairn_scenes.py" ] || ! command -v python3 >/dev/null; then
	echo "skipped: no $PEERS_DIR/make_cairn_scenes.py or no python3"
	exit 77
fi
export PEERS_DIR
# an empty peers folder: nothing to find even where the real peers are built
export PEERS_BUILD="$T/no_peers"

bash "$SOURCE_DIR/bench/peers.sh" --quick --cairn-only --cairn "$CAIRN" >"$T/out" 2>"$T/err"
rc=$?
check "peers.sh --quick --cairn-only exits 0" test $rc -eq 0
check "prints the table header" grep -q "^| scene | Cairn 1 worker | Cairn 2 workers | Cairn speed-up | Box3D 1T |" "$T/out"
for row in "pyramid \(sleeping off\), ms/step" "fall3000, ms/step" "tower20, ms/step"; do
	check "a row '$row' with Cairn's numbers and absent peers" \
		grep -Eq "^\| $row \| [0-9]+\.[0-9]{2} \| [0-9]+\.[0-9]{2} \| [0-9]+\.[0-9]{2}x \| absent \|" "$T/out"
done
check "drift rows" bash -c "grep -Eq '^\| pyramid largest displacement, cm \| [0-9]+\.[0-9]{2} \|' '$T/out' &&
	grep -Eq '^\| tower20 largest horizontal drift, cm \| [0-9]+\.[0-9]{2} \|' '$T/out'"
check "the stage split of the pyramid" grep -q "^Cairn pyramid stages at 1 worker, ms/step (median of runs): broad " "$T/out"
check "no 'failed' cell" bash -c "! grep -q '| failed ' '$T/out'"

bash "$SOURCE_DIR/bench/peers.sh" --steps 0 --cairn "$CAIRN" >"$T/out" 2>"$T/err"
rc=$?
check "--steps 0 exits 2" test $rc -eq 2
bash "$SOURCE_DIR/bench/peers.sh" --bogus >"$T/out" 2>"$T/err"
rc=$?
check "an unknown option exits 2" test $rc -eq 2

cli_summary cli_bench_peers
