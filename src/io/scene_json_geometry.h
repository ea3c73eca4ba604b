// SPDX-License-Identifier: MIT
// The JSON scene loader's shared geometry readers (scene_json_geometry.c): each makes the object a
// shape def refers to, holding one reference the caller drops once the shape exists.
#pragma once

#include "io/json_read.h"

/// Most hulls a compound may have.
#define CN_JSON_MAX_COMPOUND_PARTS 256

/// A hull shape's "points" (or the vertices of its "file") into def->hull.
bool cnJsonReadHullShape( cnLoader* L, const cJSON* s, cnShapeDef* def );

/// A mesh shape's "file" (OBJ, STL, PLY, with "scale") or "vertices" and "triangles" into def->mesh;
/// refuses a mesh that is not a closed solid on a dynamic body and warns for a static one.
bool cnJsonReadMeshShape( cnLoader* L, const cJSON* s, cnBodyType bodyType, cnShapeDef* def );

/// A heightfield shape's "size" and "heights" (rows along y) or PNG "file" with "height_scale".
bool cnJsonReadHeightfieldShape( cnLoader* L, const cJSON* s, cnBodyType bodyType, cnShapeDef* def );

/// A compound's hulls, from "parts" (point lists) or "file" (one hull per connected piece): writes
/// at most capacity hulls and returns how many, or -1 on failure (nothing left to release).
int cnJsonReadCompound( cnLoader* L, const cJSON* s, cnHull** hulls, int capacity );
