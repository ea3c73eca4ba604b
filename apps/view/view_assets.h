// SPDX-License-Identifier: MIT
// The page's files, embedded into the tool at build time (view_embed.c writes view_assets.c from
// web/index.html and the esbuild bundle), so `cairn view` serves exactly these and nothing from disk.
#pragma once

#include <stddef.h>

/// One embedded file: the exact path it is served at, its media type and its bytes.
typedef struct cliViewAsset
{
	const char* path;
	const char* type;
	const unsigned char* data;
	size_t size;
} cliViewAsset;

/// The embedded files.
extern const cliViewAsset cliViewAssets[];

/// How many there are.
extern const int cliViewAssetCount;
