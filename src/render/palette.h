// SPDX-License-Identifier: MIT
// The colours renderers and exporters give bodies left in the default appearance, shared by the
// POV-Ray writer (povray.c) and the glTF exporter (gltf.c) so a scene looks the same in both.
#pragma once

#include "cairn/recording.h"

#include <stdbool.h>

/// Number of colours in the palette.
#define CN_PALETTE_SIZE 8

/// The palette colour of a body index: distinct, saturated enough to tell apart under a sky light,
/// none close to a floor's greys (linear RGB).
static inline const float* cnPaletteColor( int body )
{
	static const float palette[CN_PALETTE_SIZE][3] = {
		{ 0.80f, 0.22f, 0.12f }, { 0.10f, 0.35f, 0.80f }, { 0.95f, 0.60f, 0.05f }, { 0.15f, 0.60f, 0.25f },
		{ 0.55f, 0.20f, 0.70f }, { 0.05f, 0.65f, 0.70f }, { 0.85f, 0.35f, 0.55f }, { 0.55f, 0.50f, 0.10f },
	};
	int i = body % CN_PALETTE_SIZE;
	return palette[i < 0 ? i + CN_PALETTE_SIZE : i];
}

/// Whether a shape kept the default appearance: grey (0.7, 0.7, 0.7) plastic without a texture.
static inline bool cnIsUnstyled( const cnRecordedShape* s )
{
	return s->color[0] == 0.7f && s->color[1] == 0.7f && s->color[2] == 0.7f && s->finish == cnFinish_plastic &&
		   ( s->texture == NULL || s->texture[0] == 0 );
}
