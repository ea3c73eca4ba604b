// SPDX-License-Identifier: MIT
// CSV output of a run: one row per body per frame,
//   time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz
// (body = its name, quoted as RFC 4180 asks when it holds a comma, quote or line break; numbers
// with 9 significant digits); and the joints' errors and reactions (below). Part of libcairn_io.
#pragma once

#include "cairn/cairn.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A CSV file being written.
typedef struct cnCsvWriter cnCsvWriter;

/// What to write.
typedef struct cnCsvWriterDef
{
	/// the file (written as "path.tmp" until cnCsvWriter_Finish renames it)
	const char* path;
	/// the bodies to write, in this order (NULL: every non-static body the world has now, in
	/// creation order)
	const cnBodyId* bodies;
	int bodyCount;
} cnCsvWriterDef;

/// Defaults: no path, every non-static body.
CN_API cnCsvWriterDef cnDefaultCsvWriterDef( void );

/// Opens the file and writes the header row; NULL when it cannot be written or a body id is invalid.
CN_API cnCsvWriter* cnCreateCsvWriter( const cnWorld* world, const cnCsvWriterDef* def );

/// Writes one row per body at the world's current state.
CN_API bool cnCsvWriter_AddFrame( cnCsvWriter* writer, const cnWorld* world );

/// Closes the file and renames it to its path.
CN_API bool cnCsvWriter_Finish( cnCsvWriter* writer );

/// Frees the writer; an unfinished file is removed (NULL is allowed).
CN_API void cnDestroyCsvWriter( cnCsvWriter* writer );

/// The writer as a cnRun frame writer (its finish commits or discards the file).
CN_API cnFrameWriter cnCsvWriter_AsFrameWriter( cnCsvWriter* writer );

// ---------------------------------------------------------------------------------------------
// joints: one row per joint per frame (cairn run --joints-csv, docs/cli.md),
//   time,joint,type,linear_error,angular_error,fx,fy,fz,tx,ty,tz,broken
// joint = its name (quoted like a body's), type = its scene-file type name, the errors and the
// reaction on body B as cnJoint_GetLinearError, _GetAngularError, _GetReactionForce and
// _GetReactionTorque give them after the frame's last step (0 at t = 0), broken 0 or 1.

/// A joint CSV file being written.
typedef struct cnJointCsvWriter cnJointCsvWriter;

/// What to write.
typedef struct cnJointCsvWriterDef
{
	/// the file (written as "path.tmp" until cnJointCsvWriter_Finish renames it)
	const char* path;
	/// the joints to write, in this order (NULL: every joint the world has now, in index order)
	const cnJointId* joints;
	int jointCount;
} cnJointCsvWriterDef;

/// Defaults: no path, every joint.
CN_API cnJointCsvWriterDef cnDefaultJointCsvWriterDef( void );

/// Opens the file and writes the header row; NULL when it cannot be written or a joint id is invalid.
CN_API cnJointCsvWriter* cnCreateJointCsvWriter( const cnWorld* world, const cnJointCsvWriterDef* def );

/// Writes one row per joint at the world's current state.
CN_API bool cnJointCsvWriter_AddFrame( cnJointCsvWriter* writer, const cnWorld* world );

/// Closes the file and renames it to its path.
CN_API bool cnJointCsvWriter_Finish( cnJointCsvWriter* writer );

/// Frees the writer; an unfinished file is removed (NULL is allowed).
CN_API void cnDestroyJointCsvWriter( cnJointCsvWriter* writer );

/// The writer as a cnRun frame writer (its finish commits or discards the file).
CN_API cnFrameWriter cnJointCsvWriter_AsFrameWriter( cnJointCsvWriter* writer );

#ifdef __cplusplus
}
#endif
