#!/usr/bin/env bash
# Installs what Cairn needs to build and test on Debian 12 (run as root, or with sudo available).
set -euo pipefail
packages=(cmake make gcc clang clang-tools valgrind pkg-config libcjson-dev libxml2-dev libpng-dev libqhull-dev libassimp-dev povray ffmpeg blender librsvg2-bin nodejs python3-numpy python3-pip
  libmicrohttpd-dev chromium)
# libmicrohttpd: the server of `cairn view`; Chromium: its browser tests (playwright-core drives
# Debian's /usr/bin/chromium; the build runs `npm ci --prefix web` for three.js, esbuild, playwright-core)
# npm (the glTF validator's installer): Debian's package, unless npm came with the nodejs package
# (NodeSource's bundles it and conflicts with Debian's); Blender's glTF importer needs numpy, and
# so does the Python package (python/), whose install test runs pip (with setuptools) offline
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
