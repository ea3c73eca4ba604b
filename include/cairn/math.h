// SPDX-License-Identifier: MIT
// Cairn inline math: 3-vectors, unit quaternions [w, x, y, z], 3x3 matrices and rigid transforms.
// Double precision, right-handed. Everything here is a pure function on plain values.
#pragma once

#include <math.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// pi, since strict C17 has no M_PI.
#define CN_PI 3.14159265358979323846

/// A 3-vector.
typedef struct cnVec3
{
	double x, y, z;
} cnVec3;

/// A unit quaternion w + xi + yj + zk describing a rotation.
typedef struct cnQuat
{
	double w, x, y, z;
} cnQuat;

/// A 3x3 matrix stored by columns.
typedef struct cnMat3
{
	cnVec3 cx, cy, cz;
} cnMat3;

/// A rigid transform: rotate by q, then translate by p.
typedef struct cnTransform
{
	cnVec3 p;
	cnQuat q;
} cnTransform;

/// An axis-aligned bounding box.
typedef struct cnAABB
{
	cnVec3 lower, upper;
} cnAABB;

static const cnVec3 cnVec3_zero = { 0.0, 0.0, 0.0 };
static const cnQuat cnQuat_identity = { 1.0, 0.0, 0.0, 0.0 };
static const cnTransform cnTransform_identity = { { 0.0, 0.0, 0.0 }, { 1.0, 0.0, 0.0, 0.0 } };
static const cnMat3 cnMat3_zero = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } };
static const cnMat3 cnMat3_identity = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };

/// Makes a vector from components.
static inline cnVec3 cnV3( double x, double y, double z )
{
	cnVec3 v = { x, y, z };
	return v;
}

/// a + b
static inline cnVec3 cnAdd( cnVec3 a, cnVec3 b )
{
	return cnV3( a.x + b.x, a.y + b.y, a.z + b.z );
}

/// a - b
static inline cnVec3 cnSub( cnVec3 a, cnVec3 b )
{
	return cnV3( a.x - b.x, a.y - b.y, a.z - b.z );
}

/// -a
static inline cnVec3 cnNeg( cnVec3 a )
{
	return cnV3( -a.x, -a.y, -a.z );
}

/// s * a
static inline cnVec3 cnMulSV( double s, cnVec3 a )
{
	return cnV3( s * a.x, s * a.y, s * a.z );
}

/// a + s * b
static inline cnVec3 cnMulAdd( cnVec3 a, double s, cnVec3 b )
{
	return cnV3( a.x + s * b.x, a.y + s * b.y, a.z + s * b.z );
}

/// a - s * b
static inline cnVec3 cnMulSub( cnVec3 a, double s, cnVec3 b )
{
	return cnV3( a.x - s * b.x, a.y - s * b.y, a.z - s * b.z );
}

/// Component-wise product.
static inline cnVec3 cnMulVV( cnVec3 a, cnVec3 b )
{
	return cnV3( a.x * b.x, a.y * b.y, a.z * b.z );
}

/// Dot product.
static inline double cnDot( cnVec3 a, cnVec3 b )
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

/// Cross product a x b.
static inline cnVec3 cnCross( cnVec3 a, cnVec3 b )
{
	return cnV3( a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x );
}

/// Euclidean length.
static inline double cnLength( cnVec3 a )
{
	return sqrt( cnDot( a, a ) );
}

/// Squared length.
static inline double cnLengthSquared( cnVec3 a )
{
	return cnDot( a, a );
}

/// Distance between two points.
static inline double cnDistance( cnVec3 a, cnVec3 b )
{
	return cnLength( cnSub( b, a ) );
}

/// Unit vector along a, or zero when a is (nearly) zero.
static inline cnVec3 cnNormalize( cnVec3 a )
{
	double len = cnLength( a );
	if ( len < 1e-300 )
	{
		return cnVec3_zero;
	}
	return cnMulSV( 1.0 / len, a );
}

/// Component-wise minimum.
static inline cnVec3 cnMin( cnVec3 a, cnVec3 b )
{
	return cnV3( a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z );
}

/// Component-wise maximum.
static inline cnVec3 cnMax( cnVec3 a, cnVec3 b )
{
	return cnV3( a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z );
}

/// Component-wise absolute value.
static inline cnVec3 cnAbs( cnVec3 a )
{
	return cnV3( fabs( a.x ), fabs( a.y ), fabs( a.z ) );
}

/// Linear interpolation (1 - t) a + t b.
static inline cnVec3 cnLerp( cnVec3 a, cnVec3 b, double t )
{
	return cnV3( a.x + t * ( b.x - a.x ), a.y + t * ( b.y - a.y ), a.z + t * ( b.z - a.z ) );
}

/// Component i (0, 1, 2) of a vector.
static inline double cnGet( cnVec3 a, int i )
{
	return i == 0 ? a.x : ( i == 1 ? a.y : a.z );
}

/// True when every component is finite.
static inline bool cnIsValidVec3( cnVec3 a )
{
	return isfinite( a.x ) && isfinite( a.y ) && isfinite( a.z );
}

/// Some unit vector perpendicular to the unit vector n.
static inline cnVec3 cnPerp( cnVec3 n )
{
	// pick the axis least aligned with n (Frisvad-like robust choice)
	if ( fabs( n.x ) >= 0.57735026919 )
	{
		return cnNormalize( cnV3( n.y, -n.x, 0.0 ) );
	}
	return cnNormalize( cnV3( 0.0, n.z, -n.y ) );
}

/// Quaternion product a * b (apply b first, then a).
static inline cnQuat cnMulQuat( cnQuat a, cnQuat b )
{
	cnQuat q;
	q.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
	q.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
	q.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
	q.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
	return q;
}

/// Conjugate of q, which is the inverse for a unit quaternion.
static inline cnQuat cnConjugate( cnQuat q )
{
	cnQuat r = { q.w, -q.x, -q.y, -q.z };
	return r;
}

/// Inverse product conj(a) * b.
static inline cnQuat cnInvMulQuat( cnQuat a, cnQuat b )
{
	return cnMulQuat( cnConjugate( a ), b );
}

/// Quaternion norm.
static inline double cnQuatLength( cnQuat q )
{
	return sqrt( q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z );
}

/// q scaled to unit length (identity when q is zero).
static inline cnQuat cnNormalizeQuat( cnQuat q )
{
	double len = cnQuatLength( q );
	if ( len < 1e-300 )
	{
		return cnQuat_identity;
	}
	double s = 1.0 / len;
	cnQuat r = { s * q.w, s * q.x, s * q.y, s * q.z };
	return r;
}

/// Rotates v by the unit quaternion q.
static inline cnVec3 cnRotate( cnQuat q, cnVec3 v )
{
	// v' = v + 2w (u x v) + 2 u x (u x v), u = (x, y, z)
	cnVec3 u = { q.x, q.y, q.z };
	cnVec3 t = cnMulSV( 2.0, cnCross( u, v ) );
	return cnAdd( cnMulAdd( v, q.w, t ), cnCross( u, t ) );
}

/// Rotates v by the inverse of the unit quaternion q.
static inline cnVec3 cnInvRotate( cnQuat q, cnVec3 v )
{
	return cnRotate( cnConjugate( q ), v );
}

/// Unit quaternion for a rotation of angle radians about the unit axis.
static inline cnQuat cnQuatFromAxisAngle( cnVec3 axis, double angle )
{
	double s = sin( 0.5 * angle );
	cnQuat q = { cos( 0.5 * angle ), s * axis.x, s * axis.y, s * axis.z };
	return q;
}

/// Integrates a unit quaternion by angular velocity w (world frame) over time h using the
/// exact exponential map, so a constant spin is reproduced without drift in the axis.
static inline cnQuat cnIntegrateRotation( cnQuat q, cnVec3 w, double h )
{
	// dq = (cos(a), sin(a) w / |w|) with a = |w| h / 2. For the small angles of a time step the
	// series of cos(a) and sin(a) / a are exact to round-off and much cheaper than sin and cos.
	double a2 = 0.25 * h * h * cnDot( w, w );
	double c, s;
	if ( a2 < 0.0025 )
	{
		c = 1.0 - a2 * ( 1.0 / 2.0 - a2 * ( 1.0 / 24.0 - a2 * ( 1.0 / 720.0 - a2 * ( 1.0 / 40320.0 ) ) ) );
		s = 1.0 - a2 * ( 1.0 / 6.0 - a2 * ( 1.0 / 120.0 - a2 * ( 1.0 / 5040.0 - a2 * ( 1.0 / 362880.0 ) ) ) );
	}
	else
	{
		double a = sqrt( a2 );
		c = cos( a );
		s = sin( a ) / a;
	}
	// s multiplies h/2 w: sin(a) / a * (h / 2) w = sin(a) w / |w|
	double k = 0.5 * h * s;
	cnQuat dq = { c, k * w.x, k * w.y, k * w.z };
	return cnNormalizeQuat( cnMulQuat( dq, q ) );
}

/// Rotation matrix of the unit quaternion q.
static inline cnMat3 cnMat3FromQuat( cnQuat q )
{
	double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
	double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
	double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
	cnMat3 m;
	m.cx = cnV3( 1.0 - 2.0 * ( yy + zz ), 2.0 * ( xy + wz ), 2.0 * ( xz - wy ) );
	m.cy = cnV3( 2.0 * ( xy - wz ), 1.0 - 2.0 * ( xx + zz ), 2.0 * ( yz + wx ) );
	m.cz = cnV3( 2.0 * ( xz + wy ), 2.0 * ( yz - wx ), 1.0 - 2.0 * ( xx + yy ) );
	return m;
}

/// Unit quaternion of a rotation matrix (Shepperd's method, robust for all angles).
static inline cnQuat cnQuatFromMat3( cnMat3 m )
{
	double m00 = m.cx.x, m11 = m.cy.y, m22 = m.cz.z;
	double tr = m00 + m11 + m22;
	cnQuat q;
	if ( tr > 0.0 )
	{
		double s = 2.0 * sqrt( tr + 1.0 );
		q.w = 0.25 * s;
		q.x = ( m.cy.z - m.cz.y ) / s;
		q.y = ( m.cz.x - m.cx.z ) / s;
		q.z = ( m.cx.y - m.cy.x ) / s;
	}
	else if ( m00 > m11 && m00 > m22 )
	{
		double s = 2.0 * sqrt( 1.0 + m00 - m11 - m22 );
		q.w = ( m.cy.z - m.cz.y ) / s;
		q.x = 0.25 * s;
		q.y = ( m.cy.x + m.cx.y ) / s;
		q.z = ( m.cz.x + m.cx.z ) / s;
	}
	else if ( m11 > m22 )
	{
		double s = 2.0 * sqrt( 1.0 + m11 - m00 - m22 );
		q.w = ( m.cz.x - m.cx.z ) / s;
		q.x = ( m.cy.x + m.cx.y ) / s;
		q.y = 0.25 * s;
		q.z = ( m.cz.y + m.cy.z ) / s;
	}
	else
	{
		double s = 2.0 * sqrt( 1.0 + m22 - m00 - m11 );
		q.w = ( m.cx.y - m.cy.x ) / s;
		q.x = ( m.cz.x + m.cx.z ) / s;
		q.y = ( m.cz.y + m.cy.z ) / s;
		q.z = 0.25 * s;
	}
	if ( q.w < 0.0 )
	{
		q.w = -q.w, q.x = -q.x, q.y = -q.y, q.z = -q.z;
	}
	return cnNormalizeQuat( q );
}

/// m * v
static inline cnVec3 cnMulMV( cnMat3 m, cnVec3 v )
{
	return cnV3( m.cx.x * v.x + m.cy.x * v.y + m.cz.x * v.z, m.cx.y * v.x + m.cy.y * v.y + m.cz.y * v.z,
				 m.cx.z * v.x + m.cy.z * v.y + m.cz.z * v.z );
}

/// transpose(m) * v
static inline cnVec3 cnMulTMV( cnMat3 m, cnVec3 v )
{
	return cnV3( cnDot( m.cx, v ), cnDot( m.cy, v ), cnDot( m.cz, v ) );
}

/// a * b
static inline cnMat3 cnMulMM( cnMat3 a, cnMat3 b )
{
	cnMat3 m = { cnMulMV( a, b.cx ), cnMulMV( a, b.cy ), cnMulMV( a, b.cz ) };
	return m;
}

/// Transpose of m.
static inline cnMat3 cnTransposeM( cnMat3 m )
{
	cnMat3 t = { { m.cx.x, m.cy.x, m.cz.x }, { m.cx.y, m.cy.y, m.cz.y }, { m.cx.z, m.cy.z, m.cz.z } };
	return t;
}

/// a + b
static inline cnMat3 cnAddMM( cnMat3 a, cnMat3 b )
{
	cnMat3 m = { cnAdd( a.cx, b.cx ), cnAdd( a.cy, b.cy ), cnAdd( a.cz, b.cz ) };
	return m;
}

/// s * m
static inline cnMat3 cnMulSM( double s, cnMat3 m )
{
	cnMat3 r = { cnMulSV( s, m.cx ), cnMulSV( s, m.cy ), cnMulSV( s, m.cz ) };
	return r;
}

/// Diagonal matrix.
static inline cnMat3 cnDiagonal( double a, double b, double c )
{
	cnMat3 m = { { a, 0, 0 }, { 0, b, 0 }, { 0, 0, c } };
	return m;
}

/// Skew matrix [v]x such that [v]x u = v x u.
static inline cnMat3 cnSkew( cnVec3 v )
{
	cnMat3 m = { { 0, v.z, -v.y }, { -v.z, 0, v.x }, { v.y, -v.x, 0 } };
	return m;
}

/// Determinant.
static inline double cnDeterminant( cnMat3 m )
{
	return cnDot( m.cx, cnCross( m.cy, m.cz ) );
}

/// Inverse of m, or zero when m is singular.
static inline cnMat3 cnInvertM( cnMat3 m )
{
	double det = cnDeterminant( m );
	if ( fabs( det ) < 1e-300 )
	{
		return cnMat3_zero;
	}
	double s = 1.0 / det;
	// rows of the inverse are the cross products of the columns
	cnVec3 r0 = cnMulSV( s, cnCross( m.cy, m.cz ) );
	cnVec3 r1 = cnMulSV( s, cnCross( m.cz, m.cx ) );
	cnVec3 r2 = cnMulSV( s, cnCross( m.cx, m.cy ) );
	cnMat3 inv = { { r0.x, r1.x, r2.x }, { r0.y, r1.y, r2.y }, { r0.z, r1.z, r2.z } };
	return inv;
}

/// Solves m x = b for x (Cramer's rule), zero when m is singular.
static inline cnVec3 cnSolve3( cnMat3 m, cnVec3 b )
{
	double det = cnDeterminant( m );
	if ( fabs( det ) < 1e-300 )
	{
		return cnVec3_zero;
	}
	double s = 1.0 / det;
	return cnV3( s * cnDot( b, cnCross( m.cy, m.cz ) ), s * cnDot( m.cx, cnCross( b, m.cz ) ),
				 s * cnDot( m.cx, cnCross( m.cy, b ) ) );
}

/// R * m * R^T for the rotation q: a body-frame tensor expressed in the world frame.
static inline cnMat3 cnRotateTensor( cnQuat q, cnMat3 m )
{
	cnMat3 r = cnMat3FromQuat( q );
	return cnMulMM( r, cnMulMM( m, cnTransposeM( r ) ) );
}

/// Applies the transform to a point.
static inline cnVec3 cnTransformPoint( cnTransform t, cnVec3 p )
{
	return cnAdd( cnRotate( t.q, p ), t.p );
}

/// Applies the inverse transform to a point.
static inline cnVec3 cnInvTransformPoint( cnTransform t, cnVec3 p )
{
	return cnInvRotate( t.q, cnSub( p, t.p ) );
}

/// Composition a * b: apply b, then a.
static inline cnTransform cnMulTransforms( cnTransform a, cnTransform b )
{
	cnTransform t = { cnTransformPoint( a, b.p ), cnMulQuat( a.q, b.q ) };
	return t;
}

/// inverse(a) * b: b expressed in the frame of a.
static inline cnTransform cnInvMulTransforms( cnTransform a, cnTransform b )
{
	cnTransform t = { cnInvRotate( a.q, cnSub( b.p, a.p ) ), cnInvMulQuat( a.q, b.q ) };
	return t;
}

/// True when two boxes overlap (touching counts).
static inline bool cnAABB_Overlaps( cnAABB a, cnAABB b )
{
	return !( b.lower.x > a.upper.x || b.lower.y > a.upper.y || b.lower.z > a.upper.z || a.lower.x > b.upper.x ||
			  a.lower.y > b.upper.y || a.lower.z > b.upper.z );
}

/// Smallest box holding both.
static inline cnAABB cnAABB_Union( cnAABB a, cnAABB b )
{
	cnAABB c = { cnMin( a.lower, b.lower ), cnMax( a.upper, b.upper ) };
	return c;
}

/// True when a holds b.
static inline bool cnAABB_Contains( cnAABB a, cnAABB b )
{
	return a.lower.x <= b.lower.x && a.lower.y <= b.lower.y && a.lower.z <= b.lower.z && b.upper.x <= a.upper.x &&
		   b.upper.y <= a.upper.y && b.upper.z <= a.upper.z;
}

/// Surface area of a box, the cost measure of the dynamic tree.
static inline double cnAABB_Area( cnAABB a )
{
	cnVec3 d = cnSub( a.upper, a.lower );
	return 2.0 * ( d.x * d.y + d.y * d.z + d.z * d.x );
}

#ifdef __cplusplus
}
#endif
