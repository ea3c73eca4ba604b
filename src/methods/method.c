// SPDX-License-Identifier: MIT
// The table of contact methods, their names and flags, and the method stage.
#include "methods/method.h"

#include "error.h"
#include "world.h"

#include <string.h>
#include <threads.h>

// In cnMethod order.
static const cnMethodModule* const s_modules[cnMethod_count] = {
	&cnImpulseModule,	 &cnLcpModule,			&cnVelocityProjectionModule, &cnGrLcpModule, &cnGrVelocityProjectionModule,
	&cnPenaltyModule, &cnAnalyticImpulseModule, &cnConstraintModule,
};

const cnMethodModule* cnGetMethodModule( cnMethod method )
{
	if ( (int)method < 0 || method >= cnMethod_count )
	{
		return NULL;
	}
	return s_modules[method];
}

const char* cnValidateMethodSettings( const cnMethodSettings* settings )
{
	for ( int i = 0; i < cnMethod_count; ++i )
	{
		const char* why = s_modules[i]->validate != NULL ? s_modules[i]->validate( settings ) : NULL;
		if ( why != NULL )
		{
			return why;
		}
	}
	return NULL;
}

bool cnStepMethod( cnWorld* world, double timeStep )
{
	return world->module->step( world, timeStep );
}

const char* cnMethod_GetName( cnMethod method )
{
	const cnMethodModule* m = cnGetMethodModule( method );
	return m != NULL ? m->name : "unknown";
}

const char* cnMethod_GetSummary( cnMethod method )
{
	const cnMethodModule* m = cnGetMethodModule( method );
	return m != NULL ? m->summary : "unknown method";
}

uint32_t cnMethod_GetFlags( cnMethod method )
{
	const cnMethodModule* m = cnGetMethodModule( method );
	return m != NULL ? m->flags : 0u;
}

bool cnMethod_FromName( const char* name, cnMethod* method )
{
	for ( int i = 0; name != NULL && i < cnMethod_count; ++i )
	{
		if ( strcmp( name, s_modules[i]->name ) == 0 )
		{
			*method = (cnMethod)i;
			cnClearError();
			return true;
		}
	}
	return cnSetError( cnError_invalidArgument, "unknown contact method \"%s\" (known: %s)", name != NULL ? name : "(null)",
				   cnMethod_GetNameList() );
}

static char s_nameList[256];

static void cnBuildNameList( void )
{
	for ( int i = 0; i < cnMethod_count; ++i )
	{
		strcat( s_nameList, i > 0 ? ", " : "" );
		strcat( s_nameList, s_modules[i]->name );
	}
}

const char* cnMethod_GetNameList( void )
{
	// built from the table once, whichever thread asks first
	static once_flag s_once = ONCE_FLAG_INIT;
	call_once( &s_once, cnBuildNameList );
	return s_nameList;
}

cnMethodSettings cnDefaultMethodSettings( void )
{
	cnMethodSettings s;
	memset( &s, 0, sizeof( s ) );
	s.impulse.subSteps = 5;
	s.impulse.relaxIterations = 1;
	s.impulse.contactHertz = 30.0;
	s.impulse.contactDampingRatio = 10.0;
	s.impulse.maxPushVelocity = 3.0;
	s.velocity.lcpSolver = cnLcp_dantzig;
	s.velocity.integrator = cnIntegrator_symplecticEuler;
	s.velocity.positionCorrection = true;
	s.velocity.speculativeContacts = true;
	s.penalty.errorTolerance = 1e-6;
	// the constraint method's stabilisation used the impulse method's contact stiffness and push speed
	// before it had its own settings; these defaults keep it as it was
	s.constraint.errorTolerance = 1e-6;
	s.constraint.stabilizationHertz = 30.0;
	s.constraint.maxCorrectionSpeed = 3.0;
	return s;
}
