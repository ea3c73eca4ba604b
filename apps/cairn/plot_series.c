// SPDX-License-Identifier: MIT
// The series of `cairn plot` (plot.h): the kinds there are, which bodies are plotted (those named by
// --bodies, or by default the ones that move the most), each series' value at a sample (energies,
// momentum, positions, heights, distances, speeds) and the layout of lines and panels, one panel
// per unit. Pure computation over the samples the readers (plot_input.c) took: nothing here reads
// a file or writes one.
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// series kinds

const cliPlotKindInfo cliPlotKinds[cliPlotKind_count] = {
	{ "energy", "E = kinetic + potential", "J", false, 1 },
	{ "kinetic", "kinetic energy", "J", false, 1 },
	{ "potential", "potential energy", "J", false, 1 },
	{ "momentum", "linear momentum", "kg m/s", false, 3 },
	{ "position", "position", "m", true, 3 },
	{ "height", "height", "m", true, 1 },
	{ "distance", "distance from the origin", "m", true, 1 },
	{ "speed", "speed", "m/s", true, 1 },
};

const char cliPlotKindList[] = "energy, kinetic, potential, momentum, position, height, distance, speed";

// ---------------------------------------------------------------------------------------------
// which bodies

// The next item of a comma-separated list at *cursor, spaces around it trimmed; false at the end.
bool cliPlotNextItem( const char** cursor, const char** item, size_t* length )
{
	const char* p = *cursor;
	if ( p == NULL )
	{
		return false;
	}
	const char* end = strchr( p, ',' );
	size_t n = end != NULL ? (size_t)( end - p ) : strlen( p );
	while ( n > 0 && *p == ' ' )
	{
		++p;
		--n;
	}
	while ( n > 0 && p[n - 1] == ' ' )
	{
		--n;
	}
	*item = p;
	*length = n;
	*cursor = end != NULL ? end + 1 : NULL;
	return true;
}

// Resolves --bodies against the names of a source's bodies: writes their indices (in the list's
// order) to *indices and returns their count, or -1 after printing an error.
int cliPlotResolveBodies( const char* text, const char* source, const char* const* names, int nameCount,
						  int** indices )
{
	int capacity = 1;
	for ( const char* c = text; *c != 0; ++c )
	{
		capacity += *c == ',';
	}
	*indices = malloc( (size_t)capacity * sizeof( int ) );
	if ( *indices == NULL )
	{
		cliError( "out of memory" );
		return -1;
	}
	int count = 0;
	const char* cursor = text;
	const char* item;
	size_t length;
	while ( cliPlotNextItem( &cursor, &item, &length ) )
	{
		if ( length == 0 )
		{
			cliError( "--bodies: '%s' is not a comma-separated list of body names", text );
			return -1;
		}
		int found = -1;
		for ( int i = 0; i < nameCount && found < 0; ++i )
		{
			if ( strlen( names[i] ) == length && strncmp( names[i], item, length ) == 0 )
			{
				found = i;
			}
		}
		if ( found < 0 )
		{
			// name a few of the bodies there are, so a typo is easy to see
			char known[200] = "";
			size_t used = 0;
			for ( int i = 0; i < nameCount && used < sizeof( known ); ++i )
			{
				if ( names[i][0] == 0 )
				{
					continue;
				}
				int n = snprintf( known + used, sizeof( known ) - used, "%s%s", used > 0 ? ", " : "", names[i] );
				used += n > 0 ? (size_t)n : 0;
			}
			if ( used >= sizeof( known ) )
			{
				strcpy( known + sizeof( known ) - 5, " ..." );
			}
			cliError( "--bodies: %s has no body named '%.*s' (its bodies: %s)", source, (int)length, item,
					  used > 0 ? known : "none with a name" );
			return -1;
		}
		for ( int i = 0; i < count; ++i )
		{
			if ( ( *indices )[i] == found )
			{
				cliError( "--bodies: '%s' is given twice", names[found] );
				return -1;
			}
		}
		( *indices )[count++] = found;
	}
	return count;
}

// The bodies that moved the most: up to CLI_PLOT_DEFAULT_BODIES non-static ones by path length
// (ties in their order), in that order. Returns how many, written to keep.
int cliPlotChooseMovers( const cliPlotData* data, int keep[CLI_PLOT_DEFAULT_BODIES] )
{
	int count = 0;
	for ( int b = 0; b < data->bodyCount; ++b )
	{
		if ( data->bodies[b].isStatic )
		{
			continue;
		}
		// insertion into the sorted list of the best so far
		int at = count;
		while ( at > 0 && data->bodies[keep[at - 1]].pathLength < data->bodies[b].pathLength )
		{
			--at;
		}
		if ( at >= CLI_PLOT_DEFAULT_BODIES )
		{
			continue;
		}
		int last = count < CLI_PLOT_DEFAULT_BODIES ? count : CLI_PLOT_DEFAULT_BODIES - 1;
		for ( int i = last; i > at; --i )
		{
			keep[i] = keep[i - 1];
		}
		keep[at] = b;
		count = count < CLI_PLOT_DEFAULT_BODIES ? count + 1 : count;
	}
	return count;
}

// ---------------------------------------------------------------------------------------------
// series and panels

// Component i of a vector: momentum and position draw a line per axis.
static double plComponent( cnVec3 v, int i )
{
	return i == 0 ? v.x : ( i == 1 ? v.y : v.z );
}

// Computed when drawn rather than stored: the samples hold each measure once, however many series
// read it (energy is kinetic + potential, height and distance come from the position).
double cliPlotValue( const cliPlotSeries* s, int i )
{
	const cliPlotData* data = s->data;
	const cliPlotBody* body = s->body >= 0 ? data->bodies + s->body : NULL;
	switch ( s->kind )
	{
		case cliPlotKind_energy:
			return data->kinetic[i] + data->potential[i];
		case cliPlotKind_kinetic:
			return data->kinetic[i];
		case cliPlotKind_potential:
			return data->potential[i];
		case cliPlotKind_momentum:
			return plComponent( data->momentum[i], s->component );
		// the per-body kinds always have a body (cliBuildPlotLayout)
		case cliPlotKind_position:
			return body != NULL ? plComponent( body->position[i], s->component ) : NAN;
		case cliPlotKind_height:
			return body != NULL ? cnDot( body->position[i], data->up ) : NAN;
		case cliPlotKind_distance:
			return body != NULL ? cnLength( body->position[i] ) : NAN;
		case cliPlotKind_speed:
			return body != NULL ? body->speed[i] : NAN;
		default:
			return NAN;
	}
}

// Frees what cliBuildPlotLayout made, also when it stopped half way.
void cliPlotLayout_Free( cliPlotLayout* plot )
{
	for ( int s = 0; s < plot->seriesCount; ++s )
	{
		free( plot->series[s].label );
	}
	free( plot->series );
	for ( int p = 0; p < plot->panelCount; ++p )
	{
		free( plot->panelLabels[p] );
	}
}

// The label of a series: "energy", "momentum x", "BODY height", "BODY x".
static char* plSeriesLabel( const cliPlotData* data, cliPlotKind kind, int component, int body )
{
	static const char* const axes[3] = { "x", "y", "z" };
	const char* name = body >= 0 ? data->bodies[body].name : "";
	const char* axis = component >= 0 && component < 3 ? axes[component] : "";
	const char* what = kind == cliPlotKind_position ? axis : cliPlotKinds[kind].name;
	size_t size = strlen( name ) + strlen( what ) + 16;
	char* label = malloc( size );
	if ( label == NULL )
	{
		return NULL;
	}
	if ( body >= 0 )
	{
		snprintf( label, size, "%s %s", name, what );
	}
	else if ( kind == cliPlotKind_momentum )
	{
		snprintf( label, size, "momentum %s", axis );
	}
	else
	{
		snprintf( label, size, "%s", what );
	}
	return label;
}

// The y axis label of the panel of a unit: its quantities and the unit, "height = z (m)".
static char* plPanelLabel( const cliPlotData* data, const cliPlotKind* kinds, int kindCount, const char* unit )
{
	char text[256] = "";
	size_t used = 0;
	for ( int k = 0; k < kindCount; ++k )
	{
		if ( strcmp( cliPlotKinds[kinds[k]].unit, unit ) != 0 )
		{
			continue;
		}
		int n = kinds[k] == cliPlotKind_height
					? snprintf( text + used, sizeof( text ) - used, "%sheight %s%s", used > 0 ? ", " : "",
								strcmp( data->upName, "along -g" ) == 0 ? "" : "= ", data->upName )
					: snprintf( text + used, sizeof( text ) - used, "%s%s", used > 0 ? ", " : "",
								cliPlotKinds[kinds[k]].quantity );
		used += n > 0 ? (size_t)n : 0;
		used = used < sizeof( text ) ? used : sizeof( text ) - 1;
	}
	// a long list would run off the panel's side; the legend names each line anyway
	if ( strlen( text ) > 32 )
	{
		static const char* const units[] = { "J", "kg m/s", "m", "m/s" };
		static const char* const names[] = { "energy", "momentum", "position", "speed" };
		for ( int i = 0; i < 4; ++i )
		{
			if ( strcmp( unit, units[i] ) == 0 )
			{
				snprintf( text, sizeof( text ), "%s", names[i] );
			}
		}
	}
	size_t size = strlen( text ) + strlen( unit ) + 4;
	char* label = malloc( size );
	if ( label != NULL )
	{
		snprintf( label, size, "%s (%s)", text, unit );
	}
	return label;
}

// One series per kind, body and component, and a panel for each unit the first time it appears.
bool cliBuildPlotLayout( const cliPlotRequest* request, const cliPlotData* data, cliPlotLayout* plot )
{
	int capacity = 0;
	for ( int k = 0; k < request->kindCount; ++k )
	{
		const cliPlotKindInfo* info = cliPlotKinds + request->kinds[k];
		capacity += info->components * ( info->perBody ? data->bodyCount : 1 );
	}
	plot->series = calloc( (size_t)( capacity > 0 ? capacity : 1 ), sizeof( cliPlotSeries ) );
	if ( plot->series == NULL )
	{
		cliError( "out of memory" );
		return false;
	}
	for ( int k = 0; k < request->kindCount; ++k )
	{
		cliPlotKind kind = request->kinds[k];
		const cliPlotKindInfo* info = cliPlotKinds + kind;
		int panel = 0;
		while ( panel < plot->panelCount && strcmp( plot->units[panel], info->unit ) != 0 )
		{
			++panel;
		}
		if ( panel == plot->panelCount )
		{
			plot->units[panel] = info->unit;
			plot->panelLabels[panel] = plPanelLabel( data, request->kinds, request->kindCount, info->unit );
			plot->panels[panel].yLabel = plot->panelLabels[panel];
			plot->panelCount += 1;
			if ( plot->panelLabels[panel] == NULL )
			{
				cliError( "out of memory" );
				return false;
			}
		}
		int bodies = info->perBody ? data->bodyCount : 1;
		for ( int b = 0; b < bodies; ++b )
		{
			for ( int c = 0; c < info->components; ++c )
			{
				cliPlotSeries* s = plot->series + plot->seriesCount++;
				s->kind = kind;
				s->component = c;
				s->body = info->perBody ? b : -1;
				s->panel = panel;
				s->data = data;
				s->label = plSeriesLabel( data, kind, c, s->body );
				if ( s->label == NULL )
				{
					cliError( "out of memory" );
					return false;
				}
			}
		}
	}
	return true;
}
