// SPDX-License-Identifier: MIT
// FOSSSim rigid body scenes (XML) loaded into a planar world (docs/fosssim.md).
//
// FOSSSim's own reader (rapidxml) accepts an attribute given several times, and its scenes list a
// body's vertices as repeated p="..." attributes. libxml2 reports that as a well-formedness error but
// keeps every attribute in recovery mode, so the file is parsed with recovery on and every error but
// that one is fatal. The tree is then read in FOSSSim's order: all vertices, then bodies, forces and
// display tags, so a tag may refer to one that comes later in the file. The springs and wind are
// applied by fosssim_forces.c; a captured contact system is printed by fosssim_contact_system.c.
#include "cairn/fosssim.h"

#include "io/io_util.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

// The run's frame rate: frames are a whole number of FOSSSim steps apart, near this many per second.
#define CN_FOSSSIM_FPS 60.0

typedef struct cnXmlVertex
{
	double x, y, m;
} cnXmlVertex;

typedef struct cnXmlBody
{
	int* vertices;
	int vertexCount;
	double vx, vy, omega, r;
	bool fixed;
	int line;
} cnXmlBody;

typedef struct cnXmlSpring
{
	int i, j;
	double pix, piy, pjx, pjy, k, l0, b;
	int line;
} cnXmlSpring;

typedef struct cnXmlColor
{
	int index;
	float rgb[3];
	int line;
} cnXmlColor;

// Everything read from the file before the world is built.
typedef struct cnXmlLoader
{
	const char* path;
	// the first failure: its code and message ("FILE:LINE: reason"), handed to cnSetError once the
	// loader has cleaned up
	bool failed;
	cnErrorCode errorCode;
	char message[1024];

	// first libxml2 error other than a repeated attribute
	bool xmlFailed;
	int xmlLine;
	char xmlMessage[256];

	cnXmlVertex* vertices;
	int vertexCount, vertexCapacity;
	cnXmlBody* bodies;
	int bodyCount, bodyCapacity;
	cnXmlSpring* springs;
	int springCount, springCapacity;
	cnFosssimWind* winds;
	int windCount, windCapacity;
	cnXmlColor* bodyColors;
	int bodyColorCount, bodyColorCapacity;
	cnXmlColor* springColors;
	int springColorCount, springColorCapacity;

	cnVec3 gravity;
	double timeStep;
	double duration;
	bool hasIntegrator;
	cnIntegrator integrator;
	char* response;
	char* description;
	char* simType;
	bool hasViewport;
	double viewport[3];
	double maxSimFrequency;
	bool hasBackground;
	float background[3];
} cnXmlLoader;

// Records the first failure, "FILE:LINE: reason" (or "FILE: reason" for line 0); later ones are
// ignored. Returns false.
static bool cnXmlFailV( cnXmlLoader* L, cnErrorCode code, int line, const char* fmt, va_list args )
{
	if ( L->failed )
	{
		return false;
	}
	L->failed = true;
	L->errorCode = code;
	int used = line > 0 ? snprintf( L->message, sizeof( L->message ), "%s:%d: ", L->path, line )
						: snprintf( L->message, sizeof( L->message ), "%s: ", L->path );
	if ( used < 0 || (size_t)used >= sizeof( L->message ) )
	{
		return false;
	}
	vsnprintf( L->message + used, sizeof( L->message ) - (size_t)used, fmt, args );
	return false;
}

// A failure of the file (cnError_badInput).
static bool cnXmlFail( cnXmlLoader* L, int line, const char* fmt, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 3, 4 ) ) )
#endif
	;

static bool cnXmlFail( cnXmlLoader* L, int line, const char* fmt, ... )
{
	va_list args;
	va_start( args, fmt );
	cnXmlFailV( L, cnError_badInput, line, fmt, args );
	va_end( args );
	return false;
}

// The same with another code (out of memory, a file that cannot be opened, ...).
static bool cnXmlFailWithCode( cnXmlLoader* L, cnErrorCode code, int line, const char* fmt, ... )
#if defined( __GNUC__ )
	__attribute__( ( format( printf, 4, 5 ) ) )
#endif
	;

static bool cnXmlFailWithCode( cnXmlLoader* L, cnErrorCode code, int line, const char* fmt, ... )
{
	va_list args;
	va_start( args, fmt );
	cnXmlFailV( L, code, line, fmt, args );
	va_end( args );
	return false;
}

static bool cnXmlOutOfMemory( cnXmlLoader* L )
{
	return cnXmlFailWithCode( L, cnError_outOfMemory, 0, "out of memory" );
}

// The code of a failed library call's message: the file asked for something the library rejects
// (bad input), unless memory ran out.
static cnErrorCode cnXmlLibraryErrorCode( void )
{
	return cnGetErrorCode() == cnError_outOfMemory ? cnError_outOfMemory : cnError_badInput;
}

// Grows a dynamic array by one element; returns a pointer to the new (zeroed) element or NULL.
static void* cnXmlPush( void** array, int* count, int* capacity, size_t size )
{
	if ( *count == *capacity )
	{
		int grown = *capacity > 0 ? 2 * *capacity : 16;
		void* bigger = realloc( *array, (size_t)grown * size );
		if ( bigger == NULL )
		{
			return NULL;
		}
		*array = bigger;
		*capacity = grown;
	}
	char* item = (char*)*array + (size_t)*count * size;
	memset( item, 0, size );
	*count += 1;
	return item;
}

#define CN_XML_PUSH( L, array, count, capacity )                                                                       \
	cnXmlPush( (void**)&( L )->array, &( L )->count, &( L )->capacity, sizeof( *( L )->array ) )

// libxml2's structured error callback: remembers the first error that is not a repeated attribute.
static void cnXmlOnError( void* context, xmlErrorPtr e )
{
	xmlParserCtxtPtr ctxt = context;
	cnXmlLoader* L = ctxt->_private;
	if ( e == NULL || e->level == XML_ERR_WARNING || e->code == XML_ERR_ATTRIBUTE_REDEFINED || L->xmlFailed )
	{
		return;
	}
	L->xmlFailed = true;
	L->xmlLine = e->line;
	snprintf( L->xmlMessage, sizeof( L->xmlMessage ), "%s", e->message != NULL ? e->message : "XML error" );
	// libxml2 messages end with a line break
	size_t n = strlen( L->xmlMessage );
	while ( n > 0 && isspace( (unsigned char)L->xmlMessage[n - 1] ) )
	{
		L->xmlMessage[--n] = 0;
	}
}

static int cnXmlLine( const xmlNode* node )
{
	return (int)xmlGetLineNo( node );
}

// ---------------------------------------------------------------------------------------------
// attributes

typedef enum cnXmlKind
{
	cnXml_number,
	cnXml_integer,
	cnXml_text,
} cnXmlKind;

// One attribute a tag accepts. Read attributes fill their target; required ones must be there.
typedef struct cnXmlAttribute
{
	const char* name;
	cnXmlKind kind;
	bool required;
	// target: double*, int* or const char** (the text, valid until the tree is freed)
	void* target;
	bool given;
} cnXmlAttribute;

static const char* cnXmlValue( const xmlAttr* a )
{
	if ( a->children != NULL && a->children->type == XML_TEXT_NODE && a->children->content != NULL )
	{
		return (const char*)a->children->content;
	}
	return "";
}

static bool cnXmlParseNumber( const char* text, double* out )
{
	errno = 0;
	char* end = NULL;
	double value = strtod( text, &end );
	if ( end == text )
	{
		return false;
	}
	while ( isspace( (unsigned char)*end ) )
	{
		end += 1;
	}
	if ( *end != 0 || !isfinite( value ) )
	{
		return false;
	}
	*out = value;
	return true;
}

static bool cnXmlParseInteger( const char* text, int* out )
{
	errno = 0;
	char* end = NULL;
	long value = strtol( text, &end, 10 );
	if ( end == text )
	{
		return false;
	}
	while ( isspace( (unsigned char)*end ) )
	{
		end += 1;
	}
	if ( *end != 0 || errno != 0 || value < -2147483647L || value > 2147483647L )
	{
		return false;
	}
	*out = (int)value;
	return true;
}

// Reads a tag's attributes into the table. repeated names an attribute that may appear several
// times (the "p" of <rigidbody>): each occurrence is handed to onRepeated. Unknown attributes and
// other repetitions are errors.
static bool cnXmlReadAttributes( cnXmlLoader* L, const xmlNode* node, cnXmlAttribute* table, int count,
								 const char* repeated, bool ( *onRepeated )( cnXmlLoader*, const xmlNode*, int, void* ),
								 void* context )
{
	const char* tag = (const char*)node->name;
	int line = cnXmlLine( node );
	for ( const xmlAttr* a = node->properties; a != NULL; a = a->next )
	{
		const char* name = (const char*)a->name;
		const char* value = cnXmlValue( a );
		if ( repeated != NULL && strcmp( name, repeated ) == 0 )
		{
			int index;
			if ( cnXmlParseInteger( value, &index ) == false )
			{
				return cnXmlFail( L, line, "<%s>: %s=\"%s\" is not an integer", tag, name, value );
			}
			if ( onRepeated( L, node, index, context ) == false )
			{
				return false;
			}
			continue;
		}
		int k = 0;
		while ( k < count && strcmp( table[k].name, name ) != 0 )
		{
			k += 1;
		}
		if ( k == count )
		{
			char allowed[256] = "";
			size_t used = 0;
			for ( int i = 0; i < count && used < sizeof( allowed ); ++i )
			{
				int n = snprintf( allowed + used, sizeof( allowed ) - used, "%s%s", i > 0 ? " " : "", table[i].name );
				used += n > 0 ? (size_t)n : 0;
			}
			if ( repeated != NULL && used < sizeof( allowed ) )
			{
				snprintf( allowed + used, sizeof( allowed ) - used, " %s (repeated)", repeated );
			}
			return cnXmlFail( L, line, "<%s>: unknown attribute \"%s\" (allowed: %s)", tag, name, allowed );
		}
		cnXmlAttribute* at = table + k;
		if ( at->given )
		{
			return cnXmlFail( L, line, "<%s>: attribute \"%s\" given twice", tag, name );
		}
		at->given = true;
		switch ( at->kind )
		{
			case cnXml_number:
				if ( cnXmlParseNumber( value, (double*)at->target ) == false )
				{
					return cnXmlFail( L, line, "<%s>: %s=\"%s\" is not a finite number", tag, name, value );
				}
				break;
			case cnXml_integer:
				if ( cnXmlParseInteger( value, (int*)at->target ) == false )
				{
					return cnXmlFail( L, line, "<%s>: %s=\"%s\" is not an integer", tag, name, value );
				}
				break;
			case cnXml_text:
				*(const char**)at->target = value;
				break;
		}
	}
	for ( int k = 0; k < count; ++k )
	{
		if ( table[k].required && table[k].given == false )
		{
			return cnXmlFail( L, line, "<%s>: missing attribute \"%s\"", tag, table[k].name );
		}
	}
	return true;
}

#define CN_XML_READ( L, node, table )                                                                                  \
	cnXmlReadAttributes( L, node, table, (int)( sizeof( table ) / sizeof( table[0] ) ), NULL, NULL, NULL )

// ---------------------------------------------------------------------------------------------
// tags

static bool cnXmlReadVertex( cnXmlLoader* L, const xmlNode* node )
{
	cnXmlVertex v = { 0.0, 0.0, 0.0 };
	cnXmlAttribute table[] = {
		{ "x", cnXml_number, true, &v.x, false },
		{ "y", cnXml_number, true, &v.y, false },
		{ "m", cnXml_number, true, &v.m, false },
	};
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	if ( !( v.m > 0.0 ) )
	{
		return cnXmlFail( L, cnXmlLine( node ), "<rigidbodyvertex>: mass m must be > 0 (got %g)", v.m );
	}
	cnXmlVertex* slot = CN_XML_PUSH( L, vertices, vertexCount, vertexCapacity );
	if ( slot == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	*slot = v;
	return true;
}

static bool cnXmlAddBodyVertex( cnXmlLoader* L, const xmlNode* node, int index, void* context )
{
	(void)node;
	cnXmlBody* body = context;
	int* grown = realloc( body->vertices, (size_t)( body->vertexCount + 1 ) * sizeof( int ) );
	if ( grown == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	body->vertices = grown;
	body->vertices[body->vertexCount++] = index;
	return true;
}

static bool cnXmlReadBody( cnXmlLoader* L, const xmlNode* node )
{
	cnXmlBody* body = CN_XML_PUSH( L, bodies, bodyCount, bodyCapacity );
	if ( body == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	body->line = cnXmlLine( node );
	int fixed = 0;
	cnXmlAttribute table[] = {
		{ "vx", cnXml_number, true, &body->vx, false },
		{ "vy", cnXml_number, true, &body->vy, false },
		{ "omega", cnXml_number, true, &body->omega, false },
		{ "r", cnXml_number, true, &body->r, false },
		{ "fixed", cnXml_integer, false, &fixed, false },
	};
	if ( cnXmlReadAttributes( L, node, table, (int)( sizeof( table ) / sizeof( table[0] ) ), "p", cnXmlAddBodyVertex,
							  body ) == false )
	{
		return false;
	}
	if ( fixed != 0 && fixed != 1 )
	{
		return cnXmlFail( L, body->line, "<rigidbody>: fixed must be 0 or 1 (got %d)", fixed );
	}
	body->fixed = fixed == 1;
	if ( !( body->r > 0.0 ) )
	{
		return cnXmlFail( L, body->line, "<rigidbody>: radius r must be > 0 (got %g)", body->r );
	}
	if ( body->vertexCount < 2 )
	{
		// one point mass has no moment of inertia, so no rigid body motion to speak of
		return cnXmlFail( L, body->line, "<rigidbody>: needs at least 2 vertices p=\"...\" (got %d)",
						  body->vertexCount );
	}
	return true;
}

static bool cnXmlReadSpring( cnXmlLoader* L, const xmlNode* node )
{
	cnXmlSpring s = { 0 };
	s.line = cnXmlLine( node );
	cnXmlAttribute table[] = {
		{ "i", cnXml_integer, true, &s.i, false },	   { "pix", cnXml_number, true, &s.pix, false },
		{ "piy", cnXml_number, true, &s.piy, false }, { "j", cnXml_integer, true, &s.j, false },
		{ "pjx", cnXml_number, true, &s.pjx, false }, { "pjy", cnXml_number, true, &s.pjy, false },
		{ "k", cnXml_number, true, &s.k, false },	   { "l0", cnXml_number, true, &s.l0, false },
		{ "b", cnXml_number, false, &s.b, false },
	};
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	if ( s.k < 0.0 || s.l0 < 0.0 || s.b < 0.0 )
	{
		return cnXmlFail( L, s.line, "<rigidbodyspringforce>: k, l0 and b must be >= 0 (got %g, %g, %g)", s.k, s.l0,
						  s.b );
	}
	cnXmlSpring* slot = CN_XML_PUSH( L, springs, springCount, springCapacity );
	if ( slot == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	*slot = s;
	return true;
}

static bool cnXmlReadWind( cnXmlLoader* L, const xmlNode* node )
{
	double beta = 0.0, fx = 0.0, fy = 0.0;
	int points = 0;
	cnXmlAttribute table[] = {
		{ "beta", cnXml_number, true, &beta, false },
		{ "fx", cnXml_number, true, &fx, false },
		{ "fy", cnXml_number, true, &fy, false },
		{ "pointsperedge", cnXml_integer, true, &points, false },
	};
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	if ( beta < 0.0 || points < 1 || points > 100000 )
	{
		return cnXmlFail( L, cnXmlLine( node ),
						  "<rigidbodywindforce>: beta must be >= 0 and pointsperedge in 1..100000 (got %g, %d)", beta,
						  points );
	}
	cnFosssimWind* w = CN_XML_PUSH( L, winds, windCount, windCapacity );
	if ( w == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	w->velocity = cnV3( fx, fy, 0.0 );
	w->beta = beta;
	w->pointsPerEdge = points;
	return true;
}

static bool cnXmlReadColor( cnXmlLoader* L, const xmlNode* node, const char* indexName, bool spring )
{
	cnXmlColor c = { 0 };
	c.line = cnXmlLine( node );
	double rgb[3] = { 0.0, 0.0, 0.0 };
	cnXmlAttribute table[] = {
		{ indexName, cnXml_integer, true, &c.index, false },
		{ "r", cnXml_number, true, rgb + 0, false },
		{ "g", cnXml_number, true, rgb + 1, false },
		{ "b", cnXml_number, true, rgb + 2, false },
	};
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	for ( int k = 0; k < 3; ++k )
	{
		if ( rgb[k] < 0.0 || rgb[k] > 1.0 )
		{
			return cnXmlFail( L, c.line, "<%s>: colour components must be in [0, 1]", (const char*)node->name );
		}
		c.rgb[k] = (float)rgb[k];
	}
	cnXmlColor* slot = spring ? CN_XML_PUSH( L, springColors, springColorCount, springColorCapacity )
							  : CN_XML_PUSH( L, bodyColors, bodyColorCount, bodyColorCapacity );
	if ( slot == NULL )
	{
		return cnXmlOutOfMemory( L );
	}
	*slot = c;
	return true;
}

static bool cnXmlReadBackground( cnXmlLoader* L, const xmlNode* node )
{
	double rgb[3] = { 0.0, 0.0, 0.0 };
	cnXmlAttribute table[] = {
		{ "r", cnXml_number, true, rgb + 0, false },
		{ "g", cnXml_number, true, rgb + 1, false },
		{ "b", cnXml_number, true, rgb + 2, false },
	};
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	for ( int k = 0; k < 3; ++k )
	{
		if ( rgb[k] < 0.0 || rgb[k] > 1.0 )
		{
			return cnXmlFail( L, cnXmlLine( node ), "<backgroundcolor>: colour components must be in [0, 1]" );
		}
		L->background[k] = (float)rgb[k];
	}
	L->hasBackground = true;
	return true;
}

static bool cnXmlReadIntegrator( cnXmlLoader* L, const xmlNode* node )
{
	const char* type = NULL;
	double dt = 0.0;
	cnXmlAttribute table[] = {
		{ "type", cnXml_text, true, &type, false },
		{ "dt", cnXml_number, true, &dt, false },
	};
	int line = cnXmlLine( node );
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	if ( L->hasIntegrator )
	{
		return cnXmlFail( L, line, "<rigidbodyintegrator>: given twice" );
	}
	if ( strcmp( type, "explicit-euler" ) == 0 )
	{
		L->integrator = cnIntegrator_explicitEuler;
	}
	else if ( strcmp( type, "symplectic-euler" ) == 0 )
	{
		L->integrator = cnIntegrator_symplecticEuler;
	}
	else
	{
		return cnXmlFail( L, line,
						  "<rigidbodyintegrator>: unknown type \"%s\" (allowed: explicit-euler, symplectic-euler)", type );
	}
	if ( !( dt > 0.0 ) )
	{
		return cnXmlFail( L, line, "<rigidbodyintegrator>: dt must be > 0 (got %g)", dt );
	}
	L->hasIntegrator = true;
	L->timeStep = dt;
	return true;
}

static bool cnXmlReadCollisionHandling( cnXmlLoader* L, const xmlNode* node )
{
	const char* detection = NULL;
	const char* response = NULL;
	cnXmlAttribute table[] = {
		{ "detection", cnXml_text, true, &detection, false },
		{ "response", cnXml_text, true, &response, false },
	};
	int line = cnXmlLine( node );
	if ( CN_XML_READ( L, node, table ) == false )
	{
		return false;
	}
	if ( L->response != NULL )
	{
		return cnXmlFail( L, line, "<rigidbodycollisionhandling>: given twice" );
	}
	if ( strcmp( detection, "all-pairs" ) != 0 )
	{
		// the broad phase finds the same pairs as all-pairs testing, only faster
		return cnXmlFail( L, line, "<rigidbodycollisionhandling>: unknown detection \"%s\" (allowed: all-pairs)",
						  detection );
	}
	// the responses are the velocity-level methods, FOSSSim's names being Cairn's
	cnMethod method = cnMethod_count;
	bool known = cnMethod_FromName( response, &method ) && ( cnMethod_GetFlags( method ) & cnMethodFlag_velocityLevel );
	if ( known == false )
	{
		char allowed[256] = "";
		size_t used = 0;
		for ( int m = 0; m < cnMethod_count; ++m )
		{
			if ( ( cnMethod_GetFlags( (cnMethod)m ) & cnMethodFlag_velocityLevel ) != 0 && used < sizeof( allowed ) )
			{
				int n = snprintf( allowed + used, sizeof( allowed ) - used, "%s%s", used > 0 ? ", " : "",
								  cnMethod_GetName( (cnMethod)m ) );
				used += n > 0 ? (size_t)n : 0;
			}
		}
		return cnXmlFail( L, line, "<rigidbodycollisionhandling>: unknown response \"%s\" (allowed: %s)", response,
						  allowed );
	}
	L->response = cnIoCopyString( response );
	return L->response != NULL || cnXmlOutOfMemory( L );
}

// Reads one child of <scene>.
static bool cnXmlReadTag( cnXmlLoader* L, const xmlNode* node )
{
	const char* tag = (const char*)node->name;
	int line = cnXmlLine( node );
	for ( const xmlNode* child = node->children; child != NULL; child = child->next )
	{
		if ( child->type == XML_ELEMENT_NODE ||
			 ( child->type == XML_TEXT_NODE && xmlIsBlankNode( (xmlNodePtr)child ) == 0 ) )
		{
			return cnXmlFail( L, cnXmlLine( child ), "<%s>: has content; FOSSSim tags are empty (<%s .../>)", tag,
							  tag );
		}
	}

	if ( strcmp( tag, "rigidbodyvertex" ) == 0 )
	{
		return cnXmlReadVertex( L, node );
	}
	if ( strcmp( tag, "rigidbody" ) == 0 )
	{
		return cnXmlReadBody( L, node );
	}
	if ( strcmp( tag, "rigidbodyspringforce" ) == 0 )
	{
		return cnXmlReadSpring( L, node );
	}
	if ( strcmp( tag, "rigidbodywindforce" ) == 0 )
	{
		return cnXmlReadWind( L, node );
	}
	if ( strcmp( tag, "rigidbodygravityforce" ) == 0 )
	{
		double fx = 0.0, fy = 0.0;
		cnXmlAttribute table[] = {
			{ "fx", cnXml_number, true, &fx, false },
			{ "fy", cnXml_number, true, &fy, false },
		};
		if ( CN_XML_READ( L, node, table ) == false )
		{
			return false;
		}
		// FOSSSim's gravity force is m g on every body: several add up
		L->gravity = cnAdd( L->gravity, cnV3( fx, fy, 0.0 ) );
		return true;
	}
	if ( strcmp( tag, "rigidbodyintegrator" ) == 0 )
	{
		return cnXmlReadIntegrator( L, node );
	}
	if ( strcmp( tag, "rigidbodycollisionhandling" ) == 0 )
	{
		return cnXmlReadCollisionHandling( L, node );
	}
	if ( strcmp( tag, "rigidbodycolor" ) == 0 )
	{
		return cnXmlReadColor( L, node, "body", false );
	}
	if ( strcmp( tag, "rigidbodyspringcolor" ) == 0 )
	{
		return cnXmlReadColor( L, node, "spring", true );
	}
	if ( strcmp( tag, "backgroundcolor" ) == 0 )
	{
		return cnXmlReadBackground( L, node );
	}
	if ( strcmp( tag, "simtype" ) == 0 )
	{
		const char* type = NULL;
		cnXmlAttribute table[] = { { "type", cnXml_text, true, &type, false } };
		if ( CN_XML_READ( L, node, table ) == false )
		{
			return false;
		}
		if ( type == NULL || strcmp( type, "rigid-body" ) != 0 )
		{
			return cnXmlFail( L, line, "<simtype>: type \"%s\" is not supported (Cairn loads rigid-body scenes)", type );
		}
		free( L->simType );
		L->simType = cnIoCopyString( type );
		return L->simType != NULL || cnXmlOutOfMemory( L );
	}
	if ( strcmp( tag, "description" ) == 0 )
	{
		const char* text = NULL;
		cnXmlAttribute table[] = { { "text", cnXml_text, true, &text, false } };
		if ( CN_XML_READ( L, node, table ) == false )
		{
			return false;
		}
		free( L->description );
		L->description = cnIoCopyString( text );
		return L->description != NULL || cnXmlOutOfMemory( L );
	}
	if ( strcmp( tag, "duration" ) == 0 )
	{
		cnXmlAttribute table[] = { { "time", cnXml_number, true, &L->duration, false } };
		if ( CN_XML_READ( L, node, table ) == false )
		{
			return false;
		}
		return L->duration >= 0.0 || cnXmlFail( L, line, "<duration>: time must be >= 0 (got %g)", L->duration );
	}
	if ( strcmp( tag, "maxsimfreq" ) == 0 )
	{
		cnXmlAttribute table[] = { { "max", cnXml_number, true, &L->maxSimFrequency, false } };
		if ( CN_XML_READ( L, node, table ) == false )
		{
			return false;
		}
		return L->maxSimFrequency > 0.0 ||
			   cnXmlFail( L, line, "<maxsimfreq>: max must be > 0 (got %g)", L->maxSimFrequency );
	}
	if ( strcmp( tag, "viewport" ) == 0 )
	{
		cnXmlAttribute table[] = {
			{ "cx", cnXml_number, true, L->viewport + 0, false },
			{ "cy", cnXml_number, true, L->viewport + 1, false },
			{ "size", cnXml_number, true, L->viewport + 2, false },
		};
		L->hasViewport = true;
		return CN_XML_READ( L, node, table );
	}
	return cnXmlFail( L, line,
					  "unknown tag <%s> (known: simtype description duration maxsimfreq viewport backgroundcolor "
					  "rigidbodyintegrator rigidbodycollisionhandling rigidbodyvertex rigidbody rigidbodygravityforce "
					  "rigidbodyspringforce rigidbodywindforce rigidbodycolor rigidbodyspringcolor)",
					  tag );
}

// ---------------------------------------------------------------------------------------------
// building the world

static void cnXmlLoader_Free( cnXmlLoader* L )
{
	free( L->vertices );
	for ( int i = 0; i < L->bodyCount; ++i )
	{
		free( L->bodies[i].vertices );
	}
	free( L->bodies );
	free( L->springs );
	free( L->winds );
	free( L->bodyColors );
	free( L->springColors );
	free( L->response );
	free( L->description );
	free( L->simType );
}

// The file's base name without its extension: the scene's name.
static char* cnXmlSceneName( const char* path )
{
	const char* base = strrchr( path, '/' );
	base = base != NULL ? base + 1 : path;
	const char* dot = strrchr( base, '.' );
	size_t n = dot != NULL && dot > base ? (size_t)( dot - base ) : strlen( base );
	return cnIoCopyBytes( base, n );
}

// Mass, centre of mass and moment of inertia of a body's point masses (FOSSSim's definitions).
static void cnXmlBodyMass( const cnXmlLoader* L, const cnXmlBody* body, double* mass, cnVec3* center,
						   double* inertia )
{
	double m = 0.0, mx = 0.0, my = 0.0;
	for ( int k = 0; k < body->vertexCount; ++k )
	{
		const cnXmlVertex* v = L->vertices + body->vertices[k];
		m += v->m;
		mx += v->m * v->x;
		my += v->m * v->y;
	}
	double cx = mx / m, cy = my / m;
	double I = 0.0;
	for ( int k = 0; k < body->vertexCount; ++k )
	{
		const cnXmlVertex* v = L->vertices + body->vertices[k];
		double dx = v->x - cx, dy = v->y - cy;
		I += v->m * ( dx * dx + dy * dy );
	}
	*mass = m;
	*center = cnV3( cx, cy, 0.0 );
	*inertia = I;
}

static bool cnXmlCheckReferences( cnXmlLoader* L )
{
	for ( int i = 0; i < L->bodyCount; ++i )
	{
		const cnXmlBody* b = L->bodies + i;
		for ( int k = 0; k < b->vertexCount; ++k )
		{
			if ( b->vertices[k] < 0 || b->vertices[k] >= L->vertexCount )
			{
				return cnXmlFail( L, b->line, "<rigidbody>: vertex index %d out of range (%d <rigidbodyvertex> tags)",
								  b->vertices[k], L->vertexCount );
			}
		}
	}
	for ( int i = 0; i < L->springCount; ++i )
	{
		const cnXmlSpring* s = L->springs + i;
		if ( s->i < -1 || s->i >= L->bodyCount || s->j < -1 || s->j >= L->bodyCount )
		{
			return cnXmlFail( L, s->line,
							  "<rigidbodyspringforce>: body index i=%d or j=%d out of range (-1 = world, %d bodies)",
							  s->i, s->j, L->bodyCount );
		}
		if ( s->i == s->j )
		{
			return cnXmlFail( L, s->line, "<rigidbodyspringforce>: both ends on the same %s (i = j = %d)",
							  s->i < 0 ? "world" : "body", s->i );
		}
	}
	for ( int i = 0; i < L->bodyColorCount; ++i )
	{
		if ( L->bodyColors[i].index < 0 || L->bodyColors[i].index >= L->bodyCount )
		{
			return cnXmlFail( L, L->bodyColors[i].line, "<rigidbodycolor>: body %d out of range (%d bodies)",
							  L->bodyColors[i].index, L->bodyCount );
		}
	}
	for ( int i = 0; i < L->springColorCount; ++i )
	{
		if ( L->springColors[i].index < 0 || L->springColors[i].index >= L->springCount )
		{
			return cnXmlFail( L, L->springColors[i].line, "<rigidbodyspringcolor>: spring %d out of range (%d springs)",
							  L->springColors[i].index, L->springCount );
		}
	}
	if ( L->hasIntegrator == false )
	{
		return cnXmlFail( L, 0, "missing <rigidbodyintegrator type=... dt=...>" );
	}
	return true;
}

// Steps per output frame: near 1 / (60 dt), and a divisor of the run's step count when there is
// one nearby, so the last frame falls on the duration (1 s at dt = 0.001: 20 steps, 50 fps).
static double cnStepsPerFrame( double dt, double duration )
{
	double target = 1.0 / ( CN_FOSSSIM_FPS * dt );
	double best = floor( target + 0.5 );
	best = best < 1.0 ? 1.0 : best;
	double total = floor( duration / dt + 0.5 );
	if ( total >= 1.0 && total <= 1e7 && fabs( total * dt - duration ) <= 1e-9 * duration )
	{
		long long steps = (long long)total;
		double bestError = INFINITY;
		for ( long long n = 1; n <= steps; ++n )
		{
			// within a factor of 2 of the target, the nearest divisor (the smaller on ties)
			double error = fabs( (double)n - target );
			if ( steps % n == 0 && (double)n <= 2.0 * target + 1.0 && (double)n >= 0.5 * target && error < bestError )
			{
				best = (double)n;
				bestError = error;
			}
		}
	}
	return best;
}

static cnFosssimScene* cnXmlBuild( cnXmlLoader* L, const char* path, const cnMethod* methodOverride )
{
	cnFosssimScene* f = calloc( 1, sizeof( cnFosssimScene ) );
	if ( f == NULL )
	{
		cnXmlOutOfMemory( L );
		return NULL;
	}
	int n = L->bodyCount > 0 ? L->bodyCount : 1;
	int ns = L->springCount > 0 ? L->springCount : 1;
	f->bodies = calloc( (size_t)n, sizeof( cnBodyId ) );
	f->fixed = calloc( (size_t)n, sizeof( bool ) );
	f->springs = calloc( (size_t)ns, sizeof( cnFosssimSpring ) );
	f->winds = calloc( (size_t)( L->windCount > 0 ? L->windCount : 1 ), sizeof( cnFosssimWind ) );
	f->display.hasBodyColor = calloc( (size_t)n, sizeof( bool ) );
	f->display.bodyColor = calloc( (size_t)n, sizeof( *f->display.bodyColor ) );
	f->display.hasSpringColor = calloc( (size_t)ns, sizeof( bool ) );
	f->display.springColor = calloc( (size_t)ns, sizeof( *f->display.springColor ) );
	f->response = cnIoCopyString( L->response != NULL ? L->response : "" );
	f->display.simType = cnIoCopyString( L->simType != NULL ? L->simType : "rigid-body" );
	f->scene = calloc( 1, sizeof( cnScene ) );
	if ( f->bodies == NULL || f->fixed == NULL || f->springs == NULL || f->winds == NULL ||
		 f->display.hasBodyColor == NULL || f->display.bodyColor == NULL || f->display.hasSpringColor == NULL ||
		 f->display.springColor == NULL || f->response == NULL || f->display.simType == NULL || f->scene == NULL )
	{
		cnDestroyFosssim( f );
		cnXmlOutOfMemory( L );
		return NULL;
	}

	// run settings: FOSSSim's step, and frames a whole number of steps apart near 60 per second
	cnScene* scene = f->scene;
	scene->name = cnXmlSceneName( path );
	scene->description = cnIoCopyString( L->description != NULL ? L->description : "" );
	scene->path = cnIoCopyString( path );
	scene->timeStep = L->timeStep;
	scene->duration = L->duration;
	scene->fps = 1.0 / ( cnStepsPerFrame( L->timeStep, L->duration ) * L->timeStep );
	if ( scene->name == NULL || scene->description == NULL || scene->path == NULL )
	{
		cnDestroyFosssim( f );
		cnXmlOutOfMemory( L );
		return NULL;
	}

	// the world: planar, frictionless, no sleeping (FOSSSim has none), the file's integrator
	bool collisions = L->response != NULL;
	cnWorldDef def = cnDefaultWorldDef();
	def.planar = true;
	// FOSSSim corrects no overlap: its scenes (velocityprojection/test05 starts 0.01 deep) keep theirs
	def.settings.velocity.positionCorrection = false;
	// and it stops a contact predicted to close at its current distance: the oracle systems in its
	// files (b = N^T qdot) have no gap term
	def.settings.velocity.speculativeContacts = false;
	def.gravity = L->gravity;
	def.settings.velocity.integrator = L->integrator;
	def.settings.velocity.lcpSolver = cnLcp_lemke;
	def.enableSleep = false;
	def.settings.impulse.subSteps = 1;
	// the file's response (checked when read: a velocity-level method)
	cnMethod response = cnMethod_lcp;
	if ( collisions )
	{
		bool ok = cnMethod_FromName( L->response, &response );
		(void)ok;
	}
	def.method = methodOverride != NULL ? *methodOverride : response;
	f->integrator = L->integrator;
	scene->world = cnCreateWorld( &def );
	if ( scene->world == NULL )
	{
		cnXmlFailWithCode( L, cnXmlLibraryErrorCode(), 0, "cannot create the world: %s", cnGetError() );
		cnDestroyFosssim( f );
		return NULL;
	}
	cnWorld* world = scene->world;

	// FOSSSim's contacts are frictionless; its generalized reflection is elastic and its plain
	// LCP and projection are fully inelastic
	bool elastic = collisions && ( cnMethod_GetFlags( response ) & cnMethodFlag_reflection ) != 0;
	cnMaterialDef material = cnDefaultMaterialDef();
	material.name = "fosssim";
	material.friction = 0.0;
	material.restitution = elastic ? 1.0 : 0.0;
	cnMaterialId materialId = cnCreateMaterial( world, &material );

	int maxVertices = 0;
	for ( int i = 0; i < L->bodyCount; ++i )
	{
		maxVertices = L->bodies[i].vertexCount > maxVertices ? L->bodies[i].vertexCount : maxVertices;
	}
	cnVec3* local = malloc( (size_t)( maxVertices > 0 ? maxVertices : 1 ) * sizeof( cnVec3 ) );
	if ( local == NULL || materialId < 0 )
	{
		if ( materialId < 0 )
		{
			cnXmlFailWithCode( L, cnXmlLibraryErrorCode(), 0, "cannot create the material" );
		}
		else
		{
			cnXmlOutOfMemory( L );
		}
		free( local );
		cnDestroyFosssim( f );
		return NULL;
	}

	f->bodyCount = L->bodyCount;
	for ( int i = 0; i < L->bodyCount; ++i )
	{
		const cnXmlBody* xb = L->bodies + i;
		double mass, inertia;
		cnVec3 center;
		cnXmlBodyMass( L, xb, &mass, &center, &inertia );
		if ( !isfinite( mass ) || !isfinite( center.x ) || !isfinite( center.y ) )
		{
			// vertex masses or positions whose sums overflow
			free( local );
			int line = xb->line;
			cnDestroyFosssim( f );
			cnXmlFail( L, line, "<rigidbody>: the mass (%g kg) or the centre of mass (%g, %g) is not finite", mass,
					   center.x, center.y );
			return NULL;
		}

		// the body frame is FOSSSim's body space: origin at the centre of mass, axes as in the file
		char name[32];
		snprintf( name, sizeof( name ), "body%d", i );
		cnBodyDef bd = cnDefaultBodyDef();
		bd.name = name;
		bd.type = xb->fixed ? cnBody_static : cnBody_dynamic;
		bd.position = center;
		if ( xb->fixed == false )
		{
			// a fixed body never moves: FOSSSim ignores its velocity
			bd.linearVelocity = cnV3( xb->vx, xb->vy, 0.0 );
			bd.angularVelocity = cnV3( 0.0, 0.0, xb->omega );
		}
		bd.enableSleep = false;
		cnBodyId id = cnCreateBody( world, &bd );

		for ( int k = 0; k < xb->vertexCount; ++k )
		{
			const cnXmlVertex* v = L->vertices + xb->vertices[k];
			local[k] = cnV3( v->x - center.x, v->y - center.y, 0.0 );
		}
		cnShapeDef sd = cnDefaultShapeDef();
		sd.type = cnShape_polygon;
		sd.radius = xb->r;
		sd.vertexCount = xb->vertexCount;
		sd.vertices = local;
		sd.material = materialId;
		if ( collisions == false )
		{
			// without <rigidbodycollisionhandling> FOSSSim detects no collisions
			sd.categoryBits = 0;
			sd.maskBits = 0;
		}
		bool ok = cnBody_IsValid( world, id ) && cnShape_IsValid( world, cnCreateShape( world, id, &sd ) );
		if ( ok && xb->fixed == false )
		{
			if ( !( inertia > 0.0 ) || !isfinite( inertia ) )
			{
				// coinciding vertices, or a spread or masses whose products leave the double range
				bool coincide = true;
				for ( int k = 1; k < xb->vertexCount; ++k )
				{
					coincide = coincide && local[k].x == local[0].x && local[k].y == local[0].y;
				}
				free( local );
				int line = xb->line;
				cnDestroyFosssim( f );
				if ( coincide )
				{
					cnXmlFail( L, line, "<rigidbody>: all vertices coincide: the moment of inertia is zero" );
				}
				else
				{
					cnXmlFail( L, line,
							   "<rigidbody>: the moment of inertia sum m |x - c|^2 is zero or not finite (%g kg m^2)",
							   inertia );
				}
				return NULL;
			}
			// planar motion reads only Izz; the other two make the tensor positive definite
			ok = cnBody_SetMassData( world, id, mass, cnVec3_zero, cnDiagonal( inertia, inertia, inertia ) );
		}
		if ( ok == false )
		{
			cnXmlFailWithCode( L, cnXmlLibraryErrorCode(), xb->line, "<rigidbody>: %s", cnGetError() );
			free( local );
			cnDestroyFosssim( f );
			return NULL;
		}
		f->bodies[i] = id;
		f->fixed[i] = xb->fixed;
	}
	free( local );

	// force elements
	f->springCount = L->springCount;
	for ( int i = 0; i < L->springCount; ++i )
	{
		const cnXmlSpring* s = L->springs + i;
		cnFosssimSpring* fs = f->springs + i;
		fs->indexI = s->i;
		fs->indexJ = s->j;
		fs->bodyI = s->i >= 0 ? f->bodies[s->i] : cnBodyId_null;
		fs->bodyJ = s->j >= 0 ? f->bodies[s->j] : cnBodyId_null;
		fs->pointI = cnV3( s->pix, s->piy, 0.0 );
		fs->pointJ = cnV3( s->pjx, s->pjy, 0.0 );
		fs->k = s->k;
		fs->l0 = s->l0;
		fs->b = s->b;
	}
	f->windCount = L->windCount;
	for ( int i = 0; i < L->windCount; ++i )
	{
		f->winds[i] = L->winds[i];
	}

	// display metadata
	f->display.hasViewport = L->hasViewport;
	f->display.viewportX = L->viewport[0];
	f->display.viewportY = L->viewport[1];
	f->display.viewportSize = L->viewport[2];
	f->display.maxSimFrequency = L->maxSimFrequency;
	f->display.hasBackground = L->hasBackground;
	memcpy( f->display.background, L->background, sizeof( L->background ) );
	for ( int i = 0; i < L->bodyColorCount; ++i )
	{
		const cnXmlColor* c = L->bodyColors + i;
		f->display.hasBodyColor[c->index] = true;
		memcpy( f->display.bodyColor[c->index], c->rgb, sizeof( c->rgb ) );
	}
	for ( int i = 0; i < L->springColorCount; ++i )
	{
		const cnXmlColor* c = L->springColors + i;
		f->display.hasSpringColor[c->index] = true;
		memcpy( f->display.springColor[c->index], c->rgb, sizeof( c->rgb ) );
	}
	return f;
}

// ---------------------------------------------------------------------------------------------
// public API

// Reads the file into L and builds the scene; NULL with L's failure recorded.
static cnFosssimScene* cnXmlLoad( cnXmlLoader* L, const char* path, const cnMethod* methodOverride )
{
	if ( path == NULL )
	{
		cnXmlFailWithCode( L, cnError_invalidArgument, 0, "cannot open: no path given" );
		return NULL;
	}
	FILE* probe = fopen( path, "rb" );
	if ( probe == NULL )
	{
		cnXmlFailWithCode( L, cnError_io, 0, "cannot open: %s", strerror( errno ) );
		return NULL;
	}
	fclose( probe );

	xmlInitParser();
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if ( ctxt == NULL )
	{
		cnXmlOutOfMemory( L );
		return NULL;
	}
	ctxt->_private = L;
	ctxt->sax->serror = cnXmlOnError;
	// recovery keeps repeated attributes (FOSSSim's <rigidbody p=.. p=..>); no network, no entities
	xmlDocPtr doc = xmlCtxtReadFile( ctxt, path, NULL, XML_PARSE_RECOVER | XML_PARSE_NONET );
	if ( L->xmlFailed || doc == NULL )
	{
		if ( L->xmlFailed )
		{
			cnXmlFail( L, L->xmlLine, "XML error: %s", L->xmlMessage );
		}
		else
		{
			cnXmlFail( L, 0, "cannot parse the file as XML" );
		}
		xmlFreeDoc( doc );
		xmlFreeParserCtxt( ctxt );
		return NULL;
	}

	const xmlNode* root = xmlDocGetRootElement( doc );
	bool ok = root != NULL && strcmp( (const char*)root->name, "scene" ) == 0;
	if ( ok == false )
	{
		cnXmlFail( L, root != NULL ? cnXmlLine( root ) : 0, "the root element must be <scene>, got <%s>",
				   root != NULL ? (const char*)root->name : "" );
	}
	if ( ok && root->properties != NULL )
	{
		ok = cnXmlFail( L, cnXmlLine( root ), "<scene>: takes no attributes (got \"%s\")",
						(const char*)root->properties->name );
	}
	for ( const xmlNode* node = ok ? root->children : NULL; node != NULL && ok; node = node->next )
	{
		if ( node->type == XML_ELEMENT_NODE )
		{
			ok = cnXmlReadTag( L, node );
		}
		else if ( node->type == XML_TEXT_NODE && xmlIsBlankNode( (xmlNodePtr)node ) == 0 )
		{
			ok = cnXmlFail( L, cnXmlLine( node ), "<scene>: unexpected text" );
		}
	}
	xmlFreeDoc( doc );
	xmlFreeParserCtxt( ctxt );

	return ok && cnXmlCheckReferences( L ) ? cnXmlBuild( L, path, methodOverride ) : NULL;
}

// Loads the file; on failure the error is set once the loader has cleaned up, on success cleared.
static cnFosssimScene* cnLoadFosssimFile( const char* path, const cnMethod* methodOverride )
{
	cnXmlLoader loader;
	memset( &loader, 0, sizeof( loader ) );
	loader.path = path != NULL ? path : "(null)";
	cnFosssimScene* f = cnXmlLoad( &loader, path, methodOverride );
	cnXmlLoader_Free( &loader );
	if ( f == NULL )
	{
		cnXmlFail( &loader, 0, "cannot load the scene" );
		cnSetError( loader.errorCode, "%s", loader.message );
	}
	else
	{
		cnClearError();
	}
	return f;
}

cnFosssimScene* cnLoadFosssim( const char* path )
{
	return cnLoadFosssimFile( path, NULL );
}

cnFosssimScene* cnLoadFosssimWithMethod( const char* path, cnMethod method )
{
	if ( (int)method < 0 || method >= cnMethod_count )
	{
		cnSetError( cnError_invalidArgument, "%s: invalid method %d", path != NULL ? path : "(null)", (int)method );
		return NULL;
	}
	return cnLoadFosssimFile( path, &method );
}

cnScene* cnFosssim_ReleaseScene( cnFosssimScene* f )
{
	if ( f == NULL )
	{
		return NULL;
	}
	cnScene* scene = f->scene;
	f->scene = NULL;
	cnDestroyFosssim( f );
	return scene;
}

void cnDestroyFosssim( cnFosssimScene* f )
{
	if ( f == NULL )
	{
		return;
	}
	cnDestroyScene( f->scene );
	free( f->bodies );
	free( f->fixed );
	free( f->response );
	free( f->springs );
	free( f->winds );
	free( f->display.simType );
	free( f->display.hasBodyColor );
	free( f->display.bodyColor );
	free( f->display.hasSpringColor );
	free( f->display.springColor );
	free( f );
}

cnScene* cnLoadFosssimScene( const char* path )
{
	cnFosssimScene* f = cnLoadFosssim( path );
	if ( f == NULL )
	{
		return NULL;
	}
	if ( cnFosssim_HasForceElements( f ) )
	{
		cnDestroyFosssim( f );
		// a valid file that a plain cnScene cannot carry
		cnSetError( cnError_unsupported,
					"%s: has spring or wind forces, which a cnScene cannot apply: load it with cnLoadFosssim and "
					"call cnFosssim_ApplyForces before each step",
					path );
		return NULL;
	}
	return cnFosssim_ReleaseScene( f );
}

bool cnIsFosssimPath( const char* path )
{
	size_t n = path != NULL ? strlen( path ) : 0;
	if ( n < 4 )
	{
		return false;
	}
	const char* ext = path + n - 4;
	return ext[0] == '.' && tolower( (unsigned char)ext[1] ) == 'x' && tolower( (unsigned char)ext[2] ) == 'm' &&
		   tolower( (unsigned char)ext[3] ) == 'l';
}
