// What the viewer's page shows besides the bodies (docs/viewer.md, "Plots" to "Joints"); run by run.sh:
//   node overlays_test.mjs CAIRN SOURCE_DIR WORK_DIR
// Server (tests/view/fall.json: a 2 kg ball falls freely from 3 m, a 1 kg box rests on the floor):
// - /api/quantities against closed forms while the ball falls: the potential energy is sum m g z of
//   the frames' poses, the kinetic energy 1/2 m (g t)^2, the momentum -m g t along z (and the angular
//   momentum about the origin r x m v of the ball), and the kinetic
//   energy equals m g times the drop, and the total energy stays constant, to within the
//   semi-implicit Euler step's own error, 1/2 m g^2 h t (h: the scene's step, at most the step taken);
// - /api/contacts: while the ball falls, the box's manifold on the floor: four points at its bottom
//   corners (from the frame's pose, each half its separation below the box) with the normal along z
//   and normal impulses summing to m g h; once the ball lies on the floor, a fifth point under the
//   ball;
// - recordings say the quantities and contacts are not available; bad inputs get 400.
// Page (Debian's Chromium): the energy plot with its cursor at the frame shown, a trail of the ball's
// centre of mass, the contact points, a camera riding the ball, and every joint of
// tests/data/joints_all.json drawn as AERO drew it between the anchors the frames give.
import { join } from 'node:path';
import { check, finish, getJson, launchBrowser, openPage, run, startViewer, stopViewer, waitComplete } from './helpers.mjs';

const [cairn, src, work] = process.argv.slice(2);
const fall = join(src, 'tests', 'view', 'fall.json');
const g = 9.81;
const h = 1 / 120;
const masses = { ball: 2, box: 1 };
const radius = 0.2;

/** v turned by the unit quaternion [w, x, y, z]. */
function rotate(q, v) {
	const [w, x, y, z] = q;
	const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
	return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

async function testQuantities() {
	const viewer = await startViewer(cairn, [fall]);
	const { url } = viewer;
	const status = await waitComplete(url);
	const scene = (await getJson(url, '/api/scene')).json;
	const q = (await getJson(url, '/api/quantities')).json;
	const frames = (await getJson(url, '/api/frames')).json.frames;
	check(q.available === true && q.count === status.frameCount && q.quantities.length === frames.length,
		`quantities of every frame (${q.count} of ${status.frameCount})`);
	check(Array.isArray(scene.runs) && scene.runs.length === 1 && scene.runs[0].method === 'impulse', 'one run, the scene\'s method');
	const ball = scene.bodies.findIndex((b) => b.name === 'ball');
	const box = scene.bodies.findIndex((b) => b.name === 'box');
	let falling = 0;
	const bad = { potential: 0, kinetic: 0, momentum: 0, angular: 0, drop: 0, total: 0 };
	const e0 = q.quantities[0][3];
	q.quantities.forEach(([t, kinetic, potential, total, , , pz, lx, ly, lz], f) => {
		if (t > 0.6) return;
		falling += 1;
		const zBall = frames[f][3 + 7 * ball];
		const zBox = frames[f][3 + 7 * box];
		const m = masses.ball;
		// exact: the world's potential energy is -m g.x of each body's centre (here its origin)
		if (Math.abs(potential - g * (m * zBall + masses.box * zBox)) > 1e-9 * e0) bad.potential += 1;
		// exact for any step: velocity grows by g h each step, so v = g t
		if (Math.abs(kinetic - 0.5 * m * (g * t) ** 2) > 1e-6) bad.kinetic += 1;
		// the box rests, but its contacts start without impulses and it settles onto them in its first
		// steps at a few micrometres per second (2 m from the origin: a few 1e-6 of angular momentum)
		const resting = 1e-5;
		if (Math.abs(pz + m * g * t) > resting) bad.momentum += 1;
		// angular momentum about the origin: the ball's r x m v = (0, m x g t, 0)
		const xBall = frames[f][1 + 7 * ball];
		if (Math.abs(lx) > resting || Math.abs(ly - m * xBall * g * t) > resting || Math.abs(lz) > resting) bad.angular += 1;
		// positions by semi-implicit Euler: each step loses 1/2 m g^2 h_step^2, so at most 1/2 m g^2 h t
		const tolerance = 0.5 * m * g * g * h * t + 1e-6;
		if (Math.abs(kinetic - m * g * (3 - zBall)) > tolerance) bad.drop += 1;
		if (Math.abs(total - e0) > tolerance || Math.abs(total - kinetic - potential) > 1e-9 * e0) bad.total += 1;
	});
	check(falling >= 30, `the ball falls for 30 frames or more (${falling})`);
	check(bad.potential === 0, `potential energy = sum m g z (${bad.potential} frames differ)`);
	check(bad.kinetic === 0, `kinetic energy = 1/2 m (g t)^2 (${bad.kinetic} frames differ)`);
	check(bad.momentum === 0, `momentum = -m g t along z (${bad.momentum} frames differ)`);
	check(bad.angular === 0, `angular momentum about the origin = r x m v of the ball (${bad.angular} frames differ)`);
	check(bad.drop === 0, `kinetic energy = m g drop to the step's tolerance (${bad.drop} frames differ)`);
	check(bad.total === 0, `total energy constant to the step's tolerance (${bad.total} frames differ)`);
	const part = (await getJson(url, '/api/quantities?from=10&count=5')).json;
	check(part.from === 10 && part.count === 5 && JSON.stringify(part.quantities) === JSON.stringify(q.quantities.slice(10, 15)),
		'from and count pick frames 10 to 14');

	// contacts: the box's four corners on the floor while the ball falls, the ball too once it lies
	// there; the points are found at the start of the frame's last step, and the box rests
	const boxCorners = (frame) => {
		const o = 1 + 7 * box;
		const qBox = frame.slice(o + 3, o + 7);
		const corners = [];
		for (const sx of [-1, 1]) for (const sy of [-1, 1]) {
			const c = rotate(qBox, [0.4 * sx, 0.3 * sy, -0.25]);
			corners.push([c[0] + frame[o], c[1] + frame[o + 1], c[2] + frame[o + 2]]);
		}
		return corners;
	};
	// the point of the box's surface a contact point stands for: half its separation along the normal
	const onBox = (p) => [p[0], p[1], p[2] + 0.5 * p[6]];
	let wrong = 0;
	for (let f = 1; f < frames.length && q.quantities[f][0] <= 0.6; f += 4) {
		const c = (await getJson(url, `/api/contacts?frame=${f}`)).json;
		const p = c.points;
		const corners = boxCorners(frames[f]);
		const matched = corners.every((k) => p.some((x) => Math.hypot(...onBox(x).map((v, i) => v - k[i])) < 1e-5));
		const impulse = p.reduce((sum, x) => sum + x[7], 0);
		const ok = c.available && c.frame === f && p.length === 4 && matched && p.every((x) => Math.abs(x[5]) === 1 && x.length === 8) &&
			Math.abs(impulse - masses.box * g * h) < 0.05 * masses.box * g * h;
		if (!ok) {
			wrong += 1;
			if (wrong < 3) console.log(`frame ${f}: ${JSON.stringify(p)} corners ${JSON.stringify(corners)}`);
		}
	}
	check(wrong === 0, `while the ball falls: four points at the box's bottom corners, normal along z, impulses m g h (${wrong} frames wrong)`);
	const last = frames.length - 1;
	const zLast = frames[last][3 + 7 * ball];
	const end = (await getJson(url, `/api/contacts?frame=${last}`)).json.points;
	const underBall = end.filter((p) => Math.hypot(p[0] + 2, p[1]) < 1e-6 && Math.abs(p[5]) > 0.999);
	check(Math.abs(zLast - radius) < 0.02 && end.length === 5 && underBall.length === 1,
		`the ball on the floor (z = ${zLast}): a fifth point under it (${JSON.stringify(end)})`);

	// bad inputs
	for (const path of ['/api/contacts', '/api/contacts?frame=', '/api/contacts?frame=-1', '/api/contacts?frame=1e3',
		`/api/contacts?frame=${frames.length}`, '/api/quantities?from=x', '/api/quantities?count=-2',
		'/api/quantities?run=1', '/api/frames?run=1', '/api/status?run=01x', '/api/scene?run=-1', '/api/contacts?frame=0&run=9']) {
		const r = await getJson(url, path);
		check(r.status === 400 && r.json && typeof r.json.error === 'string', `${path}: 400 with an error (${r.status})`);
	}
	check((await stopViewer(viewer)) === 0, 'the server stops with 0');

	// a recording holds poses only
	const recording = join(work, 'fall.cnrec');
	run(cairn, ['run', fall, '--record', recording, '--quiet']);
	const played = await startViewer(cairn, [recording]);
	const rq = (await getJson(played.url, '/api/quantities')).json;
	const rc = (await getJson(played.url, '/api/contacts?frame=3')).json;
	check(rq.available === false && /not available for recordings/.test(rq.reason), 'a recording: quantities not available');
	check(rc.available === false && /not available for recordings/.test(rc.reason), 'a recording: contacts not available');
	check((await stopViewer(played)) === 0, 'the recording\'s server stops with 0');
	return recording;
}

async function testPage(browser, recording) {
	const viewer = await startViewer(cairn, [fall]);
	const { page, problems } = await openPage(browser, viewer.url);
	await page.waitForFunction(() => window.cairnViewer.plot().complete.every(Boolean), null, { timeout: 30000 });
	const plot = await page.evaluate(() => window.cairnViewer.plot());
	const frameCount = await page.evaluate(() => window.cairnViewer.frameCount);
	check(plot.available && plot.series.length === 3 && plot.rows[0] === frameCount,
		`the energy plot: 3 series over every frame (${JSON.stringify(plot)})`);
	// the menu's angular momentum: Lx, Ly, Lz and |L| about the origin; then back to energy
	const angular = await page.evaluate(() => {
		const select = document.getElementById('plot-mode');
		select.value = 'angular';
		select.dispatchEvent(new Event('change'));
		const shown = window.cairnViewer.plot();
		select.value = 'energy';
		select.dispatchEvent(new Event('change'));
		return shown;
	});
	check(angular.mode === 'angular' && angular.series.join() === 'Lx (kg m²/s),Ly (kg m²/s),Lz (kg m²/s),|L| (kg m²/s)',
		`the plot's angular momentum: four series (${angular.series})`);
	const cursor = await page.evaluate(async () => {
		const v = window.cairnViewer;
		v.seek(5);
		const early = v.plot();
		v.seek(40);
		const late = v.plot();
		return { early, late, t5: v.time(5), t40: v.time(40) };
	});
	check(cursor.early.time === cursor.t5 && cursor.late.time === cursor.t40 && cursor.late.markerX > cursor.early.markerX,
		`the plot's cursor follows the frame (${cursor.early.markerX} -> ${cursor.late.markerX})`);

	// the ball's trail: its centre at every frame up to the one shown
	const trail = await page.evaluate(() => {
		const v = window.cairnViewer;
		v.setTrails(true);
		v.seek(20);
		return { points: v.trail('ball'), at: v.bodyPosition('ball') };
	});
	const lastPoint = trail.points[trail.points.length - 1] || [];
	check(trail.points.length === 21 && Math.hypot(trail.points[0][0] + 2, trail.points[0][1], trail.points[0][2] - 3) < 1e-6 &&
		Math.hypot(lastPoint[0] - trail.at[0], lastPoint[1] - trail.at[1], lastPoint[2] - trail.at[2]) < 1e-5,
	`the ball's trail runs from its start to where it is drawn (${trail.points.length} points)`);

	// contact points of the frame shown
	await page.evaluate(() => {
		window.cairnViewer.setContacts(true);
		window.cairnViewer.seek(10);
	});
	await page.waitForFunction(() => window.cairnViewer.overlays().contactPoints.length > 0, null, { timeout: 10000 });
	const contacts = await page.evaluate(() => window.cairnViewer.overlays().contactPoints);
	const frame10 = (await getJson(viewer.url, '/api/frames?from=10&count=1')).json.frames[0];
	const box10 = frame10.slice(1 + 7 * 2, 1 + 7 * 2 + 3);
	check(contacts.length === 4 && contacts.every((p) => Math.abs(p[5]) > 0.999 && Math.abs(Math.abs(p[0] - box10[0]) - 0.4) < 1e-5 &&
		Math.abs(Math.abs(p[1] - box10[1]) - 0.3) < 1e-5 && Math.abs(p[2]) < 1e-4),
	`frame 10: the box's four bottom corners are shown (${JSON.stringify(contacts)})`);

	// the camera rides the ball: it keeps its offset as the ball falls
	const ride = await page.evaluate(() => {
		const v = window.cairnViewer;
		v.ride('ball');
		v.seek(10);
		const a = v.overlays();
		v.seek(30);
		const b = v.overlays();
		return { a, b, ball: v.bodyPosition('ball') };
	});
	const offset = (o) => o.camera.map((c, k) => c - o.target[k]);
	check(ride.b.riding === 'ball' && Math.hypot(...ride.b.target.map((c, k) => c - ride.ball[k])) < 1e-6 &&
		Math.hypot(...offset(ride.a).map((c, k) => c - offset(ride.b)[k])) < 1e-6,
	'a camera mounted on the ball looks at it and keeps its offset');
	await page.screenshot({ path: join(work, 'overlays.png') });
	check(problems.length === 0, `no page errors (${problems.join('; ')})`);
	await page.close();
	await stopViewer(viewer);

	// a recording: the plot says why it is empty
	const played = await startViewer(cairn, [recording]);
	const second = await openPage(browser, played.url);
	const note = await second.page.evaluate(() => ({ plot: window.cairnViewer.plot(), text: document.getElementById('plot').textContent }));
	check(note.plot.available === false && /not available for recordings/.test(note.text), 'a recording: the plot says energy is not available');
	await second.page.close();
	await stopViewer(played);
}

async function testJoints(browser) {
	const viewer = await startViewer(cairn, [join(src, 'tests', 'data', 'joints_all.json')]);
	const { page, problems } = await openPage(browser, viewer.url);
	const state = await page.evaluate(() => {
		window.cairnViewer.seek(30);
		return { joints: window.cairnViewer.joints(), frame: window.cairnViewer.frame };
	});
	const scene = (await getJson(viewer.url, '/api/scene')).json;
	const frame = (await getJson(viewer.url, `/api/frames?from=${state.frame}&count=1`)).json.frames[0];
	// the anchors the frame gives: body pose times the anchor in the body (world for -1)
	const anchor = (body, local) => {
		if (body < 0) return local;
		const o = 1 + 7 * body;
		const [w, x, y, z] = frame.slice(o + 3, o + 7);
		const [vx, vy, vz] = local;
		// v + 2 w (q x v) + 2 q x (q x v)
		const t = [2 * (y * vz - z * vy), 2 * (z * vx - x * vz), 2 * (x * vy - y * vx)];
		return [vx + w * t[0] + (y * t[2] - z * t[1]) + frame[o], vy + w * t[1] + (z * t[0] - x * t[2]) + frame[o + 1],
			vz + w * t[2] + (x * t[1] - y * t[0]) + frame[o + 2]];
	};
	const close = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < 1e-5;
	const want = { spring: ['coil'], damper: ['cylinder', 'rod'], distance: ['rod'], ball: ['sphere'], hinge: ['sphere'],
		universal: ['sphere'], cone_twist: ['sphere'], fixed: ['marker'], slider: ['marker', 'marker', 'rod'], point_on_plane: ['marker', 'marker'] };
	scene.joints.forEach((joint, i) => {
		const drawn = state.joints[i];
		const a = anchor(joint.bodyA, joint.anchorA);
		const b = anchor(joint.bodyB, joint.anchorB);
		const kinds = drawn.pieces.map((p) => p.kind);
		check(JSON.stringify(kinds) === JSON.stringify(want[joint.type]), `${joint.name} (${joint.type}): drawn as ${kinds.join(', ')}`);
		const p = drawn.pieces;
		let placed = false;
		if (joint.type === 'spring' || joint.type === 'distance') placed = close(p[0].a, a) && close(p[0].b, b);
		else if (joint.type === 'damper') {
			// the cylinder from A's anchor towards B's, the rod from B's anchor into it
			const length = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
			const cylinder = Math.hypot(...p[0].b.map((c, k) => c - a[k]));
			placed = close(p[0].a, a) && close(p[1].a, b) && cylinder <= length + 1e-9 && p[0].radius > p[1].radius;
		} else if (joint.type === 'slider' || joint.type === 'point_on_plane') placed = close(p[0].a, a) && close(p[1].a, b);
		else placed = close(p[0].a, a);
		check(placed && p.every((x) => x.visible || joint.type === 'slider'), `${joint.name}: placed at its anchors`);
	});
	check(problems.length === 0, `no page errors on the joints (${problems.join('; ')})`);
	await page.screenshot({ path: join(work, 'joints.png') });
	await page.close();
	await stopViewer(viewer);
}

try {
	const recording = await testQuantities();
	if (process.env.CAIRN_VIEW_NO_BROWSER !== '1') {
		const browser = await launchBrowser(src);
		try {
			await testPage(browser, recording);
			await testJoints(browser);
		} finally {
			await browser.close();
		}
	}
} catch (error) {
	check(false, `unexpected: ${error.stack || error}`);
}
finish('view_overlays');
