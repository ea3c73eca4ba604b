// The picked body's state (docs/viewer.md, "Picking"); run by run.sh:
//   node body_test.mjs CAIRN SOURCE_DIR WORK_DIR
// Server:
// - /api/body on tests/view/fall.json while the ball falls freely from rest: its velocity is -g t
//   along z and its kinetic energy 1/2 m (g t)^2 (exact: the velocity grows by g h each step), its
//   potential energy m g z (the same reference as /api/quantities, whose potential is the sum of
//   the bodies'), and the resting box has no kinetic energy;
// - on tests/view/spin.json (a box tumbling about all three axes in free flight) every frame's
//   velocities equal `cairn run --csv`'s, and the kinetic energy 1/2 m v^2 + 1/2 w^T I w with the
//   box's inertia turned by the CSV's orientation;
// - bad indices and frames get 400 with a JSON error; a recording says energy is not available.
// Page (Debian's Chromium): a click on the falling ball at frame 30 shows its speed and the kinetic,
// potential and total energy of the closed forms; the tumbler picked at frame 20 shows the CSV's
// kinetic energy, translational and rotational; a recording's panel says energy is not available.
import { join } from 'node:path';
import { check, csvTime, finish, getJson, launchBrowser, openPage, run, startViewer, stopViewer, waitComplete } from './helpers.mjs';
import { readFileSync } from 'node:fs';

const [cairn, src, work] = process.argv.slice(2);
const fall = join(src, 'tests', 'view', 'fall.json');
const spin = join(src, 'tests', 'view', 'spin.json');
const g = 9.81;
const tumbler = { mass: 3, half: [0.4, 0.2, 0.1] };

/** `cairn run --csv` rows with velocities: Map "time|body" -> [x, y, z, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz]. */
function readCsvAll(path) {
	const rows = new Map();
	for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
		const f = line.split(',');
		rows.set(`${f[0]}|${f[1]}`, f.slice(2, 15).map(Number));
	}
	return rows;
}

/** v turned by the unit quaternion [w, x, y, z]. */
function rotate(q, v) {
	const [w, x, y, z] = q;
	const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
	return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

/** The tumbler's kinetic energy from a CSV row: 1/2 m v^2 and 1/2 w^T I w, I = R I_body R^T. */
function tumblerEnergy(row) {
	const [a, b, c] = tumbler.half;
	const m = tumbler.mass;
	const inertia = [(m / 3) * (b * b + c * c), (m / 3) * (a * a + c * c), (m / 3) * (a * a + b * b)];
	const q = row.slice(3, 7);
	const v = row.slice(7, 10);
	const w = row.slice(10, 13);
	// w in the body frame: turned back by the conjugate
	const wb = rotate([q[0], -q[1], -q[2], -q[3]], w);
	const translational = 0.5 * m * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2);
	const rotational = 0.5 * (inertia[0] * wb[0] ** 2 + inertia[1] * wb[1] ** 2 + inertia[2] * wb[2] ** 2);
	return { translational, rotational, kinetic: translational + rotational, v, w };
}

/** The tumbler's angular momentum about its centre of mass from a CSV row: R I_body R^T w. */
function tumblerMomentum(row) {
	const [a, b, c] = tumbler.half;
	const m = tumbler.mass;
	const inertia = [(m / 3) * (b * b + c * c), (m / 3) * (a * a + c * c), (m / 3) * (a * a + b * b)];
	const q = row.slice(3, 7);
	const wb = rotate([q[0], -q[1], -q[2], -q[3]], row.slice(10, 13));
	return rotate(q, [inertia[0] * wb[0], inertia[1] * wb[1], inertia[2] * wb[2]]);
}

const relNear = (a, b, tol) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

async function testServer() {
	// the ball falling from rest, the box resting
	const viewer = await startViewer(cairn, [fall]);
	const { url } = viewer;
	await waitComplete(url);
	const scene = (await getJson(url, '/api/scene')).json;
	const frames = (await getJson(url, '/api/frames')).json.frames;
	const q = (await getJson(url, '/api/quantities')).json.quantities;
	const ball = scene.bodies.findIndex((b) => b.name === 'ball');
	const box = scene.bodies.findIndex((b) => b.name === 'box');
	let wrong = 0;
	let falling = 0;
	for (let f = 0; f < frames.length; ++f) {
		const t = frames[f][0];
		if (t > 0.6) break;
		falling += 1;
		const a = (await getJson(url, `/api/body?index=${ball}&frame=${f}`)).json;
		const b = (await getJson(url, `/api/body?index=${box}&frame=${f}`)).json;
		const zBall = frames[f][3 + 7 * ball];
		const zBox = frames[f][3 + 7 * box];
		const ok = a.available === true && a.index === ball && a.frame === f && a.name === 'ball' && a.mass === 2 &&
			Math.abs(a.velocity[2] + g * t) < 1e-9 && a.velocity[0] === 0 && a.velocity[1] === 0 &&
			Math.abs(a.speed - g * t) < 1e-9 && Math.abs(a.kinetic - 0.5 * 2 * (g * t) ** 2) < 1e-6 &&
			a.rotational === 0 && a.translational === a.kinetic &&
			Math.abs(a.potential - 2 * g * zBall) < 1e-9 && Math.abs(a.total - a.kinetic - a.potential) < 1e-12 &&
			b.mass === 1 && b.kinetic < 1e-6 && Math.abs(b.potential - g * zBox) < 1e-9 &&
			// the world's potential energy is the sum of the bodies' (the ground is static: none)
			Math.abs(q[f][2] - a.potential - b.potential) < 1e-9;
		if (!ok) {
			wrong += 1;
			if (wrong < 3) console.log(`frame ${f}: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
		}
	}
	check(falling >= 30 && wrong === 0, `fall.json: the ball's v = -g t, KE = 1/2 m (g t)^2, PE = m g z (${wrong} of ${falling} frames wrong)`);
	const ground = (await getJson(url, `/api/body?index=0&frame=5`)).json;
	check(ground.available && ground.kinetic === 0 && ground.potential === 0, 'the static ground: no energy');

	// bad queries
	const n = frames.length;
	for (const path of ['/api/body', '/api/body?index=1', '/api/body?frame=1', '/api/body?index=&frame=1', '/api/body?index=-1&frame=1',
		'/api/body?index=1&frame=-1', '/api/body?index=3&frame=1', '/api/body?index=99999999999&frame=1', '/api/body?index=1&frame=1e3',
		`/api/body?index=1&frame=${n}`, '/api/body?index=0x1&frame=1', '/api/body?index=1&frame=2&run=1', '/api/body?index=1.5&frame=1']) {
		const r = await getJson(url, path);
		check(r.status === 400 && r.json && typeof r.json.error === 'string', `${path}: 400 with an error (${r.status})`);
	}
	check((await stopViewer(viewer)) === 0, 'the server stops with 0');

	// the tumbler against cairn run --csv, frame by frame
	const csvPath = join(work, 'spin.csv');
	run(cairn, ['run', spin, '--csv', csvPath, '--quiet']);
	const csv = readCsvAll(csvPath);
	const spun = await startViewer(cairn, [spin]);
	await waitComplete(spun.url);
	const spinFrames = (await getJson(spun.url, '/api/frames')).json.frames;
	const spinQ = (await getJson(spun.url, '/api/quantities')).json.quantities;
	let bad = 0;
	let badL = 0;
	let drift = 0;
	let turn = 0;
	let L0 = null;
	for (let f = 0; f < spinFrames.length; ++f) {
		const row = csv.get(`${csvTime(spinFrames[f][0])}|tumbler`);
		const s = (await getJson(spun.url, `/api/body?index=0&frame=${f}`)).json;
		const e = row ? tumblerEnergy(row) : null;
		const ok = e && s.available && s.mass === 3 && s.velocity.every((x, k) => relNear(x, e.v[k], 1e-7)) &&
			s.angularVelocity.every((x, k) => relNear(x, e.w[k], 1e-7)) && relNear(s.kinetic, e.kinetic, 1e-6) &&
			relNear(s.translational, e.translational, 1e-6) && relNear(s.rotational, e.rotational, 1e-6) &&
			Math.abs(s.potential - tumbler.mass * g * row[2]) < 1e-6;
		if (!ok) {
			bad += 1;
			if (bad < 3) console.log(`frame ${f}: ${JSON.stringify(s)} csv ${JSON.stringify(e)}`);
		}
		// the angular momentum about the centre of mass is I_world w from the CSV's orientation and
		// angular velocity; about the origin it adds c x m v (the box's centre is its origin), and the
		// world's (/api/quantities) is the tumbler's, its only body
		const L = s.angularMomentum;
		const spinL = row ? tumblerMomentum(row) : [NaN, NaN, NaN];
		const c = spinFrames[f].slice(1, 4);
		const v = s.velocity;
		const m = tumbler.mass;
		const orbit = [m * (c[1] * v[2] - c[2] * v[1]), m * (c[2] * v[0] - c[0] * v[2]), m * (c[0] * v[1] - c[1] * v[0])];
		const size = Math.hypot(...spinL);
		const okL = L.every((x, k) => Math.abs(x - spinL[k]) <= 1e-6 * size) &&
			s.angularMomentumOrigin.every((x, k) => Math.abs(x - L[k] - orbit[k]) <= 1e-12 * Math.max(1, Math.abs(x))) &&
			spinQ[f].slice(7, 10).every((x, k) => x === s.angularMomentumOrigin[k]);
		if (!okL) {
			badL += 1;
			if (badL < 3) console.log(`frame ${f}: L ${L} origin ${s.angularMomentumOrigin} world ${spinQ[f].slice(7, 10)} csv I w ${spinL}`);
		}
		// in free flight nothing turns it: L about the centre of mass stays what it was at frame 0.
		// The step's implicit midpoint rule for w x I w keeps |L| exactly (a quadratic invariant of
		// Euler's equations, src/integrate.c); its direction moves by the step's splitting error,
		// O(h), as the orientation is advanced after w
		L0 = L0 || L;
		drift = Math.max(drift, Math.abs(Math.hypot(...L) - Math.hypot(...L0)) / Math.hypot(...L0));
		turn = Math.max(turn, Math.hypot(L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]) / Math.hypot(...L0));
	}
	check(spinFrames.length > 20 && bad === 0, `spin.json: velocities and energies equal cairn run --csv's (${bad} of ${spinFrames.length} frames differ)`);
	check(badL === 0, `spin.json: angular momentum I w from the CSV, + c x m v about the origin, the world's the tumbler's (${badL} frames differ)`);
	check(drift <= 1e-9, `spin.json: |L| of the tumbler about its centre of mass is constant in free flight (relative drift ${drift})`);
	check(turn <= 2e-3, `spin.json: L about the centre of mass keeps its direction to the step's O(h) error (relative change ${turn})`);
	console.log(`spin.json: relative change of |L| ${drift}, of L ${turn} over ${spinFrames.length} frames`);
	check((await stopViewer(spun)) === 0, 'the spin server stops with 0');

	// a recording holds poses only; its indices and frames are still checked
	const recording = join(work, 'fall.cnrec');
	run(cairn, ['run', fall, '--record', recording, '--quiet']);
	const played = await startViewer(cairn, [recording]);
	const r = (await getJson(played.url, '/api/body?index=1&frame=3')).json;
	check(r.available === false && /not available for recordings/.test(r.reason), 'a recording: body energy not available');
	const rb = await getJson(played.url, '/api/body?index=7&frame=3');
	check(rb.status === 400, `a recording: a bad index is a 400 (${rb.status})`);
	check((await stopViewer(played)) === 0, 'the recording\'s server stops with 0');
	return { recording, csv };
}

/** The number at the start of a panel cell ("24.0590 J" -> 24.059). */
const number = (text) => Number.parseFloat(text);

async function testPage(browser, { recording, csv }) {
	// a click on the ball at frame 30: the closed forms
	const viewer = await startViewer(cairn, [fall]);
	const { page, problems } = await openPage(browser, viewer.url);
	const at = await page.evaluate(() => {
		const v = window.cairnViewer;
		v.seek(30);
		v.render();
		return { p: v.project('ball'), t: v.time(30), z: v.bodyPosition('ball')[2] };
	});
	await page.mouse.click(at.p.x, at.p.y);
	await page.waitForFunction(() => {
		const i = window.cairnViewer.info();
		return i && i.state;
	}, null, { timeout: 10000 });
	const info = await page.evaluate(() => window.cairnViewer.info());
	const ke = 0.5 * 2 * (g * at.t) ** 2;
	const pe = 2 * g * at.z;
	const rows = info.rows;
	check(info.name === 'ball' && info.frame === 30, `the click picked the ball at frame 30 (${info.name}, ${info.frame})`);
	check(relNear(number(rows['kinetic energy']), ke, 1e-5), `shown kinetic energy ${rows['kinetic energy']} = 1/2 m (g t)^2 = ${ke}`);
	check(relNear(number(rows['potential energy']), pe, 1e-5), `shown potential energy ${rows['potential energy']} = m g z = ${pe}`);
	check(relNear(number(rows['total energy']), ke + pe, 1e-5), `shown total energy ${rows['total energy']}`);
	check(Math.abs(number(rows.speed) - g * at.t) < 1e-3 && /rad\/s/.test(rows['angular velocity']) && number(rows['  rotational']) === 0,
		`shown speed ${rows.speed} = g t, angular velocity ${rows['angular velocity']}`);
	// another frame: the panel follows
	await page.evaluate(() => window.cairnViewer.seek(12));
	await page.waitForFunction(() => {
		const i = window.cairnViewer.info();
		return i && i.frame === 12 && i.state;
	}, null, { timeout: 10000 });
	const t12 = await page.evaluate(() => window.cairnViewer.time(12));
	const info12 = await page.evaluate(() => window.cairnViewer.info());
	check(relNear(number(info12.rows['kinetic energy']), 0.5 * 2 * (g * t12) ** 2, 1e-5), `frame 12: ${info12.rows['kinetic energy']}`);
	await page.screenshot({ path: join(work, 'body.png') });
	check(problems.length === 0, `no page errors (${problems.join('; ')})`);
	await page.close();
	await stopViewer(viewer);

	// the tumbler at frame 20: the CSV's velocities give the energy shown
	const spun = await startViewer(cairn, [spin]);
	const second = await openPage(browser, spun.url);
	await second.page.evaluate(() => {
		window.cairnViewer.seek(20);
		window.cairnViewer.pick('tumbler');
	});
	await second.page.waitForFunction(() => {
		const i = window.cairnViewer.info();
		return i && i.state;
	}, null, { timeout: 10000 });
	const shown = await second.page.evaluate(() => ({ info: window.cairnViewer.info(), t: window.cairnViewer.time(20) }));
	const e = tumblerEnergy(csv.get(`${csvTime(shown.t)}|tumbler`) || csv.values().next().value);
	const r = shown.info.rows;
	check(relNear(number(r['kinetic energy']), e.kinetic, 1e-5) && relNear(number(r['  translational']), e.translational, 1e-5) &&
		relNear(number(r['  rotational']), e.rotational, 1e-5) && e.rotational > 0.1,
	`tumbler at frame 20: kinetic ${r['kinetic energy']} (translational ${r['  translational']}, rotational ${r['  rotational']}) = CSV's ${e.kinetic}`);
	// and its angular momentum about the centre of mass, I w from the CSV, three numbers shown
	const shownL = (r['L about centre of mass'] || '').trim().split(/\s+/).slice(0, 3).map(Number);
	const csvL = tumblerMomentum(csv.get(`${csvTime(shown.t)}|tumbler`) || csv.values().next().value);
	check(shownL.length === 3 && shownL.every((x, k) => Math.abs(x - csvL[k]) <= 6e-4) /* shown to 3 decimals */ &&
		/kg m²\/s/.test(r['L about origin'] || ''),
	`tumbler at frame 20: L about the centre of mass ${r['L about centre of mass']} = CSV's I w ${csvL}, and about the origin ${r['L about origin']}`);
	check(second.problems.length === 0, `no page errors on spin (${second.problems.join('; ')})`);
	await second.page.close();
	await stopViewer(spun);

	// a recording: no energy
	const played = await startViewer(cairn, [recording]);
	const third = await openPage(browser, played.url);
	const rec = await third.page.evaluate(() => {
		window.cairnViewer.seek(10);
		window.cairnViewer.pick('ball');
		return window.cairnViewer.info();
	});
	check(rec && /not available for recordings/.test(rec.rows.energy) && rec.state === null && /m\/s/.test(rec.rows.velocity),
		`a recording's panel: velocity by differences, energy not available (${JSON.stringify(rec && rec.rows)})`);
	await third.page.close();
	await stopViewer(played);
}

try {
	const made = await testServer();
	if (process.env.CAIRN_VIEW_NO_BROWSER !== '1') {
		const browser = await launchBrowser(src);
		try {
			await testPage(browser, made);
		} finally {
			await browser.close();
		}
	}
} catch (error) {
	check(false, `unexpected: ${error.stack || error}`);
}
finish('view_body');
