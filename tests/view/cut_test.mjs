// Sync points and cuts of `cairn view` over HTTP (Node.js built-ins only; run by run.sh):
//   node cut_test.mjs CAIRN SOURCE_DIR WORK_DIR
// - a sync point marked at frame F is listed, and the frame there stays what it was while the run
//   goes on (jumping back to it shows the same poses);
// - a cut at frame N with a velocity edit keeps frames 0..N-1 bit for bit, and the frames after it
//   equal `cairn run --csv` on the scene /api/save/scene gives (whose t = 0 is the cut frame) to the
//   CSV's printed digits; the edited history downloads as a recording of every frame;
// - a cut with a bad edit is a 400 with the message and changes nothing; malformed, non-object and
//   oversized bodies are 400 and 413; a GET of /api/cut is 405; a cut of a recording is 409;
// - the scene's cameras are saved, and a camera on a body a cut deleted is left out so that it loads;
// - the server still answers afterwards, and stops with status 0.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [cairn, src, work] = process.argv.slice(2);
let passed = 0;
let failed = 0;
const children = new Set();
process.on('exit', () => {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
function check(ok, what) {
	if (ok) {
		passed += 1;
	} else {
		failed += 1;
		console.log(`FAIL: ${what}`);
	}
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function run(args) {
	const r = spawnSync(cairn, args, { encoding: 'utf8', timeout: 120000 });
	if (r.status !== 0) console.log(`cairn ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
	return r;
}

function startViewer(args) {
	return new Promise((resolve, reject) => {
		const child = spawn(cairn, ['view', ...args, '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
		children.add(child);
		let out = '';
		let err = '';
		const timer = setTimeout(() => reject(new Error(`no URL within 30 s: ${out} ${err}`)), 30000);
		child.stdout.on('data', (d) => {
			out += d;
			const m = /^viewer: (http:\/\/\S+\/)$/m.exec(out);
			if (m) {
				clearTimeout(timer);
				resolve({ child, url: m[1].replace(/\/$/, ''), stderr: () => err });
			}
		});
		child.stderr.on('data', (d) => (err += d));
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`cairn view exited (${code}) before listening: ${err}`));
		});
	});
}

function stopViewer(viewer) {
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			viewer.child.kill('SIGKILL');
			resolve('timeout');
		}, 20000);
		viewer.child.removeAllListeners('exit');
		viewer.child.on('exit', (code, sig) => {
			clearTimeout(timer);
			resolve(code === null ? sig : code);
		});
		viewer.child.kill('SIGTERM');
	});
}

async function post(viewer, path, body) {
	const r = await fetch(viewer.url + path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
	const text = await r.text();
	let json = null;
	try {
		json = JSON.parse(text);
	} catch {
		json = null;
	}
	return { status: r.status, json };
}

async function getJson(viewer, path) {
	const r = await fetch(viewer.url + path);
	return { status: r.status, json: await r.json() };
}

/** Waits until the simulation is complete; resolves with the frame count. */
async function waitComplete(viewer) {
	for (let i = 0; i < 600; ++i) {
		const s = (await getJson(viewer, '/api/status')).json;
		if (s.complete) return s.frameCount;
		await sleep(50);
	}
	throw new Error('the simulation did not complete');
}

const frames = async (viewer, from, count) =>
	(await getJson(viewer, `/api/frames?from=${from}&count=${count}`)).json.frames;

/** `cairn run --csv` rows of one body: [t, x, y, z, qw, qx, qy, qz] per frame. */
function readCsv(path, body) {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => line.split(','))
		.filter((f) => f[1] === body)
		.map((f) => [f[0], ...f.slice(2, 9)].map(Number));
}

// the CSV prints 9 significant digits
const near = (a, b) => Math.abs(a - b) <= 1e-8 * Math.max(1, Math.abs(b));

// a ball in flight (no contact: a scene holds no warm starts, so only then is the continuation
// exact) over a ground far below
const scenePath = join(work, 'flight.json');
writeFileSync(
	scenePath,
	JSON.stringify({
		cairn: 1,
		name: 'flight',
		duration: 2,
		fps: 30,
		timestep: 0.005,
		bodies: [
			{ name: 'ground', type: 'static', position: [0, 0, -100], shapes: [{ type: 'box', half_extents: [5, 5, 0.5] }] },
			{ name: 'ball', position: [0, 0, 1], velocity: [1, 0, 5], angular_velocity: [0, 0, 1], shapes: [{ type: 'sphere', radius: 0.1 }] },
		],
	}),
);

async function testSyncAndCut() {
	const viewer = await startViewer([scenePath]);
	const total = await waitComplete(viewer);
	check(total === 61, `61 frames (got ${total})`);
	const before = await frames(viewer, 0, total);

	// a sync point, and the frame there after the run went on
	const sync = await post(viewer, '/api/sync', { frame: 12 });
	check(sync.status === 200 && sync.json.syncPoints.includes(12), 'sync point marked');
	check((await getJson(viewer, '/api/sync')).json.syncPoints.join() === '12', 'sync point listed');
	const at12 = (await frames(viewer, 12, 1))[0];
	check(JSON.stringify(at12) === JSON.stringify(before[12]), 'the frame at the sync point is unchanged');

	// a bad edit changes nothing
	const bad = await post(viewer, '/api/cut', { frame: 20, edits: [{ op: 'velocity', body: 'nobody', linear: [0, 0, 0] }] });
	check(bad.status === 400 && /body/.test(bad.json.error), `bad body: 400 with a message (${bad.status})`);
	const badOp = await post(viewer, '/api/cut', { frame: 20, edits: [{ op: 'teleport', body: 'ball' }] });
	check(badOp.status === 400 && /op/.test(badOp.json.error), 'unknown op: 400');
	const notThere = await post(viewer, '/api/cut', { frame: 100000, edits: [] });
	check(notThere.status === 400, 'a frame that does not exist: 400');
	check((await getJson(viewer, '/api/status')).json.frameCount === total, 'nothing changed');

	// the cut: frames before it kept, the rest made again from the edited world
	const N = 40;
	const cut = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'velocity', body: 'ball', linear: [0, 2, 3] }] });
	check(cut.status === 200 && cut.json.cutFrame === N, `cut at ${N} (${cut.status} ${JSON.stringify(cut.json)})`);
	const after = await waitComplete(viewer);
	check(after === total, `the run goes on to the scene's end (${after} frames)`);
	const edited = await frames(viewer, 0, after);
	let kept = true;
	for (let f = 0; f < N; ++f) kept = kept && JSON.stringify(edited[f]) === JSON.stringify(before[f]);
	check(kept, 'frames before the cut are unchanged');
	check(JSON.stringify(edited[N + 1]) !== JSON.stringify(before[N + 1]), 'frames after the cut changed');
	check(JSON.stringify((await frames(viewer, 12, 1))[0]) === JSON.stringify(before[12]), 'back at the sync point: the same frame');

	// the saved scene, run by `cairn run`, continues as the viewer did
	const saved = await fetch(viewer.url + '/api/save/scene');
	check(saved.status === 200, 'scene saved');
	const savedPath = join(work, 'saved.json');
	writeFileSync(savedPath, Buffer.from(await saved.arrayBuffer()));
	const csvPath = join(work, 'saved.csv');
	check(run(['run', savedPath, '--csv', csvPath, '--quiet']).status === 0, 'cairn run on the saved scene');
	const rows = readCsv(csvPath, 'ball');
	check(rows.length === after - N, `the saved run has the frames after the cut (${rows.length})`);
	const t0 = edited[N][0];
	let same = rows.length > 0;
	for (let k = 0; k < rows.length && same; ++k) {
		const frame = edited[N + k];
		const pose = frame.slice(8, 15); // body 1: after time and body 0's 7 numbers
		same = near(frame[0] - t0, rows[k][0]) && pose.every((v, i) => near(v, rows[k][i + 1]));
		if (!same) console.log(`frame ${N + k}: viewer ${[frame[0] - t0, ...pose]} csv ${rows[k]}`);
	}
	check(same, 'the frames after the cut equal cairn run on the saved scene');

	// the edited history as a recording of every frame
	const rec = await fetch(viewer.url + '/api/save/recording');
	check(rec.status === 200, 'recording saved');
	const recPath = join(work, 'history.cnrec');
	writeFileSync(recPath, Buffer.from(await rec.arrayBuffer()));
	const recCsv = join(work, 'history.csv');
	const info = run(['info', recPath]);
	check(new RegExp(`frames:\\s+${after}\\b`).test(info.stdout), `the recording has ${after} frames`);
	void recCsv;

	// hostile bodies
	check((await post(viewer, '/api/cut', '{"frame": ')).status === 400, 'malformed JSON: 400');
	check((await post(viewer, '/api/cut', '[1, 2]')).status === 400, 'not an object: 400');
	check((await post(viewer, '/api/cut', '')).status === 400, 'empty body: 400');
	check((await post(viewer, '/api/cut', 'x'.repeat(100000))).status === 413, 'oversized body: 413');
	check((await fetch(viewer.url + '/api/cut')).status === 405, 'GET /api/cut: 405');
	check((await fetch(viewer.url + '/api/frames', { method: 'POST', body: '{}' })).status === 405, 'POST elsewhere: 405');
	check((await getJson(viewer, '/api/status')).status === 200, 'still answering');
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}

// a cut that adds a body and deletes another: the frames before it keep their bodies (the added one
// absent: a zero quaternion), the deleted one is absent from the cut on, the frames after it equal
// `cairn run --csv` on the saved scene (which has the added body and not the deleted one), and the
// saved recording (format version 6) says when each came and went
const absent = (frame, body) => frame.slice(4 + 7 * body, 8 + 7 * body).every((v) => v === 0);
// one camera of each type, written as the writer writes them (every key, in its order)
const cameras = [
	{ name: 'front', type: 'fixed', position: [5, -7, 5], look_at: [0, 0, 0.3], fov_deg: 45 },
	{ name: 'chase', type: 'follow', body: 'ball', offset: [2, -3, 1], fov_deg: 50 },
	{ name: 'rider', type: 'mounted', body: 'box', offset: [0, 0, 0.6], look_at: [1, 0, 0.5], fov_deg: 60 },
	{ name: 'fly', type: 'path', keys: [{ time: 0, position: [6, -8, 4], look_at: [0, 0, 0] }, { time: 0.5, position: [1, -2, 3], look_at: [0, 0, 1] }], fov_deg: 50 },
];

async function testAddDelete() {
	const path = join(work, 'add_delete.json');
	writeFileSync(
		path,
		JSON.stringify({
			cairn: 1,
			name: 'add_delete',
			duration: 1,
			fps: 30,
			timestep: 0.005,
			materials: { steel: { density: 7800, friction: 0.4, restitution: 0.3 } },
			bodies: [
				{ name: 'ground', type: 'static', position: [0, 0, -100], shapes: [{ type: 'box', half_extents: [5, 5, 0.5] }] },
				{ name: 'ball', position: [0, 0, 1], velocity: [1, 0, 5], shapes: [{ type: 'sphere', radius: 0.1 }] },
				{ name: 'box', position: [2, 0, 1], velocity: [0, 1, 4], shapes: [{ type: 'box', half_extents: [0.1, 0.2, 0.3] }] },
			],
			cameras,
		}),
	);
	const viewer = await startViewer([path]);
	const total = await waitComplete(viewer);
	// the scene's cameras are saved with every key, and saving the saved scene from the editor gives its bytes
	const first = await (await fetch(viewer.url + '/api/save/scene')).text();
	check(JSON.stringify(JSON.parse(first).cameras) === JSON.stringify(cameras), `the saved scene keeps the cameras (${JSON.stringify(JSON.parse(first).cameras)})`);
	const resaved = await fetch(viewer.url + '/api/editor/save', { method: 'POST', body: first });
	check(resaved.status === 200 && (await resaved.text()) === first, 'the saved scene saved again from the editor: the same bytes');
	const before = await frames(viewer, 0, total);
	const N = 12;
	const drop = { name: 'drop', position: [-1, 0, 3], velocity: [0.5, 0, 0], shapes: [{ type: 'sphere', radius: 0.2, material: 'steel' }] };

	// bad adds and deletes change nothing, with the loader's own words
	const badRadius = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: { ...drop, shapes: [{ type: 'sphere', radius: -1 }] } }] });
	check(badRadius.status === 400 && /edits\[0\] \(add\): .*bodies\[3\]\.shapes\[0\]\.radius: must be > 0/.test(badRadius.json.error),
		`a negative radius: 400 with the loader's message (${JSON.stringify(badRadius.json)})`);
	const sameName = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: { ...drop, name: 'ball' } }] });
	check(sameName.status === 400 && /ball/.test(sameName.json.error), `a second body "ball": 400 (${JSON.stringify(sameName.json)})`);
	const file = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: { ...drop, shapes: [{ type: 'mesh', file: '/etc/passwd' }] } }] });
	check(file.status === 400 && /file/.test(file.json.error), 'a body naming a file: 400');
	const notBody = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: 3 }] });
	check(notBody.status === 400, 'an add without a body object: 400');
	const nobody = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'delete', body: 'nobody' }] });
	check(nobody.status === 400 && /body/.test(nobody.json.error), 'deleting a body that is not there: 400');
	check((await getJson(viewer, '/api/scene')).json.bodies.length === 3, 'still three bodies');

	const cut = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: drop }, { op: 'delete', body: 'box' }] });
	check(cut.status === 200 && cut.json.bodyCount === 4, `cut at ${N} adding and deleting (${cut.status} ${JSON.stringify(cut.json)})`);
	const after = await waitComplete(viewer);
	check(after === total, `the run goes on to the scene's end (${after})`);
	const scene = (await getJson(viewer, '/api/scene')).json;
	check(scene.bodies.map((b) => b.name).join() === 'ground,ball,box,drop' && scene.stride === 29,
		`the bodies of the whole history (${scene.bodies.map((b) => b.name)}, stride ${scene.stride})`);
	check(scene.bodies[3].shapes[0].type === 'sphere' && scene.bodies[3].shapes[0].radius === 0.2, 'the added sphere is described');
	const edited = await frames(viewer, 0, after);
	let kept = true;
	for (let f = 0; f < N; ++f) {
		kept = kept && JSON.stringify(edited[f].slice(0, 22)) === JSON.stringify(before[f]) && absent(edited[f], 3) && !absent(edited[f], 2);
	}
	check(kept, 'frames before the cut: the same poses, the box there, the added sphere not yet');
	let changed = true;
	for (let f = N; f < after; ++f) changed = changed && absent(edited[f], 2) && !absent(edited[f], 3);
	check(changed, 'from the cut on: the box gone, the sphere there');
	check(JSON.stringify(edited[N].slice(22, 25)) === JSON.stringify(drop.position), 'the sphere starts where it was put');

	const saved = await fetch(viewer.url + '/api/save/scene');
	const savedPath = join(work, 'add_delete_saved.json');
	writeFileSync(savedPath, Buffer.from(await saved.arrayBuffer()));
	const savedScene = JSON.parse(readFileSync(savedPath, 'utf8'));
	check(savedScene.bodies.map((b) => b.name).join() === 'ground,ball,drop', `the saved scene has the sphere, not the box (${savedScene.bodies.map((b) => b.name)})`);
	check(JSON.stringify(savedScene.cameras) === JSON.stringify(cameras.filter((c) => c.body !== 'box')),
		`the camera mounted on the deleted box is left out, the others kept (${(savedScene.cameras || []).map((c) => c.name)})`);
	const csvPath = join(work, 'add_delete_saved.csv');
	check(run(['run', savedPath, '--csv', csvPath, '--quiet']).status === 0, 'cairn run on the saved scene');
	const t0 = edited[N][0];
	for (const [name, body] of [['ball', 1], ['drop', 3]]) {
		const rows = readCsv(csvPath, name);
		let same = rows.length === after - N;
		for (let k = 0; k < rows.length && same; ++k) {
			const frame = edited[N + k];
			const pose = frame.slice(1 + 7 * body, 8 + 7 * body);
			same = near(frame[0] - t0, rows[k][0]) && pose.every((v, i) => near(v, rows[k][i + 1]));
			if (!same) console.log(`${name} frame ${N + k}: viewer ${[frame[0] - t0, ...pose]} csv ${rows[k]}`);
		}
		check(same, `${name}: the frames after the cut equal cairn run on the saved scene`);
	}

	const rec = await fetch(viewer.url + '/api/save/recording');
	const recPath = join(work, 'add_delete.cnrec');
	writeFileSync(recPath, Buffer.from(await rec.arrayBuffer()));
	const info = run(['info', recPath]);
	const t = (f) => String(Number(edited[f][0].toPrecision(9)));
	check(/format version 6/.test(info.stdout) && new RegExp(`frames:\\s+${after}\\b`).test(info.stdout), `a version-6 recording of every frame:\n${info.stdout}`);
	check(new RegExp(`box .*destroyed at t = ${t(N)} s`).test(info.stdout), 'the recording has the box destroyed at the cut');
	check(new RegExp(`drop .*created at t = ${t(N)} s`).test(info.stdout), 'the recording has the sphere created at the cut');
	// the recording's frames are the viewer's: served by a second viewer, bit for bit
	const replay = await startViewer([recPath]);
	const replayed = await frames(replay, 0, after);
	check(JSON.stringify(replayed) === JSON.stringify(edited), 'the saved recording plays the same frames, the same bodies absent');
	check((await stopViewer(replay)) === 0, 'the recording viewer stopped with 0');

	// a later cut before this one drops it: the sphere is gone from the history, the box back
	const undo = await post(viewer, '/api/cut', { frame: 6, edits: [{ op: 'velocity', body: 'ball', linear: [0, 0, 1] }] });
	check(undo.status === 200 && undo.json.bodyCount === 3, `a cut at frame 6 drops the add (${JSON.stringify(undo.json)})`);
	await waitComplete(viewer);
	const last = (await frames(viewer, after - 1, 1))[0];
	check(last.length === 22 && !absent(last, 2), 'the box is back after the earlier cut');
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}

// a cut that gives one body a material of its own ({"op": "material", "own": true}): two boxes and
// the ground share "floor" (friction 0.5); box a, sliding at 3 m/s, gets a copy with friction 0 and
// keeps its speed, while box b, sliding too, decelerates by 0.5 g; the saved scene holds the copy
// on a only, and `cairn run --csv` on it gives the frames after the cut; a second own edit of a
// changes its copy in place (no third material), and a bad value is refused naming the key
async function testOwnMaterial() {
	const path = join(work, 'own.json');
	const g = 10;
	writeFileSync(
		path,
		JSON.stringify({
			cairn: 1,
			name: 'own',
			gravity: [0, 0, -g],
			duration: 1,
			fps: 30,
			timestep: 0.005,
			materials: { floor: { density: 1000, friction: 0.5, restitution: 0 } },
			bodies: [
				{ name: 'ground', type: 'static', material: 'floor', position: [0, 0, -0.5], shapes: [{ type: 'box', half_extents: [20, 20, 0.5] }] },
				{ name: 'a', material: 'floor', position: [0, 0, 0.25], velocity: [3, 0, 0], shapes: [{ type: 'box', half_extents: [0.25, 0.25, 0.25] }] },
				{ name: 'b', material: 'floor', position: [0, 2, 0.25], velocity: [3, 0, 0], shapes: [{ type: 'box', half_extents: [0.25, 0.25, 0.25] }] },
			],
		}),
	);
	const viewer = await startViewer([path]);
	const total = await waitComplete(viewer);
	const N = 6;
	const bad = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'material', body: 'a', friction: -1, own: true }] });
	check(bad.status === 400 && /friction/.test(bad.json.error), `an own material with friction -1: 400 naming friction (${JSON.stringify(bad.json)})`);
	const badOwn = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'material', body: 'a', friction: 0, own: 'yes' }] });
	check(badOwn.status === 400 && /own/.test(badOwn.json.error), `"own": "yes": 400 naming own (${JSON.stringify(badOwn.json)})`);
	// restitution 0.25 first, then friction 0 by a second edit of the same cut: the copy changed in place
	const cut = await post(viewer, '/api/cut', {
		frame: N,
		edits: [{ op: 'material', body: 'a', restitution: 0.25, own: true }, { op: 'material', body: 'a', friction: 0, own: true }],
	});
	check(cut.status === 200 && cut.json.cutFrame === N, `cut at ${N} with own materials (${cut.status} ${JSON.stringify(cut.json)})`);
	const after = await waitComplete(viewer);
	check(after === total, `the run goes on to the scene's end (${after})`);
	const edited = await frames(viewer, 0, after);
	// per frame (1/30 s) along x: a keeps its speed (3 - 0.5 g t at the cut), b loses 0.5 g / 30 of it
	// each frame until it stops (at t = 0.6 s: frame 18)
	const x = (f, body) => edited[f][1 + 7 * body];
	const dt = 1 / 30;
	const speed = (f, body) => (x(f + 1, body) - x(f, body)) / dt;
	let aKeeps = true;
	let bSlows = true;
	for (let f = N + 2; f + 1 < after && f <= 14; ++f) {
		aKeeps = aKeeps && Math.abs(speed(f, 1) - speed(N + 1, 1)) < 1e-6;
		bSlows = bSlows && Math.abs(speed(f, 2) - speed(f - 1, 2) + 0.5 * g * dt) < 1e-6;
	}
	check(aKeeps && Math.abs(speed(N + 1, 1) - (3 - 0.5 * g * N * dt)) < 0.02,
		`box a slides on at the speed it had at the cut (${speed(N + 1, 1)} m/s, then ${speed(after - 2, 1)})`);
	check(bSlows, 'box b, still of "floor", decelerates by 0.5 g');

	const savedPath = join(work, 'own_saved.json');
	writeFileSync(savedPath, Buffer.from(await (await fetch(viewer.url + '/api/save/scene')).arrayBuffer()));
	const saved = JSON.parse(readFileSync(savedPath, 'utf8'));
	const materialOf = (name) => saved.bodies.find((b) => b.name === name).shapes[0].material;
	const own = saved.materials[materialOf('a')];
	check(materialOf('a') === 'floor (a)' && own && own.friction === 0 && own.restitution === 0.25 && own.density === 1000,
		`the saved scene: a has a copy of floor, friction 0, restitution 0.25 (${materialOf('a')}: ${JSON.stringify(own)})`);
	check(materialOf('b') === 'floor' && materialOf('ground') === 'floor' && saved.materials.floor.friction === 0.5 &&
		saved.materials.floor.restitution === 0,
		`b and the ground keep floor as it was (${JSON.stringify(saved.materials.floor)})`);
	check(Object.keys(saved.materials).sort().join() === 'default,floor,floor (a)', `one copy only (${Object.keys(saved.materials)})`);
	const csvPath = join(work, 'own_saved.csv');
	check(run(['run', savedPath, '--csv', csvPath, '--quiet']).status === 0, 'cairn run on the saved scene');
	// the boxes rest on the ground: a scene carries no warm starts, so to the solver's tolerance (the
	// cold contacts let the boxes sink some micrometres more in the first steps than the warm ones)
	const t0 = edited[N][0];
	for (const [name, body] of [['a', 1], ['b', 2]]) {
		const rows = readCsv(csvPath, name);
		let same = rows.length === after - N;
		let worst = 0;
		for (let k = 0; k < rows.length && same; ++k) {
			const frame = edited[N + k];
			const pose = frame.slice(1 + 7 * body, 8 + 7 * body);
			same = near(frame[0] - t0, rows[k][0]);
			for (let i = 0; i < 7; ++i) worst = Math.max(worst, Math.abs(pose[i] - rows[k][i + 1]));
		}
		check(same && worst < 5e-5, `${name}: the frames after the cut equal cairn run on the saved scene (to ${worst})`);
	}
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}

// a cut that adds bodies with forces (carried into the world at the cut, their windows counted from
// the cut as in the scene the cut writes): "rocket", 1 kg, pushed up by a constant world force of
// 2 m g (so it rises at g from rest: z = z0 + g t^2 / 2 to the step's own error g h t / 2) and spun by a torque from 0.103 s to 0.203 s after the cut, and "seeker", pulled
// towards the ball by a target force; the saved scene keeps the forces (the torque's window as given),
// and `cairn run --csv` on it gives the frames after the cut for every moving body
async function testAddForces() {
	const path = join(work, 'forces.json');
	const g = 9.81;
	const h = 1 / 180;
	writeFileSync(
		path,
		JSON.stringify({
			cairn: 1,
			name: 'forces',
			duration: 1,
			fps: 30,
			timestep: h,
			bodies: [
				{ name: 'ground', type: 'static', position: [0, 0, -100], shapes: [{ type: 'box', half_extents: [5, 5, 0.5] }] },
				{ name: 'ball', position: [0, 0, 1], velocity: [1, 0, 5], shapes: [{ type: 'sphere', radius: 0.1 }] },
			],
		}),
	);
	const viewer = await startViewer([path]);
	const total = await waitComplete(viewer);
	const N = 9;
	const rocket = {
		name: 'rocket', position: [2, 0, 3], mass: 1, shapes: [{ type: 'sphere', radius: 0.1 }],
		forces: [{ frame: 'world', vector: [0, 0, 2 * g] }],
		torques: [{ frame: 'world', vector: [0, 0, 0.01], start: 0.103, end: 0.203 }],
	};
	const seeker = {
		name: 'seeker', position: [-2, 1, 2], mass: 0.5, shapes: [{ type: 'box', half_extents: [0.1, 0.1, 0.1] }],
		forces: [{ frame: 'target', target: 'ball', magnitude: 3, point: [0, 0, 0.05] }],
	};
	const badTarget = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: { ...seeker, forces: [{ frame: 'target', target: 'nobody', magnitude: 3 }] } }] });
	check(badTarget.status === 400 && /target/.test(badTarget.json.error), `a force towards no body: 400 (${JSON.stringify(badTarget.json)})`);
	const cut = await post(viewer, '/api/cut', { frame: N, edits: [{ op: 'add', body: rocket }, { op: 'add', body: seeker }] });
	check(cut.status === 200 && cut.json.bodyCount === 4, `cut at ${N} adding two bodies with forces (${cut.status} ${JSON.stringify(cut.json)})`);
	const after = await waitComplete(viewer);
	check(after === total, `the run goes on to the scene's end (${after})`);
	const edited = await frames(viewer, 0, after);
	const t0 = edited[N][0];
	let rises = true;
	let worst = 0;
	for (let f = N; f < after; ++f) {
		const t = edited[f][0] - t0;
		const z = edited[f][1 + 7 * 2 + 2];
		// the parabola, to the step's own error (at most g h t / 2)
		worst = Math.max(worst, Math.abs(z - (3 + (g / 2) * t * t)) - (g / 2) * h * t);
		rises = rises && edited[f][15] === 2 && edited[f][16] === 0;
	}
	check(rises && worst < 1e-9, `the rocket rises at g from rest: z = z0 + g t^2 / 2 to within g h t / 2 (${worst})`);
	const spin = (f) => 2 * Math.atan2(edited[f][1 + 7 * 2 + 6], edited[f][1 + 7 * 2 + 3]);
	// the torque's 0.1 s give the sphere (I = 2/5 m r^2) alpha = tau / I, then it turns at alpha 0.1 s;
	// to about a step's angle
	const alpha = 0.01 / (0.4 * 1 * 0.1 * 0.1);
	const tEnd = edited[after - 1][0] - t0;
	const turned = 0.5 * alpha * 0.1 * 0.1 + alpha * 0.1 * (tEnd - 0.203);
	check(spin(N + 2) === 0 && Math.abs(spin(after - 1) - turned) < 0.003,
		`the torque turns the rocket only after its start (${spin(N + 2)}, then ${spin(after - 1)} rad vs ${turned})`);

	const savedPath = join(work, 'forces_saved.json');
	writeFileSync(savedPath, Buffer.from(await (await fetch(viewer.url + '/api/save/scene')).arrayBuffer()));
	const saved = JSON.parse(readFileSync(savedPath, 'utf8'));
	const body = (name) => saved.bodies.find((b) => b.name === name);
	const force = body('rocket').forces;
	const torque = body('rocket').torques;
	check(force && force.length === 1 && force[0].frame === 'world' && JSON.stringify(force[0].vector) === JSON.stringify([0, 0, 2 * g]) &&
		force[0].start === 0 && force[0].end === undefined, `the saved rocket keeps its force (${JSON.stringify(force)})`);
	check(torque && torque.length === 1 && Math.abs(torque[0].start - 0.103) < 1e-12 && Math.abs(torque[0].end - 0.203) < 1e-12 &&
		torque[0].vector[2] === 0.01, `the saved rocket keeps its torque, its window from the cut (${JSON.stringify(torque)})`);
	const pull = body('seeker').forces;
	check(pull && pull.length === 1 && pull[0].frame === 'target' && pull[0].target === 'ball' && pull[0].magnitude === 3 &&
		JSON.stringify(pull[0].point) === JSON.stringify([0, 0, 0.05]), `the saved seeker keeps its pull towards the ball (${JSON.stringify(pull)})`);
	const csvPath = join(work, 'forces_saved.csv');
	check(run(['run', savedPath, '--csv', csvPath, '--quiet']).status === 0, 'cairn run on the saved scene');
	for (const [name, index] of [['ball', 1], ['rocket', 2], ['seeker', 3]]) {
		const rows = readCsv(csvPath, name);
		let same = rows.length === after - N;
		for (let k = 0; k < rows.length && same; ++k) {
			const frame = edited[N + k];
			const pose = frame.slice(1 + 7 * index, 8 + 7 * index);
			same = near(frame[0] - t0, rows[k][0]) && pose.every((v, i) => near(v, rows[k][i + 1]));
			if (!same) console.log(`${name} frame ${N + k}: viewer ${[frame[0] - t0, ...pose]} csv ${rows[k]}`);
		}
		check(same, `${name}: the frames after the cut equal cairn run on the saved scene`);
	}
	// falling freely the seeker would keep x = -2, y = 1; the pull towards the ball (x >= 0.3, y = 0) moves it
	const seekerAt = edited[after - 1].slice(1 + 7 * 3, 4 + 7 * 3);
	check(seekerAt[0] > -1.5 && seekerAt[1] < 0.8, `the seeker is pulled towards the ball (${seekerAt})`);
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}

async function testRecording() {
	const recording = join(work, 'flight.cnrec');
	run(['run', scenePath, '--duration', '0.5', '--record', recording, '--quiet']);
	const viewer = await startViewer([recording]);
	const cut = await post(viewer, '/api/cut', { frame: 3, edits: [] });
	check(cut.status === 409, `a cut of a recording: 409 (${cut.status})`);
	check((await fetch(viewer.url + '/api/save/scene')).status === 409, 'a recording saved as a scene: 409');
	check((await post(viewer, '/api/sync', { frame: 3 })).status === 200, 'a recording keeps sync points');
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}

try {
	await testSyncAndCut();
	await testAddDelete();
	await testOwnMaterial();
	await testAddForces();
	await testRecording();
} catch (error) {
	failed += 1;
	console.log(`FAIL: ${error.stack}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
