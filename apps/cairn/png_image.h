// SPDX-License-Identifier: MIT
// PNG pictures as plain 8-bit RGB pixel arrays (libpng's simplified API), for composing stereo
// frames in `cairn render` and for tests that look at rendered pixels.
#pragma once

#include <stdbool.h>
#include <stdint.h>

/// An RGB picture: width * height pixels of 3 bytes each, rows from the top.
typedef struct cliImage
{
	int width, height;
	uint8_t* pixels;
} cliImage;

/// Reads a PNG as 8-bit RGB (any PNG is converted). Prints an error naming the file and returns false
/// when it cannot be read.
bool cliReadPng( const char* path, cliImage* image );

/// Writes an RGB picture as a PNG. Prints an error naming the file and returns false on failure.
bool cliWritePng( const char* path, const cliImage* image );

/// Frees the pixels (the struct itself is the caller's).
void cliFreeImage( cliImage* image );
