// SPDX-License-Identifier: MIT
// POV-Ray scene files (render.h): one frame of a recording as a POV-Ray 3.7 scene, AERO's way of
// seeing its animations (seeds/aero-1993.txt, 2.2-2.4): every shape exact, surfaces by material
// (wood grain, refracting glass), a sky, a floor and a light that look right without styling.
//
// Cairn is right-handed with z up; POV-Ray is left-handed with y up. Swapping y and z (the
// reflection P) maps one onto the other without mirroring the picture, so every point is written
// as P x and every rotation as P R P.
#include "render/joint_draw.h"
#include "render/palette.h"

#include "cairn/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cnPovOptions cnDefaultPovOptions( void )
{
	cnPovOptions options;
	memset( &options, 0, sizeof( options ) );
	options.width = 640;
	options.height = 480;
	options.final = false;
	options.floor = true;
	options.textureDir = NULL;
	return options;
}

// A point or direction in POV-Ray's axes.
static void cnPovVec( FILE* out, cnVec3 v )
{
	fprintf( out, "<%.9g, %.9g, %.9g>", v.x, v.z, v.y );
}

// The transform from a shape's frame to the world in POV-Ray's axes: rows are the images of POV's
// x, y, z (Cairn's x, z, y) under P R P, then the translation.
static void cnPovMatrix( FILE* out, cnTransform xf )
{
	cnMat3 r = cnMat3FromQuat( xf.q );
	fprintf( out, "  matrix < " );
	cnVec3 rows[3] = { r.cx, r.cz, r.cy };
	for ( int i = 0; i < 3; ++i )
	{
		fprintf( out, "%.12g, %.12g, %.12g, ", rows[i].x, rows[i].z, rows[i].y );
	}
	fprintf( out, "%.12g, %.12g, %.12g >\n", xf.p.x, xf.p.z, xf.p.y );
}

// A string as a POV-Ray string literal (quotes and backslashes escaped).
static void cnPovString( FILE* out, const char* s )
{
	fputc( '"', out );
	for ( ; *s != 0; ++s )
	{
		if ( *s == '"' || *s == '\\' )
		{
			fputc( '\\', out );
		}
		fputc( *s, out );
	}
	fputc( '"', out );
}

// A name in a comment line: a line break or other control character in it (names are the user's)
// would end the comment and let the rest of the name be read as POV-Ray's language, so they are
// written as '?'.
static void cnPovCommentText( FILE* out, const char* s )
{
	for ( ; *s != 0; ++s )
	{
		fputc( (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out );
	}
}

// How far a shape reaches from its frame's origin: the scale its surface patterns are drawn at
// (1 for a plane, which has no size of its own).
static double cnShapeReach( const cnRecordedShape* s )
{
	return s->type == cnShape_plane ? 1.0 : cnRecordedShape_GetReach( s );
}

// The half depth a planar polygon is drawn with: a slab thick enough to read as a solid.
static double cnPolygonHalfDepth( const cnRecordedShape* s )
{
	return fmax( s->radius, 0.25 * cnShapeReach( s ) );
}

// The image format POV-Ray names for a texture file, from its extension (NULL: not one it reads).
static const char* cnImageType( const char* path )
{
	const char* dot = strrchr( path, '.' );
	if ( dot == NULL )
	{
		return NULL;
	}
	static const char* const table[][2] = { { ".png", "png" },	 { ".jpg", "jpeg" }, { ".jpeg", "jpeg" },
											{ ".tga", "tga" },	 { ".ppm", "ppm" },	 { ".pgm", "pgm" },
											{ ".gif", "gif" },	 { ".tif", "tiff" }, { ".tiff", "tiff" },
											{ ".bmp", "bmp" },	 { ".exr", "exr" },	 { ".hdr", "hdr" } };
	for ( size_t i = 0; i < sizeof( table ) / sizeof( table[0] ); ++i )
	{
		const char* a = dot;
		const char* b = table[i][0];
		while ( *a != 0 && *b != 0 && ( *a | 0x20 ) == *b )
		{
			++a;
			++b;
		}
		if ( *a == 0 && *b == 0 )
		{
			return table[i][1];
		}
	}
	return NULL;
}

// The pigment of a texture image wrapped on a shape: spherically on spheres, around the axis of
// cylinders and capsules, and across the shape's extent (seen from +z) on the others.
static bool cnPovImagePigment( FILE* out, const cnRecordedShape* s, const cnPovOptions* options )
{
	char path[4096 + 1024];
	bool relative = s->texture[0] != '/' && options->textureDir != NULL && options->textureDir[0] != 0;
	int n = snprintf( path, sizeof( path ), "%s%s%s", relative ? options->textureDir : "", relative ? "/" : "",
					  s->texture );
	if ( n < 0 || n >= (int)sizeof( path ) )
	{
		return cnSetError( cnError_invalidArgument, "texture \"%s\": the path is too long", s->texture );
	}
	const char* type = cnImageType( path );
	if ( type == NULL )
	{
		return cnSetError( cnError_invalidArgument,
						   "texture \"%s\": POV-Ray reads .png, .jpg, .tga, .ppm, .pgm, .gif, .tiff, .bmp, .exr or .hdr images",
						   path );
	}
	FILE* probe = fopen( path, "rb" );
	if ( probe == NULL )
	{
		return cnSetError( cnError_io, "texture \"%s\": %s", path, strerror( errno ) );
	}
	fclose( probe );
	fprintf( out, "    pigment { image_map { %s ", type );
	cnPovString( out, path );
	double reach = cnShapeReach( s );
	switch ( s->type )
	{
		case cnShape_sphere:
			fprintf( out, " map_type 1 interpolate 2 } }\n" );
			break;
		case cnShape_capsule:
		case cnShape_cylinder:
			// the cylindrical map spans y in [0, 1]: stretch it over the whole height
			fprintf( out, " map_type 2 interpolate 2 } translate <0, -0.5, 0> scale <1, %.9g, 1> }\n",
					 2.0 * ( s->halfHeight + ( s->type == cnShape_capsule ? s->radius : 0.0 ) ) );
			break;
		default:
			// the planar map covers the unit square of x and y: centre it and spread it over the shape
			fprintf( out, " interpolate 2 } translate <-0.5, -0.5, 0> scale %.9g rotate <90, 0, 0> }\n",
					 2.0 * reach );
			break;
	}
	return true;
}

// A shape's texture: its colour or image, its finish, and for glass its interior (ior). Patterns
// are drawn at the shape's size, or for a plane, which has none, at the size of the scene.
static bool cnPovTexture( FILE* out, const cnRecordedShape* s, const float color[3], const cnPovOptions* options,
						  double sceneSize )
{
	double r = color[0], g = color[1], b = color[2];
	double scale = fmax( s->type == cnShape_plane ? 0.25 * sceneSize : cnShapeReach( s ), 1e-3 );
	fprintf( out, "  texture {\n" );
	if ( s->texture != NULL && s->texture[0] != 0 )
	{
		if ( cnPovImagePigment( out, s, options ) == false )
		{
			return false;
		}
	}
	else
	{
		switch ( s->finish )
		{
			case cnFinish_glass:
				// mostly transmitting, tinted by the colour
				fprintf( out, "    pigment { rgbf <%.6g, %.6g, %.6g, 0.92> }\n", r, g, b );
				break;
			case cnFinish_wood:
				// rings around the shape's y axis, so faces along it show the long grain of a plank, in
				// light and dark tones of the colour; a few centimetres apart, wider on large shapes
				// so they do not shimmer
				fprintf( out,
						 "    pigment { wood turbulence 0.08 color_map { [0.0 rgb <%.6g, %.6g, %.6g>] [0.7 rgb <%.6g, "
						 "%.6g, %.6g>] [1.0 rgb <%.6g, %.6g, %.6g>] } scale <%.6g, %.6g, 1> }\n",
						 r, g, b, 0.8 * r, 0.8 * g, 0.8 * b, 0.55 * r, 0.55 * g, 0.55 * b,
						 fmin( fmax( 0.02 * scale, 0.01 ), 0.1 ), fmin( fmax( 0.02 * scale, 0.01 ), 0.1 ) );
				break;
			case cnFinish_marble:
				fprintf( out,
						 "    pigment { marble turbulence 1.2 color_map { [0.0 rgb <%.6g, %.6g, %.6g>] [0.8 rgb <%.6g, "
						 "%.6g, %.6g>] [1.0 rgb <%.6g, %.6g, %.6g>] } scale %.6g }\n",
						 r, g, b, 0.9 * r, 0.9 * g, 0.9 * b, 0.4 * r, 0.4 * g, 0.4 * b, 0.6 * scale );
				break;
			default:
				fprintf( out, "    pigment { rgb <%.6g, %.6g, %.6g> }\n", r, g, b );
				break;
		}
	}
	switch ( s->finish )
	{
		case cnFinish_matte:
			fprintf( out, "    finish { ambient 0.12 diffuse 0.85 specular 0 }\n" );
			break;
		case cnFinish_metal:
			fprintf( out, "    finish { ambient 0.08 diffuse 0.3 brilliance 3 specular 0.8 roughness 0.01 metallic "
						  "reflection { 0.45 metallic } }\n" );
			break;
		case cnFinish_glass:
			fprintf( out, "    finish { ambient 0 diffuse 0.05 specular 0.9 roughness 0.001 reflection { 0.02, 1 fresnel "
						  "on } conserve_energy }\n" );
			break;
		case cnFinish_wood:
			fprintf( out, "    finish { ambient 0.12 diffuse 0.75 specular 0.25 roughness 0.05 }\n" );
			break;
		case cnFinish_marble:
			fprintf( out, "    finish { ambient 0.12 diffuse 0.7 specular 0.6 roughness 0.01 reflection 0.06 }\n" );
			break;
		case cnFinish_rubber:
			fprintf( out, "    finish { ambient 0.12 diffuse 0.9 specular 0.05 roughness 0.2 }\n" );
			if ( options->final )
			{
				fprintf( out, "    normal { granite 0.08 scale %.6g }\n", 0.05 * scale );
			}
			break;
		default:
			fprintf( out, "    finish { ambient 0.12 diffuse 0.7 specular 0.5 roughness 0.015 reflection 0.03 }\n" );
			break;
	}
	fprintf( out, "  }\n" );
	if ( s->finish == cnFinish_glass )
	{
		fprintf( out, "  interior { ior %.6g }\n", s->ior );
	}
	return true;
}

// A planar polygon as a slab: the polygon's prism, and when its edges are thickened, a slab along
// each edge and a cylinder at each vertex (the exact extrusion of the rounded polygon).
static void cnPovPolygon( FILE* out, const cnRecordedShape* s )
{
	double t = cnPolygonHalfDepth( s );
	int n = s->vertexCount;
	// a bare segment would be invisible: give it a thin rounding
	double r = ( n < 3 && s->radius <= 0.0 ) ? 0.02 * fmax( cnShapeReach( s ), 1e-3 ) : s->radius;
	fprintf( out, "merge {\n" );
	if ( n >= 3 )
	{
		fprintf( out, "  prism { linear_sweep linear_spline %.9g, %.9g, %d", -t, t, n + 1 );
		for ( int k = 0; k <= n; ++k )
		{
			cnVec3 v = s->vertices[k % n];
			fprintf( out, ", <%.9g, %.9g>", v.x, v.y );
		}
		fprintf( out, " }\n" );
	}
	if ( r > 0.0 )
	{
		int edges = n >= 3 ? n : n - 1;
		for ( int k = 0; k < edges; ++k )
		{
			cnVec3 a = s->vertices[k];
			cnVec3 b = s->vertices[( k + 1 ) % n];
			cnVec3 d = cnSub( b, a );
			double len = sqrt( d.x * d.x + d.y * d.y );
			if ( len <= 0.0 )
			{
				continue;
			}
			double nx = -d.y / len * r, ny = d.x / len * r;
			fprintf( out, "  prism { linear_sweep linear_spline %.9g, %.9g, 5, <%.9g, %.9g>, <%.9g, %.9g>, <%.9g, %.9g>, "
						  "<%.9g, %.9g>, <%.9g, %.9g> }\n",
					 -t, t, a.x + nx, a.y + ny, b.x + nx, b.y + ny, b.x - nx, b.y - ny, a.x - nx, a.y - ny, a.x + nx,
					 a.y + ny );
		}
		for ( int k = 0; k < n; ++k )
		{
			cnVec3 v = s->vertices[k];
			fprintf( out, "  cylinder { <%.9g, %.9g, %.9g>, <%.9g, %.9g, %.9g>, %.9g }\n", v.x, -t, v.y, v.x, t, v.y, r );
		}
	}
}

// A hull, mesh or heightfield as a POV-Ray mesh2 of its recorded surface. Closed surfaces (hulls)
// get an inside vector, so glass refracts through them as through a solid.
static void cnPovSurface( FILE* out, const cnRecordedShape* s )
{
	fprintf( out, "mesh2 {\n  vertex_vectors { %d", s->vertexCount );
	for ( int k = 0; k < s->vertexCount; ++k )
	{
		fprintf( out, k % 4 == 0 ? ",\n    " : ", " );
		cnPovVec( out, s->vertices[k] );
	}
	fprintf( out, " }\n  face_indices { %d", s->triangleCount );
	for ( int k = 0; k < s->triangleCount; ++k )
	{
		const int* t = s->triangles + 3 * k;
		fprintf( out, k % 6 == 0 ? ",\n    <%d, %d, %d>" : ", <%d, %d, %d>", t[0], t[1], t[2] );
	}
	fprintf( out, " }\n" );
	if ( s->type == cnShape_hull )
	{
		fprintf( out, "  inside_vector <0, 1, 0>\n" );
	}
}

// One shape of a body, in its own frame, then its texture and the matrix that places it.
static bool cnPovShape( FILE* out, const cnRecordedShape* s, cnTransform body, const float color[3],
						const cnPovOptions* options, double sceneSize )
{
	switch ( s->type )
	{
		case cnShape_sphere:
			fprintf( out, "sphere { <0, 0, 0>, %.9g\n", s->radius );
			break;
		case cnShape_box:
		{
			cnVec3 h = s->halfExtents;
			fprintf( out, "box { <%.9g, %.9g, %.9g>, <%.9g, %.9g, %.9g>\n", -h.x, -h.z, -h.y, h.x, h.z, h.y );
			break;
		}
		case cnShape_cylinder:
			fprintf( out, "cylinder { <0, %.9g, 0>, <0, %.9g, 0>, %.9g\n", -s->halfHeight, s->halfHeight, s->radius );
			break;
		case cnShape_capsule:
			// merged, so glass capsules show no inner surfaces
			fprintf( out,
					 "merge {\n  cylinder { <0, %.9g, 0>, <0, %.9g, 0>, %.9g }\n  sphere { <0, %.9g, 0>, %.9g }\n  "
					 "sphere { <0, %.9g, 0>, %.9g }\n",
					 -s->halfHeight, s->halfHeight, s->radius, -s->halfHeight, s->radius, s->halfHeight, s->radius );
			break;
		case cnShape_plane:
			fprintf( out, "plane { " );
			cnPovVec( out, s->normal );
			fprintf( out, ", %.9g\n", s->offset );
			break;
		case cnShape_polygon:
			cnPovPolygon( out, s );
			break;
		case cnShape_hull:
		case cnShape_mesh:
		case cnShape_heightfield:
			if ( s->vertexCount < 3 || s->triangleCount < 1 )
			{
				return true;
			}
			cnPovSurface( out, s );
			break;
		default:
			return true;
	}
	if ( cnPovTexture( out, s, color, options, sceneSize ) == false )
	{
		return false;
	}
	cnPovMatrix( out, cnMulTransforms( body, s->localPose ) );
	fprintf( out, "}\n" );
	return true;
}

// The joints at a frame, as AERO drew its connections (render/joint_draw.h): springs as coils,
// dampers as a dark cylinder with a rod sliding in it, rods as thin cylinders, ball-like joints as a
// sphere at the anchor, welds, sliders and plane contacts as small cubes, all in a neutral steel;
// broken and removed joints are left out. False when memory runs out.
static bool cnPovJoints( FILE* out, const cnRecording* recording, int frame )
{
	int count = cnRecording_GetJointCount( recording );
	if ( count == 0 )
	{
		return true;
	}
	cnJointLook* looks = cnJointLooks( recording );
	if ( looks == NULL )
	{
		return cnSetError( cnError_outOfMemory, "POV-Ray frame %d: out of memory", frame );
	}
	fprintf( out, "#declare CairnJointSteel = texture { pigment { rgb <0.72, 0.73, 0.76> }\n  finish { ambient 0.1 "
				  "diffuse 0.45 brilliance 2 specular 0.7 roughness 0.02 metallic reflection { 0.25 metallic } } }\n" );
	fprintf( out, "#declare CairnJointDark = texture { pigment { rgb <0.16, 0.16, 0.18> }\n  finish { ambient 0.1 "
				  "diffuse 0.6 specular 0.5 roughness 0.02 reflection 0.05 } }\n" );
	for ( int i = 0; i < count; ++i )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( recording, i );
		cnJointPiece pieces[CN_JOINT_PIECES_MAX];
		int n = cnJointPieces( recording, looks + i, frame, i, pieces );
		fprintf( out, "// joint %d: %s ", i, cnJointType_GetName( joint.type ) );
		cnPovCommentText( out, joint.name );
		fputc( '\n', out );
		for ( int k = 0; k < n; ++k )
		{
			const cnJointPiece* p = pieces + k;
			if ( p->visible == false )
			{
				continue;
			}
			const char* texture = p->dark ? "CairnJointDark" : "CairnJointSteel";
			switch ( p->kind )
			{
				case cnJointPiece_sphere:
					fprintf( out, "sphere { " );
					cnPovVec( out, p->a );
					fprintf( out, ", %.9g texture { %s } }\n", p->radius, texture );
					break;
				case cnJointPiece_rod:
					fprintf( out, "cylinder { " );
					cnPovVec( out, p->a );
					fprintf( out, ", " );
					cnPovVec( out, p->b );
					fprintf( out, ", %.9g texture { %s } }\n", p->radius, texture );
					break;
				case cnJointPiece_marker:
					fprintf( out, "box { <%.9g, %.9g, %.9g>, <%.9g, %.9g, %.9g> texture { %s }\n", -p->radius, -p->radius,
							 -p->radius, p->radius, p->radius, p->radius, texture );
					cnPovMatrix( out, ( cnTransform ){ p->a, p->q } );
					fprintf( out, "}\n" );
					break;
				case cnJointPiece_coil:
				{
					// the coil in its own frame (z from A's anchor to B's), stretched to the anchors'
					// distance, then turned and moved onto them; 16 points a turn
					const cnJointLook* look = looks + i;
					double length = cnDistance( p->a, p->b );
					int points = 16 * look->turns + 1;
					fprintf( out, "sphere_sweep { linear_spline %d", points );
					for ( int m = 0; m < points; ++m )
					{
						cnVec3 c = cnCoilPoint( look->coilRadius, look->turns, length, (double)m / (double)( points - 1 ) );
						fprintf( out, ",\n  <%.9g, %.9g, %.9g>, %.9g", c.x, c.z, c.y, p->radius );
					}
					fprintf( out, "\n  texture { %s }\n", texture );
					cnVec3 u = cnMulSV( 1.0 / length, cnSub( p->b, p->a ) );
					cnPovMatrix( out, ( cnTransform ){ p->a, cnRotationFromZ( u ) } );
					fprintf( out, "}\n" );
					break;
				}
			}
		}
	}
	free( looks );
	return true;
}

// A round length near x (1, 2 or 5 times a power of ten): the floor's checker size.
static double cnNiceLength( double x )
{
	double p = pow( 10.0, floor( log10( x ) ) );
	double m = x / p;
	return ( m < 1.5 ? 1.0 : ( m < 3.5 ? 2.0 : 5.0 ) ) * p;
}

// The camera, the sky and the lights, placed relative to the view and the recording's size.
static void cnPovStage( FILE* out, const cnView* view, const cnPovOptions* options, double size )
{
	double aspect = (double)options->width / (double)options->height;
	fprintf( out, "camera {\n  perspective\n  location " );
	cnPovVec( out, view->position );
	fprintf( out, "\n  sky " );
	cnPovVec( out, view->up );
	fprintf( out, "\n  right x * %.9g\n  up y\n  angle %.9g\n  look_at ", aspect, view->fovDeg );
	cnPovVec( out, view->lookAt );
	fprintf( out, "\n}\n" );

	fprintf( out, "sky_sphere { pigment { gradient y color_map { [0.0 rgb <0.80, 0.86, 0.95>] [0.35 rgb <0.45, 0.62, "
				  "0.88>] [1.0 rgb <0.20, 0.38, 0.75>] } } }\n" );

	// the key light above the camera and to its left, so the faces seen are lit and shadows fall
	// away from the viewer; a faint shadowless fill from the camera keeps the dark sides readable
	cnVec3 back = cnSub( view->position, view->lookAt );
	double distance = cnLength( back );
	cnVec3 forward = cnMulSV( -1.0 / distance, back );
	cnVec3 right = cnCross( forward, view->up );
	double rl = cnLength( right );
	right = rl > 0.0 ? cnMulSV( 1.0 / rl, right ) : cnV3( 1.0, 0.0, 0.0 );
	cnVec3 up = cnCross( right, forward );
	double reach = fmax( distance, size );
	cnVec3 key = cnAdd( view->lookAt, cnAdd( cnMulSV( 0.9, back ), cnMulAdd( cnMulSV( -0.8 * reach, right ), 1.6 * reach, up ) ) );
	fprintf( out, "light_source {\n  " );
	cnPovVec( out, key );
	fprintf( out, ", rgb <1.0, 0.97, 0.92>\n" );
	if ( options->final )
	{
		double a = 0.12 * reach;
		fprintf( out, "  area_light <%.9g, 0, 0>, <0, 0, %.9g>, 6, 6 adaptive 1 jitter circular orient\n", a, a );
	}
	fprintf( out, "}\nlight_source {\n  " );
	cnPovVec( out, view->position );
	fprintf( out, ", rgb 0.3 shadowless\n}\n" );
}

bool cnWritePovFrame( FILE* out, const cnRecording* recording, int frame, const cnView* view,
					  const cnPovOptions* options )
{
	if ( out == NULL || recording == NULL || view == NULL || options == NULL || frame < 0 ||
		 frame >= cnRecording_GetFrameCount( recording ) )
	{
		return cnSetError( cnError_invalidArgument, "POV-Ray frame: no output, recording or view, or frame %d out of range",
						   frame );
	}
	if ( options->width < 1 || options->height < 1 || !( view->fovDeg > 0.0 && view->fovDeg < 180.0 ) ||
		 cnIsValidVec3( view->position ) == false || cnIsValidVec3( view->lookAt ) == false ||
		 cnDistance( view->position, view->lookAt ) == 0.0 )
	{
		return cnSetError( cnError_invalidArgument, "POV-Ray frame: size %dx%d or view invalid", options->width,
						   options->height );
	}
	cnAABB bounds;
	if ( cnRecording_GetBounds( recording, &bounds ) == false )
	{
		bounds.lower = cnV3( -1.0, -1.0, 0.0 );
		bounds.upper = cnV3( 1.0, 1.0, 1.0 );
	}
	double size = fmax( cnLength( cnSub( bounds.upper, bounds.lower ) ), 1e-3 );

	fprintf( out, "// " );
	cnPovCommentText( out, cnRecording_GetSceneName( recording ) );
	fprintf( out, ", frame %d of %d, t = %.9g s: written by Cairn (cairn render)\n#version 3.7;\n", frame,
			 cnRecording_GetFrameCount( recording ), cnRecording_GetFrameTime( recording, frame ) );
	fprintf( out, "global_settings { assumed_gamma 1.0 max_trace_level %d }\n", options->final ? 12 : 6 );
	cnPovStage( out, view, options, size );

	bool hasPlane = false;
	int bodies = cnRecording_GetBodyCount( recording );
	for ( int b = 0; b < bodies; ++b )
	{
		// a body not created yet or destroyed (version 6) is not drawn
		if ( cnRecording_IsBodyPresent( recording, frame, b ) == false )
		{
			continue;
		}
		cnTransform xf = cnRecording_GetBodyTransform( recording, frame, b );
		int shapes = cnRecording_GetShapeCount( recording, b );
		fprintf( out, "// body %d: ", b );
		cnPovCommentText( out, cnRecording_GetBodyName( recording, b ) );
		fputc( '\n', out );
		for ( int k = 0; k < shapes; ++k )
		{
			cnRecordedShape s = cnRecording_GetShape( recording, b, k );
			const float* color = s.color;
			bool floorLike = s.type == cnShape_plane && cnIsUnstyled( &s );
			if ( s.type == cnShape_plane )
			{
				hasPlane = true;
			}
			if ( floorLike )
			{
				// an unstyled plane is the floor: a soft checker at a round size
				fprintf( out, "plane { " );
				cnPovVec( out, s.normal );
				fprintf( out, ", %.9g\n  texture { pigment { checker rgb 0.62, rgb 0.48 scale %.9g }\n    finish { "
							  "ambient 0.12 diffuse 0.8 reflection %g } }\n",
						 s.offset, cnNiceLength( 0.1 * size ), options->final ? 0.04 : 0.0 );
				cnPovMatrix( out, cnMulTransforms( xf, s.localPose ) );
				fprintf( out, "}\n" );
				continue;
			}
			if ( cnIsUnstyled( &s ) && cnRecording_GetBodyType( recording, b ) != cnBody_static )
			{
				// the palette (render/palette.h) the glTF exporter shares
				color = cnPaletteColor( b );
			}
			if ( cnPovShape( out, &s, xf, color, options, size ) == false )
			{
				return false;
			}
		}
	}
	if ( cnPovJoints( out, recording, frame ) == false )
	{
		return false;
	}
	if ( hasPlane == false && options->floor )
	{
		fprintf( out, "// the floor under everything\nplane { y, %.9g\n  texture { pigment { checker rgb 0.62, rgb 0.48 "
					  "scale %.9g }\n    finish { ambient 0.12 diffuse 0.8 reflection %g } }\n}\n",
				 bounds.lower.z - 1e-3 * size, cnNiceLength( 0.1 * size ), options->final ? 0.04 : 0.0 );
	}
	if ( ferror( out ) )
	{
		return cnSetError( cnError_io, "POV-Ray frame %d: write failed", frame );
	}
	cnClearError();
	return true;
}
