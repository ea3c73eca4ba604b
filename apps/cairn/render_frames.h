// SPDX-License-Identifier: MIT
// Rendering a recording to pictures and videos (`cairn render`, and `cairn demo`'s video): POV-Ray
// frames rendered in parallel as separate processes, stereo composed per pixel, frames encoded by
// FFmpeg. Everything is made in a temporary folder beside the output and moved into place at the
// end, so an interrupted or failed render leaves nothing behind.
#pragma once

#include "cli.h"

/// What the output is: a folder of PNG frames or a video file.
typedef enum cliOutputKind
{
	cliOutput_folder = 0,
	cliOutput_mp4,
	cliOutput_gif,
	cliOutput_webm,
} cliOutputKind;

/// How stereo frames are made (docs/rendering.md).
typedef enum cliStereo
{
	cliStereo_none = 0,
	/// red/cyan colour anaglyph: red from the left eye, green and blue from the right
	cliStereo_anaglyph,
	/// AERO's red/green: the left eye's brightness in red, the right eye's in green
	cliStereo_redGreen,
	/// the two eyes side by side, left eye on the left (a picture twice as wide)
	cliStereo_sideBySide,
} cliStereo;

/// A render: the output, the picture, which frames and from where.
typedef struct cliRenderConfig
{
	const char* outPath;
	cliOutputKind kind;
	/// frame rate of the output; the recording's frames are picked at these times
	double fps;
	/// output frames [firstFrame, endFrame) of the sequence at fps (endFrame < 0: to the end)
	int firstFrame;
	int endFrame;
	cnPovOptions pov;
	/// the camera (NULL: the automatic view of the whole recording)
	const cnCameraDef* camera;
	cliStereo stereo;
	/// distance between the eyes in metres (<= 0: a thirtieth of the camera's distance to what it
	/// looks at, the usual rule for comfortable stereo)
	double eyeSeparation;
	/// parallel POV-Ray processes (<= 0: one per core)
	int jobs;
	/// keep the .pov files (in the output folder, or beside the video in OUT-pov/)
	bool keepPov;
	/// when set, a copy of the output frame posterFrame as a PNG (demo's poster)
	const char* posterPath;
	int posterFrame;
	bool quiet;
} cliRenderConfig;

/// What rendering did.
typedef struct cliRenderResult
{
	int frameCount;
	double wallSeconds;
	/// seconds spent writing .pov files (Cairn's share) and waiting for POV-Ray and FFmpeg
	double writeSeconds;
	double encodeSeconds;
} cliRenderResult;

/// The output kind its name says: .mp4, .gif, .webm, otherwise a folder. False (after an error)
/// for another file extension a user probably meant as a video.
bool cliOutputKindFromPath( const char* path, cliOutputKind* kind );

/// Renders the recording as configured; returns an exit status (CLI_INTERRUPTED after Ctrl-C).
int cliRender( const cnRecording* recording, const cliRenderConfig* cfg, cliRenderResult* result );
