// SPDX-License-Identifier: MIT
// Contact events (contact_events.c, cairn/query.h): begin and end touch events from the narrow
// phase and from removed contacts, hit events from the velocities the method leaves.
#pragma once

#include "contact.h"

#include "cairn/query.h"

/// The events of the last step. End events are double-buffered as in Box2D v3: ends[endIndex]
/// collects those of the step under way and of contacts removed since the last step; the step's
/// end publishes it (cnPublishEndEvents) and starts the other.
typedef struct cnContactEventBuffer
{
	cnContactBeginTouchEvent* begins;
	int beginCount, beginCapacity;
	cnContactEndTouchEvent* ends[2];
	int endCount[2], endCapacity[2];
	int endIndex;
	cnContactHitEvent* hits;
	int hitCount, hitCapacity;
} cnContactEventBuffer;

/// Frees the event arrays.
void cnDestroyContactEvents( cnContactEventBuffer* events );

/// Step start: the last step's begin and hit events go.
void cnClearContactEvents( cnWorld* world );

/// Step end: the end events collected since the last step become the reported ones.
void cnPublishEndEvents( cnWorld* world );

/// Narrow phase: a contact just got manifold points. Reports a begin when either shape asks.
void cnContactBegan( cnWorld* world, cnContact* contact );

/// A touching contact lost its points or is being removed: reports the end its begin owes.
void cnContactEnded( cnWorld* world, cnContact* contact );

/// Narrow phase: measures the contact's fastest approaching point at the step's start velocities
/// when either shape asks for hit events (its speed is 0 otherwise).
void cnMeasureApproach( const cnWorld* world, cnContact* contact );

/// After the method: reports a hit for each contact that approached faster than the threshold and
/// that the method slowed.
void cnCollectHitEvents( cnWorld* world, double timeStep );
