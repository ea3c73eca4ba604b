// SPDX-License-Identifier: MIT
// The JSON scene loader (format: docs/scene-format.md). Every value is checked here, before the
// library sees it, so a bad file gets a message that names the file, the JSON path and the reason
// ("scenes/x.json: bodies[1].shapes[0].radius: must be > 0 (got -1)"). The world is built while
// the file is read, in a fixed order (settings, materials, pairs, bodies, forces, joints, cameras,
// no_collide), and destroyed on the first error: the caller gets a complete scene or NULL, never a
// half-built one. This file reads the top level, materials and no_collide; scene_json_bodies.c the
// bodies and their forces; scene_json_joints.c the joints; json_read.c the values.
#include "cairn/scene.h"

#include "io/io_util.h"
#include "io/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// materials


static const char* const cnMaterialKeys[] = { "density", "friction", "restitution", "stiffness",
											  "damping", "color",	 "texture",		"appearance" };

static const char* const cnAppearanceKeys[] = { "color", "finish", "texture", "ior" };

// Reads a colour [r, g, b] at key of obj into color (left alone when absent).
static bool cnReadColor( cnLoader* L, const cJSON* obj, float color[3] )
{
	const cJSON* item = cnJsonField( obj, "color" );
	if ( item == NULL )
	{
		return true;
	}
	double rgb[3];
	int path = cnJsonPushKey( L, "color" );
	if ( cnJsonArrayValue( L, item, 3, "[r, g, b] each in [0, 1]", cnJsonCheck_unit, rgb ) == false )
	{
		return false;
	}
	cnJsonPopPath( L, path );
	color[0] = (float)rgb[0];
	color[1] = (float)rgb[1];
	color[2] = (float)rgb[2];
	return true;
}

// A material's "appearance" block: how renders and exports show it (colour, finish, texture image,
// index of refraction of glass). The older material-level "color" and "texture" keys still work,
// but not together with the block's.
static bool cnLoadAppearance( cnLoader* L, const cJSON* m, cnMaterialDef* def )
{
	const cJSON* a = cnJsonField( m, "appearance" );
	if ( a == NULL )
	{
		return cnReadColor( L, m, def->color );
	}
	if ( cnJsonField( m, "color" ) != NULL || cnJsonField( m, "texture" ) != NULL )
	{
		return cnJsonFailAt( L, cnJsonField( m, "color" ) != NULL ? "color" : "texture",
							 "give the colour and texture in \"appearance\" or beside it, not both" );
	}
	int saved = cnJsonPushKey( L, "appearance" );
	if ( cJSON_IsObject( a ) == false )
	{
		return cnJsonFail( L, "expected an object {\"color\", \"finish\", \"texture\", \"ior\"}, got %s", cnJsonKind( a ) );
	}
	const char* finish = NULL;
	double ior = def->ior;
	if ( cnJsonCheckKeys( L, a, cnAppearanceKeys, CN_COUNT( cnAppearanceKeys ), "an appearance" ) == false ||
		 cnReadColor( L, a, def->color ) == false || cnJsonReadString( L, a, "finish", &finish ) == false ||
		 cnJsonReadString( L, a, "texture", &def->texture ) == false ||
		 cnJsonReadNumber( L, a, "ior", cnJsonCheck_positive, &ior ) == false )
	{
		return false;
	}
	if ( finish != NULL && cnFinish_FromName( finish, &def->finish ) == false )
	{
		return cnJsonFailAt( L, "finish",
							 "unknown finish \"%s\" (allowed: plastic, matte, metal, glass, wood, marble, rubber)",
							 finish );
	}
	if ( ior < 1.0 )
	{
		return cnJsonFailAt( L, "ior", "an index of refraction must be >= 1 (got %g)", ior );
	}
	def->ior = ior;
	cnJsonPopPath( L, saved );
	return true;
}

static bool cnLoadMaterials( cnLoader* L, const cJSON* materials )
{
	if ( materials == NULL )
	{
		return true;
	}
	if ( cJSON_IsObject( materials ) == false )
	{
		return cnJsonFail( L, "expected an object mapping material names to materials, got %s",
						   cnJsonKind( materials ) );
	}
	for ( const cJSON* m = materials->child; m != NULL; m = m->next )
	{
		const char* name = m->string;
		int saved = cnJsonPushKey( L, name );
		for ( const cJSON* before = materials->child; before != m; before = before->next )
		{
			if ( strcmp( before->string, name ) == 0 )
			{
				return cnJsonFail( L, "material \"%s\" is defined twice", name );
			}
		}
		if ( name[0] == 0 )
		{
			return cnJsonFail( L, "a material name must not be empty" );
		}
		if ( cnJsonCheckKeys( L, m, cnMaterialKeys, CN_COUNT( cnMaterialKeys ), "a material" ) == false )
		{
			return false;
		}
		cnMaterialDef def = cnDefaultMaterialDef();
		def.name = name;
		if ( cnJsonReadNumber( L, m, "density", cnJsonCheck_positive, &def.density ) == false ||
			 cnJsonReadNumber( L, m, "friction", cnJsonCheck_nonNegative, &def.friction ) == false ||
			 cnJsonReadNumber( L, m, "restitution", cnJsonCheck_unit, &def.restitution ) == false ||
			 cnJsonReadNumber( L, m, "stiffness", cnJsonCheck_nonNegative, &def.stiffness ) == false ||
			 cnJsonReadNumber( L, m, "damping", cnJsonCheck_nonNegative, &def.damping ) == false ||
			 cnJsonReadString( L, m, "texture", &def.texture ) == false || cnLoadAppearance( L, m, &def ) == false )
		{
			return false;
		}

		// "default" is material 0, which every world has from the start
		cnMaterialId existing = cnWorld_FindMaterial( L->world, name );
		bool ok =
			existing == 0 ? cnMaterial_SetDef( L->world, 0, &def ) : cnCreateMaterial( L->world, &def ) >= 0;
		if ( ok == false )
		{
			return cnJsonLibraryFailure( L, NULL );
		}
		cnJsonPopPath( L, saved );
	}
	return true;
}

static const char* const cnPairKeys[] = { "materials", "friction", "restitution" };

static bool cnLoadMaterialPairs( cnLoader* L, const cJSON* pairs )
{
	if ( pairs == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( pairs ) == false )
	{
		return cnJsonFail( L, "expected an array of material pairs, got %s", cnJsonKind( pairs ) );
	}
	int count = cJSON_GetArraySize( pairs );
	L->pairs = calloc( (size_t)( count > 0 ? count : 1 ), sizeof( *L->pairs ) );
	if ( L->pairs == NULL )
	{
		return cnJsonFailOutOfMemory( L );
	}
	int index = 0;
	for ( const cJSON* p = pairs->child; p != NULL; p = p->next, ++index )
	{
		int saved = cnJsonPushIndex( L, index );
		if ( cnJsonCheckKeys( L, p, cnPairKeys, CN_COUNT( cnPairKeys ), "a material pair" ) == false ||
			 cnJsonRequire( L, p, "materials", "the two material names" ) == false )
		{
			return false;
		}
		const cJSON* names = cnJsonField( p, "materials" );
		int namesPath = cnJsonPushKey( L, "materials" );
		if ( cJSON_IsArray( names ) == false || cJSON_GetArraySize( names ) != 2 )
		{
			return cnJsonFail( L, "expected an array of two material names [\"a\", \"b\"]" );
		}
		cnMaterialId ids[2] = { 0, 0 };
		for ( int i = 0; i < 2; ++i )
		{
			const char* name = NULL;
			int itemPath = cnJsonPushIndex( L, i );
			if ( cnJsonStringValue( L, cJSON_GetArrayItem( names, i ), &name ) == false ||
				 cnJsonMaterialByName( L, name, ids + i ) == false )
			{
				return false;
			}
			cnJsonPopPath( L, itemPath );
		}
		for ( int k = 0; k < L->pairCount; ++k )
		{
			int a = L->pairs[k][0], b = L->pairs[k][1];
			if ( ( a == ids[0] && b == ids[1] ) || ( a == ids[1] && b == ids[0] ) )
			{
				return cnJsonFail( L, "this pair of materials is already given in material_pairs[%d]", L->pairs[k][2] );
			}
		}
		cnJsonPopPath( L, namesPath );

		if ( cnJsonField( p, "friction" ) == NULL && cnJsonField( p, "restitution" ) == NULL )
		{
			return cnJsonFail( L, "a material pair needs \"friction\", \"restitution\" or both" );
		}
		// a value not given keeps what the two materials would combine to anyway
		cnMaterialDef a = cnMaterial_GetDef( L->world, ids[0] );
		cnMaterialDef b = cnMaterial_GetDef( L->world, ids[1] );
		double friction = cnMixFriction( a.friction, b.friction );
		double restitution = cnMixRestitution( a.restitution, b.restitution );
		if ( cnJsonReadNumber( L, p, "friction", cnJsonCheck_nonNegative, &friction ) == false ||
			 cnJsonReadNumber( L, p, "restitution", cnJsonCheck_unit, &restitution ) == false )
		{
			return false;
		}
		if ( cnWorld_SetMaterialPair( L->world, ids[0], ids[1], friction, restitution ) == false )
		{
			return cnJsonLibraryFailure( L, NULL );
		}
		L->pairs[L->pairCount][0] = ids[0];
		L->pairs[L->pairCount][1] = ids[1];
		L->pairs[L->pairCount][2] = index;
		L->pairCount += 1;
		cnJsonPopPath( L, saved );
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// no_collide

static bool cnLoadNoCollide( cnLoader* L, const cJSON* pairs )
{
	if ( pairs == NULL )
	{
		return true;
	}
	if ( cJSON_IsArray( pairs ) == false )
	{
		return cnJsonFail( L, "expected an array of body name pairs [[\"a\", \"b\"], ...], got %s",
						   cnJsonKind( pairs ) );
	}
	int index = 0;
	for ( const cJSON* p = pairs->child; p != NULL; p = p->next, ++index )
	{
		int saved = cnJsonPushIndex( L, index );
		if ( cJSON_IsArray( p ) == false || cJSON_GetArraySize( p ) != 2 )
		{
			return cnJsonFail( L, "expected a pair of body names [\"a\", \"b\"]" );
		}
		cnBodyId ids[2];
		for ( int i = 0; i < 2; ++i )
		{
			const char* name = NULL;
			int itemPath = cnJsonPushIndex( L, i );
			if ( cnJsonStringValue( L, cJSON_GetArrayItem( p, i ), &name ) == false ||
				 cnJsonBodyByName( L, name, ids + i ) == false )
			{
				return false;
			}
			cnJsonPopPath( L, itemPath );
		}
		if ( ids[0].index == ids[1].index )
		{
			return cnJsonFail( L, "a body never collides with itself: name two different bodies" );
		}
		if ( cnWorld_DisableCollision( L->world, ids[0], ids[1] ) == false )
		{
			return cnJsonLibraryFailure( L, NULL );
		}
		cnJsonPopPath( L, saved );
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// warnings

// The JSON path of a material's key ("materials.rubber.friction"; key NULL: the material) in path.
static void cnMaterialPath( cnLoader* L, const char* name, const char* key, char* path, size_t size )
{
	int saved = cnJsonPushKey( L, "materials" );
	cnJsonPushKey( L, name );
	if ( key != NULL )
	{
		cnJsonPushKey( L, key );
	}
	snprintf( path, size, "%s", L->path );
	cnJsonPopPath( L, saved );
}

// Friction the world's method does not model: one warning per material (used by a shape) and per
// material pair whose friction a contact would use, at the key that gives it.
static bool cnWarnFriction( cnLoader* L, const cJSON* root, const cnWorldDef* def )
{
	uint32_t flags = cnMethod_GetFlags( def->method );
	// the LCP methods model friction with their dantzig solver only (cnMethod_GetFlags)
	bool lemke = ( flags & cnMethodFlag_velocityLevel ) != 0 && ( flags & cnMethodFlag_friction ) != 0 &&
				 def->settings.velocity.lcpSolver == cnLcp_lemke;
	if ( ( flags & cnMethodFlag_friction ) != 0 && lemke == false )
	{
		return true;
	}
	char method[96];
	snprintf( method, sizeof( method ), "method \"%s\"%s", cnMethod_GetName( def->method ),
			  lemke ? " with \"lcp_solver\": \"lemke\"" : "" );

	// only materials some shape uses can meet in a contact
	const bool* used = L->materialUsed;
	int materialCount = cnWorld_GetMaterialCount( L->world );

	bool ok = true;
	const cJSON* materials = cnJsonField( root, "materials" );
	char path[CN_JSON_PATH_CAPACITY];
	for ( int m = 0; m < materialCount && ok; ++m )
	{
		cnMaterialDef md = cnMaterial_GetDef( L->world, m );
		if ( used[m] == false || md.friction <= 0.0 )
		{
			continue;
		}
		// a material pair of used materials may still set the friction this one gives to 0
		bool felt = false;
		for ( int other = 0; other < materialCount && felt == false; ++other )
		{
			double friction = 0.0, restitution = 0.0;
			cnWorld_GetMaterialPair( L->world, m, other, &friction, &restitution );
			felt = used[other] && friction > 0.0;
		}
		if ( felt == false )
		{
			continue;
		}
		const cJSON* item = materials != NULL ? cnJsonField( materials, md.name ) : NULL;
		bool given = item != NULL && cnJsonField( item, "friction" ) != NULL;
		cnMaterialPath( L, md.name, given ? "friction" : NULL, path, sizeof( path ) );
		ok = given ? cnJsonWarn( L, path, "friction %s is ignored: %s models no friction",
								 cnJsonShowNumber( md.friction ).text, method )
				   : cnJsonWarn( L, path,
								 "friction %s (the default: \"friction\" is not given) is ignored: %s models no "
								 "friction",
								 cnJsonShowNumber( md.friction ).text, method );
	}
	const cJSON* pairs = cnJsonField( root, "material_pairs" );
	for ( int k = 0; k < L->pairCount && ok; ++k )
	{
		int a = L->pairs[k][0], b = L->pairs[k][1], index = L->pairs[k][2];
		const cJSON* pair = cJSON_GetArrayItem( pairs, index );
		double friction = 0.0, restitution = 0.0;
		cnWorld_GetMaterialPair( L->world, a, b, &friction, &restitution );
		// a pair without "friction" keeps what its materials give, warned about above
		if ( used[a] == false || used[b] == false || friction <= 0.0 || cnJsonField( pair, "friction" ) == NULL )
		{
			continue;
		}
		snprintf( path, sizeof( path ), "material_pairs[%d].friction", index );
		ok = cnJsonWarn( L, path, "friction %s is ignored: %s models no friction", cnJsonShowNumber( friction ).text,
						 method );
	}
	return ok;
}

// Warnings about a scene that loaded: what it asks for that its world will not do. They depend on
// the method, so they are found once the method override (cnLoadSceneWithMethod) is applied.
static bool cnCollectWarnings( cnLoader* L, const cJSON* root, const cnWorldDef* def )
{
	if ( def->planar && def->gravity.z != 0.0 )
	{
		// planar worlds move bodies in the xy-plane only: gravity along z does nothing
		bool ok = cnJsonField( root, "gravity" ) != NULL
					  ? cnJsonWarn( L, "gravity[2]", "a planar world ignores gravity off its xy-plane (z = %s m/s^2)",
									cnJsonShowNumber( def->gravity.z ).text )
					  : cnJsonWarn( L, "gravity",
									"the default gravity [0, 0, -9.81] is off the xy-plane, which a planar world "
									"ignores: give \"gravity\" in the plane, e.g. [0, -9.81, 0]" );
		if ( ok == false )
		{
			return false;
		}
	}
	return cnWarnFriction( L, root, def );
}

// ---------------------------------------------------------------------------------------------
// building the scene

// "$schema" lets editors find docs/scene.schema.json; the loader only checks it is a string
static const char* const cnTopKeys[] = {
	"cairn",    "name",  "description", "gravity",        "timestep",   "duration", "fps",    "method",
	"substeps", "sleep", "materials",   "material_pairs", "no_collide", "bodies",   "$schema",
	"lcp_solver", "integrator", "planar", "tolerance", "position_correction",
	"speculative_contacts", "cameras", "joints", "continuous", "on_instability", "max_speed",
	"max_angular_speed", "max_energy_growth", "workers", "simd", "contact_recycle_distance",
	"relax_iterations" };

// The file's base name without directories and a ".json" ending, as the default scene name.
static char* cnBaseName( const char* path )
{
	const char* start = path;
	for ( const char* c = path; *c != 0; ++c )
	{
		if ( *c == '/' || *c == '\\' )
		{
			start = c + 1;
		}
	}
	size_t n = strlen( start );
	if ( n > 5 && strcmp( start + n - 5, ".json" ) == 0 )
	{
		n -= 5;
	}
	return cnIoCopyBytes( start, n );
}

// What the run settings and gravity give must stay in range: the steps per frame and frames of a
// run (cnRun's limits: at most 1e9 of each and 1e12 steps in all, checked here so the file is named
// and the key path given) and gravity's acceleration (the library's limit for derived quantities,
// 1e150, where the step's products overflow).
static bool cnCheckRunSettings( cnLoader* L, const cJSON* root, const cnScene* settings, cnVec3 gravity )
{
	double k = fmax( 1.0, ceil( ( 1.0 / settings->fps ) / settings->timeStep - 1e-9 ) );
	double frames = floor( settings->duration * settings->fps + 1e-9 ) + 1.0;
	if ( !( k <= 1e9 ) )
	{
		return cnJsonFailAt( L, cnJsonField( root, "timestep" ) != NULL ? "timestep" : "fps",
							 "steps of at most %s s at %s fps make %g steps per frame, more than 1e9",
							 cnJsonShowNumber( settings->timeStep ).text, cnJsonShowNumber( settings->fps ).text, k );
	}
	if ( !( frames <= 1e9 ) || !( k * frames <= 1e12 ) )
	{
		return cnJsonFailAt( L, cnJsonField( root, "duration" ) != NULL ? "duration" : "fps",
							 "%s s at %s fps in steps of at most %s s is %g frames of %g steps, more than 1e9 "
							 "frames or 1e12 steps",
							 cnJsonShowNumber( settings->duration ).text, cnJsonShowNumber( settings->fps ).text,
							 cnJsonShowNumber( settings->timeStep ).text, frames, k );
	}
	// its length, scaled so that the squares cannot overflow
	double largest = fmax( fabs( gravity.x ), fmax( fabs( gravity.y ), fabs( gravity.z ) ) );
	double length = largest > 0.0 ? largest * cnLength( cnMulSV( 1.0 / largest, gravity ) ) : 0.0;
	if ( !( length <= 1e150 ) )
	{
		return cnJsonFailAt( L, "gravity",
							 "an acceleration of %g m/s^2 is above 1e150, where the step's products overflow", length );
	}
	return true;
}

// Reads the settings, creates the world and fills it; NULL (with L's error set) on failure.
static cnScene* cnBuildScene( cnLoader* L, const cJSON* root )
{
	if ( cJSON_IsObject( root ) == false )
	{
		cnJsonFail( L, "the top level must be a JSON object {\"cairn\": 1, ...}, got %s", cnJsonKind( root ) );
		return NULL;
	}
	if ( cnJsonCheckKeys( L, root, cnTopKeys, CN_COUNT( cnTopKeys ), "the top level" ) == false ||
		 cnJsonRequire( L, root, "cairn", "the format version, 1" ) == false )
	{
		return NULL;
	}
	double version = 0.0;
	if ( cnJsonReadNumber( L, root, "cairn", cnJsonCheck_any, &version ) == false )
	{
		return NULL;
	}
	if ( version != 1.0 )
	{
		cnJsonFailAt( L, "cairn", "unsupported format version %s (this loader reads version 1)",
					  cnJsonShowNumber( version ).text );
		return NULL;
	}

	// run settings and the world
	cnScene settings = { 0 };
	settings.timeStep = 1.0 / 120.0;
	settings.duration = 5.0;
	settings.fps = 60.0;
	cnWorldDef worldDef = cnDefaultWorldDef();
	cnMethodSettings* methods = &worldDef.settings;
	const char* name = NULL;
	const char* description = "";
	const char* schema = NULL;
	const char* method = NULL;
	const char* lcpSolver = NULL;
	const char* integrator = NULL;
	const char* onInstability = NULL;
	const char* simd = NULL;
	double subSteps = methods->impulse.subSteps;
	double relaxIterations = methods->impulse.relaxIterations;
	double workers = worldDef.workerCount;
	// one "tolerance" serves both adaptive integrators (penalty and analytic-impulse; constraint)
	double tolerance = methods->penalty.errorTolerance;
	if ( cnJsonReadString( L, root, "name", &name ) == false ||
		 cnJsonReadString( L, root, "description", &description ) == false ||
		 cnJsonReadString( L, root, "$schema", &schema ) == false ||
		 cnJsonReadVec3( L, root, "gravity", cnJsonCheck_any, &worldDef.gravity ) == false ||
		 cnJsonReadNumber( L, root, "timestep", cnJsonCheck_positive, &settings.timeStep ) == false ||
		 cnJsonReadNumber( L, root, "duration", cnJsonCheck_nonNegative, &settings.duration ) == false ||
		 cnJsonReadNumber( L, root, "fps", cnJsonCheck_positive, &settings.fps ) == false ||
		 cnJsonReadString( L, root, "method", &method ) == false ||
		 cnJsonReadBool( L, root, "sleep", &worldDef.enableSleep ) == false ||
		 cnJsonReadBool( L, root, "continuous", &worldDef.enableContinuous ) == false ||
		 cnJsonReadInteger( L, root, "substeps", 1.0, 64.0, &subSteps ) == false ||
		 cnJsonReadInteger( L, root, "relax_iterations", 1.0, 16.0, &relaxIterations ) == false ||
		 cnJsonReadInteger( L, root, "workers", 1.0, (double)CN_MAX_WORKERS, &workers ) == false ||
		 cnJsonReadBool( L, root, "planar", &worldDef.planar ) == false ||
		 cnJsonReadBool( L, root, "position_correction", &methods->velocity.positionCorrection ) == false ||
		 cnJsonReadBool( L, root, "speculative_contacts", &methods->velocity.speculativeContacts ) == false ||
		 cnJsonReadNumber( L, root, "tolerance", cnJsonCheck_positive, &tolerance ) == false ||
		 cnJsonReadString( L, root, "lcp_solver", &lcpSolver ) == false ||
		 cnJsonReadString( L, root, "integrator", &integrator ) == false ||
		 cnJsonReadString( L, root, "on_instability", &onInstability ) == false ||
		 cnJsonReadString( L, root, "simd", &simd ) == false ||
		 cnJsonReadNumber( L, root, "max_speed", cnJsonCheck_positive, &worldDef.maxSpeed ) == false ||
		 cnJsonReadNumber( L, root, "contact_recycle_distance", cnJsonCheck_nonNegative,
						   &worldDef.contactRecycleDistance ) == false ||
		 cnJsonReadNumber( L, root, "max_angular_speed", cnJsonCheck_positive, &worldDef.maxAngularSpeed ) == false ||
		 cnJsonReadNumber( L, root, "max_energy_growth", cnJsonCheck_positive, &worldDef.maxEnergyGrowth ) == false )
	{
		// (64 sub-steps is the library's limit: more is a mistake, not a setting)
		return NULL;
	}
	if ( cnCheckRunSettings( L, root, &settings, worldDef.gravity ) == false )
	{
		return NULL;
	}
	methods->impulse.subSteps = (int)subSteps;
	methods->impulse.relaxIterations = (int)relaxIterations;
	worldDef.workerCount = (int)workers;
	if ( cnJsonField( root, "tolerance" ) != NULL )
	{
		methods->penalty.errorTolerance = tolerance;
		methods->constraint.errorTolerance = tolerance;
	}
	worldDef.method = cnMethod_impulse;
	if ( method != NULL && cnMethod_FromName( method, &worldDef.method ) == false )
	{
		cnJsonFailAt( L, "method", "unknown method \"%s\" (allowed: %s)", method, cnMethod_GetNameList() );
		return NULL;
	}
	if ( L->methodOverride != cnMethod_count )
	{
		worldDef.method = L->methodOverride;
	}
	if ( simd != NULL )
	{
		static const char* const names[] = { "auto", "scalar", "sse2", "avx2", "avx512" };
		int found = -1;
		for ( int i = 0; i < (int)( sizeof( names ) / sizeof( names[0] ) ); ++i )
		{
			found = strcmp( simd, names[i] ) == 0 ? i : found;
		}
		if ( found < 0 )
		{
			cnJsonFailAt( L, "simd", "unknown SIMD path \"%s\" (allowed: auto, scalar, sse2, avx2, avx512)", simd );
			return NULL;
		}
		methods->impulse.simd = (cnSimdPath)found;
	}
	if ( lcpSolver != NULL )
	{
		if ( strcmp( lcpSolver, "dantzig" ) == 0 )
		{
			methods->velocity.lcpSolver = cnLcp_dantzig;
		}
		else if ( strcmp( lcpSolver, "lemke" ) == 0 )
		{
			methods->velocity.lcpSolver = cnLcp_lemke;
		}
		else
		{
			cnJsonFailAt( L, "lcp_solver", "unknown LCP solver \"%s\" (allowed: dantzig, lemke)", lcpSolver );
			return NULL;
		}
	}
	if ( integrator != NULL )
	{
		if ( strcmp( integrator, "symplectic-euler" ) == 0 )
		{
			methods->velocity.integrator = cnIntegrator_symplecticEuler;
		}
		else if ( strcmp( integrator, "explicit-euler" ) == 0 )
		{
			methods->velocity.integrator = cnIntegrator_explicitEuler;
		}
		else
		{
			cnJsonFailAt( L, "integrator", "unknown integrator \"%s\" (allowed: symplectic-euler, explicit-euler)",
						  integrator );
			return NULL;
		}
	}

	if ( onInstability != NULL && cnInstabilityAction_FromName( onInstability, &worldDef.onInstability ) == false )
	{
		cnJsonFailAt( L, "on_instability", "unknown action \"%s\" (allowed: stop, warn, freeze-body)", onInstability );
		return NULL;
	}

	// bodies: check the container before building anything
	const cJSON* bodies = cnJsonField( root, "bodies" );
	int bodyCount = 0;
	if ( bodies != NULL )
	{
		if ( cJSON_IsArray( bodies ) == false )
		{
			cnJsonFailAt( L, "bodies", "expected an array of bodies, got %s", cnJsonKind( bodies ) );
			return NULL;
		}
		bodyCount = cJSON_GetArraySize( bodies );
	}
	if ( cnJsonAllocBodyNames( L, bodyCount ) == false )
	{
		return NULL;
	}

	L->world = cnCreateWorld( &worldDef );
	if ( L->world == NULL )
	{
		cnJsonLibraryFailure( L, "cannot create the world" );
		return NULL;
	}

	// the sections in dependency order; a failure leaves its message and the world is destroyed
	// by the caller
	int saved = cnJsonPushKey( L, "materials" );
	bool ok = cnLoadMaterials( L, cnJsonField( root, "materials" ) );
	cnJsonPopPath( L, saved );
	if ( ok )
	{
		L->materialUsed = calloc( (size_t)cnWorld_GetMaterialCount( L->world ), sizeof( bool ) );
		ok = L->materialUsed != NULL || cnJsonFailOutOfMemory( L );
	}
	if ( ok )
	{
		saved = cnJsonPushKey( L, "material_pairs" );
		ok = cnLoadMaterialPairs( L, cnJsonField( root, "material_pairs" ) );
		cnJsonPopPath( L, saved );
	}
	int index = 0;
	for ( const cJSON* b = bodies != NULL ? bodies->child : NULL; ok && b != NULL; b = b->next, ++index )
	{
		saved = cnJsonPushKey( L, "bodies" );
		cnJsonPushIndex( L, index );
		ok = cnJsonLoadBody( L, b );
		cnJsonPopPath( L, saved );
	}
	ok = ok && ( bodies == NULL || cnJsonLoadForces( L, bodies ) );
	if ( ok )
	{
		saved = cnJsonPushKey( L, "joints" );
		ok = cnJsonLoadJoints( L, cnJsonField( root, "joints" ), bodies );
		cnJsonPopPath( L, saved );
	}
	if ( ok )
	{
		saved = cnJsonPushKey( L, "cameras" );
		ok = cnJsonLoadCameras( L, cnJsonField( root, "cameras" ) );
		cnJsonPopPath( L, saved );
	}
	if ( ok )
	{
		saved = cnJsonPushKey( L, "no_collide" );
		ok = cnLoadNoCollide( L, cnJsonField( root, "no_collide" ) );
		cnJsonPopPath( L, saved );
	}
	if ( ok == false || cnCollectWarnings( L, root, &worldDef ) == false )
	{
		return NULL;
	}

	cnScene* scene = calloc( 1, sizeof( cnScene ) );
	if ( scene == NULL )
	{
		cnJsonFailOutOfMemory( L );
		return NULL;
	}
	*scene = settings;
	scene->name = name != NULL ? cnIoCopyString( name ) : cnBaseName( L->source );
	scene->description = cnIoCopyString( description );
	if ( scene->name == NULL || scene->description == NULL )
	{
		free( scene->name );
		free( scene->description );
		free( scene );
		cnJsonFailOutOfMemory( L );
		return NULL;
	}
	scene->world = L->world;
	L->world = NULL;
	scene->warnings = L->warnings;
	scene->warningCount = L->warningCount;
	L->warnings = NULL;
	L->warningCount = 0;
	scene->cameras = L->cameras;
	scene->cameraCount = L->cameraCount;
	L->cameras = NULL;
	L->cameraCount = 0;
	return scene;
}

// ---------------------------------------------------------------------------------------------
// text and files

// Line and column (1-based, columns in bytes) of an offset into text.
static void cnLineColumn( const char* text, size_t offset, int* line, int* column )
{
	*line = 1;
	*column = 1;
	for ( size_t i = 0; i < offset && text[i] != 0; ++i )
	{
		if ( text[i] == '\n' )
		{
			*line += 1;
			*column = 1;
		}
		else
		{
			*column += 1;
		}
	}
}

// Sets the error of a text that is not JSON ("SOURCE:LINE:COL: syntax error ..."): errorAt is
// where cJSON stopped, end the length up to the first NUL byte, length the whole text's.
static void cnSyntaxError( const char* json, size_t end, size_t length, const char* errorAt, const char* source )
{
	size_t offset = errorAt != NULL && errorAt >= json && errorAt <= json + end ? (size_t)( errorAt - json ) : 0;
	int line, column;
	cnLineColumn( json, offset, &line, &column );
	char near[24] = "";
	int n = 0;
	for ( const char* c = json + offset; *c != 0 && *c != '\n' && *c != '\r' && n < 16; ++c )
	{
		near[n++] = *c;
	}
	near[n] = 0;
	if ( end != length && offset == end )
	{
		cnSetError( cnError_badInput, "%s:%d:%d: syntax error: NUL byte in the text", source, line, column );
	}
	else if ( offset >= end )
	{
		cnSetError( cnError_badInput, "%s:%d:%d: syntax error: unexpected end of input%s", source, line, column,
					end == 0 ? " (the text is empty)" : "" );
	}
	else
	{
		cnSetError( cnError_badInput, "%s:%d:%d: syntax error near '%s'", source, line, column, near );
	}
}

// Parses and loads a text of length bytes; on success the error is cleared.
static cnScene* cnLoadText( const char* json, size_t length, const char* source, cnMethod methodOverride )
{
	// a NUL byte would end the text early for cJSON and hide what follows it
	size_t end = strlen( json );
	const char* errorAt = NULL;
	cJSON* root = NULL;
	if ( end == length )
	{
		root = cJSON_ParseWithOpts( json, &errorAt, true );
	}
	else
	{
		errorAt = json + end;
	}
	if ( root == NULL )
	{
		cnSyntaxError( json, end, length, errorAt, source );
		return NULL;
	}

	cnLoader loader;
	memset( &loader, 0, sizeof( loader ) );
	cnLoader* L = &loader;
	L->methodOverride = methodOverride;
	L->source = source;
	cnScene* scene = cnBuildScene( L, root );
	if ( scene == NULL && L->failed == false )
	{
		cnJsonFail( L, "cannot load the scene" );
	}
	if ( L->world != NULL )
	{
		// a half-built world never escapes
		cnDestroyWorld( L->world );
	}
	free( L->bodyNames );
	free( L->bodyIds );
	free( L->slots );
	free( L->pairs );
	free( L->materialUsed );
	cnJsonFreeWarnings( L );
	cnJsonFreeCameras( L->cameras, L->cameraCount );
	cJSON_Delete( root );
	// the message is set after the clean-up, which calls the library
	if ( scene == NULL )
	{
		cnJsonReportError( L );
	}
	else
	{
		cnClearError();
	}
	return scene;
}

// Gives a loaded scene its path (a copy of path); NULL with the error set when memory runs out.
static cnScene* cnSetScenePath( cnScene* scene, const char* path )
{
	if ( scene == NULL )
	{
		return NULL;
	}
	scene->path = cnIoCopyString( path );
	if ( scene->path == NULL )
	{
		cnDestroyScene( scene );
		cnSetError( cnError_outOfMemory, "%s: out of memory", path );
		return NULL;
	}
	return scene;
}

cnScene* cnLoadSceneFromString( const char* json, const char* sourceName )
{
	const char* source = sourceName != NULL ? sourceName : "<string>";
	if ( json == NULL )
	{
		cnSetError( cnError_invalidArgument, "%s: no text (NULL)", source );
		return NULL;
	}
	return cnSetScenePath( cnLoadText( json, strlen( json ), source, cnMethod_count ), source );
}

// Reads the file at path and loads it, with the method replaced unless methodOverride is
// cnMethod_count.
static cnScene* cnLoadFile( const char* path, cnMethod methodOverride )
{
	if ( path == NULL )
	{
		cnSetError( cnError_invalidArgument, "(null): cannot open: no path given" );
		return NULL;
	}
	size_t length = 0;
	char* text = cnIoReadFile( path, &length );
	if ( text == NULL )
	{
		return NULL;
	}

	cnScene* scene = cnLoadText( text, length, path, methodOverride );
	free( text );
	return cnSetScenePath( scene, path );
}

void cnDestroyScene( cnScene* scene )
{
	if ( scene == NULL )
	{
		return;
	}
	cnDestroyWorld( scene->world );
	for ( int i = 0; i < scene->warningCount; ++i )
	{
		free( scene->warnings[i] );
	}
	free( scene->warnings );
	cnJsonFreeCameras( scene->cameras, scene->cameraCount );
	free( scene->name );
	free( scene->description );
	free( scene->path );
	free( scene );
}

cnScene* cnLoadScene( const char* path )
{
	return cnLoadFile( path, cnMethod_count );
}

cnScene* cnLoadSceneWithMethod( const char* path, cnMethod method )
{
	if ( (int)method < 0 || method >= cnMethod_count )
	{
		cnSetError( cnError_invalidArgument, "%s: unknown contact method %d", path != NULL ? path : "(null)",
					(int)method );
		return NULL;
	}
	return cnLoadFile( path, method );
}

cnRunDef cnScene_GetRunDef( const cnScene* scene )
{
	cnRunDef def = cnDefaultRunDef();
	if ( scene != NULL )
	{
		def.duration = scene->duration;
		def.fps = scene->fps;
		def.maxTimeStep = scene->timeStep;
	}
	return def;
}
