// The server's API (docs/viewer.md): the scene, the status of its frames, and the frames as
// little-endian doubles.

/** GET a JSON answer; throws with the server's error message. */
export async function getJson(path) {
	const response = await fetch(path, { cache: 'no-store' });
	const body = await response.json().catch(() => ({}));
	if (!response.ok) {
		throw new Error(`${path}: ${body.error || response.status}`);
	}
	return body;
}

/**
 * Frames from..from+count-1 (fewer when fewer exist): an array of stride numbers per frame; run
 * picks a run of `cairn view --compare` (0: the first, and the only one otherwise).
 */
export async function getFrames(from, count, stride, run = 0) {
	const which = run > 0 ? `&run=${run}` : '';
	const response = await fetch(`/api/frames?from=${from}&count=${count}&format=binary${which}`, { cache: 'no-store' });
	if (!response.ok) {
		throw new Error(`/api/frames: ${response.status}`);
	}
	const bytes = await response.arrayBuffer();
	// the server writes little-endian doubles, which is every browser's own order
	const numbers = new Float64Array(bytes);
	return { numbers, count: Math.floor(numbers.length / stride) };
}
