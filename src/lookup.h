// SPDX-License-Identifier: MIT
// From public ids to the world's records, validated (lookup.c).
#pragma once

#include "body.h"
#include "shape.h"

/// The body of an id after validation, or NULL (with the error set to cnError_invalidId).
cnBody* cnGetBody( const cnWorld* world, cnBodyId id );

/// The shape of an id after validation, or NULL (with the error set to cnError_invalidId).
cnShape* cnGetShape( const cnWorld* world, cnShapeId id );
