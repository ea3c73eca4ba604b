#!/usr/bin/env bash
# Fuzzes Cairn's readers of untrusted input with libFuzzer under ASan + UBSan (clang):
#   tools/fuzz.sh [SECONDS] [TARGET ...]     targets: scene_json fosssim_xml recording mesh api snapshot (default: all)
# Each target starts from its committed corpus (tests/fuzz/corpus/TARGET) and runs SECONDS (default
# 60) on one core; the build goes to $CAIRN_FUZZ_BUILD (default build-fuzz), new inputs to its
# corpus/TARGET, crashes to tests/fuzz/crashes/TARGET (commit the crash file with the fix: the
# replay test fuzz_replay_TARGET then runs it in CI).
# Needs clang and its runtime (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=${CAIRN_FUZZ_BUILD:-build-fuzz}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(scene_json fosssim_xml recording mesh api snapshot)
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCAIRN_SANITIZE=ON -DCAIRN_FUZZ=ON \
  -DCAIRN_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null
count_crashes() { find tests/fuzz/crashes -type f ! -name .keep 2>/dev/null | wc -l; }
before=$(count_crashes)
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t" "tests/fuzz/crashes/$t"
  echo "== fuzz_$t for $seconds s"
  # an input may run for 10 s before it counts as a hang; 30 s for api, whose adaptive methods may
  # take their cap of internal steps (seconds under the sanitizers) before failing a step cleanly
  limit=10
  [ "$t" = api ] && limit=30
  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/tests/fuzz_$t" -max_total_time="$seconds" -timeout="$limit" -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="tests/fuzz/crashes/$t/" -print_final_stats=1 \
    "$build/corpus/$t" "tests/fuzz/corpus/$t" 2>&1 | grep -E "^(#[0-9]+ *DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" || true
done
found=$(( $(count_crashes) - before ))
echo "new crash files under tests/fuzz/crashes: $found"
[ "$found" -eq 0 ]
