// SPDX-License-Identifier: MIT
// Union-find over n slots in a plain int array, for islands: the sleep stage joins bodies through
// touching contacts, the dense methods split their systems into independent blocks. The smaller
// index always becomes the root, so the grouping never depends on the order links come in, and
// results stay deterministic.
#pragma once

/// Makes every slot its own set.
static inline void cnUnionFind_Reset( int* parent, int n )
{
	for ( int i = 0; i < n; ++i )
	{
		parent[i] = i;
	}
}

/// Root of slot i's set, halving the path on the way.
static inline int cnUnionFind_Find( int* parent, int i )
{
	while ( parent[i] != i )
	{
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/// Joins the sets of a and b; the smaller root becomes the root of both.
static inline void cnUnionFind_Union( int* parent, int a, int b )
{
	int ra = cnUnionFind_Find( parent, a ), rb = cnUnionFind_Find( parent, b );
	if ( ra < rb )
	{
		parent[rb] = ra;
	}
	else if ( rb < ra )
	{
		parent[ra] = rb;
	}
}
