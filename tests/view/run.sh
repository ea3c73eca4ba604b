#!/usr/bin/env bash
# Runs one of the viewer's tests: run.sh server|browser CAIRN SOURCE_DIR BINARY_DIR NODE VIEWER_BUILT
# Exits 77 (CTest's skip) with the reason when something it needs is missing, so a machine without
# the viewer's packages skips these tests loudly instead of passing them.
set -euo pipefail
kind=$1 cairn=$2 src=$3 bin=$4 node=${5:-} built=${6:-0}
skip() { echo "SKIPPED: view_$kind: $*"; exit 77; }
[ "$built" = 1 ] || skip "cairn was built without the viewer (needs libmicrohttpd-dev, Node.js and npm: tools/install-deps.sh)"
[ -n "$node" ] && [ -x "$node" ] || skip "Node.js is not installed (apt-get install nodejs)"
# the tests that drive a browser
case $kind in browser | overlays | compare | history | editor | body)
  [ -x /usr/bin/chromium ] || skip "Debian's Chromium is not installed (apt-get install chromium)"
  [ -d "$src/web/node_modules/playwright-core" ] || skip "web/node_modules/playwright-core is missing (npm ci --prefix web)"
esac
mkdir -p "$bin/$kind"
exec "$node" "$src/tests/view/${kind}_test.mjs" "$cairn" "$src" "$bin/$kind"
