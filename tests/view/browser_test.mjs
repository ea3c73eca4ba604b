// The page of `cairn view` in Debian's Chromium, headless, driven by playwright-core (no browser
// download: executablePath is /usr/bin/chromium); run by run.sh:
//   node browser_test.mjs CAIRN SOURCE_DIR WORK_DIR
// On a recording made by `cairn run --record`: play, stop, and the drawn position of every moving
// body at the frame shown equals `cairn run --csv`; scrub backwards on the timeline, step with the
// VCR buttons and keys, go to start and end; pick a body; screenshots (WORK_DIR/viewer.png and
// others) and a pixel check that bodies are drawn where they project. Then a scene simulated by the
// server, a scene of hulls whose surfaces come from the recording, and a planar FOSSSim scene.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [cairn, src, work] = process.argv.slice(2);
const require = createRequire(join(src, 'web', 'package.json'));
const { chromium } = require('playwright-core');

let passed = 0;
let failed = 0;
// servers still running when the test ends, whatever way it ends
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
// a test that hangs is a failure, not a CTest timeout with nothing said
const watchdog = setTimeout(() => {
	console.log(`FAIL: the browser test took more than 200 s\n${passed} passed, ${failed + 1} failed`);
	process.exit(1);
}, 200000);

function run(args) {
	const r = spawnSync(cairn, args, { encoding: 'utf8', timeout: 120000 });
	if (r.status !== 0) throw new Error(`cairn ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
}

function startViewer(file) {
	return new Promise((resolve, reject) => {
		const child = spawn(cairn, ['view', file, '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
		children.add(child);
		let out = '';
		let err = '';
		child.stderr.on('data', (d) => {
			err += d;
		});
		child.stdout.on('data', (d) => {
			out += d;
			const m = /^viewer: (http:\/\/\S+\/)$/m.exec(out);
			if (m) resolve({ child, url: m[1], stderr: () => err });
		});
		child.on('exit', (code) => reject(new Error(`cairn view exited (${code}): ${err}`)));
	});
}

function stopViewer(viewer) {
	return new Promise((resolve) => {
		viewer.child.removeAllListeners('exit');
		viewer.child.on('exit', (code) => resolve(code));
		viewer.child.kill('SIGTERM');
	});
}

/** `cairn run --csv` rows: Map "time|body" -> [x, y, z, qw, qx, qy, qz]. */
function readCsv(path) {
	const rows = new Map();
	for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
		const f = line.split(',');
		rows.set(`${f[0]}|${f[1]}`, f.slice(2, 9).map(Number));
	}
	return rows;
}
const csvTime = (t) => `${Number(t.toPrecision(9))}`;
const near = (a, b) => Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(b));

// Chromium as the machine's probe starts it: software WebGL (SwiftShader), no network of its own
const browser = await chromium.launch({
	executablePath: '/usr/bin/chromium',
	headless: true,
	args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
		'--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
		'--disable-dev-shm-usage'],
});

async function openPage(url) {
	const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
	const problems = [];
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
	});
	await page.goto(url);
	await page.waitForFunction(() => window.cairnViewer && (window.cairnViewer.ready === false ||
		(window.cairnViewer.complete && window.cairnViewer.loadedFrames === window.cairnViewer.frameCount)), null,
	{ timeout: 60000 });
	const ready = await page.evaluate(() => window.cairnViewer.ready);
	check(ready === true, `the page loads (${await page.evaluate(() => window.cairnViewer.error)})`);
	return { page, problems };
}

// Reads pixels of a PNG screenshot in the page itself (no image library needed here).
async function pixels(page, png, points) {
	return page.evaluate(async ({ b64, points }) => {
		const image = new Image();
		image.src = `data:image/png;base64,${b64}`;
		await image.decode();
		const canvas = document.createElement('canvas');
		canvas.width = image.width;
		canvas.height = image.height;
		const context = canvas.getContext('2d');
		context.drawImage(image, 0, 0);
		return points.map(({ x, y }) => Array.from(context.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3)));
	}, { b64: png.toString('base64'), points });
}

/** Every moving body's drawn pose at the frame shown against the CSV; returns how many differ. */
async function comparePoses(page, csv, what) {
	const state = await page.evaluate(() => {
		const v = window.cairnViewer;
		return {
			frame: v.frame,
			time: v.time(v.frame),
			bodies: v.bodyNames().map((name) => ({ name, p: v.bodyPosition(name), q: v.bodyOrientation(name) })),
		};
	});
	let compared = 0;
	let differing = 0;
	for (const body of state.bodies) {
		const want = csv.get(`${csvTime(state.time)}|${body.name}`);
		if (!want) continue;
		compared += 1;
		const got = [...body.p, ...body.q];
		// a quaternion and its negative are one orientation
		const sign = got[3] * want[3] + got[4] * want[4] + got[5] * want[5] + got[6] * want[6] < 0 ? -1 : 1;
		if (!got.every((v, k) => near(k >= 3 ? sign * v : v, want[k]))) {
			differing += 1;
			console.log(`  ${body.name} at frame ${state.frame}: drawn ${got}, recorded ${want}`);
		}
	}
	check(compared === 7 && differing === 0, `${what}: frame ${state.frame}, ${compared} bodies drawn where recorded (${differing} differ)`);
	return state.frame;
}

const frameNow = (page) => page.evaluate(() => window.cairnViewer.frame);

async function testRecording() {
	const recording = join(work, 'toss.cnrec');
	const csvPath = join(work, 'toss.csv');
	run(['run', join(src, 'scenes', 'can_toss.json'), '--duration', '1', '--record', recording, '--csv', csvPath, '--quiet']);
	const csv = readCsv(csvPath);
	const viewer = await startViewer(recording);
	const { page, problems } = await openPage(viewer.url);
	check((await page.evaluate(() => window.cairnViewer.frameCount)) === 61, 'all 61 frames loaded');
	check((await frameNow(page)) === 0, 'starts at frame 0');
	await comparePoses(page, csv, 'at the start');

	// play, then stop past frame 30. The stop is a click made inside the page only while it plays:
	// a software-rendered page on a busy machine may take seconds between two of Playwright's
	// actions, and a click at the end (where playing stopped by itself) would play again
	await page.selectOption('#speed', '0.5');
	await page.uncheck('#loop');
	await page.click('#vcr-play');
	check(await page.evaluate(() => window.cairnViewer.playing), 'play');
	await page.waitForFunction(() => window.cairnViewer.frame >= 30, null, { timeout: 30000 });
	await page.evaluate(() => {
		if (window.cairnViewer.playing) document.getElementById('vcr-play').click();
	});
	check((await page.evaluate(() => window.cairnViewer.playing)) === false, 'stop');
	const stopped = await comparePoses(page, csv, 'played and stopped');
	check(stopped >= 30, `stopped at frame ${stopped} >= 30`);

	// scrub backwards on the timeline as a hand does: the input events of a drag
	await page.evaluate(async () => {
		const timeline = document.getElementById('timeline');
		for (let f = Number(timeline.value); f >= 12; f -= 3) {
			timeline.value = String(f);
			timeline.dispatchEvent(new Event('input', { bubbles: true }));
			await new Promise((resolve) => requestAnimationFrame(resolve));
		}
	});
	await page.waitForFunction(() => window.cairnViewer.frame <= 14, null, { timeout: 5000 });
	const scrubbed = await comparePoses(page, csv, 'scrubbed backwards');
	check(scrubbed < stopped, `scrubbed back from ${stopped} to ${scrubbed}`);

	// the VCR buttons and keys
	await page.click('#vcr-back');
	check((await frameNow(page)) === scrubbed - 1, 'back one frame');
	await page.click('#vcr-forward');
	await page.click('#vcr-forward');
	check((await frameNow(page)) === scrubbed + 1, 'forward one frame, twice');
	await comparePoses(page, csv, 'stepped');
	await page.keyboard.press('ArrowLeft');
	check((await frameNow(page)) === scrubbed, 'the Left key steps back');
	await page.click('#vcr-end');
	check((await frameNow(page)) === 60, 'to end');
	await comparePoses(page, csv, 'at the end');
	await page.click('#vcr-start');
	check((await frameNow(page)) === 0, 'to start');
	await page.keyboard.press('End');
	check((await frameNow(page)) === 60, 'the End key');

	// speed and loop: at speed 4 without loop, playing stops at the last frame; with loop it goes
	// round to the start
	await page.selectOption('#speed', '4');
	await page.click('#vcr-start');
	await page.click('#vcr-play');
	await page.waitForFunction(() => !window.cairnViewer.playing, null, { timeout: 30000 });
	check((await frameNow(page)) === 60, 'without loop, playing stops at the last frame');
	await page.check('#loop');
	await page.evaluate(() => window.cairnViewer.seek(50));
	await page.click('#vcr-play');
	await page.waitForFunction(() => window.cairnViewer.frame < 50, null, { timeout: 30000 });
	await page.evaluate(() => document.getElementById('vcr-play').click());
	check((await page.evaluate(() => window.cairnViewer.playing)) === false, 'with loop, playing goes round to the start');

	// a frame where the ball is among the cans, the ball picked by a click where it is drawn
	await page.evaluate(() => window.cairnViewer.seek(40));
	await page.evaluate(() => window.cairnViewer.render());
	const ball = await page.evaluate(() => window.cairnViewer.project('ball_0'));
	check(ball.visible, 'the ball is in view');
	await page.mouse.click(ball.x, ball.y);
	const info = await page.textContent('#info');
	check(/ball_0/.test(info) && /position/.test(info) && /velocity/.test(info), `a click picks the ball: ${info}`);

	// the screenshot, and each moving body drawn where it projects: its pixel changes when it is hidden
	const shot = await page.screenshot({ path: join(work, 'viewer.png') });
	// the moving bodies in view, clear of the panels drawn over the picture
	const inView = await page.evaluate(() => {
		const v = window.cairnViewer;
		const covered = ['info', 'title', 'bar'].map((id) => document.getElementById(id).getBoundingClientRect());
		return v.bodyNames().filter((n) => /^(can|ball)_/.test(n)).map((name) => ({ name, ...v.project(name) }))
			.filter((p) => p.visible && p.x > 10 && p.x < 950 &&
				!covered.some((r) => p.x >= r.left - 10 && p.x <= r.right + 10 && p.y >= r.top - 10 && p.y <= r.bottom + 10));
	});
	check(inView.length >= 3 && inView.some((p) => p.name === 'ball_0'), `the ball and cans in view: ${inView.map((p) => p.name)}`);
	const names = inView.map((p) => p.name);
	const points = inView;
	const shown = await pixels(page, shot, points);
	for (const name of names) await page.evaluate((n) => window.cairnViewer.setBodyVisible(n, false), name);
	const hiddenShot = await page.screenshot({ path: join(work, 'viewer-hidden.png') });
	const hidden = await pixels(page, hiddenShot, points);
	names.forEach((name, i) => {
		const d = shown[i].reduce((sum, c, k) => sum + Math.abs(c - hidden[i][k]), 0);
		// the two renders are identical but for the hidden bodies, so any clear change counts: a can's
		// face in shadow can be as dark as the ground behind it (16 apart, summed over the channels)
		check(points[i].visible && d > 10, `${name} is drawn at (${points[i].x.toFixed(0)}, ${points[i].y.toFixed(0)}): ` +
			`${shown[i]} shown, ${hidden[i]} hidden`);
	});
	// and the picture is not one colour
	const spread = await pixels(page, shot, [{ x: 100, y: 100 }, { x: 480, y: 300 }, { x: 850, y: 450 }]);
	check(new Set(spread.map(String)).size > 1, 'the picture is not blank');

	check(problems.length === 0, `no errors in the page: ${problems.join('; ')}`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with status 0');
}

async function testScene() {
	// simulated by the server: the page shows the frames as they come and ends with all of them
	const viewer = await startViewer(join(src, 'scenes', 'can_toss.json'));
	const { page, problems } = await openPage(viewer.url);
	check((await page.evaluate(() => window.cairnViewer.frameCount)) === 121, 'a scene: 121 frames simulated and loaded');
	await page.click('#vcr-end');
	check((await frameNow(page)) === 120, 'a scene: to end');
	check(/simulated here/.test(await page.textContent('#status')), 'the status says the server simulates');
	check(problems.length === 0, `no errors in the page: ${problems.join('; ')}`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with status 0');
}

async function testSurfaces() {
	// Schmidl's jacks: compounds of hulls, drawn from the triangles the recording carries
	const recording = join(work, 'jacks.cnrec');
	run(['run', join(src, 'scenes', 'jacks.json'), '--duration', '0.2', '--record', recording, '--quiet']);
	const viewer = await startViewer(recording);
	const { page, problems } = await openPage(viewer.url);
	const hulls = await page.evaluate(async () => {
		const scene = await (await fetch('/api/scene')).json();
		const body = scene.bodies.find((b) => b.shapes.some((s) => s.type === 'hull'));
		return body ? { name: body.name, triangles: body.shapes[0].triangles.length / 3 } : null;
	});
	check(hulls && hulls.triangles > 0, `a body of hulls with triangles (${hulls && hulls.name})`);
	await page.evaluate(() => window.cairnViewer.render());
	const point = await page.evaluate((n) => window.cairnViewer.project(n), hulls.name);
	const shot = await page.screenshot({ path: join(work, 'jacks.png') });
	await page.evaluate((n) => window.cairnViewer.setBodyVisible(n, false), hulls.name);
	const hiddenShot = await page.screenshot();
	const [a] = await pixels(page, shot, [point]);
	const [b] = await pixels(page, hiddenShot, [point]);
	// a jack's centre is where its arms cross, so the pixel there is the jack's
	check(point.visible && a.some((c, k) => Math.abs(c - b[k]) > 10), `${hulls.name} is drawn where it projects: ${a} vs ${b}`);
	check(problems.length === 0, `no errors in the page: ${problems.join('; ')}`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with status 0');
}

async function testPlanar() {
	// a planar FOSSSim scene simulated by the server: polygons, seen face on with y up
	const viewer = await startViewer(join(src, 'tests', 'view', 'planar.xml'));
	const { page, problems } = await openPage(viewer.url);
	const body = await page.evaluate(async () => {
		const scene = await (await fetch('/api/scene')).json();
		const b = scene.bodies.find((x) => x.type === 'dynamic');
		return { name: b.name, type: b.shapes[0].type, frames: window.cairnViewer.frameCount };
	});
	check(body.type === 'polygon' && body.frames === 51, `a planar scene: a polygon body, 51 frames (${body.frames})`);
	await page.evaluate(() => window.cairnViewer.seek(10));
	await page.evaluate(() => window.cairnViewer.render());
	const point = await page.evaluate((n) => window.cairnViewer.project(n), body.name);
	const shot = await page.screenshot({ path: join(work, 'planar.png') });
	await page.evaluate((n) => window.cairnViewer.setBodyVisible(n, false), body.name);
	const [a] = await pixels(page, shot, [point]);
	const [b] = await pixels(page, await page.screenshot(), [point]);
	check(point.visible && a.some((c, k) => Math.abs(c - b[k]) > 10), `the polygon is drawn where it projects: ${a} vs ${b}`);
	check(problems.length === 0, `no errors in the page: ${problems.join('; ')}`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with status 0');
}

try {
	await testRecording();
	await testScene();
	await testSurfaces();
	await testPlanar();
} catch (error) {
	failed += 1;
	console.log(`FAIL: ${error.stack}`);
}
await browser.close();
clearTimeout(watchdog);
writeFileSync(join(work, 'result.txt'), `${passed} passed, ${failed} failed\n`);
console.log(`screenshots in ${work}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
