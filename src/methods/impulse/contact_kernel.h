// SPDX-License-Identifier: MIT
// The contact kernel of the impulse method, written once over a lane type and compiled by each path:
// contact_scalar.c (one lane, double), contact_sse2.c, contact_avx2.c and contact_avx512.c (eight
// lanes). Included after the path defines:
//   cnW, cnM                      a value per lane and a mask per lane
//   cnW_add sub mul div max min sqrt  lane-wise IEEE operations (max(a, b) is a > b ? a : b,
//                                 min(a, b) is a < b ? a : b)
//   cnW_splat(x), cnW_gt(a, b), cnW_lt(a, b), cnW_ge(a, b), cnW_select(m, a, b) (m ? a : b)
//   CN_LD(array), CN_ST(array, w) load and store the lanes of a double[CN_LANES]
//   CN_POINTS(g, lane)            the points to visit; CN_ACTIVE(g, j, lane) the lanes that have j;
//                                 CN_SKIP(g, j, lane) true where a one-lane path has no point j;
//                                 CN_COUNT(g, lane) the lanes' point counts as doubles
//   cnGather(states, g, lane, A, B) and cnScatter(states, g, lane, A, B)
// A wide path (SSE2, AVX2, AVX-512: a whole group of CN_LANES at once) defines only CN_WIDE_LANES,
// cnW_load, cnW_store and cnLaneCounts (each lane's point count as a cnW), and cnLoadBodies and
// cnStoreBodies after the include; the rest is defined here.
// Every path performs the same operations in the same order on each lane, so they agree to the bit.
#pragma once

#if defined( CN_WIDE_LANES )
// the lanes whose constraint has a point j
static inline cnM cnActiveLanes( const cnWideGroup* g, int j )
{
	return cnW_gt( cnLaneCounts( g ), cnW_splat( (double)j ) );
}

#define CN_LD( array ) cnW_load( array )
#define CN_ST( array, value ) cnW_store( array, value )
#define CN_POINTS( g, lane ) ( ( g )->maxPointCount )
#define CN_ACTIVE( g, j, lane ) cnActiveLanes( g, j )
#define CN_SKIP( g, j, lane ) false
#define CN_COUNT( g, lane ) cnLaneCounts( g )
#endif

typedef struct cnV3W
{
	cnW x, y, z;
} cnV3W;

/// A body's velocities, its displacement and twice the vector part of its rotation since the step's
/// start (the small-angle rotation vector the separation uses).
typedef struct cnBodyW
{
	cnV3W v, w, dp, th;
} cnBodyW;

// defined by each path after it includes this file
static inline void cnGather( const cnBodyState* states, const cnWideGroup* g, int lane, cnBodyW* A, cnBodyW* B );
static inline void cnScatter( cnBodyState* states, const cnWideGroup* g, int lane, const cnBodyW* A, const cnBodyW* B );

static inline cnV3W cnV3W_load( double a[3][CN_LANES], int lane )
{
	(void)lane;
	return (cnV3W){ CN_LD( a[0] ), CN_LD( a[1] ), CN_LD( a[2] ) };
}

static inline cnV3W cnV3W_add( cnV3W a, cnV3W b )
{
	return (cnV3W){ cnW_add( a.x, b.x ), cnW_add( a.y, b.y ), cnW_add( a.z, b.z ) };
}

static inline cnV3W cnV3W_sub( cnV3W a, cnV3W b )
{
	return (cnV3W){ cnW_sub( a.x, b.x ), cnW_sub( a.y, b.y ), cnW_sub( a.z, b.z ) };
}

static inline cnV3W cnV3W_scale( cnW s, cnV3W a )
{
	return (cnV3W){ cnW_mul( s, a.x ), cnW_mul( s, a.y ), cnW_mul( s, a.z ) };
}

static inline cnW cnV3W_dot( cnV3W a, cnV3W b )
{
	return cnW_add( cnW_add( cnW_mul( a.x, b.x ), cnW_mul( a.y, b.y ) ), cnW_mul( a.z, b.z ) );
}

static inline cnV3W cnV3W_cross( cnV3W a, cnV3W b )
{
	return (cnV3W){ cnW_sub( cnW_mul( a.y, b.z ), cnW_mul( a.z, b.y ) ),
					cnW_sub( cnW_mul( a.z, b.x ), cnW_mul( a.x, b.z ) ),
					cnW_sub( cnW_mul( a.x, b.y ), cnW_mul( a.y, b.x ) ) };
}

static inline cnV3W cnV3W_select( cnM m, cnV3W a, cnV3W b )
{
	return (cnV3W){ cnW_select( m, a.x, b.x ), cnW_select( m, a.y, b.y ), cnW_select( m, a.z, b.z ) };
}

// The symmetric inverse inertia (xx, yy, zz, xy, xz, yz) times r.
static inline cnV3W cnInertiaTimes( double I[6][CN_LANES], int lane, cnV3W r )
{
	(void)lane;
	cnW xx = CN_LD( I[0] ), yy = CN_LD( I[1] ), zz = CN_LD( I[2] );
	cnW xy = CN_LD( I[3] ), xz = CN_LD( I[4] ), yz = CN_LD( I[5] );
	return (cnV3W){ cnW_add( cnW_add( cnW_mul( xx, r.x ), cnW_mul( xy, r.y ) ), cnW_mul( xz, r.z ) ),
					cnW_add( cnW_add( cnW_mul( xy, r.x ), cnW_mul( yy, r.y ) ), cnW_mul( yz, r.z ) ),
					cnW_add( cnW_add( cnW_mul( xz, r.x ), cnW_mul( yz, r.y ) ), cnW_mul( zz, r.z ) ) };
}

// Applies the impulse P at the anchors: -P to A and +P to B, in the lanes of m only (the others keep
// their bits exactly, so a lane without this point is as if it were not visited).
static inline void cnApplyImpulseW( cnBodyW* A, cnBodyW* B, cnWideGroup* g, int lane, cnM m, cnV3W rA,
									cnV3W rB, cnV3W P )
{
	cnV3W vA = cnV3W_sub( A->v, cnV3W_scale( CN_LD( g->invMassA ), P ) );
	cnV3W wA = cnV3W_sub( A->w, cnInertiaTimes( g->invIA, lane, cnV3W_cross( rA, P ) ) );
	cnV3W vB = cnV3W_add( B->v, cnV3W_scale( CN_LD( g->invMassB ), P ) );
	cnV3W wB = cnV3W_add( B->w, cnInertiaTimes( g->invIB, lane, cnV3W_cross( rB, P ) ) );
	A->v = cnV3W_select( m, vA, A->v );
	A->w = cnV3W_select( m, wA, A->w );
	B->v = cnV3W_select( m, vB, B->v );
	B->w = cnV3W_select( m, wB, B->w );
}

// Applies the normal impulse lambda n at the anchors whose rows' angular parts are rnA = rA x n and
// rnB = rB x n, in the lanes of m only.
static inline void cnApplyNormalW( cnBodyW* A, cnBodyW* B, cnWideGroup* g, int lane, cnM m, cnV3W n, cnV3W rnA,
								   cnV3W rnB, cnW lambda )
{
	cnV3W vA = cnV3W_sub( A->v, cnV3W_scale( cnW_mul( CN_LD( g->invMassA ), lambda ), n ) );
	cnV3W wA = cnV3W_sub( A->w, cnV3W_scale( lambda, cnInertiaTimes( g->invIA, lane, rnA ) ) );
	cnV3W vB = cnV3W_add( B->v, cnV3W_scale( cnW_mul( CN_LD( g->invMassB ), lambda ), n ) );
	cnV3W wB = cnV3W_add( B->w, cnV3W_scale( lambda, cnInertiaTimes( g->invIB, lane, rnB ) ) );
	A->v = cnV3W_select( m, vA, A->v );
	A->w = cnV3W_select( m, wA, A->w );
	B->v = cnV3W_select( m, vB, B->v );
	B->w = cnV3W_select( m, wB, B->w );
}

// The relative velocity of the anchors: (vB + wB x rB) - (vA + wA x rA).
static inline cnV3W cnRelativeVelocityW( const cnBodyW* A, const cnBodyW* B, cnV3W rA, cnV3W rB )
{
	return cnV3W_sub( cnV3W_add( B->v, cnV3W_cross( B->w, rB ) ), cnV3W_add( A->v, cnV3W_cross( A->w, rA ) ) );
}

// Applies an angular impulse L about the normal (twist): -L to A, +L to B.
static inline void cnApplyTwistW( cnBodyW* A, cnBodyW* B, cnWideGroup* g, int lane, cnV3W L )
{
	A->w = cnV3W_sub( A->w, cnInertiaTimes( g->invIA, lane, L ) );
	B->w = cnV3W_add( B->w, cnInertiaTimes( g->invIB, lane, L ) );
}

/// Applies the accumulated impulses (warm start): the normal impulse of every point, the friction
/// impulse at the centre and the twist, summed first into one linear and one angular impulse per body
/// (sum_j lambda_j (r_j x n) = (sum_j lambda_j r_j) x n), so each body takes one inertia product.
/// (Points past a lane's count hold zeros in a wide group and add nothing.)
static inline void cnKernelWarmStart( cnBodyState* states, cnWideGroup* g, int lane )
{
	cnBodyW A, B;
	cnGather( states, g, lane, &A, &B );
	cnV3W n = cnV3W_load( g->normal, lane );
	cnW zero = cnW_splat( 0.0 );
	cnW total = zero;
	cnV3W momentA = { zero, zero, zero }, momentB = { zero, zero, zero };
	for ( int j = 0; j < CN_POINTS( g, lane ); ++j )
	{
		cnWidePoint* p = g->points + j;
		cnW lambda = CN_LD( p->normalImpulse );
		total = cnW_add( total, lambda );
		momentA = cnV3W_add( momentA, cnV3W_scale( lambda, cnV3W_load( p->rA, lane ) ) );
		momentB = cnV3W_add( momentB, cnV3W_scale( lambda, cnV3W_load( p->rB, lane ) ) );
	}
	cnV3W F = cnV3W_add( cnV3W_scale( CN_LD( g->frictionImpulse[0] ), cnV3W_load( g->tangent1, lane ) ),
						 cnV3W_scale( CN_LD( g->frictionImpulse[1] ), cnV3W_load( g->tangent2, lane ) ) );
	cnV3W P = cnV3W_add( cnV3W_scale( total, n ), F );
	cnV3W twist = cnV3W_scale( CN_LD( g->twistImpulse ), n );
	cnV3W LA = cnV3W_add( cnV3W_add( cnV3W_cross( momentA, n ), cnV3W_cross( cnV3W_load( g->centerA, lane ), F ) ), twist );
	cnV3W LB = cnV3W_add( cnV3W_add( cnV3W_cross( momentB, n ), cnV3W_cross( cnV3W_load( g->centerB, lane ), F ) ), twist );
	A.v = cnV3W_sub( A.v, cnV3W_scale( CN_LD( g->invMassA ), P ) );
	A.w = cnV3W_sub( A.w, cnInertiaTimes( g->invIA, lane, LA ) );
	B.v = cnV3W_add( B.v, cnV3W_scale( CN_LD( g->invMassB ), P ) );
	B.w = cnV3W_add( B.w, cnInertiaTimes( g->invIB, lane, LB ) );
	cnScatter( states, g, lane, &A, &B );
}

/// One pass of the contact rows: non-penetration at every point (soft position correction when
/// pass->useBias, rigid when relaxing), then, when relaxing, twist and friction at the manifold's
/// centre.
static inline void cnKernelSolve( cnBodyState* states, cnWideGroup* g, int lane, const cnSolvePass* pass )
{
	cnBodyW A, B;
	cnGather( states, g, lane, &A, &B );
	cnV3W n = cnV3W_load( g->normal, lane );
	cnW zero = cnW_splat( 0.0 );
	cnW one = cnW_splat( 1.0 );
	cnW inv_h = cnW_splat( pass->inv_h );
	cnW minusMaxPush = cnW_splat( -pass->maxPush );
	cnW slop = cnW_splat( pass->slop );
	cnW minusSlop = cnW_splat( -pass->slop );
	cnW biasRate = CN_LD( g->biasRate );
	cnW massScale = CN_LD( g->massScale );
	cnW impulseScale = CN_LD( g->impulseScale );
	// the points in turn from point -pass->turn, forwards or backwards, counted over the lane's points
	// (a wide path's lanes all have the group's point count, contact_graph.c; the one-lane path, which
	// also runs the overflow set's mixed groups, counts its own lane's), so no lane's order depends on
	// its neighbours
	int maxPointCount = CN_POINTS( g, lane );
	int firstPoint = maxPointCount > 0 ? ( maxPointCount - pass->turn % maxPointCount ) % maxPointCount : 0;
	// the total normal impulse and its moment about the friction centre (lanes without a point add
	// exact zeros)
	cnW totalNormal = zero, twistMoment = zero;

	for ( int jj = 0; jj < maxPointCount; ++jj )
	{
		// (both terms are below maxPointCount: one subtraction wraps, no division in the loop)
		int j = firstPoint + ( pass->reverse ? maxPointCount - 1 - jj : jj );
		j = j < maxPointCount ? j : j - maxPointCount;
		if ( CN_SKIP( g, j, lane ) )
		{
			continue;
		}
		cnWidePoint* p = g->points + j;
		cnV3W rA = cnV3W_load( p->rA, lane );
		cnV3W rB = cnV3W_load( p->rB, lane );

		// the current separation: the one at the step's start plus the normal motion of the anchors,
		// to first order in the rotation (the exact rotated anchor would let a rolling sphere sink)
		// ((th x r) . n = th . (r x n): the rows' angular parts serve the separation, the speed and the
		// impulse alike)
		cnV3W rnA = cnV3W_cross( rA, n ), rnB = cnV3W_cross( rB, n );
		cnW s = cnW_add( cnW_add( cnV3W_dot( cnV3W_sub( B.dp, A.dp ), n ), cnW_sub( cnV3W_dot( B.th, rnB ), cnV3W_dot( A.th, rnA ) ) ),
						 CN_LD( p->separation ) );

		// speculative (s > 0): the gap may close exactly within this sub-step; overlap beyond the slop
		// (when correcting) is pushed out softly at a bounded speed; otherwise the contact is rigid:
		// the approach speed is removed exactly, so a body resting where it was placed stays there
		cnM speculative = cnW_gt( s, zero );
		cnW velocityBias = cnW_select( speculative, cnW_mul( s, inv_h ), zero );
		cnW ms = one, is = zero;
		if ( pass->useBias )
		{
			cnM soft = cnW_lt( s, minusSlop );
			cnW push = cnW_max( cnW_mul( biasRate, cnW_add( s, slop ) ), minusMaxPush );
			velocityBias = cnW_select( soft, push, velocityBias );
			ms = cnW_select( soft, massScale, one );
			is = cnW_select( soft, impulseScale, zero );
		}

		cnW vn = cnW_add( cnV3W_dot( cnV3W_sub( B.v, A.v ), n ), cnW_sub( cnV3W_dot( B.w, rnB ), cnV3W_dot( A.w, rnA ) ) );
		cnW old = CN_LD( p->normalImpulse );
		cnW impulse = cnW_sub( cnW_mul( cnW_mul( cnW_sub( zero, CN_LD( p->normalMass ) ), ms ), cnW_add( vn, velocityBias ) ),
							   cnW_mul( is, old ) );
		cnW total = cnW_max( cnW_add( old, impulse ), zero );
		impulse = cnW_sub( total, old );
		CN_ST( p->normalImpulse, total );
		CN_ST( p->maxNormalImpulse, cnW_max( CN_LD( p->maxNormalImpulse ), impulse ) );
		totalNormal = cnW_add( totalNormal, total );
		twistMoment = cnW_add( twistMoment, cnW_mul( CN_LD( p->leverArm ), total ) );
		cnApplyNormalW( &A, &B, g, lane, CN_ACTIVE( g, j, lane ), n, rnA, rnB, impulse );
	}

	// friction in both passes. (Box3D applies it only when relaxing: here that would let a box
	// landing on a mesh or a heightfield slide more than a millimetre while its push-out acts;
	// docs/methods.md.)
	{
		cnW friction = CN_LD( g->friction );

		// twist about the normal, up to mu times the normal impulses' moments about the centre
		cnW twistLimit = cnW_mul( friction, twistMoment );
		cnW oldTwist = CN_LD( g->twistImpulse );
		cnW twist = cnW_add( oldTwist, cnW_mul( cnW_sub( zero, CN_LD( g->twistMass ) ), cnV3W_dot( n, cnV3W_sub( B.w, A.w ) ) ) );
		twist = cnW_max( cnW_sub( zero, twistLimit ), cnW_min( twist, twistLimit ) );
		CN_ST( g->twistImpulse, twist );
		cnApplyTwistW( &A, &B, g, lane, cnV3W_scale( cnW_sub( twist, oldTwist ), n ) );

		// friction at the centre, both tangents at once with their coupled mass, clamped to the disk of
		// radius mu times the total normal impulse (a true cone, not a pyramid)
		cnV3W t1 = cnV3W_load( g->tangent1, lane );
		cnV3W t2 = cnV3W_load( g->tangent2, lane );
		cnV3W cA = cnV3W_load( g->centerA, lane );
		cnV3W cB = cnV3W_load( g->centerB, lane );
		cnV3W dv = cnRelativeVelocityW( &A, &B, cA, cB );
		cnW vt1 = cnV3W_dot( dv, t1 ), vt2 = cnV3W_dot( dv, t2 );
		cnW m11 = CN_LD( g->tangentMass[0] ), m12 = CN_LD( g->tangentMass[1] ), m22 = CN_LD( g->tangentMass[2] );
		cnW old1 = CN_LD( g->frictionImpulse[0] ), old2 = CN_LD( g->frictionImpulse[1] );
		cnW new1 = cnW_sub( old1, cnW_add( cnW_mul( m11, vt1 ), cnW_mul( m12, vt2 ) ) );
		cnW new2 = cnW_sub( old2, cnW_add( cnW_mul( m12, vt1 ), cnW_mul( m22, vt2 ) ) );
		cnW maxFriction = cnW_mul( friction, totalNormal );
		cnW length2 = cnW_add( cnW_mul( new1, new1 ), cnW_mul( new2, new2 ) );
		cnM clamp = cnW_gt( length2, cnW_mul( maxFriction, maxFriction ) );
		cnW scale = cnW_div( maxFriction, cnW_sqrt( length2 ) );
		new1 = cnW_select( clamp, cnW_mul( new1, scale ), new1 );
		new2 = cnW_select( clamp, cnW_mul( new2, scale ), new2 );
		CN_ST( g->frictionImpulse[0], new1 );
		CN_ST( g->frictionImpulse[1], new2 );
		cnV3W P = cnV3W_add( cnV3W_scale( cnW_sub( new1, old1 ), t1 ), cnV3W_scale( cnW_sub( new2, old2 ), t2 ) );
		cnApplyImpulseW( &A, &B, g, lane, cnW_gt( one, zero ), cA, cB, P );
	}
	cnScatter( states, g, lane, &A, &B );
}

// A full matrix (cnMat3's columns cx, cy, cz, nine rows of lanes) times r, as cnMulMV computes it.
static inline cnV3W cnMatrixTimes( double m[9][CN_LANES], int lane, cnV3W r )
{
	(void)lane;
	return (cnV3W){ cnW_add( cnW_add( cnW_mul( CN_LD( m[0] ), r.x ), cnW_mul( CN_LD( m[3] ), r.y ) ), cnW_mul( CN_LD( m[6] ), r.z ) ),
					cnW_add( cnW_add( cnW_mul( CN_LD( m[1] ), r.x ), cnW_mul( CN_LD( m[4] ), r.y ) ), cnW_mul( CN_LD( m[7] ), r.z ) ),
					cnW_add( cnW_add( cnW_mul( CN_LD( m[2] ), r.x ), cnW_mul( CN_LD( m[5] ), r.y ) ), cnW_mul( CN_LD( m[8] ), r.z ) ) };
}

// -x exactly, signed zeros included (-0 - x).
static inline cnW cnW_neg( cnW x )
{
	return cnW_sub( cnW_splat( -0.0 ), x );
}

static inline void cnV3W_store( double a[3][CN_LANES], int lane, cnV3W v )
{
	(void)lane;
	CN_ST( a[0], v.x );
	CN_ST( a[1], v.y );
	CN_ST( a[2], v.z );
}

/// Prepares the constraints of a group whose lanes hold what the manifolds give (bodies, masses, the
/// normal, each point's anchors, separation and normal impulse; in `in` the inverse inertias and the
/// carried friction impulses): the tangents, each point's effective mass, approach speed and lever arm,
/// the friction centre with its 2x2 mass and the twist mass, and the friction and twist impulses the
/// points carried (the manifold keeps its friction as a force per point: cnStoreImpulses). The
/// operations are those of the scalar code it replaced (cnPerp, cnSetPointGeometry and
/// cnSetFrictionGeometry, which still re-prepare turning sphere pairs), in the same order, and every
/// path does them alike, so all give the same bits; lanes without a constraint and points past a
/// lane's count are left at zero.
static inline void cnKernelPrepare( const cnBodyState* states, cnWideGroup* g, int lane, cnPrepareLanes* in )
{
	cnBodyW A, B;
	cnGather( states, g, lane, &A, &B );
	cnW zero = cnW_splat( 0.0 );
	cnW one = cnW_splat( 1.0 );
	cnV3W zero3 = { zero, zero, zero };
	cnW count = CN_COUNT( g, lane );
	cnM used = cnW_gt( count, zero );

	// the tangents: cnPerp (the axis least aligned with n), normalised, then n x t1
	cnV3W n = cnV3W_load( g->normal, lane );
	cnM xAxis = cnW_ge( cnW_max( n.x, cnW_neg( n.x ) ), cnW_splat( 0.57735026919 ) );
	cnV3W u = cnV3W_select( xAxis, (cnV3W){ n.y, cnW_neg( n.x ), zero }, (cnV3W){ zero, n.z, cnW_neg( n.y ) } );
	cnW length = cnW_sqrt( cnV3W_dot( u, u ) );
	cnV3W t1 = cnV3W_select( cnW_lt( length, cnW_splat( 1e-300 ) ), zero3, cnV3W_scale( cnW_div( one, length ), u ) );
	cnV3W t2 = cnV3W_cross( n, t1 );

	// each point's effective mass 1 / (J M^-1 J^T) and approach speed; the centres of its anchors
	cnW mA = CN_LD( g->invMassA ), mB = CN_LD( g->invMassB );
	cnV3W sumA = zero3, sumB = zero3;
	for ( int j = 0; j < CN_POINTS( g, lane ); ++j )
	{
		if ( CN_SKIP( g, j, lane ) )
		{
			continue;
		}
		cnM active = CN_ACTIVE( g, j, lane );
		cnWidePoint* p = g->points + j;
		cnV3W rA = cnV3W_load( p->rA, lane );
		cnV3W rB = cnV3W_load( p->rB, lane );
		cnV3W rnA = cnV3W_cross( rA, n ), rnB = cnV3W_cross( rB, n );
		cnW k = cnW_add( cnW_add( cnW_add( mA, mB ), cnV3W_dot( rnA, cnMatrixTimes( in->invIA, lane, rnA ) ) ),
						 cnV3W_dot( rnB, cnMatrixTimes( in->invIB, lane, rnB ) ) );
		CN_ST( p->normalMass, cnW_select( active, cnW_select( cnW_gt( k, zero ), cnW_div( one, k ), zero ), zero ) );
		cnV3W vA = cnV3W_add( A.v, cnV3W_cross( A.w, rA ) );
		cnV3W vB = cnV3W_add( B.v, cnV3W_cross( B.w, rB ) );
		CN_ST( in->relativeVelocity[j], cnV3W_dot( n, cnV3W_sub( vB, vA ) ) );
		sumA = cnV3W_select( active, cnV3W_add( sumA, rA ), sumA );
		sumB = cnV3W_select( active, cnV3W_add( sumB, rB ), sumB );
	}
	cnW inv = cnW_div( one, count );
	cnV3W centerA = cnV3W_scale( inv, sumA ), centerB = cnV3W_scale( inv, sumB );

	// friction at the centre: lever arms, the coupled 2x2 tangent mass, the twist mass
	cnV3W a1 = cnV3W_cross( centerA, t1 ), a2 = cnV3W_cross( centerA, t2 );
	cnV3W b1 = cnV3W_cross( centerB, t1 ), b2 = cnV3W_cross( centerB, t2 );
	cnV3W ia1 = cnMatrixTimes( in->invIA, lane, a1 ), ia2 = cnMatrixTimes( in->invIA, lane, a2 );
	cnV3W ib1 = cnMatrixTimes( in->invIB, lane, b1 ), ib2 = cnMatrixTimes( in->invIB, lane, b2 );
	cnW m = cnW_add( mA, mB );
	cnW k11 = cnW_add( cnW_add( m, cnV3W_dot( a1, ia1 ) ), cnV3W_dot( b1, ib1 ) );
	cnW k22 = cnW_add( cnW_add( m, cnV3W_dot( a2, ia2 ) ), cnV3W_dot( b2, ib2 ) );
	cnW k12 = cnW_add( cnV3W_dot( a1, ia2 ), cnV3W_dot( b1, ib2 ) );
	cnW det = cnW_sub( cnW_mul( k11, k22 ), cnW_mul( k12, k12 ) );
	cnW invDet = cnW_select( cnW_gt( det, zero ), cnW_div( one, det ), zero );
	cnW kTwist = cnW_add( cnV3W_dot( n, cnMatrixTimes( in->invIA, lane, n ) ), cnV3W_dot( n, cnMatrixTimes( in->invIB, lane, n ) ) );

	// the friction impulse and twist the points carried (cnFrictionFromPoints)
	cnW f1 = zero, f2 = zero, twist = zero, spread = zero;
	for ( int j = 0; j < CN_POINTS( g, lane ); ++j )
	{
		if ( CN_SKIP( g, j, lane ) )
		{
			continue;
		}
		cnM active = CN_ACTIVE( g, j, lane );
		cnWidePoint* p = g->points + j;
		cnV3W d = cnV3W_sub( cnV3W_load( p->rA, lane ), centerA );
		CN_ST( p->leverArm, cnW_select( active, cnW_sqrt( cnV3W_dot( d, d ) ), zero ) );
		cnV3W offset = cnV3W_sub( d, cnV3W_scale( cnV3W_dot( d, n ), n ) );
		cnW i1 = CN_LD( in->tangentImpulse[j][0] ), i2 = CN_LD( in->tangentImpulse[j][1] );
		cnV3W force = cnV3W_add( cnV3W_scale( i1, t1 ), cnV3W_scale( i2, t2 ) );
		f1 = cnW_select( active, cnW_add( f1, i1 ), f1 );
		f2 = cnW_select( active, cnW_add( f2, i2 ), f2 );
		twist = cnW_select( active, cnW_add( twist, cnV3W_dot( n, cnV3W_cross( offset, force ) ) ), twist );
		spread = cnW_select( active, cnW_add( spread, cnV3W_dot( offset, offset ) ), spread );
	}

	// (lanes without a constraint keep their zeros)
	cnV3W_store( g->tangent1, lane, cnV3W_select( used, t1, zero3 ) );
	cnV3W_store( g->tangent2, lane, cnV3W_select( used, t2, zero3 ) );
	cnV3W_store( g->centerA, lane, cnV3W_select( used, centerA, zero3 ) );
	cnV3W_store( g->centerB, lane, cnV3W_select( used, centerB, zero3 ) );
	CN_ST( g->tangentMass[0], cnW_select( used, cnW_mul( invDet, k22 ), zero ) );
	CN_ST( g->tangentMass[1], cnW_select( used, cnW_mul( cnW_neg( invDet ), k12 ), zero ) );
	CN_ST( g->tangentMass[2], cnW_select( used, cnW_mul( invDet, k11 ), zero ) );
	CN_ST( g->twistMass, cnW_select( cnW_gt( kTwist, zero ), cnW_div( one, kTwist ), zero ) );
	CN_ST( g->frictionImpulse[0], f1 );
	CN_ST( g->frictionImpulse[1], f2 );
	CN_ST( g->twistImpulse, cnW_select( cnW_gt( spread, zero ), twist, zero ) );
}

#if defined( CN_WIDE_LANES )
// A wide path reads and writes the bodies of a whole group at once (cnLoadBodies, cnStoreBodies,
// defined by the path after it includes this file) and runs the kernel once per group.
static inline void cnLoadBodies( const cnBodyState* states, const int index[CN_LANES], cnBodyW* X );
static inline void cnStoreBodies( cnBodyState* states, const int index[CN_LANES], const int write[CN_LANES],
								  const cnBodyW* X );

static inline void cnGather( const cnBodyState* states, const cnWideGroup* g, int lane, cnBodyW* A, cnBodyW* B )
{
	(void)lane;
	cnLoadBodies( states, g->indexA, A );
	cnLoadBodies( states, g->indexB, B );
}

static inline void cnScatter( cnBodyState* states, const cnWideGroup* g, int lane, const cnBodyW* A, const cnBodyW* B )
{
	(void)lane;
	cnStoreBodies( states, g->indexA, g->writeA, A );
	cnStoreBodies( states, g->indexB, g->writeB, B );
}

/// Defines a path's warm start and solve over groups [begin, end) of one colour.
#define CN_DEFINE_GROUP_LOOPS( warmStartName, solveName )                                                              \
	void warmStartName( cnBodyState* states, cnWideGroup* groups, int begin, int end )                                 \
	{                                                                                                                  \
		for ( int i = begin; i < end; ++i )                                                                            \
		{                                                                                                              \
			cnKernelWarmStart( states, groups + i, 0 );                                                                \
		}                                                                                                              \
	}                                                                                                                  \
	void solveName( cnBodyState* states, cnWideGroup* groups, int begin, int end, const cnSolvePass* pass )            \
	{                                                                                                                  \
		for ( int i = begin; i < end; ++i )                                                                            \
		{                                                                                                              \
			cnKernelSolve( states, groups + i, 0, pass );                                                              \
		}                                                                                                              \
	}
#endif
