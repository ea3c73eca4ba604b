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
check "headers installed" test -f "$T/prefix/include/cairn/cairn.h" -a -f "$T/prefix/include/cairn/scene.h" -a -f "$T/prefix/include/cairn/recording.h" -a -f "$T/prefix/include/cairn/io.h"
check "tool installed" test -x "$T/prefix/bin/cairn"
mkdir -p "$T/consumer"
cat > "$T/consumer/main.c" <<'C'
#include <cairn/cairn.h>
#include <stdio.h>
int main( void )
{
	cnWorldDef def = cnDefaultWorldDef();
	cnWorld* world = cnCreateWorld( &def );
	cnBodyDef bd = cnDefaultBodyDef();
	cnBodyId id = cnCreateBody( world, &bd );
	cnWorld_Step( world, 0.1 );
	double v = cnBody_GetLinearVelocity( world, id ).z;
	cnDestroyWorld( world );
	printf( "%s %.3f\n", cnGetVersion(), v );
	return v < 0.0 ? 0 : 1;
}
C
# a second program uses libcairn_io: it loads a scene from a string and records it into memory
cat > "$T/consumer/io.c" <<'C'
#include <cairn/io.h>
#include <stdio.h>
int main( void )
{
	cnScene* scene = cnLoadSceneFromString( "{ \"cairn\": 1, \"bodies\": [ { \"name\": \"ball\", \"shapes\": "
											"[ { \"type\": \"sphere\", \"radius\": 0.1 } ] } ] }", "inline" );
	if ( scene == NULL )
	{
		printf( "%s\n", cnGetError() );
		return 1;
	}
	cnRecorderDef rd = cnDefaultRecorderDef();
	cnRecorder* recorder = cnCreateRecorder( scene->world, &rd );
	cnFrameWriter writer = cnRecorder_AsFrameWriter( recorder );
	cnRunDef run = cnScene_GetRunDef( scene );
	run.duration = 0.5;
	run.writers = &writer;
	run.writerCount = 1;
	cnRunResult result = cnRun( scene->world, &run );
	size_t size = 0;
	const void* bytes = cnRecorder_GetBytes( recorder, &size );
	cnRecording* rec = cnLoadRecordingFromMemory( bytes, size, "memory" );
	int frames = rec != NULL ? cnRecording_GetFrameCount( rec ) : -1;
	printf( "%d frames, %zu bytes\n", frames, size );
	cnDestroyRecording( rec );
	cnDestroyRecorder( recorder );
	cnDestroyScene( scene );
	return result.status == cnRun_finished && frames == 31 ? 0 : 1;
}
C
cat > "$T/consumer/CMakeLists.txt" <<'C'
cmake_minimum_required(VERSION 3.25)
project(consumer C)
find_package(cairn REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer cairn::cairn_shared)
add_executable(consumer_static main.c)
target_link_libraries(consumer_static cairn::cairn_static)
add_executable(consumer_io io.c)
target_link_libraries(consumer_io cairn::cairn_io_static)
add_executable(consumer_io_shared io.c)
target_link_libraries(consumer_io_shared cairn::cairn_io_shared)
C
check "find_package(cairn) configures" cmake -S "$T/consumer" -B "$T/consumer/build" -DCMAKE_PREFIX_PATH="$T/prefix"
check "find_package(cairn) builds" cmake --build "$T/consumer/build"
for p in consumer consumer_static consumer_io consumer_io_shared; do
	check "find_package(cairn): $p runs" "$T/consumer/build/$p"
done
PC="$T/prefix/lib/pkgconfig:$T/prefix/lib/x86_64-linux-gnu/pkgconfig"
for module in cairn cairn-static; do
	flags="$(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs $module 2>/dev/null)"
	check "pkg-config knows $module" test -n "$flags"
	# shellcheck disable=SC2086
	check "pkg-config $module build" cc "$T/consumer/main.c" -o "$T/pc-$module" $flags
	check "pkg-config $module program runs" env LD_LIBRARY_PATH="$T/prefix/lib" "$T/pc-$module"
done
for module in cairn-io cairn-io-static; do
	flags="$(PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs $module 2>/dev/null)"
	check "pkg-config knows $module" test -n "$flags"
	# shellcheck disable=SC2086
	check "pkg-config $module build" cc "$T/consumer/io.c" -o "$T/pc-$module" $flags
	check "pkg-config $module program runs" env LD_LIBRARY_PATH="$T/prefix/lib" "$T/pc-$module"
done
check "the static programs need no libcairn.so" sh -c "! ldd '$T/pc-cairn-static' | grep -q libcairn"
# the shared engine exports only what include/cairn declares, and links no parser library
lib="$(ls "$T"/prefix/lib/libcairn.so "$T"/prefix/lib/*/libcairn.so 2>/dev/null | head -1)"
check "libcairn.so links no parser library" sh -c "! ldd '$lib' | grep -Eq 'cjson|xml2'"
exported="$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)"
declared="$(grep -h '^CN_API' "$T"/prefix/include/cairn/cairn.h "$T"/prefix/include/cairn/types.h "$T"/prefix/include/cairn/joint.h "$T"/prefix/include/cairn/geometry.h "$T"/prefix/include/cairn/query.h | grep -o 'cn[A-Za-z_0-9]*(' | sed 's/($//' | sort)"
check "libcairn.so exports exactly what cairn.h and types.h declare" test "$exported" = "$declared"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
