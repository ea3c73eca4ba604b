// SPDX-License-Identifier: MIT
// Box against box: separating axis test over the 15 axes (3 + 3 face normals, 9 edge crosses),
// then either face clipping (Sutherland-Hodgman of the incident face against the side planes of
// the reference face, collide_clip.c) or a single edge-edge point. This is the hot path of box
// stacks: no allocation, no trigonometry, and everything in the frame of one box so the side
// planes are axis aligned.
#include "collision/collision.h"

#include <float.h>

// An edge cross is skipped when the two edges are within about 0.0006 degrees of parallel
// (sine 1e-5): its axis is then ill-defined and a face axis separates at least as well.
#define CN_EDGE_PARALLEL_SIN 1e-5
// Resting boxes see several axes with nearly equal separation (a face of A, the parallel face
// of B, edge crosses lying in that face's plane). B's face is used only when it separates by
// more than A's plus 2% of its size, an edge cross only when it beats the better face by 5%,
// each plus CN_ABS_TOL times the smallest half extent, so the choice does not follow rounding
// noise from step to step.
#define CN_FACE_REL_TOL 0.02
#define CN_EDGE_REL_TOL 0.05
#define CN_ABS_TOL 1e-3
// Incident points this far outside a side plane of the reference face (times the smallest half
// extent of the two boxes) are snapped onto it rather than clipped, so a box resting flush on
// an equal box keeps its four vertices (and their ids) instead of trading each for a pair of
// clip points at every rounding wobble. Points farther out are clipped exactly.
#define CN_CLIP_SLACK 1e-4
// Candidates within this much (times the smallest half extent) of the deepest count as equally
// deep when reducing to four points; the first of them is kept.
#define CN_DEPTH_TOL 1e-4

// Feature ids: bits 0-16 the clip key (0x10000 + incident vertex, or (lo << 8) | hi of the two
// lines the point lies on: incident edges 0-3, reference side planes 4-7; see cnClipPolygon),
// bits 17-19 the incident face, bits 20-22 the reference face, bit 23 set when the reference face
// is on B; bit 24 marks an edge-edge point.
#define CN_VERTEX_KEY 0x10000u
#define CN_FALLBACK_KEY 0x1FFFFu
#define CN_EDGE_ID ( 1u << 24 )

// An axis is a ghost when its normal leans more than this (the sine of about 0.6 degrees) into an
// internal face of either box (cnGeometry.internalFaces): a face that another static box covers.
#define CN_INTERNAL_LEAN 0.01

// (i + 1) % 3 and (i + 2) % 3 without the division
static const int cnNext[3] = { 1, 2, 0 };
static const int cnPrev[3] = { 2, 0, 1 };

static double cnSign( double x )
{
	return x >= 0.0 ? 1.0 : -1.0;
}

static double cnClampD( double x, double lo, double hi )
{
	return x < lo ? lo : ( x > hi ? hi : x );
}

// Face contact. The reference box (half extents hR) sits at the origin of its frame; the incident
// box has half extents hI, axes rot[.][k] (column k is its axis k in the reference frame) and
// centre c. The reference face is axis i on side sR (its outward normal points at the incident
// box). xfR moves reference-frame points to the world; refIsB is set when the reference box is
// B, whose face normal then points from B to A. size is the smallest half extent of the two
// boxes, the scale of the tolerances. Returns the point count.
static int cnClipFaces( const double hR[3], const double hI[3], double rot[3][3], const double c[3], int i, double sR,
						cnTransform xfR, bool refIsB, double size, double maxDistance, cnManifold* m )
{
	// incident face: the face of the incident box most anti-parallel to the reference normal
	int k = 0;
	for ( int kk = 1; kk < 3; ++kk )
	{
		k = fabs( rot[i][kk] ) > fabs( rot[i][k] ) ? kk : k;
	}
	double sI = rot[i][k] * sR > 0.0 ? -1.0 : 1.0;
	int k1 = cnNext[k], k2 = cnPrev[k];

	// its four vertices in the reference frame, counter-clockwise about its outward normal
	double fc[3], ex[3], ey[3];
	for ( int r = 0; r < 3; ++r )
	{
		fc[r] = c[r] + sI * hI[k] * rot[r][k];
		ex[r] = hI[k1] * rot[r][k1];
		ey[r] = hI[k2] * rot[r][k2];
	}
	static const double su[4] = { 1.0, -1.0, -1.0, 1.0 };
	static const double sv[4] = { 1.0, 1.0, -1.0, -1.0 };
	cnClipVertex face[CN_CLIP_MAX_VERTICES], scratch[CN_CLIP_MAX_VERTICES];
	for ( int q = 0; q < 4; ++q )
	{
		// reversed order on the negative face keeps the winding about the outward normal
		int w = sI > 0.0 ? q : 3 - q;
		double a = su[w], b = sv[w];
		face[q].p = cnV3( fc[0] + a * ex[0] + b * ey[0], fc[1] + a * ex[1] + b * ey[1], fc[2] + a * ex[2] + b * ey[2] );
		// box vertex id: bit r set when the vertex is on the positive side of incident axis r
		double s3[3];
		s3[k] = sI;
		s3[k1] = a;
		s3[k2] = b;
		uint32_t vid = ( s3[0] > 0.0 ? 1u : 0u ) | ( s3[1] > 0.0 ? 2u : 0u ) | ( s3[2] > 0.0 ? 4u : 0u );
		face[q].key = CN_VERTEX_KEY + vid;
		face[q].edge = (uint32_t)q;
	}

	// clip against the four side planes of the reference face: coordinate planes of this frame,
	// so clipped and snapped points land on them exactly
	int j1 = cnNext[i], j2 = cnPrev[i];
	static const double planeSign[4] = { 1.0, -1.0, 1.0, -1.0 };
	cnClipPlane planes[4];
	for ( int plane = 0; plane < 4; ++plane )
	{
		int axis = plane < 2 ? j1 : j2;
		double pn[3] = { 0.0, 0.0, 0.0 };
		pn[axis] = planeSign[plane];
		planes[plane].normal = cnV3( pn[0], pn[1], pn[2] );
		planes[plane].offset = hR[axis];
		planes[plane].label = 4u + (uint32_t)plane;
		planes[plane].axis = axis;
	}
	// in place: face holds the clipped polygon afterwards
	int count = cnClipPolygon( face, 4, planes, 4, CN_CLIP_SLACK * size, scratch );

	uint32_t refFace = (uint32_t)( 2 * i + ( sR > 0.0 ? 1 : 0 ) );
	uint32_t incFace = (uint32_t)( 2 * k + ( sI > 0.0 ? 1 : 0 ) );
	uint32_t idBase = ( incFace << 17 ) | ( refFace << 20 ) | ( refIsB ? 1u << 23 : 0u );

	// separations from the reference face plane; keep those within reach
	cnClipPoint candidates[CN_CLIP_MAX_VERTICES];
	int n = 0;
	for ( int q = 0; q < count; ++q )
	{
		double s = sR * cnGet( face[q].p, i ) - hR[i];
		if ( s <= maxDistance )
		{
			candidates[n].point = face[q].p;
			candidates[n].separation = s;
			candidates[n].id = idBase | face[q].key;
			++n;
		}
	}

	if ( n == 0 )
	{
		if ( count > 0 )
		{
			return 0;
		}
		// The incident face missed the reference face altogether. When separated that means no
		// contact; when overlapping (a steep, deep penetration) use the incident box's deepest
		// vertex so the pair is still pushed apart.
		double p[3];
		for ( int r = 0; r < 3; ++r )
		{
			p[r] = c[r];
			for ( int kk = 0; kk < 3; ++kk )
			{
				p[r] -= cnSign( sR * rot[i][kk] ) * hI[kk] * rot[r][kk];
			}
		}
		double s = sR * p[i] - hR[i];
		if ( s >= 0.0 || fabs( p[j1] ) > hR[j1] || fabs( p[j2] ) > hR[j2] )
		{
			return 0;
		}
		candidates[0].point = cnV3( p[0], p[1], p[2] );
		candidates[0].separation = s;
		candidates[0].id = idBase | CN_FALLBACK_KEY;
		n = 1;
	}

	double nr[3] = { 0.0, 0.0, 0.0 };
	nr[i] = sR;
	cnVec3 nR = cnV3( nr[0], nr[1], nr[2] );

	// up to four points keep the clipping's order; more are reduced to the deepest and those
	// spanning the largest area
	int keep[CN_MAX_MANIFOLD_POINTS] = { 0, 1, 2, 3 };
	int kept = n;
	if ( n > CN_MAX_MANIFOLD_POINTS )
	{
		kept = cnReduceManifoldPoints( candidates, n, nR, CN_DEPTH_TOL * size, 1e-6 * size, keep );
	}

	// one rotation matrix serves all the points
	cnMat3 rw = cnMat3FromQuat( xfR.q );
	cnVec3 normal = cnMulMV( rw, nR );
	m->normal = refIsB ? cnNeg( normal ) : normal;
	for ( int q = 0; q < kept; ++q )
	{
		const cnClipPoint* cp = candidates + keep[q];
		// midway between the incident point and its projection onto the reference face
		cnVec3 p = cnMulSub( cp->point, 0.5 * cp->separation, nR );
		cnManifoldPoint* mp = m->points + q;
		mp->point = cnAdd( cnMulMV( rw, p ), xfR.p );
		mp->separation = cp->separation;
		mp->id = cp->id;
	}
	return kept;
}

const cnGeometry* cnBoxThroughSeams( const cnGeometry* a, cnTransform* xfA, double reach, cnGeometry* grown )
{
	if ( a->internalFaces == 0 )
	{
		return a;
	}
	*grown = *a;
	grown->internalFaces = 0;
	double h[3] = { a->halfExtents.x, a->halfExtents.y, a->halfExtents.z }, offset[3];
	for ( int k = 0; k < 3; ++k )
	{
		double grow0 = reach < a->internalDepth[2 * k] ? reach : a->internalDepth[2 * k];
		double grow1 = reach < a->internalDepth[2 * k + 1] ? reach : a->internalDepth[2 * k + 1];
		double lo = -h[k] - ( ( a->internalFaces >> ( 2 * k ) ) & 1u ? grow0 : 0.0 );
		double hi = h[k] + ( ( a->internalFaces >> ( 2 * k + 1 ) ) & 1u ? grow1 : 0.0 );
		offset[k] = 0.5 * ( lo + hi );
		h[k] = 0.5 * ( hi - lo );
	}
	grown->halfExtents = cnV3( h[0], h[1], h[2] );
	xfA->p = cnTransformPoint( *xfA, cnV3( offset[0], offset[1], offset[2] ) );
	return grown;
}

// True when the normal n (from A to B, in A's frame) leans into an internal face of A, or -n into
// one of B's (whose axis k is column k of c). Such an axis separates the two boxes, but along a
// seam between static boxes: a contact along it would push where the solid continues.
static bool cnIsGhostAxis( const double n[3], uint8_t facesA, uint8_t facesB, double c[3][3] )
{
	for ( int f = 0; f < 6; ++f )
	{
		double side = ( f & 1 ) ? 1.0 : -1.0;
		int k = f / 2;
		if ( ( facesA & ( 1u << f ) ) != 0 && side * n[k] > CN_INTERNAL_LEAN )
		{
			return true;
		}
		double alongB = n[0] * c[0][k] + n[1] * c[1][k] + n[2] * c[2][k];
		if ( ( facesB & ( 1u << f ) ) != 0 && -side * alongB > CN_INTERNAL_LEAN )
		{
			return true;
		}
	}
	return false;
}

bool cnLeansIntoInternalFace( const cnGeometry* box, cnQuat q, cnVec3 normal )
{
	if ( box->type != cnShape_box || box->internalFaces == 0 )
	{
		return false;
	}
	cnVec3 local = cnInvRotate( q, normal );
	const double n[3] = { local.x, local.y, local.z };
	double identity[3][3] = { { 1.0, 0.0, 0.0 }, { 0.0, 1.0, 0.0 }, { 0.0, 0.0, 1.0 } };
	return cnIsGhostAxis( n, box->internalFaces, 0u, identity );
}

void cnCollideBoxes( const cnGeometry* a, cnTransform xfA, const cnGeometry* b, cnTransform xfB, double maxDistance,
					 cnManifold* m )
{
	m->pointCount = 0;
	const double hA[3] = { a->halfExtents.x, a->halfExtents.y, a->halfExtents.z };
	const double hB[3] = { b->halfExtents.x, b->halfExtents.y, b->halfExtents.z };

	// B in A's frame: c[r][k] is component r of B's axis k, t is B's centre
	cnMat3 rm = cnMat3FromQuat( cnInvMulQuat( xfA.q, xfB.q ) );
	cnVec3 tv = cnInvRotate( xfA.q, cnSub( xfB.p, xfA.p ) );
	const double t[3] = { tv.x, tv.y, tv.z };
	double c[3][3] = { { rm.cx.x, rm.cy.x, rm.cz.x }, { rm.cx.y, rm.cy.y, rm.cz.y }, { rm.cx.z, rm.cy.z, rm.cz.z } };
	double ac[3][3];
	for ( int r = 0; r < 3; ++r )
	{
		for ( int k = 0; k < 3; ++k )
		{
			ac[r][k] = fabs( c[r][k] );
		}
	}

	// With internal faces, axes that push along a seam are passed over when choosing (they still
	// prove separation). A box buried in a block of static boxes may find every face axis so: then
	// the choice is made again over all of them.
	uint8_t facesA = a->internalFaces, facesB = b->internalFaces;
	bool skipGhosts = ( facesA | facesB ) != 0;
	double sepA, sepB, sepE, tB[3];
	int axisA, axisB, edgeI, edgeK;
	for ( ;; )
	{
		// face axes of A
		sepA = -DBL_MAX;
		axisA = 0;
		for ( int i = 0; i < 3; ++i )
		{
			double rB = ac[i][0] * hB[0] + ac[i][1] * hB[1] + ac[i][2] * hB[2];
			double s = fabs( t[i] ) - hA[i] - rB;
			if ( s > maxDistance )
			{
				return;
			}
			double n[3] = { 0.0, 0.0, 0.0 };
			n[i] = cnSign( t[i] );
			if ( s > sepA && ( skipGhosts == false || cnIsGhostAxis( n, facesA, facesB, c ) == false ) )
			{
				sepA = s;
				axisA = i;
			}
		}

		// face axes of B
		sepB = -DBL_MAX;
		axisB = 0;
		for ( int k = 0; k < 3; ++k )
		{
			tB[k] = c[0][k] * t[0] + c[1][k] * t[1] + c[2][k] * t[2];
			double rA = ac[0][k] * hA[0] + ac[1][k] * hA[1] + ac[2][k] * hA[2];
			double s = fabs( tB[k] ) - rA - hB[k];
			if ( s > maxDistance )
			{
				return;
			}
			double sk = cnSign( tB[k] );
			double n[3] = { sk * c[0][k], sk * c[1][k], sk * c[2][k] };
			if ( s > sepB && ( skipGhosts == false || cnIsGhostAxis( n, facesA, facesB, c ) == false ) )
			{
				sepB = s;
				axisB = k;
			}
		}

		// edge axes e_i x b_k, unnormalised: with i1, i2 (k1, k2) the other two axes,
		// |e_i x b_k| = sqrt(c[i1][k]^2 + c[i2][k]^2), the centre projects to t[i2] c[i1][k] - t[i1] c[i2][k],
		// A's radius is hA[i1] |c[i2][k]| + hA[i2] |c[i1][k]| and B's hB[k1] |c[i][k2]| + hB[k2] |c[i][k1]|
		sepE = -DBL_MAX;
		edgeI = -1;
		edgeK = -1;
		for ( int i = 0; i < 3; ++i )
		{
			int i1 = cnNext[i], i2 = cnPrev[i];
			for ( int k = 0; k < 3; ++k )
			{
				int k1 = cnNext[k], k2 = cnPrev[k];
				double len2 = c[i1][k] * c[i1][k] + c[i2][k] * c[i2][k];
				if ( len2 < CN_EDGE_PARALLEL_SIN * CN_EDGE_PARALLEL_SIN )
				{
					continue;
				}
				double len = sqrt( len2 );
				double tl = t[i2] * c[i1][k] - t[i1] * c[i2][k];
				double rA = hA[i1] * ac[i2][k] + hA[i2] * ac[i1][k];
				double rB = hB[k1] * ac[i][k2] + hB[k2] * ac[i][k1];
				double s = ( fabs( tl ) - rA - rB ) / len;
				if ( s > maxDistance )
				{
					return;
				}
				if ( s > sepE && skipGhosts )
				{
					// e_i x b_k has components (i1: -c[i2][k], i2: c[i1][k]), turned towards B
					double sn = cnSign( tl ) / len;
					double n[3] = { 0.0, 0.0, 0.0 };
					n[i1] = -sn * c[i2][k];
					n[i2] = sn * c[i1][k];
					if ( cnIsGhostAxis( n, facesA, facesB, c ) )
					{
						continue;
					}
				}
				if ( s > sepE )
				{
					sepE = s;
					edgeI = i;
					edgeK = k;
				}
			}
		}
		if ( skipGhosts == false || sepA > -DBL_MAX || sepB > -DBL_MAX )
		{
			break;
		}
		skipGhosts = false;
	}

	double size = hA[0];
	for ( int r = 0; r < 3; ++r )
	{
		size = hA[r] < size ? hA[r] : size;
		size = hB[r] < size ? hB[r] : size;
	}
	double absTol = CN_ABS_TOL * size;

	// the best face: A's unless B's is clearly better
	bool useB = sepB > sepA + CN_FACE_REL_TOL * fabs( sepA ) + absTol;
	// an edge cross must beat the better of the two faces, not only the face chosen: A's face kept
	// by the tolerance above while B's separates clearly better is still a face contact (a box
	// tipping over a ledge got a single edge point and sank through the ledge's corner)
	double sepFace = sepB > sepA ? sepB : sepA;

	if ( edgeI >= 0 && sepE > sepFace + CN_EDGE_REL_TOL * fabs( sepFace ) + absTol )
	{
		// edge-edge: the normal e_i x b_k points from A to B
		int i = edgeI, k = edgeK;
		double bk[3] = { c[0][k], c[1][k], c[2][k] };
		double ei[3] = { 0.0, 0.0, 0.0 };
		ei[i] = 1.0;
		cnVec3 nv = cnNormalize( cnCross( cnV3( ei[0], ei[1], ei[2] ), cnV3( bk[0], bk[1], bk[2] ) ) );
		if ( nv.x * t[0] + nv.y * t[1] + nv.z * t[2] < 0.0 )
		{
			nv = cnNeg( nv );
		}
		double n[3] = { nv.x, nv.y, nv.z };

		// A's edge: along e_i, at the corner of A farthest along n
		double pa[3];
		uint32_t signs = 0;
		for ( int r = 0; r < 3; ++r )
		{
			double s = cnSign( n[r] );
			pa[r] = r == i ? 0.0 : s * hA[r];
			signs |= ( r != i && s > 0.0 ) ? 1u << r : 0u;
		}
		// B's edge: along b_k, at the corner of B farthest along -n
		double pb[3] = { t[0], t[1], t[2] };
		for ( int l = 0; l < 3; ++l )
		{
			if ( l == k )
			{
				continue;
			}
			double s = -cnSign( n[0] * c[0][l] + n[1] * c[1][l] + n[2] * c[2][l] );
			for ( int r = 0; r < 3; ++r )
			{
				pb[r] += s * hB[l] * c[r][l];
			}
			signs |= s > 0.0 ? 8u << l : 0u;
		}

		// closest points of the two edge lines (not parallel here), clamped to the edges
		double w[3] = { pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2] };
		double ab = bk[i];
		double q1 = w[i];
		double q2 = -( bk[0] * w[0] + bk[1] * w[1] + bk[2] * w[2] );
		double den = 1.0 - ab * ab;
		double sa = cnClampD( ( q1 + ab * q2 ) / den, -hA[i], hA[i] );
		double sb = cnClampD( ( ab * q1 + q2 ) / den, -hB[k], hB[k] );
		double mid[3];
		for ( int r = 0; r < 3; ++r )
		{
			double ca = pa[r] + ( r == i ? sa : 0.0 );
			double cb = pb[r] + sb * bk[r];
			mid[r] = 0.5 * ( ca + cb );
		}

		m->normal = cnRotate( xfA.q, nv );
		cnManifoldPoint* mp = m->points + 0;
		mp->point = cnTransformPoint( xfA, cnV3( mid[0], mid[1], mid[2] ) );
		mp->separation = sepE;
		mp->id = CN_EDGE_ID | ( (uint32_t)( 3 * i + k ) << 6 ) | signs;
		m->pointCount = 1;
		return;
	}

	if ( useB == false )
	{
		m->pointCount = cnClipFaces( hA, hB, c, t, axisA, cnSign( t[axisA] ), xfA, false, size, maxDistance, m );
	}
	else
	{
		// A seen from B: the transpose rotation and A's centre -C^T t
		double ct[3][3];
		for ( int r = 0; r < 3; ++r )
		{
			for ( int k = 0; k < 3; ++k )
			{
				ct[r][k] = c[k][r];
			}
		}
		double tA[3] = { -tB[0], -tB[1], -tB[2] };
		m->pointCount = cnClipFaces( hB, hA, ct, tA, axisB, cnSign( tA[axisB] ), xfB, true, size, maxDistance, m );
	}
}
