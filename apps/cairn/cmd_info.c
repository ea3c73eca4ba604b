// SPDX-License-Identifier: MIT
// `cairn info FILE`: describes a JSON scene or a binary recording (told apart by the magic).
#include "cairn/recording.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char cliInfoHelp[] =
	"usage: cairn info FILE\n"
	"\n"
	"Describes a file:\n"
	"  a JSON scene, or a FOSSSim XML scene (.xml): name, description, method, timestep,\n"
	"    duration, fps, gravity, body, shape and joint counts by type, materials and the\n"
	"    total mass of the dynamic bodies;\n"
	"  a recording (starts with \"CAIRNREC\"): scene name, frames, fps, duration, bodies and\n"
	"    joints (each with its bodies, and when it broke or was removed).\n"
	"\n"
	"exit status: 0 ok, 2 the file cannot be read or is not a valid scene or recording.\n"
	"\n"
	"examples:\n"
	"  cairn info scenes/pyramid.json\n"
	"  cairn info cairn-demo/demo.cnrec\n";

// Prints "N (a x, b y, ...)" listing only the non-zero counts.
static void cliPrintCounts( const int* counts, int typeCount, const char* ( *typeName )( int ) )
{
	int total = 0;
	for ( int i = 0; i < typeCount; ++i )
	{
		total += counts[i];
	}
	printf( "%d", total );
	const char* separator = " (";
	for ( int i = 0; i < typeCount; ++i )
	{
		if ( counts[i] > 0 )
		{
			printf( "%s%d %s", separator, counts[i], typeName( i ) );
			separator = ", ";
		}
	}
	printf( "%s\n", total > 0 ? ")" : "" );
}

static const char* cliBodyTypeName( int type )
{
	return cnBodyType_GetName( (cnBodyType)type );
}

static const char* cliShapeTypeName( int type )
{
	return cnShapeType_GetName( (cnShapeType)type );
}

static const char* cliJointTypeName( int type )
{
	return cnJointType_GetName( (cnJointType)type );
}

static int cliInfoScene( const char* path )
{
	cnScene* scene = cliLoadScene( path, NULL );
	if ( scene == NULL )
	{
		return CLI_BAD_INPUT;
	}
	cnWorld* world = scene->world;
	cnWorldDef def = cnWorld_GetDef( world );
	cnVec3 g = cnWorld_GetGravity( world );

	int bodyCounts[3] = { 0 };
	int shapeCounts[cnShape_count] = { 0 };
	double totalMass = 0.0;
	int bodyCount = cnWorld_GetBodyCount( world );
	for ( int i = 0; i < bodyCount; ++i )
	{
		cnBodyId id = cnWorld_GetBody( world, i );
		cnBodyType type = cnBody_GetType( world, id );
		bodyCounts[type] += 1;
		if ( type == cnBody_dynamic )
		{
			totalMass += cnBody_GetMass( world, id );
		}
		int shapeCount = cnBody_GetShapeCount( world, id );
		cnShapeId* shapes = malloc( sizeof( cnShapeId ) * (size_t)( shapeCount > 0 ? shapeCount : 1 ) );
		if ( shapes == NULL )
		{
			cliError( "out of memory" );
			cnDestroyScene( scene );
			return CLI_FAILURE;
		}
		shapeCount = cnBody_GetShapes( world, id, shapes, shapeCount );
		for ( int j = 0; j < shapeCount; ++j )
		{
			shapeCounts[cnShape_GetDef( world, shapes[j] ).type] += 1;
		}
		free( shapes );
	}

	printf( "scene:       %s\n", scene->name );
	printf( "description: %s\n", scene->description );
	printf( "file:        %s\n", scene->path );
	if ( cnMethod_GetFlags( def.method ) & cnMethodFlag_subSteps )
	{
		printf( "method:      %s (%d sub-steps)\n", cnMethod_GetName( def.method ), def.settings.impulse.subSteps );
	}
	else
	{
		printf( "method:      %s\n", cnMethod_GetName( def.method ) );
	}
	printf( "timestep:    %.9g s\n", scene->timeStep );
	printf( "duration:    %.9g s\n", scene->duration );
	printf( "fps:         %.9g\n", scene->fps );
	printf( "gravity:     %.9g %.9g %.9g m/s^2\n", g.x, g.y, g.z );
	printf( "sleeping:    %s\n", def.enableSleep ? "on" : "off" );
	printf( "bodies:      " );
	cliPrintCounts( bodyCounts, 3, cliBodyTypeName );
	printf( "shapes:      " );
	cliPrintCounts( shapeCounts, cnShape_count, cliShapeTypeName );
	int jointCounts[cnJoint_count] = { 0 };
	int jointCount = cnWorld_GetJointCount( world );
	for ( int i = 0; i < jointCount; ++i )
	{
		cnJointType type = cnJoint_GetType( world, cnWorld_GetJoint( world, i ) );
		if ( type < cnJoint_count )
		{
			jointCounts[type] += 1;
		}
	}
	printf( "joints:      " );
	cliPrintCounts( jointCounts, cnJoint_count, cliJointTypeName );
	int materialCount = cnWorld_GetMaterialCount( world );
	printf( "materials:   %d\n", materialCount );
	int nameWidth = 9;
	for ( int i = 0; i < materialCount; ++i )
	{
		const char* name = cnMaterial_GetDef( world, i ).name;
		int length = name != NULL ? (int)strlen( name ) : 0;
		nameWidth = length > nameWidth ? length : nameWidth;
	}
	for ( int i = 0; i < materialCount; ++i )
	{
		cnMaterialDef m = cnMaterial_GetDef( world, i );
		printf( "  %-*s  density %.9g kg/m^3, friction %.9g, restitution %.9g, colour (%.3g, %.3g, %.3g)\n",
				nameWidth, m.name != NULL && m.name[0] != 0 ? m.name : "(unnamed)", m.density, m.friction, m.restitution,
				m.color[0], m.color[1], m.color[2] );
	}
	printf( "total mass:  %.9g kg (dynamic bodies)\n", totalMass );
	cnDestroyScene( scene );
	return CLI_OK;
}

static int cliInfoRecording( const char* path )
{
	cnRecording* rec = cnLoadRecording( path );
	if ( rec == NULL )
	{
		cliError( "%s", cnGetError() );
		return CLI_BAD_INPUT;
	}
	int frames = cnRecording_GetFrameCount( rec );
	int bodyCount = cnRecording_GetBodyCount( rec );
	double t0 = cnRecording_GetFrameTime( rec, 0 );
	double t1 = cnRecording_GetFrameTime( rec, frames - 1 );
	int bodyCounts[3] = { 0 };
	int shapeTotal = 0;
	for ( int i = 0; i < bodyCount; ++i )
	{
		bodyCounts[cnRecording_GetBodyType( rec, i )] += 1;
		shapeTotal += cnRecording_GetShapeCount( rec, i );
	}

	printf( "recording:   %s (format version %d)\n", path, cnRecording_GetVersion( rec ) );
	printf( "scene:       %s\n", cnRecording_GetSceneName( rec ) );
	printf( "frames:      %d\n", frames );
	printf( "fps:         %.9g\n", cnRecording_GetFps( rec ) );
	printf( "duration:    %.9g s (t = %.9g to %.9g)\n", frames > 0 ? t1 - t0 : 0.0, t0, frames > 0 ? t1 : 0.0 );
	printf( "shapes:      %d\n", shapeTotal );
	printf( "bodies:      " );
	cliPrintCounts( bodyCounts, 3, cliBodyTypeName );

	// a short listing; big scenes would flood the terminal
	const int listLimit = 20;
	for ( int i = 0; i < bodyCount && i < listLimit; ++i )
	{
		int shapeCount = cnRecording_GetShapeCount( rec, i );
		printf( "  %-16s %-9s %d shape%s:", cnRecording_GetBodyName( rec, i ),
				cnBodyType_GetName( cnRecording_GetBodyType( rec, i ) ), shapeCount, shapeCount == 1 ? "" : "s" );
		for ( int j = 0; j < shapeCount; ++j )
		{
			printf( " %s", cnShapeType_GetName( cnRecording_GetShape( rec, i, j ).type ) );
		}
		// version 6: a body created after the first frame or destroyed before the last says when
		int first = cnRecording_GetBodyFirstFrame( rec, i );
		if ( first > 0 )
		{
			printf( ", created at t = %.9g s", cnRecording_GetFrameTime( rec, first ) );
		}
		for ( int f = first > 0 ? first : 0; f < frames; ++f )
		{
			if ( cnRecording_GetBodyState( rec, f, i ) == cnRecordedBody_destroyed )
			{
				printf( ", destroyed at t = %.9g s", cnRecording_GetFrameTime( rec, f ) );
				break;
			}
		}
		printf( "\n" );
	}
	if ( bodyCount > listLimit )
	{
		printf( "  ... and %d more\n", bodyCount - listLimit );
	}

	// joints (format version 4): counts by type, then each with its bodies and when it stopped acting
	int jointCount = cnRecording_GetJointCount( rec );
	if ( jointCount > 0 )
	{
		int jointCounts[cnJoint_count] = { 0 };
		for ( int i = 0; i < jointCount; ++i )
		{
			jointCounts[cnRecording_GetJoint( rec, i ).type] += 1;
		}
		printf( "joints:      " );
		cliPrintCounts( jointCounts, cnJoint_count, cliJointTypeName );
	}
	for ( int i = 0; i < jointCount && i < listLimit; ++i )
	{
		cnRecordedJoint joint = cnRecording_GetJoint( rec, i );
		const char* bodyA = joint.bodyA >= 0 ? cnRecording_GetBodyName( rec, joint.bodyA ) : "(world)";
		const char* bodyB = joint.bodyB >= 0 ? cnRecording_GetBodyName( rec, joint.bodyB ) : "(world)";
		printf( "  %-16s %-14s %s - %s", joint.name[0] != 0 ? joint.name : "(unnamed)",
				cnJointType_GetName( joint.type ), bodyA, bodyB );
		for ( int f = 0; f < frames; ++f )
		{
			cnRecordedJointState state = cnRecording_GetJointState( rec, f, i );
			if ( state != cnRecordedJoint_acting )
			{
				printf( ", %s at t = %.9g s", state == cnRecordedJoint_broken ? "broken" : "removed",
						cnRecording_GetFrameTime( rec, f ) );
				break;
			}
		}
		printf( "\n" );
	}
	if ( jointCount > listLimit )
	{
		printf( "  ... and %d more\n", jointCount - listLimit );
	}
	cnDestroyRecording( rec );
	return CLI_OK;
}

int cliInfoMain( int argc, char** argv )
{
	const char* positional[1];
	int positionalCount = 0;
	int status = cliParse( argc, argv, NULL, 0, positional, 1, &positionalCount, cliInfoHelp );
	if ( status >= 0 )
	{
		return status;
	}
	if ( positionalCount != 1 )
	{
		cliError( "cairn info: no file given (see 'cairn info --help')" );
		return CLI_BAD_INPUT;
	}
	if ( cnIsRecordingFile( positional[0] ) )
	{
		return cliInfoRecording( positional[0] );
	}
	return cliInfoScene( positional[0] );
}
