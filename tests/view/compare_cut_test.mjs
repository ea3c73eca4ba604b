// Sync points, cuts, saving and the picked body's state with `cairn view --compare` over HTTP
// (docs/viewer.md, "Methods side by side"; Node.js built-ins only; run by run.sh):
//   node compare_cut_test.mjs CAIRN SOURCE_DIR WORK_DIR
// On a scene where a ball flies while a box rests on the ground, compared in impulse and lcp:
// - /api/body?run=K: every body's velocity at every frame equals `cairn run --method M --csv`'s for
//   run K's method, and the ball's is -g t along z with its energy m g z0 kept to the step's error;
// - a sync point marked once is listed by every run; a cut drops the later ones in every run and
//   jumping back to the one before shows the frame it showed;
// - a refused cut (a bad edit, a frame past a run's frames, a bad run) changes no run;
// - a cut with a velocity edit is made in every run: the frames before it are kept bit for bit, and
//   the ball's frames after it equal `cairn run --method M --csv` on /api/save/scene?run=K (whose
//   t = 0 is the cut frame) for each run's method, its velocity there the edited one less g t;
//   /api/save/recording?run=K holds every frame of run K;
// - a cut that adds a sphere and deletes the box gives every run the same bodies;
// - cuts and marks sent at once leave the runs agreeing; malformed bodies are refused.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { check, finish, getJson, startViewer, stopViewer, waitComplete } from './helpers.mjs';

const [cairn, , work] = process.argv.slice(2);
const methods = ['impulse', 'lcp'];
const g = 9.81;
const fps = 60;
const h = 1 / 120;

function run(args) {
	const r = spawnSync(cairn, args, { encoding: 'utf8', timeout: 120000 });
	if (r.status !== 0) console.log(`cairn ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
	return r;
}

/** POSTs a body (JSON, or text as is); resolves with the status and the parsed answer. */
function post(url, path, body) {
	const data = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const request = http.request(
			{ host: url.hostname, port: url.port, path, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': data.length } },
			(response) => {
				const chunks = [];
				response.on('data', (c) => chunks.push(c));
				response.on('end', () => {
					let json = null;
					try {
						json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
					} catch {
						json = null;
					}
					resolve({ status: response.statusCode, json });
				});
			},
		);
		request.on('error', reject);
		request.end(data);
	});
}

/** GET path as bytes. */
function getBytes(url, path) {
	return new Promise((resolve, reject) => {
		http.get({ host: url.hostname, port: url.port, path }, (response) => {
			const chunks = [];
			response.on('data', (c) => chunks.push(c));
			response.on('end', () => resolve({ status: response.statusCode, bytes: Buffer.concat(chunks), headers: response.headers }));
			response.on('error', reject);
		}).on('error', reject);
	});
}

const frames = async (url, run) => (await getJson(url, `/api/frames?run=${run}`)).json.frames;
const waitAll = async (url) => {
	const counts = [];
	for (let r = 0; r < methods.length; ++r) counts.push((await waitComplete(url, r)).frameCount);
	return counts;
};

/** `cairn run --csv` rows of one body: [x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz] per frame, in order. */
function readCsv(path, body) {
	return readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.slice(1)
		.map((line) => line.split(','))
		.filter((f) => f[1] === body)
		.map((f) => f.slice(2, 15).map(Number));
}

// the CSV prints 9 significant digits
const near = (a, b) => Math.abs(a - b) <= 1e-8 * Math.max(1, Math.abs(b));

// the ball flies (no contact, so a saved scene, which holds no warm starts, continues exactly) while
// the box rests on the ground, where the methods part ways
const scenePath = join(work, 'compare_cut.json');
writeFileSync(
	scenePath,
	JSON.stringify({
		cairn: 1,
		name: 'compare_cut',
		gravity: [0, 0, -g],
		timestep: h,
		duration: 0.6,
		fps,
		bodies: [
			{ name: 'ground', type: 'static', position: [0, 0, -0.5], shapes: [{ type: 'box', half_extents: [5, 5, 0.5] }] },
			{ name: 'ball', position: [-2, 0, 3], mass: 2, shapes: [{ type: 'sphere', radius: 0.2 }] },
			{ name: 'box', position: [2, 0, 0.25], mass: 1, shapes: [{ type: 'box', half_extents: [0.4, 0.3, 0.25] }] },
		],
	}),
);
const BALL = 1;
const pose = (frame, body) => frame.slice(1 + 7 * body, 8 + 7 * body);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const viewer = await startViewer(cairn, [scenePath, '--compare', '--methods', methods.join(',')]);
const url = viewer.url;
try {
	const counts = await waitAll(url);
	const total = counts[0];
	check(total === 37 && counts.every((c) => c === total), `every run has 37 frames (${counts})`);
	const before = [];
	for (let r = 0; r < methods.length; ++r) before.push(await frames(url, r));

	// the picked body's state per run: each run's velocities are `cairn run --method M`'s, and the
	// falling ball's the closed form's
	for (let r = 0; r < methods.length; ++r) {
		const csv = join(work, `${methods[r]}.csv`);
		run(['run', scenePath, '--method', methods[r], '--csv', csv, '--quiet']);
		let csvOk = true;
		let fallOk = true;
		for (const [index, name] of [[1, 'ball'], [2, 'box']]) {
			const rows = readCsv(csv, name);
			csvOk = csvOk && rows.length === total;
			for (let f = 0; f < total && csvOk; ++f) {
				const b = (await getJson(url, `/api/body?run=${r}&index=${index}&frame=${f}`)).json;
				csvOk = b.available === true && b.name === name && b.velocity.every((v, k) => near(v, rows[f][7 + k]));
				if (!csvOk) console.log(`run ${r} ${name} frame ${f}: ${JSON.stringify(b)} csv ${rows[f]}`);
				if (name !== 'ball') continue;
				// free fall from rest: v = -g t exactly but for rounding; the energy m g z0 kept to the
				// semi-implicit Euler step's own error 1/2 m g^2 h t
				const t = f / fps;
				const m = 2;
				fallOk = fallOk && Math.abs(b.velocity[2] + g * t) < 1e-9 && Math.abs(b.kinetic - 0.5 * m * (g * t) ** 2) < 1e-8 &&
					Math.abs(b.total - m * g * 3) <= 0.5 * m * g * g * h * t + 1e-9;
				if (!fallOk) console.log(`run ${r} ball frame ${f}: ${JSON.stringify(b)}`);
			}
		}
		check(csvOk, `run ${r} (${methods[r]}): /api/body's velocities equal cairn run --method ${methods[r]} --csv at every frame`);
		check(fallOk, `run ${r} (${methods[r]}): the falling ball's velocity -g t and energy m g z0`);
	}
	const badRun = await getJson(url, '/api/body?run=2&index=1&frame=0');
	check(badRun.status === 400, `/api/body?run=2 of two runs: 400 (${badRun.status})`);

	// sync points: one mark for every run
	const marked = await post(url, '/api/sync', { frame: 10 });
	check(marked.status === 200 && same(marked.json.syncPoints, [10]), `sync point at 10 (${JSON.stringify(marked.json)})`);
	await post(url, '/api/sync', { frame: 30 });
	for (let r = 0; r < methods.length; ++r) {
		const list = (await getJson(url, `/api/sync?run=${r}`)).json;
		check(same(list.syncPoints, [10, 30]), `run ${r} lists the sync points 10 and 30 (${JSON.stringify(list)})`);
	}

	// refused cuts change no run
	const N = 15;
	const bad = await post(url, '/api/cut', { frame: N, edits: [{ op: 'velocity', body: 'nobody', linear: [0, 0, 0] }] });
	check(bad.status === 400 && /^run 0 \(impulse\): edits\[0\]/.test(bad.json.error), `a bad edit: 400 naming the run (${JSON.stringify(bad.json)})`);
	const past = await post(url, '/api/cut', { frame: total, edits: [] });
	check(past.status === 400 && /every run/.test(past.json.error), `a frame past the runs' frames: 400 (${JSON.stringify(past.json)})`);
	const pastRun = await post(url, '/api/cut?run=2', { frame: N, edits: [] });
	check(pastRun.status === 400, `a cut naming run 2 of two: 400 (${pastRun.status})`);
	for (let r = 0; r < methods.length; ++r) {
		const list = (await getJson(url, `/api/sync?run=${r}`)).json;
		check(list.cuts === 0 && list.cutFrame === -1, `run ${r}: no cut after the refused ones`);
	}

	// the cut: the ball's velocity set at frame N in every run
	const v = [1, 0, 2];
	const cut = await post(url, '/api/cut?run=1', { frame: N, edits: [{ op: 'velocity', body: 'ball', linear: v }] });
	check(cut.status === 200 && cut.json.cutFrame === N && same(cut.json.syncPoints, [10]),
		`cut at ${N}: run 1's answer, the later sync point gone (${cut.status} ${JSON.stringify(cut.json)})`);
	const after = await waitAll(url);
	check(after.every((c) => c === total), `every run goes on to the scene's end (${after})`);
	for (let r = 0; r < methods.length; ++r) {
		const list = (await getJson(url, `/api/sync?run=${r}`)).json;
		check(list.cutFrame === N && list.cuts === 1 && same(list.syncPoints, [10]), `run ${r}: the cut and sync point 10 (${JSON.stringify(list)})`);
		const edited = await frames(url, r);
		let kept = true;
		for (let f = 0; f < N; ++f) kept = kept && same(edited[f], before[r][f]);
		check(kept, `run ${r}: the frames before the cut are unchanged`);
		check(same(edited[10], before[r][10]), `run ${r}: back at sync point 10, the same frame`);
		check(!same(pose(edited[N + 1], BALL), pose(before[r][N + 1], BALL)), `run ${r}: the ball's frames after the cut changed`);

		// the saved scene of run r, run by `cairn run` in its method, continues as the run did
		const saved = await getBytes(url, `/api/save/scene?run=${r}`);
		check(saved.status === 200, `run ${r}: scene saved`);
		const savedPath = join(work, `saved-${methods[r]}.json`);
		writeFileSync(savedPath, saved.bytes);
		check(JSON.parse(saved.bytes.toString('utf8')).method === methods[r], `run ${r}: the saved scene has its method`);
		const csv = join(work, `saved-${methods[r]}.csv`);
		run(['run', savedPath, '--method', methods[r], '--csv', csv, '--quiet']);
		const rows = readCsv(csv, 'ball');
		check(rows.length === total - N, `run ${r}: the saved scene runs the frames after the cut (${rows.length})`);
		let equal = rows.length > 0;
		for (let k = 0; k < rows.length && equal; ++k) {
			const p = pose(edited[N + k], BALL);
			equal = p.every((x, i) => near(x, rows[k][i]));
			if (!equal) console.log(`run ${r} frame ${N + k}: viewer ${p} csv ${rows[k]}`);
		}
		check(equal, `run ${r} (${methods[r]}): the ball's frames after the cut equal cairn run --method ${methods[r]} on the saved scene`);
		// the edited velocity, less g t, in every run's /api/body
		let velocity = true;
		for (let k = 0; k < total - N && velocity; ++k) {
			const b = (await getJson(url, `/api/body?run=${r}&index=${BALL}&frame=${N + k}`)).json;
			const want = [v[0], v[1], v[2] - (g * k) / fps];
			velocity = b.velocity.every((x, i) => Math.abs(x - want[i]) < 1e-9);
			if (!velocity) console.log(`run ${r} frame ${N + k}: ${b.velocity} want ${want}`);
		}
		check(velocity, `run ${r}: the ball's velocity after the cut is the edited one less g t`);

		const rec = await getBytes(url, `/api/save/recording?run=${r}`);
		check(rec.status === 200 && rec.headers['content-type'] === 'application/octet-stream', `run ${r}: recording saved`);
		const recPath = join(work, `history-${methods[r]}.cnrec`);
		writeFileSync(recPath, rec.bytes);
		const info = run(['info', recPath]);
		check(new RegExp(`frames:\\s+${total}\\b`).test(info.stdout), `run ${r}: the recording has ${total} frames`);
	}

	// a cut that adds a sphere and deletes the box: every run gets the same bodies
	const add = await post(url, '/api/cut', {
		frame: 20,
		edits: [{ op: 'add', body: { name: 'sphere', position: [0, 0, 2], shapes: [{ type: 'sphere', radius: 0.2 }] } }, { op: 'delete', body: 'box' }],
	});
	check(add.status === 200 && add.json.bodyCount === 4, `add and delete at 20 (${add.status} ${JSON.stringify(add.json)})`);
	await waitAll(url);
	for (let r = 0; r < methods.length; ++r) {
		const scene = (await getJson(url, `/api/scene?run=${r}`)).json;
		check(scene.stride === 1 + 7 * 4 && same(scene.bodies.map((b) => b.name), ['ground', 'ball', 'box', 'sphere']),
			`run ${r}: four bodies described (${scene.stride})`);
		const edited = await frames(url, r);
		const absent = (frame, body) => pose(frame, body).slice(3).every((x) => x === 0);
		check(absent(edited[19], 3) && !absent(edited[19], 2) && absent(edited[20], 2) && !absent(edited[20], 3),
			`run ${r}: the sphere from frame 20 on, the box until then`);
		const b = (await getJson(url, `/api/body?run=${r}&index=3&frame=21`)).json;
		check(b.available && b.name === 'sphere' && Math.abs(b.velocity[2] + g / fps) < 1e-9, `run ${r}: the sphere falls from rest (${JSON.stringify(b.velocity)})`);
	}
	// cuts and marks sent at once are made one at a time, each in every run: the runs agree after
	const racing = await Promise.all([
		post(url, '/api/cut', { frame: 25, edits: [{ op: 'impulse', body: 'ball', impulse: [0, 1, 0] }] }),
		post(url, '/api/cut?run=1', { frame: 30, edits: [{ op: 'move', body: 'sphere', position: [1, 1, 2] }] }),
		post(url, '/api/sync', { frame: 5 }),
		post(url, '/api/sync?run=1', { frame: 22 }),
	]);
	// (a cut that comes second may find its frame dropped by the first and not made again yet: a 400)
	const cutOk = (r) => r.status === 200 || (r.status === 400 && /^frame/.test(r.json.error));
	check(cutOk(racing[0]) && cutOk(racing[1]) && (racing[0].status === 200 || racing[1].status === 200) &&
		racing[2].status === 200 && racing[3].status === 200,
		`four requests at once answered (${racing.map((r) => `${r.status} ${r.json.error || ''}`)})`);
	await waitAll(url);
	const lists = [];
	for (let r = 0; r < methods.length; ++r) lists.push((await getJson(url, `/api/sync?run=${r}`)).json);
	check(lists[0].cuts === lists[1].cuts && lists[0].cutFrame === lists[1].cutFrame && same(lists[0].syncPoints, lists[1].syncPoints) &&
		lists[0].syncPoints.includes(5), `the runs agree on their cuts and sync points (${JSON.stringify(lists)})`);
	// malformed bodies are refused as for one run
	check((await post(url, '/api/cut', '{"frame": ')).status === 400, 'malformed JSON: 400');
	check((await post(url, '/api/cut', '[1, 2]')).status === 400, 'not an object: 400');
	check((await post(url, '/api/cut', 'x'.repeat(100000))).status === 413, 'oversized body: 413');
	check((await post(url, '/api/cut', { frame: 3, edits: { op: 'move' } })).status === 400, 'edits not an array: 400');
	check((await post(url, '/api/sync', { frame: -1 })).status === 400, 'a negative sync frame: 400');
	check((await getJson(url, '/api/status')).status === 200, 'still answering');
} finally {
	check((await stopViewer(viewer)) === 0, 'stopped with 0');
}
finish('view_compare_cut');
