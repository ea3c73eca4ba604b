// The page's side of sync points and cuts (docs/viewer.md, "Sync points and cuts"); run by run.sh:
//   node history_test.mjs CAIRN SOURCE_DIR WORK_DIR
// In Debian's Chromium, on tests/view/fall.json simulated by the server:
// - the mark button marks frame 10 as a sync point (listed by /api/sync, drawn as a tick on the
//   timeline); played on to frame 40 or later, "back one sync point" shows frame 10 with every body
//   where /api/frames' frame 10 puts it, and "forward one sync point" goes to the last frame;
// - a bad edit typed into the cut panel shows the server's message and changes nothing;
// - a velocity edit of the ball typed into the panel at frame 20 and "set velocity": once the frames
//   after the cut are loaded again, the ball drawn at frame 30 is where /api/frames' new frame 30
//   puts it, and not where the frame 30 fetched before the cut put it; frame 10 is unchanged;
// - "set position" at frame 50 (its fields filled in with where the ball is drawn): the ball is
//   drawn exactly there at frame 50; the timeline shows the sync point and the last cut;
// - the download links give the edited recording and the scene (200, their content types);
// - a sphere added from the panel at frame 20 (the page loads again there) and the box deleted at
//   the same frame: the box is drawn before the cut and not after, the sphere only from the cut on,
//   also when scrubbing back; the picked ball and the camera mounted on it are kept across the
//   reload, and a later cut at frame 6 that drops the add reloads without the picked sphere, the
//   free camera kept;
// On a recording of the same scene: the cut panel is disabled and the downloads hidden; sync
// points still work.
import { join } from 'node:path';
import { check, finish, getJson, launchBrowser, openPage, run, startViewer, stopViewer } from './helpers.mjs';

const [cairn, src, work] = process.argv.slice(2);
const fall = join(src, 'tests', 'view', 'fall.json');
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
// the ball's origin in a frame of /api/frames (body 1: after the time and the ground's 7 numbers)
const ballAt = (frame) => frame.slice(8, 11);

async function drawnAt(page, name) {
	return page.evaluate((n) => window.cairnViewer.bodyPosition(n), name);
}

async function testScene(browser) {
	const viewer = await startViewer(cairn, [fall]);
	const { url } = viewer;
	const { page, problems } = await openPage(browser, url);
	const before = (await getJson(url, '/api/frames')).json.frames;
	const total = before.length;

	// mark frame 10 with the button
	await page.evaluate(() => window.cairnViewer.seek(10));
	await page.click('#sync-mark');
	await page.waitForFunction(() => window.cairnViewer.syncPoints().includes(10), null, { timeout: 10000 });
	const sync = (await getJson(url, '/api/sync')).json;
	check(same(sync.syncPoints, [10]), `the mark button marks frame 10 (${JSON.stringify(sync)})`);
	const ticks = await page.$$eval('#sync-ticks span', (spans) => spans.map((s) => s.dataset.frame));
	check(same(ticks, ['10']), `one tick on the timeline at frame 10 (${ticks})`);

	// play on past frame 40 (without looping back to the start), stop, back one sync point
	await page.uncheck('#loop');
	await page.selectOption('#speed', '0.25');
	await page.click('#vcr-play');
	// then the stop button, in the same task as the check (playwright's click may take longer than
	// the rest of the run lasts, and play at the end starts again from frame 0)
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		if (v.frame < 40) return false;
		if (v.playing) document.getElementById('vcr-play').click();
		return true;
	}, null, { timeout: 20000, polling: 'raf' });
	const stopped = await page.evaluate(() => ({ frame: window.cairnViewer.frame, playing: window.cairnViewer.playing }));
	check(stopped.frame >= 40 && !stopped.playing, `played to frame ${stopped.frame} and stopped`);
	await page.click('#sync-back');
	const back = await page.evaluate(() => window.cairnViewer.frame);
	check(back === 10, `back one sync point: frame 10 (${back})`);
	const ball10 = await drawnAt(page, 'ball');
	const box10 = await drawnAt(page, 'box');
	check(same(ball10, ballAt(before[10])) && same(box10, before[10].slice(15, 18)),
		`at the sync point every body is where frame 10 puts it (${ball10} vs ${ballAt(before[10])})`);
	await page.click('#sync-forward');
	const forward = await page.evaluate(() => window.cairnViewer.frame);
	check(forward === total - 1, `forward one sync point with none after: the last frame (${forward})`);
	check((await page.evaluate(() => window.cairnViewer.backSync())) === 10, 'backSync() goes to frame 10');

	// a bad edit: the server's message in the panel, nothing changed
	await page.evaluate(() => window.cairnViewer.seek(20));
	await page.evaluate(() => window.cairnViewer.pick('ball'));
	check(!(await page.isVisible('#cut-friction')), 'the cut panel is closed until opened');
	await page.click('#cut-open');
	await page.fill('#cut-friction', '-3');
	await page.click('#cut-material');
	await page.waitForFunction(() => /friction|material|negative|must/i.test(window.cairnViewer.cutPanel().message), null, { timeout: 10000 })
		.catch(() => {});
	const refused = await page.evaluate(() => window.cairnViewer.cutPanel());
	const afterBad = (await getJson(url, '/api/sync')).json;
	check(/friction|material|negative|must/i.test(refused.message) && afterBad.cuts === 0,
		`a bad edit: the server's message shown (${refused.message}), no cut (${afterBad.cuts})`);

	// the cut through the panel: the ball's velocity at frame 20
	const panelTitle = await page.textContent('#cut-panel');
	check(/frame 20: ball/.test(panelTitle), 'the panel names the frame and the picked body');
	await page.fill('#cut-vx', '1.5');
	await page.fill('#cut-vy', '-2');
	await page.fill('#cut-vz', '4');
	await page.click('#cut-velocity');
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		return v.cuts().cuts === 1 && v.complete && v.loadedFrames === v.frameCount && v.frameCount > 30;
	}, null, { timeout: 20000 });
	const cutState = await page.evaluate(() => window.cairnViewer.cuts());
	check(cutState.cutFrame === 20, `the cut is at frame 20 (${JSON.stringify(cutState)})`);
	const after = (await getJson(url, '/api/frames')).json.frames;
	await page.evaluate(() => window.cairnViewer.seek(30));
	const ball30 = await drawnAt(page, 'ball');
	check(same(ball30, ballAt(after[30])), `after the cut the ball at frame 30 is where the new frame 30 puts it (${ball30} vs ${ballAt(after[30])})`);
	check(!same(ball30, ballAt(before[30])), `and not where it was before the cut (${ballAt(before[30])})`);
	check(ball30[1] < ballAt(before[30])[1] - 0.1, `the ball moved along -y after the edit (y = ${ball30[1]})`);
	await page.screenshot({ path: join(work, 'history.png') });
	await page.evaluate(() => window.cairnViewer.seek(10));
	check(same(await drawnAt(page, 'ball'), ballAt(before[10])), 'frame 10, before the cut, is unchanged');
	const hook = await page.evaluate(async () => window.cairnViewer.cut(5, [{ op: 'velocity', body: 'nobody', linear: [0, 0, 0] }]));
	check(typeof hook.error === 'string' && hook.error.length > 0, `cut() resolves with the server's refusal (${hook.error})`);

	// a second cut, a move through the panel at frame 50: the ball is drawn where it was put
	await page.evaluate(() => window.cairnViewer.seek(50));
	const filled = await page.evaluate(() => ['x', 'y', 'z'].map((c) => Number(document.getElementById(`cut-p${c}`).value)));
	const drawn50 = await drawnAt(page, 'ball');
	check(filled.every((v, k) => Math.abs(v - drawn50[k]) < 1e-4), `the position fields show where the ball is drawn (${filled})`);
	await page.fill('#cut-px', '0.5');
	await page.fill('#cut-py', '1');
	await page.fill('#cut-pz', '2');
	await page.click('#cut-move');
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		return v.cuts().cuts === 2 && v.complete && v.loadedFrames === v.frameCount && v.frameCount > 50;
	}, null, { timeout: 20000 });
	await page.evaluate(() => window.cairnViewer.seek(50));
	const moved = await drawnAt(page, 'ball');
	check(same(moved, [0.5, 1, 2]), `set position: the ball drawn at (0.5, 1, 2) at frame 50 (${moved})`);
	const ticks2 = await page.$$eval('#sync-ticks span', (spans) => spans.map((s) => `${s.className}${s.dataset.frame}`));
	check(same(ticks2, ['10', 'cut50']), `ticks: the sync point and the last cut (${ticks2})`);

	// downloads
	const links = await page.evaluate(() => ['#save-recording', '#save-scene'].map((s) => {
		const a = document.querySelector(s);
		return { href: a.getAttribute('href'), download: a.download, hidden: a.hidden };
	}));
	check(links[0].href === '/api/save/recording' && links[1].href === '/api/save/scene' && !links[0].hidden && !links[1].hidden,
		`download links shown (${JSON.stringify(links)})`);
	const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click('#save-scene')]);
	check(download.suggestedFilename() === 'scene.json', `the scene downloads as scene.json (${download.suggestedFilename()})`);
	for (const [path, type] of [['/api/save/recording', 'application/octet-stream'], ['/api/save/scene', 'application/json']]) {
		const r = await fetch(new URL(path, url));
		const body = Buffer.from(await r.arrayBuffer());
		check(r.status === 200 && (r.headers.get('content-type') || '').startsWith(type) && body.length > 0,
			`${path}: 200, ${type}, ${body.length} bytes (${r.status}, ${r.headers.get('content-type')})`);
	}
	// the two refused cuts are logged by Chromium as failed loads (400): expected
	const unexpected = problems.filter((p) => !/status of 400/.test(p));
	check(unexpected.length === 0 && problems.length === 2, `no other page errors (${problems.join('; ')})`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with 0');
}

// Adding a body and deleting another from the cut panel at frame 20: the add reloads the page at
// the cut frame (the frames now hold a fourth body), the delete is a second cut at the same frame;
// the deleted box is drawn before the cut and not after it, the added sphere only from the cut on,
// also when scrubbing back before the cut.
async function testAddDelete(browser) {
	const viewer = await startViewer(cairn, [fall]);
	const { url } = viewer;
	const { page, problems } = await openPage(browser, url);
	const N = 20;
	await page.evaluate((n) => window.cairnViewer.seek(n), N);
	// the page's state to keep across the reload: the ball picked, the camera placed and mounted on it
	await page.evaluate(() => {
		window.cairnViewer.setCamera([1, -6, 3], [0, 0, 1]);
		window.cairnViewer.ride('ball');
		window.cairnViewer.pick('ball');
	});
	const camera = await page.evaluate(() => window.cairnViewer.camera());
	await page.click('#cut-open');
	await page.selectOption('#cut-add-shape', 'sphere');
	await page.fill('#cut-add-name', 'drop');
	await page.fill('#cut-add-size', '0.25');
	await page.fill('#cut-ax', '0');
	await page.fill('#cut-ay', '0');
	await page.fill('#cut-az', '2');
	await page.click('#cut-add');
	// the page loads again, at the cut frame, with the added body
	await page.waitForFunction((n) => {
		const v = window.cairnViewer;
		return v && v.ready && v.bodyNames && v.bodyNames().includes('drop') && v.frame === n;
	}, N, { timeout: 30000 });
	await page.waitForFunction(() => window.cairnViewer.complete && window.cairnViewer.loadedFrames === window.cairnViewer.frameCount,
		null, { timeout: 60000 });
	const addedAt = await drawnAt(page, 'drop');
	check(same(addedAt, [0, 0, 2]), `the sphere is drawn where it was added at frame ${N} (${addedAt})`);
	// the state kept across the reload (the ball's centre at frame N is where it was, so the mounted
	// camera is too; OrbitControls' spherical round trip may move it in the last bits)
	const kept = await page.evaluate(() => ({ camera: window.cairnViewer.camera(), picked: window.cairnViewer.picked(),
		info: window.cairnViewer.info(), open: document.querySelector('#cut-panel').open }));
	const close = (a, b) => a.every((v, k) => Math.abs(v - b[k]) < 1e-9);
	check(kept.picked === 'ball' && kept.info && kept.info.name === 'ball', `after the reload the ball is still picked (${kept.picked})`);
	check(kept.camera.riding === 'ball' && close(kept.camera.position, camera.position) && close(kept.camera.target, camera.target),
		`after the reload the camera is where it was, mounted on the ball (${JSON.stringify(kept.camera)} vs ${JSON.stringify(camera)})`);
	check(kept.open, 'the cut panel is still open after the reload');
	// delete the box at the same frame: a second cut, no reload
	await page.evaluate(() => window.cairnViewer.pick('box'));
	await page.click('#cut-open').catch(() => {});
	const open = await page.evaluate(() => document.querySelector('#cut-panel').open);
	if (!open) await page.click('#cut-open');
	await page.click('#cut-delete');
	await page.waitForFunction((n) => window.cairnViewer.cuts().cuts === 2 && window.cairnViewer.complete &&
		window.cairnViewer.loadedFrames === window.cairnViewer.frameCount, N, { timeout: 60000 });
	const drawn = async (frame) => {
		await page.evaluate((f) => window.cairnViewer.seek(f), frame);
		return page.evaluate(() => ({ box: window.cairnViewer.bodyDrawn('box'), drop: window.cairnViewer.bodyDrawn('drop'),
			ball: window.cairnViewer.bodyDrawn('ball') }));
	};
	const early = await drawn(N - 5);
	check(early.box && !early.drop && early.ball, `before the cut: the box drawn, the sphere not (${JSON.stringify(early)})`);
	const late = await drawn(N + 10);
	check(!late.box && late.drop && late.ball, `after the cut: the sphere drawn, the box not (${JSON.stringify(late)})`);
	const atCut = await drawn(N);
	check(!atCut.box && atCut.drop, `at the cut frame: the sphere, not the box (${JSON.stringify(atCut)})`);
	const backAgain = await drawn(3);
	check(backAgain.box && !backAgain.drop, `scrubbed back to frame 3: the box again, no sphere (${JSON.stringify(backAgain)})`);
	// the frames the page holds are the server's
	const frames = (await getJson(url, '/api/frames')).json.frames;
	const zero = (f, b) => f.slice(4 + 7 * b, 8 + 7 * b).every((x) => x === 0);
	check(frames.length > N + 10 && zero(frames[N + 10], 2) && !zero(frames[N + 10], 3) && !zero(frames[N - 5], 2) && zero(frames[N - 5], 3),
		'the server\'s frames: the box absent from the cut on, the sphere before it');
	await page.evaluate((f) => window.cairnViewer.seek(f), N + 10);
	await page.screenshot({ path: join(work, 'add-delete.png') });
	// the added sphere picked, a free camera; a cut at frame 6 drops the add: the page loads again
	// without the sphere, nothing picked, the camera where it was
	await page.evaluate(() => {
		window.cairnViewer.ride(null);
		window.cairnViewer.setCamera([2, -5, 4], [0.5, 0, 0.5]);
		window.cairnViewer.pick('drop');
	});
	const free = await page.evaluate(() => window.cairnViewer.camera());
	const dropped = await page.evaluate(() => window.cairnViewer.cut(6, [{ op: 'velocity', body: 'ball', linear: [0, 0, 1] }]));
	check(!dropped.error, `a cut at frame 6 (${JSON.stringify(dropped)})`);
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		return v && v.ready && v.bodyNames && !v.bodyNames().includes('drop') && v.frame === 6;
	}, null, { timeout: 30000 });
	const afterDrop = await page.evaluate(() => ({ camera: window.cairnViewer.camera(), picked: window.cairnViewer.picked() }));
	check(afterDrop.picked === null && afterDrop.camera.riding === null && close(afterDrop.camera.position, free.position) &&
		close(afterDrop.camera.target, free.target),
		`the sphere gone: nothing picked, the free camera where it was (${JSON.stringify(afterDrop)} vs ${JSON.stringify(free)})`);
	check(problems.length === 0, `no page errors (${problems.join('; ')})`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with 0');
}

// The rotation and "this body only" of the cut panel, on fall.json: at frame 20 the ball (in flight,
// not spinning) is turned by roll 30, pitch -20, yaw 75 degrees typed into the panel; the ball is
// drawn from the cut on with the quaternion R = Rz(yaw) Ry(pitch) Rx(roll) gives (computed here from
// the half angles); rotation fields left as filled in send no rotation. Then the box's friction set
// to 0 with "this body only": the saved scene gives the box a copy of "floor", the ball and the
// ground keep "floor" with friction 0.6.
const mul = (a, b) => [
	a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
	a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
	a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
	a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
];
function eulerQuaternion(roll, pitch, yaw) {
	const h = (d) => (d * Math.PI) / 360;
	const qx = [Math.cos(h(roll)), Math.sin(h(roll)), 0, 0];
	const qy = [Math.cos(h(pitch)), 0, Math.sin(h(pitch)), 0];
	const qz = [Math.cos(h(yaw)), 0, 0, Math.sin(h(yaw))];
	return mul(qz, mul(qy, qx));
}
// q and -q are the same rotation
const sameRotation = (a, b, tol) => [1, -1].some((s) => a.every((v, i) => Math.abs(v - s * b[i]) <= tol));

async function testPanelPose(browser) {
	const viewer = await startViewer(cairn, [fall]);
	const { url } = viewer;
	const { page, problems } = await openPage(browser, url);
	const N = 20;
	await page.evaluate((n) => window.cairnViewer.seek(n), N);
	await page.evaluate(() => window.cairnViewer.pick('ball'));
	await page.click('#cut-open');
	const filled = await page.evaluate(() => ['roll', 'pitch', 'yaw'].map((c) => document.getElementById(`cut-${c}`).value));
	check(filled.every((v) => Number(v) === 0), `the rotation fields show the ball's drawn rotation (${filled})`);
	const position = await drawnAt(page, 'ball');
	await page.fill('#cut-roll', '30');
	await page.fill('#cut-pitch', '-20');
	await page.fill('#cut-yaw', '75');
	await page.click('#cut-move');
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		return v.cuts().cuts === 1 && v.complete && v.loadedFrames === v.frameCount;
	}, null, { timeout: 20000 });
	const expected = eulerQuaternion(30, -20, 75);
	for (const f of [N, N + 5]) {
		await page.evaluate((n) => window.cairnViewer.seek(n), f);
		const q = await page.evaluate(() => window.cairnViewer.bodyOrientation('ball'));
		check(sameRotation(q, expected, 1e-12), `frame ${f}: the ball drawn turned by Rz(75) Ry(-20) Rx(30) (${q} vs ${expected})`);
	}
	await page.evaluate((n) => window.cairnViewer.seek(n), N);
	const moved = await drawnAt(page, 'ball');
	check(moved.every((v, k) => Math.abs(v - position[k]) < 1e-5), `the ball stays where it was (${moved} vs ${position})`);
	const before = await page.evaluate(() => window.cairnViewer.bodyOrientation('box'));
	// (resting on the floor, it leans by 1e-6 rad or so)
	check(sameRotation(before, [1, 0, 0, 0], 1e-5), `the box is not turned (${before})`);

	// the box alone gets friction 0; its rotation fields, left as filled in, turn nothing
	await page.evaluate(() => window.cairnViewer.pick('box'));
	await page.fill('#cut-friction', '0');
	await page.check('#cut-own');
	await page.click('#cut-material');
	await page.waitForFunction(() => window.cairnViewer.cuts().cuts === 2, null, { timeout: 20000 });
	const saved = (await getJson(url, '/api/save/scene')).json;
	const materialOf = (name) => saved.bodies.find((b) => b.name === name).shapes[0].material;
	check(materialOf('box') === 'floor (box)' && saved.materials['floor (box)'].friction === 0,
		`"this body only": the box has a copy of floor with friction 0 (${materialOf('box')})`);
	check(materialOf('ball') === 'floor' && materialOf('ground') === 'floor' && saved.materials.floor.friction === 0.6,
		`the ball and the ground keep floor, friction 0.6 (${JSON.stringify(saved.materials.floor)})`);
	await page.click('#cut-move');
	await page.waitForFunction(() => window.cairnViewer.cuts().cuts === 3 && window.cairnViewer.complete, null, { timeout: 20000 });
	await page.evaluate((n) => window.cairnViewer.seek(n), N);
	const after = await page.evaluate(() => window.cairnViewer.bodyOrientation('box'));
	// (a rotation sent from the fields, rounded to 1e-4 degrees, would turn it by about 1e-6)
	check(sameRotation(after, before, 1e-12), `"set pose" with the rotation as filled in leaves the box's rotation (${after} vs ${before})`);
	check(problems.length === 0, `no page errors (${problems.join('; ')})`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the server stops with 0');
}

async function testRecording(browser) {
	const recording = join(work, 'fall.cnrec');
	run(cairn, ['run', fall, '--record', recording, '--quiet']);
	const viewer = await startViewer(cairn, [recording]);
	const { page, problems } = await openPage(browser, viewer.url);
	const panel = await page.evaluate(() => ({
		state: window.cairnViewer.cutPanel(),
		disabled: document.querySelector('#cut-fields').disabled,
		buttonDisabled: document.querySelector('#cut-velocity').matches(':disabled'),
		hidden: [document.querySelector('#save-recording').hidden, document.querySelector('#save-scene').hidden],
	}));
	check(panel.disabled && panel.buttonDisabled && !panel.state.enabled && panel.hidden.every(Boolean),
		`a recording: the cut panel disabled, the downloads hidden (${JSON.stringify(panel)})`);
	await page.evaluate(() => window.cairnViewer.seek(7));
	await page.click('#sync-mark');
	await page.waitForFunction(() => window.cairnViewer.syncPoints().includes(7), null, { timeout: 10000 });
	await page.evaluate(() => window.cairnViewer.seek(30));
	await page.click('#sync-back');
	check((await page.evaluate(() => window.cairnViewer.frame)) === 7, 'a recording keeps sync points: back to frame 7');
	check(problems.length === 0, `no page errors (${problems.join('; ')})`);
	await page.close();
	check((await stopViewer(viewer)) === 0, 'the recording\'s server stops with 0');
}

const browser = await launchBrowser(src);
try {
	await testScene(browser);
	await testPanelPose(browser);
	await testAddDelete(browser);
	await testRecording(browser);
} catch (error) {
	check(false, error.stack);
} finally {
	await browser.close();
}
finish('view_history');
