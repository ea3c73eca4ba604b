// SPDX-License-Identifier: MIT
// Materials: the world's material table, per-pair overrides and the combination rules.
#pragma once

#include "cairn/types.h"

/// A material in the world's table.
typedef struct cnMaterial
{
	cnMaterialDef def;
	char* name;
	char* texture;
} cnMaterial;

/// A per-pair material override.
typedef struct cnMaterialPair
{
	cnMaterialId a, b;
	double friction, restitution;
} cnMaterialPair;

/// Friction and restitution for two materials, with pair overrides.
void cnMixMaterials( const cnWorld* world, cnMaterialId a, cnMaterialId b, double* friction, double* restitution );

/// Checks a material def (finite, in range); false with the error set.
bool cnValidateMaterialDef( const cnMaterialDef* def );

/// Frees the material table.
void cnDestroyMaterials( cnWorld* world );
