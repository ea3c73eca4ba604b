// SPDX-License-Identifier: MIT
// The scene editor's requests of `cairn view` (docs/viewer.md, "Editor"). The page's editor keeps
// the scene document itself (the JSON the loader reads) and sends all of it here; the server runs
// the library's loader on it, so an edit is valid exactly when `cairn run` would load the file, and
// a refused one shows the loader's own message:
//   POST /api/editor/check   the scene: 200 with its bodies, shapes, joints, poses and velocities as
//                            the loader made them (what the page draws, and what an apply at a cut
//                            sets), or 400 {"error": the loader's message}
//   POST /api/editor/save    the scene: 200 with the scene as the library writes it back
//                            (cnWriteSceneToString: loads bit for bit into the same world), or 400
//   POST /api/editor/apply   the scene: the viewer simulates it from then on (200), or 400
// Bodies are read up to CLI_VIEW_MAX_SCENE_BODY bytes (413 past it). A scene that names a file
// ("file" keys of meshes, hulls, heightfields, compounds) is refused: the server reads no file the
// network names. With --compare the editor is a 409; applying on a recording too.
#pragma once

#include "view_source.h"

#include <microhttpd.h>
#include <stdbool.h>

/// Largest scene the editor's requests read, bytes (inline meshes make scenes large).
#define CLI_VIEW_MAX_SCENE_BODY ( 4 * 1024 * 1024 )

/// The name the editor's scenes have in the loader's messages (and the saved file's name).
#define CLI_VIEW_SCENE_NAME "scene.json"

/// Installs an applied scene as the viewer's source (the server's, with nothing else reading the
/// source meanwhile). It owns scene from then on. False with the reason in error.
typedef bool cliViewSceneEdit_ApplyFn( void* context, cnScene* scene, char* error, size_t errorSize );

/// True when url is one of the editor's requests.
bool cliViewSceneEdit_Handles( const char* url );

/// Answers one of them (called for each piece of the request, as libmicrohttpd's answer function
/// is; the body is kept in *requestContext, freed by cliViewEdit_Completed). apply installs a scene.
enum MHD_Result cliViewSceneEdit_Answer( cliViewSource* source, struct MHD_Connection* connection, const char* url,
										 const char* method, const char* uploadData, size_t* uploadSize,
										 void** requestContext, cliViewSceneEdit_ApplyFn* apply, void* applyContext );
