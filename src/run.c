// SPDX-License-Identifier: MIT
// The run loop (cnRun): steps a world frame by frame, hands frames to writers, reports progress,
// and ends cleanly however it ends. Frame times are exact: each frame interval of 1/fps is cut into
// k equal steps no longer than the run's maximum step, so frame j falls at t0 + j / fps.
#include "error.h"
#include "timer.h"

#include "cairn/cairn.h"

#include <math.h>
#include <stdio.h>

cnRunDef cnDefaultRunDef( void )
{
	cnRunDef def = { 0 };
	def.duration = 5.0;
	def.fps = 60.0;
	def.maxTimeStep = 1.0 / 120.0;
	def.frameStride = 1;
	def.progressInterval = 0.1;
	return def;
}

// Checks a run def; NULL when it is valid, else the reason.
static const char* cnCheckRunDef( const cnRunDef* def )
{
	if ( def == NULL )
	{
		return "run def is NULL";
	}
	if ( !( def->duration >= 0.0 ) || !isfinite( def->duration ) )
	{
		return "run duration must be finite and >= 0";
	}
	if ( !( def->fps > 0.0 ) || !isfinite( def->fps ) )
	{
		return "run fps must be finite and > 0";
	}
	if ( !( def->maxTimeStep > 0.0 ) || !isfinite( def->maxTimeStep ) )
	{
		return "run maxTimeStep must be finite and > 0";
	}
	if ( def->frameStride < 1 )
	{
		return "run frameStride must be >= 1";
	}
	if ( def->writerCount < 0 || ( def->writerCount > 0 && def->writers == NULL ) )
	{
		return "run writers: writerCount > 0 needs a writers array";
	}
	for ( int i = 0; i < def->writerCount; ++i )
	{
		if ( def->writers[i].writeFrame == NULL )
		{
			return "run writers: every writer needs writeFrame";
		}
	}
	if ( !( def->progressInterval >= 0.0 ) )
	{
		return "run progressInterval must be >= 0";
	}
	return NULL;
}

// Hands a frame to every writer; false when one fails.
static bool cnWriteFrame( cnWorld* world, const cnRunDef* def, int index )
{
	cnFrame frame = { index, cnWorld_GetTime( world ) };
	for ( int i = 0; i < def->writerCount; ++i )
	{
		const cnFrameWriter* w = def->writers + i;
		if ( w->writeFrame( w->context, world, &frame ) == false )
		{
			if ( cnGetErrorCode() == cnError_none )
			{
				cnSetError( cnError_io, "frame writer %d failed at frame %d", i, index );
			}
			return false;
		}
	}
	return true;
}

static void cnReportProgress( const cnRunDef* def, cnRunProgress* p, const cnWorld* world, double start, bool done )
{
	p->time = cnWorld_GetTime( world );
	p->wallSeconds = cnSeconds() - start;
	p->stepsPerSecond = p->wallSeconds > 0.0 ? (double)p->stepCount / p->wallSeconds : 0.0;
	p->secondsLeft = done || p->stepsPerSecond <= 0.0 ? 0.0 : (double)( p->totalSteps - p->stepCount ) / p->stepsPerSecond;
	p->done = done;
	def->progress( p, def->context );
}

cnRunResult cnRun( cnWorld* world, const cnRunDef* def )
{
	cnRunResult result = { 0 };
	result.status = cnRun_failed;
	const char* why = cnCheckRunDef( def );
	if ( why != NULL || world == NULL )
	{
		cnSetError( cnError_invalidArgument, "%s", why != NULL ? why : "world is NULL" );
		return result;
	}

	// k steps per frame, each (1/fps)/k <= maxTimeStep; the 1e-9 keeps a ratio like
	// 2.0000000000000004 from becoming 3 steps
	double frameTime = 1.0 / def->fps;
	double k = ceil( frameTime / def->maxTimeStep - 1e-9 );
	k = k < 1.0 ? 1.0 : k;
	double frames = floor( def->duration * def->fps + 1e-9 ) + 1.0;
	if ( k > 1e9 || frames > 1e9 || k * frames > 1e12 )
	{
		cnSetError( cnError_invalidArgument,
					"%.9g s at %.9g fps with steps of at most %.9g s is too many steps or frames", def->duration,
					def->fps, def->maxTimeStep );
		return result;
	}
	int stepsPerFrame = (int)k;
	int frameCount = (int)frames;
	double stepSize = frameTime / k;
	result.stepsPerFrame = stepsPerFrame;
	result.stepSize = stepSize;

	cnRunProgress progress = { 0 };
	progress.startTime = cnWorld_GetTime( world );
	progress.endTime = progress.startTime + (double)( frameCount - 1 ) * frameTime;
	progress.totalSteps = (int64_t)( frameCount - 1 ) * stepsPerFrame;
	double start = cnSeconds();
	double lastReport = start;

	cnRunStatus status = cnRun_finished;
	cnClearError();
	for ( int frame = 0; frame < frameCount && status == cnRun_finished; ++frame )
	{
		for ( int step = 0; frame > 0 && step < stepsPerFrame; ++step )
		{
			if ( def->beforeStep != NULL && def->beforeStep( world, def->context ) == false )
			{
				if ( cnGetErrorCode() == cnError_none )
				{
					cnSetError( cnError_stepFailed, "the before-step callback failed at t = %.9g s",
								cnWorld_GetTime( world ) );
				}
				status = cnRun_failed;
				break;
			}
			if ( cnWorld_Step( world, stepSize ) == false )
			{
				status = cnGetErrorCode() == cnError_cancelled ? cnRun_cancelled : cnRun_failed;
				break;
			}
			result.stepCount += 1;
			progress.stepCount = result.stepCount;
			if ( def->afterStep != NULL && def->afterStep( world, def->context ) == false )
			{
				status = cnRun_stopped;
				break;
			}
			if ( def->progress != NULL )
			{
				double now = cnSeconds();
				if ( now - lastReport >= def->progressInterval )
				{
					lastReport = now;
					cnReportProgress( def, &progress, world, start, false );
				}
			}
		}
		if ( status != cnRun_finished )
		{
			break;
		}
		result.frameCount = frame + 1;
		if ( frame % def->frameStride == 0 )
		{
			if ( cnWriteFrame( world, def, frame ) == false )
			{
				status = cnRun_failed;
				break;
			}
			result.framesWritten += 1;
		}
	}

	// writers commit only a complete run; the first failure's message is kept
	bool complete = status == cnRun_finished;
	char firstError[1024] = "";
	cnErrorCode firstCode = cnGetErrorCode();
	if ( firstCode != cnError_none )
	{
		snprintf( firstError, sizeof( firstError ), "%s", cnGetError() );
	}
	for ( int i = 0; i < def->writerCount; ++i )
	{
		const cnFrameWriter* w = def->writers + i;
		if ( w->finish != NULL && w->finish( w->context, complete ) == false && complete )
		{
			status = cnRun_failed;
			complete = false;
			firstCode = cnGetErrorCode() != cnError_none ? cnGetErrorCode() : cnError_io;
			snprintf( firstError, sizeof( firstError ), "%s", cnGetError() );
		}
	}
	if ( firstCode != cnError_none )
	{
		cnSetError( firstCode, "%s", firstError );
	}
	else
	{
		cnClearError();
	}

	result.status = status;
	result.wallSeconds = cnSeconds() - start;
	if ( def->progress != NULL )
	{
		cnReportProgress( def, &progress, world, start, true );
	}
	return result;
}
