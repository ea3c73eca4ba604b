#!/usr/bin/env bash
# cmake --install puts libcairn, the headers, a CMake package and a pkg-config file under a prefix,
# and a program outside the tree builds against each of them.
# Arguments: CAIRN_EXE SOURCE_DIR BUILD_DIR (BUILD_DIR is the tests folder of the build).
set -u
CAIRN="$1"; SRC="$2"; BUILD="$3"
TOP="$(dirname "$BUILD")"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() { local what="$1"; shift; if "$@" >"$T/log" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what"; cat "$T/log"; fi; }

check "install" cmake --install "$TOP" --prefix "$T/prefix"
check "headers installed" test -f "$T/prefix/include/cairn/cairn.h" -a -f "$T/prefix/include/cairn/scene.h" -a -f "$T/prefix/include/cairn/recording.h"
check "tool installed" test -x "$T/prefix/bin/cairn"
mkdir -p "$T/consumer"
cat > "$T/consumer/main.c" <<'C'
#include <cairn/cairn.h>
#include <stdio.h>
int main( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def, NULL, 0 );
	cnBodyDef bd = cnDefaultBodyDef();
	cnBodyId id = cnWorld_CreateBody( world, &bd );
	cnWorld_Step( world, 0.1 );
	double v = cnBody_GetLinearVelocity( world, id ).z;
	cnDestroyWorld( world );
	printf( "%s %.3f\n", cnVersionString(), v );
	return v < 0.0 ? 0 : 1;
}
C
cat > "$T/consumer/CMakeLists.txt" <<'C'
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(cairn REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer cairn::cairn)
C
check "find_package(cairn) configures" cmake -S "$T/consumer" -B "$T/consumer/build" -DCMAKE_PREFIX_PATH="$T/prefix"
check "find_package(cairn) builds" cmake --build "$T/consumer/build"
check "find_package(cairn) program runs" "$T/consumer/build/consumer"
flags="$(PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig:$T/prefix/lib/x86_64-linux-gnu/pkgconfig" pkg-config --cflags --libs --static cairn 2>/dev/null)"
check "pkg-config knows cairn" test -n "$flags"
# shellcheck disable=SC2086
check "pkg-config build" cc "$T/consumer/main.c" -o "$T/pc" $flags
check "pkg-config program runs" env LD_LIBRARY_PATH="$T/prefix/lib" "$T/pc"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
