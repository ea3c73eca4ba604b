// SPDX-License-Identifier: MIT
// A growable byte buffer for the viewer's JSON answers. An allocation that fails marks the buffer
// failed instead of stopping the caller at every append; the answer is then a 500.
#pragma once

#include <stdbool.h>
#include <stddef.h>

/// Bytes appended so far (always zero-terminated when not failed).
typedef struct cliViewText
{
	char* data;
	size_t size;
	size_t capacity;
	bool failed;
} cliViewText;

/// Appends bytes.
void cliViewText_Append( cliViewText* text, const char* bytes, size_t count );

/// Appends a zero-terminated string as it is.
void cliViewText_Puts( cliViewText* text, const char* string );

/// Appends formatted text (printf).
void cliViewText_Printf( cliViewText* text, const char* format, ... ) __attribute__( ( format( printf, 2, 3 ) ) );

/// Appends a JSON string literal: quotes, escapes and control characters escaped.
void cliViewText_String( cliViewText* text, const char* string );

/// Appends a number for JSON: the fewest digits (15 to 17) that read back as the same double, or null
/// when it is not finite.
void cliViewText_Number( cliViewText* text, double value );

/// Appends a number for JSON with 9 significant digits (surfaces: what a float draws), null when not finite.
void cliViewText_Short( cliViewText* text, double value );

/// Hands the buffer over (the caller frees it; NULL when the buffer failed) and empties the text.
char* cliViewText_Take( cliViewText* text, size_t* size );

/// Frees the buffer.
void cliViewText_Free( cliViewText* text );
