#!/usr/bin/env bash
# Static analysis and Valgrind (docs/reliability.md, "Static analysis and Valgrind"):
#   tools/analyze.sh [scan|valgrind|all]     (default: all)
# scan: clang's static analyzer (scan-build) over a fresh build of libcairn, libcairn_io and the
# tool in build-analyze/ (Debug, so that asserts and every branch stay visible); fails on any
# report, and leaves the HTML reports in build-analyze/reports/.
# valgrind: memcheck of the tool on short runs of scenes of every kind (tests/valgrind_cli.sh,
# the CTest test valgrind_cli) from a build without sanitizers in build-valgrind/ (RelWithDebInfo).
# Needs clang-tools (scan-build) and valgrind (tools/install-deps.sh installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
status=0

if [ "$what" = scan ] || [ "$what" = all ]; then
	echo "== scan-build"
	rm -rf build-analyze
	# scan-build puts its compiler wrapper in CC, so the configure step runs under it too
	scan-build --use-cc=clang cmake -S . -B build-analyze -DCMAKE_BUILD_TYPE=Debug -DCAIRN_BUILD_TESTS=OFF \
		-DCAIRN_BUILD_BENCH=OFF >/dev/null
	# --status-bugs: the exit status says whether anything was reported
	set +e
	scan-build --use-cc=clang --status-bugs -o build-analyze/reports cmake --build build-analyze -j2 \
		--target cairn cairn_shared cairn_io_shared >build-analyze/scan.log 2>&1
	rc=$?
	set -e
	grep -E "warning:|scan-build:" build-analyze/scan.log || true
	if [ "$rc" -ne 0 ]; then
		echo "scan-build failed or reported bugs (build-analyze/scan.log, build-analyze/reports)"
		status=1
	fi
fi

if [ "$what" = valgrind ] || [ "$what" = all ]; then
	echo "== valgrind"
	cmake -S . -B build-valgrind -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAIRN_BUILD_TESTS=OFF -DCAIRN_BUILD_BENCH=OFF \
		>/dev/null
	cmake --build build-valgrind -j2 --target cairn >/dev/null
	bash tests/valgrind_cli.sh build-valgrind/cairn . build-valgrind || status=1
fi

exit $status
