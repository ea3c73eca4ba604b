// SPDX-License-Identifier: MIT
// Small pieces every part of the library shares.
#pragma once

/// A malloc'd copy of s; NULL for NULL or when memory runs out.
char* cnCopyString( const char* s );
