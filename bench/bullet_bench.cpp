// SPDX-License-Identifier: MIT
// bullet_bench: the Bullet baseline for `cairn bench`. It reads a Cairn scene file, builds the same
// world in Bullet (btDiscreteDynamicsWorld, btDbvtBroadphase, btSequentialImpulseConstraintSolver
// with its default 10 iterations, one thread, one internal step per time step), steps it and
// prints milliseconds per step. Bullet's defaults are kept everywhere else (sleep thresholds,
// collision margins, solver settings), because the baseline is "what a Bullet user gets".
//
//   bullet_bench scenes/fall3000.json [--steps N] [--repeat R] [--no-sleep]
//
// Supported subset of the scene format: box, sphere, capsule, cylinder, plane, hull (inline points:
// btConvexHullShape about the hull's centroid, with the exact volume and Bullet's box-bound inertia)
// and static mesh shapes (a file read through assimp, or inline vertices and triangles:
// btBvhTriangleMeshShape), one shape per body (its local position and orientation are honoured), static, kinematic and dynamic
// bodies, mass or density, friction, restitution, per-pair material overrides, gravity, gravity
// scale, damping, no_collide, category and mask bits, world and body forces and torques, and ball
// and hinge joints (btPoint2PointConstraint, btHingeConstraint; no limits, motors or springs). Keys it
// cannot reproduce (drag, "target" forces, groups, several shapes on one body) are reported on
// stderr and ignored or rejected; keys only the renderer uses (colour, texture, fps) are skipped.

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <LinearMath/btConvexHullComputer.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <btBulletDynamicsCommon.h>
#include <cJSON.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace
{

constexpr double pi = 3.14159265358979323846;

struct Material
{
	std::string name;
	double density = 1000.0;
	double friction = 0.6;
	double restitution = 0.0;
};

struct ShapeDesc
{
	std::string type;
	double radius = 0.0;
	double halfHeight = 0.0;
	btVector3 halfExtents{ 0, 0, 0 };
	btVector3 normal{ 0, 0, 1 };
	double offset = 0.0;
	btTransform local = btTransform::getIdentity();
	int material = 0;
	bool hasFilter = false;
	int category = 1;
	int mask = -1;
	// hull: points; mesh: vertices and 3 indices per triangle
	std::vector<btVector3> points;
	std::vector<int> triangles;
};

struct TimedVector
{
	bool bodyFrame = false;
	btVector3 point{ 0, 0, 0 };
	btVector3 vector{ 0, 0, 0 };
	double start = 0.0;
	double end = HUGE_VAL;
};

struct BodyDesc
{
	std::string name;
	std::string type = "dynamic";
	btTransform transform = btTransform::getIdentity();
	btVector3 velocity{ 0, 0, 0 };
	btVector3 angularVelocity{ 0, 0, 0 };
	bool hasMass = false;
	double mass = 0.0;
	double gravityScale = 1.0;
	double linearDamping = 0.0;
	double angularDamping = 0.0;
	bool sleep = true;
	bool awake = true;
	ShapeDesc shape;
	std::vector<TimedVector> forces;
	std::vector<TimedVector> torques;
};

// A joint of the scene's "joints" array that Bullet can reproduce: a ball (btPoint2PointConstraint)
// or a hinge without limits, motor or spring (btHingeConstraint); anchors and axes in world
// coordinates at the start, as in Cairn scenes.
struct JointDesc
{
	std::string type;
	int bodyA = -1;
	int bodyB = -1;
	btVector3 anchor{ 0, 0, 0 };
	btVector3 axis{ 0, 0, 1 };
	bool collideConnected = false;
};

struct SceneDesc
{
	std::string path;
	std::string name;
	btVector3 gravity{ 0, 0, -9.81 };
	double timeStep = 1.0 / 120.0;
	double duration = 5.0;
	bool sleep = true;
	std::vector<Material> materials;
	// material pair (lower index first) -> (friction, restitution), NaN where the pair keeps the mix
	std::map<std::pair<int, int>, std::pair<double, double>> pairs;
	std::vector<std::pair<int, int>> noCollide;
	std::vector<BodyDesc> bodies;
	bool customMaterials = false;
	std::vector<JointDesc> joints;
};

[[noreturn]] void Fail( const std::string& path, const std::string& where, const std::string& why )
{
	std::fprintf( stderr, "bullet_bench: %s: %s: %s\n", path.c_str(), where.c_str(), why.c_str() );
	std::exit( 1 );
}

void Warn( const std::string& path, const std::string& where, const std::string& why )
{
	std::fprintf( stderr, "bullet_bench: warning: %s: %s: %s\n", path.c_str(), where.c_str(), why.c_str() );
}

// A small reader over one JSON object that knows where it is, for error messages.
struct Reader
{
	const SceneDesc& scene;
	const cJSON* object;
	std::string where;

	const cJSON* Get( const char* key ) const
	{
		return cJSON_GetObjectItemCaseSensitive( object, key );
	}

	double Number( const char* key, double fallback ) const
	{
		const cJSON* item = Get( key );
		if ( item == nullptr )
		{
			return fallback;
		}
		if ( cJSON_IsNumber( item ) == false )
		{
			Fail( scene.path, where + "." + key, "must be a number" );
		}
		return item->valuedouble;
	}

	bool Bool( const char* key, bool fallback ) const
	{
		const cJSON* item = Get( key );
		if ( item == nullptr )
		{
			return fallback;
		}
		if ( cJSON_IsBool( item ) == false )
		{
			Fail( scene.path, where + "." + key, "must be true or false" );
		}
		return cJSON_IsTrue( item );
	}

	std::string String( const char* key, const char* fallback ) const
	{
		const cJSON* item = Get( key );
		if ( item == nullptr )
		{
			return fallback;
		}
		if ( cJSON_IsString( item ) == false )
		{
			Fail( scene.path, where + "." + key, "must be a string" );
		}
		return item->valuestring;
	}

	// Reads an array of exactly n numbers into out; false when the key is absent.
	bool Numbers( const char* key, double* out, int n ) const
	{
		const cJSON* item = Get( key );
		if ( item == nullptr )
		{
			return false;
		}
		if ( cJSON_IsArray( item ) == false || cJSON_GetArraySize( item ) != n )
		{
			Fail( scene.path, where + "." + key, "must be an array of " + std::to_string( n ) + " numbers" );
		}
		for ( int i = 0; i < n; ++i )
		{
			const cJSON* e = cJSON_GetArrayItem( item, i );
			if ( cJSON_IsNumber( e ) == false )
			{
				Fail( scene.path, where + "." + key, "must be an array of " + std::to_string( n ) + " numbers" );
			}
			out[i] = e->valuedouble;
		}
		return true;
	}

	btVector3 Vec3( const char* key, const btVector3& fallback ) const
	{
		double v[3];
		if ( Numbers( key, v, 3 ) == false )
		{
			return fallback;
		}
		return btVector3( btScalar( v[0] ), btScalar( v[1] ), btScalar( v[2] ) );
	}

	// "orientation" [w,x,y,z] or "euler_deg" [roll,pitch,yaw] meaning Rz(yaw) Ry(pitch) Rx(roll).
	btQuaternion Rotation() const
	{
		double q[4];
		if ( Numbers( "orientation", q, 4 ) )
		{
			btQuaternion r{ btScalar( q[1] ), btScalar( q[2] ), btScalar( q[3] ), btScalar( q[0] ) };
			if ( r.length() == btScalar( 0 ) )
			{
				Fail( scene.path, where + ".orientation", "must not be zero" );
			}
			return r.normalized();
		}
		double e[3];
		if ( Numbers( "euler_deg", e, 3 ) )
		{
			const double d = pi / 180.0;
			btQuaternion rx( btVector3( 1, 0, 0 ), btScalar( e[0] * d ) );
			btQuaternion ry( btVector3( 0, 1, 0 ), btScalar( e[1] * d ) );
			btQuaternion rz( btVector3( 0, 0, 1 ), btScalar( e[2] * d ) );
			return rz * ry * rx;
		}
		return btQuaternion::getIdentity();
	}
};

int FindMaterial( const SceneDesc& scene, const std::string& name, const std::string& where )
{
	for ( size_t i = 0; i < scene.materials.size(); ++i )
	{
		if ( scene.materials[i].name == name )
		{
			return int( i );
		}
	}
	Fail( scene.path, where, "unknown material \"" + name + "\"" );
}

int FindBody( const SceneDesc& scene, const char* name, const std::string& where )
{
	for ( size_t i = 0; i < scene.bodies.size(); ++i )
	{
		if ( scene.bodies[i].name == name )
		{
			return int( i );
		}
	}
	Fail( scene.path, where, std::string( "unknown body \"" ) + name + "\"" );
}

// Collision filter bits: Cairn's are 64-bit, Bullet's are int; the low 31 bits carry over and a
// value that does not fit (such as the all-ones mask) means every bit.
int FilterBits( double value )
{
	if ( value < 0.0 || value >= 2147483647.0 )
	{
		return -1;
	}
	return int( value );
}

void ReadTimed( const SceneDesc& scene, const cJSON* list, const std::string& where, bool isForce,
				std::vector<TimedVector>& out )
{
	if ( list == nullptr )
	{
		return;
	}
	if ( cJSON_IsArray( list ) == false )
	{
		Fail( scene.path, where, "must be an array" );
	}
	int n = cJSON_GetArraySize( list );
	for ( int i = 0; i < n; ++i )
	{
		Reader r{ scene, cJSON_GetArrayItem( list, i ), where + "[" + std::to_string( i ) + "]" };
		std::string frame = r.String( "frame", "world" );
		if ( frame == "target" )
		{
			Warn( scene.path, r.where, "\"target\" forces are not reproduced; ignored" );
			continue;
		}
		if ( frame != "world" && frame != "body" )
		{
			Fail( scene.path, r.where + ".frame", "must be \"world\" or \"body\"" );
		}
		TimedVector t;
		t.bodyFrame = frame == "body";
		if ( isForce )
		{
			t.point = r.Vec3( "point", btVector3( 0, 0, 0 ) );
		}
		t.vector = r.Vec3( "vector", btVector3( 0, 0, 0 ) );
		t.start = r.Number( "start", 0.0 );
		t.end = r.Number( "end", HUGE_VAL );
		out.push_back( t );
	}
}

// Centroid and volume of the solid hull of points: the tetrahedra joining an inner point to each
// face's fan, their centroids weighted by their volumes.
btVector3 HullCentroid( const std::vector<btVector3>& points, double* volumeOut = nullptr )
{
	btConvexHullComputer hull;
	hull.compute( &points[0].x(), sizeof( btVector3 ), int( points.size() ), 0, 0 );
	btVector3 inner( 0, 0, 0 );
	for ( int i = 0; i < hull.vertices.size(); ++i )
	{
		inner += hull.vertices[i] / btScalar( hull.vertices.size() );
	}
	double volume = 0.0;
	btVector3 sum( 0, 0, 0 );
	for ( int f = 0; f < hull.faces.size(); ++f )
	{
		const btConvexHullComputer::Edge* first = &hull.edges[hull.faces[f]];
		const btConvexHullComputer::Edge* e = first->getNextEdgeOfFace();
		btVector3 a = hull.vertices[first->getSourceVertex()];
		while ( e->getTargetVertex() != first->getSourceVertex() )
		{
			btVector3 b = hull.vertices[e->getSourceVertex()], c = hull.vertices[e->getTargetVertex()];
			double v = std::fabs( double( ( a - inner ).dot( ( b - inner ).cross( c - inner ) ) ) ) / 6.0;
			volume += v;
			sum += ( inner + a + b + c ) * btScalar( v / 4.0 );
			e = e->getNextEdgeOfFace();
		}
	}
	if ( volumeOut != nullptr )
	{
		*volumeOut = volume;
	}
	return volume > 0.0 ? sum / btScalar( volume ) : inner;
}

// A mesh shape's triangles: its "file" through assimp (relative to the scene file, merged into one
// list, node transforms ignored as the scenes' files have none) or its inline vertices and triangles.
void ReadMesh( const SceneDesc& scene, const Reader& r, ShapeDesc& s )
{
	if ( const cJSON* file = r.Get( "file" ) )
	{
		std::string name = cJSON_IsString( file ) ? file->valuestring : "";
		size_t slash = scene.path.rfind( '/' );
		std::string path = name.empty() || name[0] == '/' || slash == std::string::npos ? name : scene.path.substr( 0, slash + 1 ) + name;
		const aiScene* ai = aiImportFile( path.c_str(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices );
		if ( ai == nullptr )
		{
			Fail( scene.path, r.where + ".file", std::string( "cannot read the mesh: " ) + aiGetErrorString() );
		}
		for ( unsigned m = 0; m < ai->mNumMeshes; ++m )
		{
			const aiMesh* mesh = ai->mMeshes[m];
			int base = int( s.points.size() );
			for ( unsigned v = 0; v < mesh->mNumVertices; ++v )
			{
				s.points.push_back( btVector3( mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z ) );
			}
			for ( unsigned f = 0; f < mesh->mNumFaces; ++f )
			{
				if ( mesh->mFaces[f].mNumIndices == 3 )
				{
					for ( int k = 0; k < 3; ++k )
					{
						s.triangles.push_back( base + int( mesh->mFaces[f].mIndices[k] ) );
					}
				}
			}
		}
		aiReleaseImport( ai );
		return;
	}
	const cJSON* vertices = r.Get( "vertices" );
	const cJSON* triangles = r.Get( "triangles" );
	for ( const cJSON* p = vertices != nullptr ? vertices->child : nullptr; p != nullptr; p = p->next )
	{
		s.points.push_back( btVector3( btScalar( cJSON_GetArrayItem( p, 0 )->valuedouble ),
									   btScalar( cJSON_GetArrayItem( p, 1 )->valuedouble ),
									   btScalar( cJSON_GetArrayItem( p, 2 )->valuedouble ) ) );
	}
	for ( const cJSON* t = triangles != nullptr ? triangles->child : nullptr; t != nullptr; t = t->next )
	{
		for ( int k = 0; k < 3; ++k )
		{
			s.triangles.push_back( cJSON_GetArrayItem( t, k )->valueint );
		}
	}
	if ( s.triangles.empty() )
	{
		Fail( scene.path, r.where, "a mesh needs a file or inline vertices and triangles" );
	}
}

ShapeDesc ReadShape( const SceneDesc& scene, const Reader& r, int bodyMaterial, bool isStatic )
{
	ShapeDesc s;
	s.type = r.String( "type", "" );
	s.material = bodyMaterial;
	if ( r.Get( "material" ) != nullptr )
	{
		s.material = FindMaterial( scene, r.String( "material", "" ), r.where + ".material" );
	}
	s.local.setOrigin( r.Vec3( "position", btVector3( 0, 0, 0 ) ) );
	s.local.setRotation( r.Rotation() );
	if ( s.type == "sphere" || s.type == "capsule" || s.type == "cylinder" )
	{
		s.radius = r.Number( "radius", 0.0 );
		if ( !( s.radius > 0.0 ) )
		{
			Fail( scene.path, r.where + ".radius", "must be > 0" );
		}
		if ( s.type != "sphere" )
		{
			s.halfHeight = r.Number( "half_height", 0.0 );
			if ( !( s.halfHeight > 0.0 ) )
			{
				Fail( scene.path, r.where + ".half_height", "must be > 0" );
			}
		}
	}
	else if ( s.type == "box" )
	{
		s.halfExtents = r.Vec3( "half_extents", btVector3( 0, 0, 0 ) );
		if ( !( s.halfExtents.x() > 0 && s.halfExtents.y() > 0 && s.halfExtents.z() > 0 ) )
		{
			Fail( scene.path, r.where + ".half_extents", "must be three numbers > 0" );
		}
	}
	else if ( s.type == "plane" )
	{
		if ( isStatic == false )
		{
			Fail( scene.path, r.where, "a plane is only allowed on a static body" );
		}
		s.normal = r.Vec3( "normal", btVector3( 0, 0, 1 ) );
		if ( s.normal.length() == btScalar( 0 ) )
		{
			Fail( scene.path, r.where + ".normal", "must not be zero" );
		}
		s.normal.normalize();
		s.offset = r.Number( "offset", 0.0 );
	}
	else if ( s.type == "hull" )
	{
		const cJSON* points = r.Get( "points" );
		if ( cJSON_IsArray( points ) == false || cJSON_GetArraySize( points ) < 4 )
		{
			Fail( scene.path, r.where + ".points", "bullet_bench needs a hull's inline points (at least 4)" );
		}
		for ( const cJSON* p = points->child; p != nullptr; p = p->next )
		{
			s.points.push_back( btVector3( btScalar( cJSON_GetArrayItem( p, 0 )->valuedouble ),
										   btScalar( cJSON_GetArrayItem( p, 1 )->valuedouble ),
										   btScalar( cJSON_GetArrayItem( p, 2 )->valuedouble ) ) );
		}
		// the Bullet body sits at the centre of mass: move the points about the hull's centroid
		btVector3 centroid = HullCentroid( s.points );
		for ( btVector3& p : s.points )
		{
			p -= centroid;
		}
		s.local.setOrigin( s.local * centroid );
	}
	else if ( s.type == "mesh" )
	{
		if ( isStatic == false )
		{
			Fail( scene.path, r.where, "bullet_bench supports meshes on static bodies only" );
		}
		ReadMesh( scene, r, s );
	}
	else
	{
		Fail( scene.path, r.where + ".type", "unknown shape type \"" + s.type + "\"" );
	}
	if ( r.Get( "category" ) != nullptr || r.Get( "mask" ) != nullptr )
	{
		s.hasFilter = true;
		s.category = FilterBits( r.Number( "category", 1.0 ) );
		s.mask = FilterBits( r.Number( "mask", -1.0 ) );
	}
	if ( r.Number( "group", 0.0 ) != 0.0 )
	{
		Warn( scene.path, r.where + ".group", "collision groups are not reproduced; ignored" );
	}
	return s;
}

SceneDesc ReadScene( const char* path )
{
	SceneDesc scene;
	scene.path = path;

	FILE* file = std::fopen( path, "rb" );
	if ( file == nullptr )
	{
		Fail( path, "cannot open", std::strerror( errno ) );
	}
	std::string text;
	char buffer[65536];
	size_t n;
	while ( ( n = std::fread( buffer, 1, sizeof( buffer ), file ) ) > 0 )
	{
		text.append( buffer, n );
	}
	std::fclose( file );

	// the cJSON tree is freed on every return path, errors included (they exit)
	std::unique_ptr<cJSON, void ( * )( cJSON* )> root( cJSON_Parse( text.c_str() ), cJSON_Delete );
	if ( root == nullptr || cJSON_IsObject( root.get() ) == false )
	{
		Fail( path, "syntax", "not a JSON object" );
	}
	Reader top{ scene, root.get(), "scene" };
	if ( top.Number( "cairn", 0.0 ) != 1.0 )
	{
		Fail( path, "cairn", "must be 1" );
	}
	std::string base = path;
	base = base.substr( base.find_last_of( '/' ) == std::string::npos ? 0 : base.find_last_of( '/' ) + 1 );
	scene.name = top.String( "name", base.c_str() );
	scene.gravity = top.Vec3( "gravity", scene.gravity );
	scene.timeStep = top.Number( "timestep", scene.timeStep );
	scene.duration = top.Number( "duration", scene.duration );
	scene.sleep = top.Bool( "sleep", true );
	if ( !( scene.timeStep > 0.0 ) )
	{
		Fail( path, "timestep", "must be > 0" );
	}

	// the "default" material is always index 0, given or not
	scene.materials.push_back( Material{ "default", 1000.0, 0.6, 0.0 } );
	if ( const cJSON* materials = top.Get( "materials" ) )
	{
		if ( cJSON_IsObject( materials ) == false )
		{
			Fail( path, "materials", "must be an object" );
		}
		const cJSON* m = nullptr;
		cJSON_ArrayForEach( m, materials )
		{
			Reader r{ scene, m, std::string( "materials." ) + m->string };
			Material mat{ m->string, r.Number( "density", 1000.0 ), r.Number( "friction", 0.6 ),
						  r.Number( "restitution", 0.0 ) };
			if ( mat.name == "default" )
			{
				scene.materials[0] = mat;
			}
			else
			{
				scene.materials.push_back( mat );
			}
		}
	}
	for ( const Material& m : scene.materials )
	{
		if ( m.restitution != 0.0 )
		{
			scene.customMaterials = true;
		}
	}

	if ( const cJSON* pairs = top.Get( "material_pairs" ) )
	{
		int count = cJSON_GetArraySize( pairs );
		for ( int i = 0; i < count; ++i )
		{
			Reader r{ scene, cJSON_GetArrayItem( pairs, i ), "material_pairs[" + std::to_string( i ) + "]" };
			const cJSON* names = r.Get( "materials" );
			if ( cJSON_GetArraySize( names ) != 2 || !cJSON_IsString( cJSON_GetArrayItem( names, 0 ) ) ||
				 !cJSON_IsString( cJSON_GetArrayItem( names, 1 ) ) )
			{
				Fail( path, r.where + ".materials", "must be two material names" );
			}
			int a = FindMaterial( scene, cJSON_GetArrayItem( names, 0 )->valuestring, r.where );
			int b = FindMaterial( scene, cJSON_GetArrayItem( names, 1 )->valuestring, r.where );
			scene.pairs[std::make_pair( std::min( a, b ), std::max( a, b ) )] =
				std::make_pair( r.Number( "friction", NAN ), r.Number( "restitution", NAN ) );
			scene.customMaterials = true;
		}
	}

	const cJSON* bodies = top.Get( "bodies" );
	if ( cJSON_IsArray( bodies ) == false )
	{
		Fail( path, "bodies", "must be an array" );
	}
	int bodyCount = cJSON_GetArraySize( bodies );
	for ( int i = 0; i < bodyCount; ++i )
	{
		Reader r{ scene, cJSON_GetArrayItem( bodies, i ), "bodies[" + std::to_string( i ) + "]" };
		BodyDesc b;
		b.name = r.String( "name", "" );
		b.type = r.String( "type", "dynamic" );
		if ( b.type != "static" && b.type != "kinematic" && b.type != "dynamic" )
		{
			Fail( path, r.where + ".type", "must be static, kinematic or dynamic" );
		}
		int material = FindMaterial( scene, r.String( "material", "default" ), r.where + ".material" );
		b.transform.setOrigin( r.Vec3( "position", btVector3( 0, 0, 0 ) ) );
		b.transform.setRotation( r.Rotation() );
		b.velocity = r.Vec3( "velocity", b.velocity );
		b.angularVelocity = r.Vec3( "angular_velocity", b.angularVelocity );
		b.hasMass = r.Get( "mass" ) != nullptr;
		b.mass = r.Number( "mass", 0.0 );
		b.gravityScale = r.Number( "gravity_scale", 1.0 );
		b.linearDamping = r.Number( "linear_damping", 0.0 );
		b.angularDamping = r.Number( "angular_damping", 0.0 );
		b.sleep = r.Bool( "sleep", true );
		b.awake = r.Bool( "awake", true );
		if ( r.Number( "drag", 0.0 ) != 0.0 )
		{
			Warn( path, r.where + ".drag", "quadratic drag is not reproduced; ignored" );
		}
		const cJSON* shapes = r.Get( "shapes" );
		if ( cJSON_IsArray( shapes ) == false || cJSON_GetArraySize( shapes ) == 0 )
		{
			Fail( path, r.where + ".shapes", "must be a non-empty array" );
		}
		if ( cJSON_GetArraySize( shapes ) > 1 )
		{
			Fail( path, r.where + ".shapes", "bullet_bench supports one shape per body" );
		}
		Reader sr{ scene, cJSON_GetArrayItem( shapes, 0 ), r.where + ".shapes[0]" };
		b.shape = ReadShape( scene, sr, material, b.type == "static" );
		ReadTimed( scene, r.Get( "forces" ), r.where + ".forces", true, b.forces );
		ReadTimed( scene, r.Get( "torques" ), r.where + ".torques", false, b.torques );
		scene.bodies.push_back( b );
	}

	if ( const cJSON* pairs = top.Get( "no_collide" ) )
	{
		int count = cJSON_GetArraySize( pairs );
		for ( int i = 0; i < count; ++i )
		{
			const cJSON* pair = cJSON_GetArrayItem( pairs, i );
			std::string where = "no_collide[" + std::to_string( i ) + "]";
			if ( cJSON_GetArraySize( pair ) != 2 || !cJSON_IsString( cJSON_GetArrayItem( pair, 0 ) ) ||
				 !cJSON_IsString( cJSON_GetArrayItem( pair, 1 ) ) )
			{
				Fail( path, where, "must be two body names" );
			}
			scene.noCollide.emplace_back( FindBody( scene, cJSON_GetArrayItem( pair, 0 )->valuestring, where ),
										  FindBody( scene, cJSON_GetArrayItem( pair, 1 )->valuestring, where ) );
		}
	}
	if ( const cJSON* joints = top.Get( "joints" ) )
	{
		int count = cJSON_GetArraySize( joints );
		for ( int i = 0; i < count; ++i )
		{
			Reader r{ scene, cJSON_GetArrayItem( joints, i ), "joints[" + std::to_string( i ) + "]" };
			JointDesc j;
			j.type = r.String( "type", "" );
			if ( j.type != "ball" && j.type != "hinge" )
			{
				Fail( path, r.where + ".type", "bullet_bench reproduces ball and hinge joints only" );
			}
			for ( const char* key : { "limits_deg", "motor", "spring", "break_force", "break_torque" } )
			{
				if ( r.Get( key ) != nullptr )
				{
					Fail( path, r.where + "." + key, "bullet_bench does not reproduce it" );
				}
			}
			const cJSON* names = r.Get( "bodies" );
			int n = cJSON_GetArraySize( names );
			if ( n < 1 || n > 2 )
			{
				Fail( path, r.where + ".bodies", "must name one or two bodies" );
			}
			for ( int k = 0; k < n; ++k )
			{
				const cJSON* name = cJSON_GetArrayItem( names, k );
				if ( cJSON_IsString( name ) == false )
				{
					Fail( path, r.where + ".bodies", "must be body names" );
				}
				( k == 0 ? j.bodyA : j.bodyB ) = FindBody( scene, name->valuestring, r.where + ".bodies" );
			}
			j.anchor = r.Vec3( "anchor", j.anchor );
			j.axis = r.Vec3( "axis", j.axis ).normalized();
			j.collideConnected = r.Bool( "collide_connected", false );
			scene.joints.push_back( j );
		}
	}
	return scene;
}

// Volume and principal inertia per unit density of a shape, in its own frame.
void UnitMass( const ShapeDesc& s, double* volume, btVector3* inertia )
{
	if ( s.type == "sphere" )
	{
		double r = s.radius;
		*volume = 4.0 / 3.0 * pi * r * r * r;
		double i = 0.4 * *volume * r * r;
		*inertia = btVector3( btScalar( i ), btScalar( i ), btScalar( i ) );
	}
	else if ( s.type == "box" )
	{
		double a = s.halfExtents.x(), b = s.halfExtents.y(), c = s.halfExtents.z();
		*volume = 8.0 * a * b * c;
		// m/12 (w^2 + h^2) with full widths 2a, 2b, 2c
		double m3 = *volume / 3.0;
		*inertia = btVector3( btScalar( m3 * ( b * b + c * c ) ), btScalar( m3 * ( a * a + c * c ) ),
							  btScalar( m3 * ( a * a + b * b ) ) );
	}
	else if ( s.type == "cylinder" )
	{
		double r = s.radius, h = s.halfHeight;
		*volume = pi * r * r * 2.0 * h;
		double ix = *volume * ( r * r / 4.0 + h * h / 3.0 );
		*inertia = btVector3( btScalar( ix ), btScalar( ix ), btScalar( 0.5 * *volume * r * r ) );
	}
	else if ( s.type == "capsule" )
	{
		// cylinder part plus two hemispheres; a hemisphere of mass m has 2/5 m r^2 about a diameter of
		// its flat face and its centroid 3r/8 from that face, which the parallel axis theorem moves to
		// the capsule centre: 2/5 m r^2 + m (h^2 + 3 h r / 4)
		double r = s.radius, h = s.halfHeight;
		double vc = pi * r * r * 2.0 * h;
		double vs = 4.0 / 3.0 * pi * r * r * r;
		*volume = vc + vs;
		double ix = vc * ( r * r / 4.0 + h * h / 3.0 ) + vs * ( 0.4 * r * r + h * h + 0.75 * h * r );
		double iz = 0.5 * vc * r * r + 0.4 * vs * r * r;
		*inertia = btVector3( btScalar( ix ), btScalar( ix ), btScalar( iz ) );
	}
	else if ( s.type == "hull" )
	{
		// the exact volume from the hull's faces; the inertia is Bullet's own bound (that of the
		// hull's box), which is what a Bullet user gets from calculateLocalInertia
		HullCentroid( s.points, volume );
		btConvexHullShape shape( &s.points[0].x(), int( s.points.size() ), sizeof( btVector3 ) );
		shape.calculateLocalInertia( btScalar( *volume ), *inertia );
	}
	else
	{
		*volume = 0.0;
		*inertia = btVector3( 0, 0, 0 );
	}
}

btCollisionShape* MakeShape( const ShapeDesc& s )
{
	if ( s.type == "sphere" )
	{
		return new btSphereShape( btScalar( s.radius ) );
	}
	if ( s.type == "capsule" )
	{
		return new btCapsuleShapeZ( btScalar( s.radius ), btScalar( 2.0 * s.halfHeight ) );
	}
	if ( s.type == "plane" )
	{
		return new btStaticPlaneShape( s.normal, btScalar( s.offset ) );
	}
	if ( s.type == "hull" )
	{
		return new btConvexHullShape( &s.points[0].x(), int( s.points.size() ), sizeof( btVector3 ) );
	}
	if ( s.type == "mesh" )
	{
		// the arrays live as long as the shape description, which outlives the world
		auto* arrays = new btTriangleIndexVertexArray( int( s.triangles.size() / 3 ), const_cast<int*>( s.triangles.data() ),
													   3 * sizeof( int ), int( s.points.size() ),
													   const_cast<btScalar*>( &s.points[0].x() ), sizeof( btVector3 ) );
		return new btBvhTriangleMeshShape( arrays, true );
	}
	// Boxes and cylinders keep their margin inside the given size; Bullet's 4 cm default would be
	// larger than a can's radius, so it is capped at a tenth of the smallest dimension.
	btConvexInternalShape* shape;
	double smallest;
	if ( s.type == "box" )
	{
		shape = new btBoxShape( s.halfExtents );
		smallest = std::min( { double( s.halfExtents.x() ), double( s.halfExtents.y() ), double( s.halfExtents.z() ) } );
	}
	else
	{
		shape = new btCylinderShapeZ( btVector3( btScalar( s.radius ), btScalar( s.radius ), btScalar( s.halfHeight ) ) );
		smallest = std::min( s.radius, s.halfHeight );
	}
	if ( 0.1 * smallest < double( shape->getMargin() ) )
	{
		shape->setMargin( btScalar( 0.1 * smallest ) );
	}
	return shape;
}

const SceneDesc* g_scene = nullptr;

// Cairn's material mix (equal frictions kept, else the geometric mean; the larger restitution)
// and its per-pair overrides, applied to each contact point Bullet adds.
bool MixMaterials( btManifoldPoint& cp, const btCollisionObjectWrapper* w0, int, int, const btCollisionObjectWrapper* w1,
				   int, int )
{
	int a = w0->getCollisionObject()->getUserIndex();
	int b = w1->getCollisionObject()->getUserIndex();
	const Material& ma = g_scene->materials[size_t( a )];
	const Material& mb = g_scene->materials[size_t( b )];
	double friction = ma.friction == mb.friction ? ma.friction : std::sqrt( ma.friction * mb.friction );
	double restitution = std::max( ma.restitution, mb.restitution );
	auto it = g_scene->pairs.find( std::make_pair( std::min( a, b ), std::max( a, b ) ) );
	if ( it != g_scene->pairs.end() )
	{
		if ( std::isnan( it->second.first ) == false )
		{
			friction = it->second.first;
		}
		if ( std::isnan( it->second.second ) == false )
		{
			restitution = it->second.second;
		}
	}
	cp.m_combinedFriction = btScalar( friction );
	cp.m_combinedRestitution = btScalar( restitution );
	return true;
}

struct Kinematic
{
	btRigidBody* body;
	btVector3 velocity;
	btVector3 angularVelocity;
};

struct Pushed
{
	btRigidBody* body;
	const BodyDesc* desc;
};

// One Bullet world built from a scene; owns everything it creates.
class World
{
public:
	World( const SceneDesc& scene, bool allowSleep )
		: m_dispatcher( &m_configuration ), m_world( &m_dispatcher, &m_broadphase, &m_solver, &m_configuration )
	{
		m_world.setGravity( scene.gravity );
		// one thread, Bullet's default 10 iterations; stated here so the baseline cannot drift
		m_world.getSolverInfo().m_numIterations = 10;
		g_scene = &scene;
		gContactAddedCallback = scene.customMaterials ? MixMaterials : nullptr;

		m_bodies.reserve( scene.bodies.size() );
		for ( const BodyDesc& b : scene.bodies )
		{
			AddBody( scene, b, allowSleep && scene.sleep && b.sleep );
		}
		for ( const JointDesc& j : scene.joints )
		{
			AddJoint( j );
		}
		for ( const std::pair<int, int>& p : scene.noCollide )
		{
			m_bodies[size_t( p.first )]->setIgnoreCollisionCheck( m_bodies[size_t( p.second )], true );
			m_bodies[size_t( p.second )]->setIgnoreCollisionCheck( m_bodies[size_t( p.first )], true );
		}
	}

	~World()
	{
		for ( btTypedConstraint* c : m_constraints )
		{
			m_world.removeConstraint( c );
			delete c;
		}
		for ( btRigidBody* body : m_bodies )
		{
			m_world.removeRigidBody( body );
			delete body->getMotionState();
			delete body;
		}
		for ( btCollisionShape* shape : m_shapes )
		{
			delete shape;
		}
	}

	World( const World& ) = delete;
	World& operator=( const World& ) = delete;

	void Step( double timeStep )
	{
		for ( const Kinematic& k : m_kinematic )
		{
			// Bullet takes a kinematic body's motion from its motion state and derives its velocity
			btTransform next;
			btTransformUtil::integrateTransform( k.body->getWorldTransform(), k.velocity, k.angularVelocity,
												 btScalar( timeStep ), next );
			k.body->getMotionState()->setWorldTransform( next );
		}
		for ( const Pushed& p : m_pushed )
		{
			ApplyLoads( p, m_time );
		}
		// maxSubSteps = 0: exactly one internal step of timeStep, no interpolation
		m_world.stepSimulation( btScalar( timeStep ), 0 );
		m_time += timeStep;
	}

	int BodyCount() const
	{
		return int( m_bodies.size() );
	}

	int DynamicCount() const
	{
		return m_dynamicCount;
	}

	// Mean height of the dynamic bodies' centres of mass.
	double MeanDynamicHeight() const
	{
		double sum = 0.0;
		for ( const btRigidBody* body : m_bodies )
		{
			if ( body->getInvMass() > btScalar( 0 ) )
			{
				sum += double( body->getCenterOfMassPosition().z() );
			}
		}
		return m_dynamicCount > 0 ? sum / m_dynamicCount : 0.0;
	}

	// Prints each dynamic body's final centre of mass, one line per body.
	void PrintPositions( const SceneDesc& scene ) const
	{
		for ( size_t i = 0; i < m_bodies.size(); ++i )
		{
			if ( m_bodies[i]->getInvMass() > btScalar( 0 ) )
			{
				btVector3 p = m_bodies[i]->getCenterOfMassPosition();
				std::printf( "%s %.4f %.4f %.4f\n", scene.bodies[i].name.c_str(), double( p.x() ), double( p.y() ),
							 double( p.z() ) );
			}
		}
	}

	int AwakeCount() const
	{
		int awake = 0;
		for ( const btRigidBody* body : m_bodies )
		{
			if ( body->getInvMass() > btScalar( 0 ) && body->isActive() )
			{
				++awake;
			}
		}
		return awake;
	}

private:
	// A ball or hinge joint; Bullet's bodies sit at their centres of mass, so the world anchor and axis
	// are taken into each body's frame there.
	void AddJoint( const JointDesc& j )
	{
		btRigidBody* a = m_bodies[size_t( j.bodyA )];
		btRigidBody* b = j.bodyB >= 0 ? m_bodies[size_t( j.bodyB )] : nullptr;
		btTransform inverseA = a->getWorldTransform().inverse();
		btVector3 pivotA = inverseA * j.anchor;
		btVector3 axisA = inverseA.getBasis() * j.axis;
		btTypedConstraint* c = nullptr;
		if ( b == nullptr )
		{
			c = j.type == "ball" ? static_cast<btTypedConstraint*>( new btPoint2PointConstraint( *a, pivotA ) )
								 : new btHingeConstraint( *a, pivotA, axisA );
		}
		else
		{
			btTransform inverseB = b->getWorldTransform().inverse();
			btVector3 pivotB = inverseB * j.anchor;
			btVector3 axisB = inverseB.getBasis() * j.axis;
			c = j.type == "ball" ? static_cast<btTypedConstraint*>( new btPoint2PointConstraint( *a, *b, pivotA, pivotB ) )
								 : new btHingeConstraint( *a, *b, pivotA, pivotB, axisA, axisB );
		}
		m_world.addConstraint( c, j.collideConnected == false );
		m_constraints.push_back( c );
	}

	void AddBody( const SceneDesc& scene, const BodyDesc& b, bool allowSleep )
	{
		const ShapeDesc& s = b.shape;
		btCollisionShape* shape = MakeShape( s );
		m_shapes.push_back( shape );

		// One shape per body: the Bullet body sits at the shape's frame, whose origin is the centre of
		// mass and whose axes are the principal axes, so no compound shape is needed.
		btTransform transform = b.transform * s.local;
		double mass = 0.0;
		btVector3 inertia( 0, 0, 0 );
		if ( b.type == "dynamic" )
		{
			double volume;
			btVector3 unitInertia;
			UnitMass( s, &volume, &unitInertia );
			double density = scene.materials[size_t( s.material )].density;
			if ( b.hasMass )
			{
				// inertia scaled with the mass, as for a uniform body of that mass
				density = volume > 0.0 ? b.mass / volume : 0.0;
			}
			mass = density * volume;
			inertia = unitInertia * btScalar( density );
			if ( !( mass > 0.0 ) )
			{
				Fail( scene.path, b.name, "a dynamic body needs a positive mass" );
			}
		}

		btMotionState* motion = b.type == "kinematic" ? new btDefaultMotionState( transform ) : nullptr;
		btRigidBody::btRigidBodyConstructionInfo info( btScalar( mass ), motion, shape, inertia );
		info.m_startWorldTransform = transform;
		const Material& material = scene.materials[size_t( s.material )];
		// Bullet multiplies the two frictions; the square roots make that product the geometric mean
		// Cairn uses, without a per-contact callback in the common case
		info.m_friction = btScalar( std::sqrt( material.friction ) );
		info.m_restitution = btScalar( material.restitution );
		// Bullet damps by (1 - d)^dt; d = 1 - exp(-c) gives exp(-c dt), which agrees with Cairn's
		// 1 / (1 + c dt) to first order in c dt
		info.m_linearDamping = btScalar( 1.0 - std::exp( -b.linearDamping ) );
		info.m_angularDamping = btScalar( 1.0 - std::exp( -b.angularDamping ) );
		btRigidBody* body = new btRigidBody( info );
		body->setUserIndex( s.material );
		m_bodies.push_back( body );
		if ( scene.customMaterials )
		{
			body->setCollisionFlags( body->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK );
		}

		btVector3 comOffset = b.transform.getBasis() * s.local.getOrigin();
		if ( b.type == "kinematic" )
		{
			body->setCollisionFlags( body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT );
			body->setActivationState( DISABLE_DEACTIVATION );
			m_kinematic.push_back( Kinematic{ body, b.velocity + b.angularVelocity.cross( comOffset ), b.angularVelocity } );
		}
		else if ( b.type == "dynamic" )
		{
			++m_dynamicCount;
			// the scene gives the velocity of the body origin; Bullet's is that of the centre of mass
			body->setLinearVelocity( b.velocity + b.angularVelocity.cross( comOffset ) );
			body->setAngularVelocity( b.angularVelocity );
			if ( allowSleep == false )
			{
				body->setActivationState( DISABLE_DEACTIVATION );
			}
			else if ( b.awake == false )
			{
				body->setActivationState( ISLAND_SLEEPING );
			}
			if ( b.forces.empty() == false || b.torques.empty() == false )
			{
				m_pushed.push_back( Pushed{ body, &b } );
			}
		}

		if ( s.hasFilter )
		{
			m_world.addRigidBody( body, s.category, s.mask );
		}
		else
		{
			m_world.addRigidBody( body );
		}
		// after adding: addRigidBody overwrites a dynamic body's gravity with the world's
		if ( b.type == "dynamic" && b.gravityScale != 1.0 )
		{
			body->setGravity( scene.gravity * btScalar( b.gravityScale ) );
		}
	}

	// Forces and torques active at time t; Bullet clears them after every step.
	static void ApplyLoads( const Pushed& p, double t )
	{
		// the Bullet body sits at the shape frame; the Cairn body frame is that frame moved back by the
		// shape's local transform, and the centre of mass is the shape's local position
		const btTransform& local = p.desc->shape.local;
		btMatrix3x3 basis = p.body->getWorldTransform().getBasis() * local.getBasis().transpose();
		for ( const TimedVector& f : p.desc->forces )
		{
			if ( t < f.start || t >= f.end )
			{
				continue;
			}
			btVector3 force = f.bodyFrame ? basis * f.vector : f.vector;
			btVector3 arm = basis * ( f.point - local.getOrigin() );
			p.body->activate();
			p.body->applyForce( force, arm );
		}
		for ( const TimedVector& q : p.desc->torques )
		{
			if ( t < q.start || t >= q.end )
			{
				continue;
			}
			p.body->activate();
			p.body->applyTorque( q.bodyFrame ? basis * q.vector : q.vector );
		}
	}

	btDefaultCollisionConfiguration m_configuration;
	btCollisionDispatcher m_dispatcher;
	btDbvtBroadphase m_broadphase;
	btSequentialImpulseConstraintSolver m_solver;
	btDiscreteDynamicsWorld m_world;
	std::vector<btRigidBody*> m_bodies;
	std::vector<btCollisionShape*> m_shapes;
	std::vector<btTypedConstraint*> m_constraints;
	std::vector<Kinematic> m_kinematic;
	std::vector<Pushed> m_pushed;
	int m_dynamicCount = 0;
	double m_time = 0.0;
};

void Usage()
{
	std::fprintf( stderr, "usage: bullet_bench SCENE.json [--steps N] [--repeat R] [--no-sleep] [--positions]\n"
						  "  --steps N   steps per run (default: the scene's duration / timestep)\n"
						  "  --repeat R  number of timed runs, each on a freshly built world (default 3)\n"
						  "  --no-sleep  keep every body awake (Bullet deactivation off)\n"
						  "  --positions print every dynamic body's final centre of mass after the last run\n" );
}

int PositiveInt( const char* text )
{
	char* end = nullptr;
	long v = std::strtol( text, &end, 10 );
	if ( end == text || *end != '\0' || v <= 0 || v > 100000000 )
	{
		Usage();
		std::exit( 2 );
	}
	return int( v );
}

} // namespace

int main( int argc, char** argv )
{
	const char* path = nullptr;
	int steps = 0;
	int repeat = 3;
	bool allowSleep = true;
	bool positions = false;
	for ( int i = 1; i < argc; ++i )
	{
		if ( std::strcmp( argv[i], "--steps" ) == 0 && i + 1 < argc )
		{
			steps = PositiveInt( argv[++i] );
		}
		else if ( std::strcmp( argv[i], "--repeat" ) == 0 && i + 1 < argc )
		{
			repeat = PositiveInt( argv[++i] );
		}
		else if ( std::strcmp( argv[i], "--no-sleep" ) == 0 )
		{
			allowSleep = false;
		}
		else if ( std::strcmp( argv[i], "--positions" ) == 0 )
		{
			positions = true;
		}
		else if ( argv[i][0] == '-' || path != nullptr )
		{
			Usage();
			return 2;
		}
		else
		{
			path = argv[i];
		}
	}
	if ( path == nullptr )
	{
		Usage();
		return 2;
	}

	SceneDesc scene = ReadScene( path );
	if ( steps == 0 )
	{
		// rounded: 500/60 s over 1/60 s is 500.00000000000006 in doubles
		steps = std::max( 1, int( std::lround( scene.duration / scene.timeStep ) ) );
	}

	std::printf( "bullet_bench: %s, Bullet %d.%02d (%s precision), %d steps of %.6g s, %s\n", path, btGetVersion() / 100,
				 btGetVersion() % 100, sizeof( btScalar ) == 8 ? "double" : "single", steps, scene.timeStep,
				 allowSleep && scene.sleep ? "sleep on" : "sleep off" );

	std::vector<double> msPerStep;
	double meanHeight = 0.0;
	int bodyCount = 0, dynamicCount = 0, awake = 0;
	for ( int r = 0; r < repeat; ++r )
	{
		// a fresh world each run, so every run times the same simulation
		World world( scene, allowSleep );
		auto start = std::chrono::steady_clock::now();
		for ( int i = 0; i < steps; ++i )
		{
			world.Step( scene.timeStep );
		}
		auto stop = std::chrono::steady_clock::now();
		double ms = std::chrono::duration<double, std::milli>( stop - start ).count() / steps;
		msPerStep.push_back( ms );
		std::printf( "run %d: %.3f ms/step\n", r + 1, ms );
		meanHeight = world.MeanDynamicHeight();
		bodyCount = world.BodyCount();
		dynamicCount = world.DynamicCount();
		awake = world.AwakeCount();
		if ( positions && r == repeat - 1 )
		{
			world.PrintPositions( scene );
		}
	}

	std::vector<double> sorted = msPerStep;
	std::sort( sorted.begin(), sorted.end() );
	size_t n = sorted.size();
	double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * ( sorted[n / 2 - 1] + sorted[n / 2] );
	std::printf( "bullet %s: median %.3f ms/step over %d steps\n", scene.name.c_str(), median, steps );
	std::printf( "bodies: %d (%d dynamic, %d awake at the end), final average height of dynamic bodies: %.4f m\n",
				 bodyCount, dynamicCount, awake, meanHeight );
	return 0;
}
