// SPDX-License-Identifier: MIT
// PNG pictures through libpng's simplified API (png_image), which converts any PNG to 8-bit RGB.
#include "png_image.h"

#include "cli.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

bool cliReadPng( const char* path, cliImage* image )
{
	memset( image, 0, sizeof( *image ) );
	png_image png;
	memset( &png, 0, sizeof( png ) );
	png.version = PNG_IMAGE_VERSION;
	if ( png_image_begin_read_from_file( &png, path ) == 0 )
	{
		cliError( "%s: cannot read the PNG: %s", path, png.message );
		return false;
	}
	png.format = PNG_FORMAT_RGB;
	size_t size = PNG_IMAGE_SIZE( png );
	image->pixels = malloc( size > 0 ? size : 1 );
	if ( image->pixels == NULL )
	{
		png_image_free( &png );
		cliError( "%s: out of memory for a %ux%u picture", path, png.width, png.height );
		return false;
	}
	if ( png_image_finish_read( &png, NULL, image->pixels, 0, NULL ) == 0 )
	{
		cliError( "%s: cannot read the PNG: %s", path, png.message );
		cliFreeImage( image );
		return false;
	}
	image->width = (int)png.width;
	image->height = (int)png.height;
	return true;
}

bool cliWritePng( const char* path, const cliImage* image )
{
	png_image png;
	memset( &png, 0, sizeof( png ) );
	png.version = PNG_IMAGE_VERSION;
	png.width = (png_uint_32)image->width;
	png.height = (png_uint_32)image->height;
	png.format = PNG_FORMAT_RGB;
	if ( png_image_write_to_file( &png, path, 0, image->pixels, 0, NULL ) == 0 )
	{
		cliError( "%s: cannot write the PNG: %s", path, png.message );
		return false;
	}
	return true;
}

void cliFreeImage( cliImage* image )
{
	free( image->pixels );
	image->pixels = NULL;
	image->width = image->height = 0;
}
