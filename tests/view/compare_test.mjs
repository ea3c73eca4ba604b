// Methods side by side: `cairn view --compare SCENE [--methods a,b]` (docs/viewer.md); run by run.sh:
//   node compare_test.mjs CAIRN SOURCE_DIR WORK_DIR
// - two methods of tests/view/fall.json give two runs, named by /api/scene's runs, whose frame 0 poses
//   are identical and whose every frame equals `cairn run --method M --csv` of that method;
// - without --methods, every method that can load the scene runs, each once;
// - run=2 of two runs, and bad command lines (one method, a repeat, an unknown name, --methods
//   without --compare, a recording) are refused (400; status 2);
// - the page (Debian's Chromium) draws both runs' moving bodies as ghosts in two colours, each where
//   its own run puts it, with a legend and one energy series per method;
// - key G shows the runs in a grid of views instead, one per method, side by side without overlap,
//   each labelled with its method in its colour; in each view the moving bodies of its run (and only
//   its run) are drawn where they project (a pixel of the run's colour at each; screenshot
//   WORK_DIR/compare-grid.png); the button puts the ghosts back;
// - the picked ball's panel has a row per run in the run's colour, each with that run's speed g t and
//   energies from /api/body?run=K; a sync point marked on the page is every run's; a velocity cut
//   from the page's hook is made in every run, whose ghosts then follow the run's new frames (and
//   before the cut the old ones), whose plot rows load again, and "back one sync point" goes to the
//   mark; the downloads are per run (WORK_DIR/compare-cut.png).
import { join } from 'node:path';
import {
	check,
	csvTime,
	finish,
	getJson,
	launchBrowser,
	near,
	openPage,
	readCsv,
	run,
	runStatus,
	startViewer,
	stopViewer,
	waitComplete,
} from './helpers.mjs';

const [cairn, src, work] = process.argv.slice(2);

// Reads pixels of a PNG screenshot in the page itself (as browser_test.mjs does).
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
const fall = join(src, 'tests', 'view', 'fall.json');
const methods = ['impulse', 'lcp'];

async function testRuns() {
	const viewer = await startViewer(cairn, ['--compare', fall, '--methods', methods.join(',')]);
	const { url } = viewer;
	const scene = (await getJson(url, '/api/scene')).json;
	check(JSON.stringify(scene.runs) === JSON.stringify(methods.map((method) => ({ method }))),
		`two runs named by their methods (${JSON.stringify(scene.runs)})`);
	const runs = [];
	for (let r = 0; r < methods.length; ++r) {
		await waitComplete(url, r);
		runs.push((await getJson(url, `/api/frames?run=${r}`)).json.frames);
	}
	check(runs[0].length > 60 && runs[0].length === runs[1].length, `both runs have every frame (${runs[0].length}, ${runs[1].length})`);
	check(JSON.stringify(runs[0][0]) === JSON.stringify(runs[1][0]), 'frame 0 is the same in both runs');
	methods.forEach((method, r) => {
		const csvPath = join(work, `fall_${method}.csv`);
		run(cairn, ['run', fall, '--method', method, '--csv', csvPath, '--quiet']);
		const csv = readCsv(csvPath);
		let compared = 0;
		let differing = 0;
		for (const frame of runs[r]) {
			scene.bodies.forEach((body, i) => {
				const want = csv.get(`${csvTime(frame[0])}|${body.name}`);
				if (!want) return;
				compared += 1;
				if (!frame.slice(1 + 7 * i, 8 + 7 * i).every((v, k) => near(v, want[k]))) differing += 1;
			});
		}
		check(compared >= runs[r].length * 2 && differing === 0,
			`run ${r}: every frame equals cairn run --method ${method} --csv (${compared} poses, ${differing} differ)`);
	});
	// each run measures its own quantities
	const q0 = (await getJson(url, '/api/quantities?run=0&from=0&count=1')).json;
	const q1 = (await getJson(url, '/api/quantities?run=1&from=0&count=1')).json;
	check(q0.available && q1.available && q0.quantities[0][3] === q1.quantities[0][3], 'both runs start with the same energy');
	for (const path of ['/api/frames?run=2', '/api/status?run=2', '/api/scene?run=9', '/api/quantities?run=x', '/api/contacts?frame=0&run=2']) {
		const r = await getJson(url, path);
		check(r.status === 400 && /run/.test(r.json.error), `${path}: 400 (${r.status})`);
	}
	// the editor edits one scene: not the runs of a comparison
	const edit = await fetch(new URL('/api/editor/check', url), { method: 'POST', body: '{"cairn": 1}' });
	check(edit.status === 409, `the editor with --compare: 409 (${edit.status})`);
	check((await stopViewer(viewer)) === 0, 'the comparison stops with 0');
	return { scene, runs };
}

async function testDefaults() {
	// every method that can load the scene, each once; stopped while they still run
	const viewer = await startViewer(cairn, ['--compare', fall]);
	const scene = (await getJson(viewer.url, '/api/scene')).json;
	const names = scene.runs.map((r) => r.method);
	check(names.length >= 2 && names.length <= 8 && new Set(names).size === names.length && names.includes('impulse'),
		`default: every method that loads the scene (${names.join(', ')})`);
	check((await stopViewer(viewer)) === 0, 'stopped in the middle of the runs with 0');

	const recording = join(work, 'fall.cnrec');
	run(cairn, ['run', fall, '--record', recording, '--quiet']);
	for (const args of [
		['--compare', fall, '--methods', 'impulse'],
		['--compare', fall, '--methods', 'impulse,impulse'],
		['--compare', fall, '--methods', 'impulse,nosuch'],
		['--compare', fall, '--methods', ''],
		[fall, '--methods', 'impulse,lcp'],
		['--compare', recording],
	]) {
		const r = runStatus(cairn, ['view', ...args, '--no-open']);
		check(r.status === 2 && /error/.test(r.stderr), `cairn view ${args.join(' ')}: status 2 (${r.status})`);
	}
}

async function testPage(expected) {
	const browser = await launchBrowser(src);
	try {
		const viewer = await startViewer(cairn, ['--compare', fall, '--methods', methods.join(',')]);
		const { page, problems } = await openPage(browser, viewer.url);
		await page.waitForFunction(() => window.cairnViewer.runs().every((r) => r.complete), null, { timeout: 30000 });
		const shown = await page.evaluate(() => {
			const v = window.cairnViewer;
			v.seek(50);
			return {
				frame: v.frame,
				runs: v.runs(),
				ball: [v.ghostPosition(0, 'ball'), v.ghostPosition(1, 'ball')],
				box: [v.ghostPosition(0, 'box'), v.ghostPosition(1, 'box')],
				legend: [...document.querySelectorAll('#legend .legend-run')].map((e) => e.textContent),
				plot: v.plot(),
			};
		});
		check(shown.runs.length === 2 && shown.runs[0].color !== shown.runs[1].color &&
			shown.runs.every((r) => r.ghosts === 2), `two ghost sets of 2 bodies in two colours (${JSON.stringify(shown.runs)})`);
		check(JSON.stringify(shown.legend) === JSON.stringify(methods), `a legend of the methods (${shown.legend})`);
		check(shown.plot.series.length === 2, `one energy series per method (${shown.plot.series})`);
		const ball = expected.scene.bodies.findIndex((b) => b.name === 'ball');
		const box = expected.scene.bodies.findIndex((b) => b.name === 'box');
		const at = (r, i) => expected.runs[r][shown.frame].slice(1 + 7 * i, 4 + 7 * i);
		const same = (p, q) => p && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < 1e-6;
		check([0, 1].every((r) => same(shown.ball[r], at(r, ball)) && same(shown.box[r], at(r, box))),
			'each ghost is where its own run puts it');
		await page.screenshot({ path: join(work, 'compare.png') });

		// the grid of views: key G, then the button back
		await page.keyboard.press('g');
		const grid = await page.evaluate(() => {
			const v = window.cairnViewer;
			v.render();
			return {
				on: document.getElementById('grid-views').classList.contains('on'),
				legend: getComputedStyle(document.getElementById('legend')).display === 'none',
				views: v.gridViews(),
				points: [0, 1].map((r) => ['ball', 'box'].map((name) => v.projectInGrid(r, name))),
				frame: v.frame,
			};
		});
		check(grid.on && grid.legend && grid.frame === shown.frame, `key G shows the grid, without the legend, at the same frame (${grid.frame})`);
		check(grid.views.length === 2 && grid.views.every((view, r) => view.method === methods[r] && view.label &&
			view.label.text === methods[r] && view.color === shown.runs[r].color),
		`one view per method, each labelled (${JSON.stringify(grid.views.map((view) => view.label))})`);
		const inside = (p, rect) => p.x >= rect.x && p.y >= rect.y && p.x + (p.w || 0) <= rect.x + rect.w && p.y + (p.h || 0) <= rect.y + rect.h;
		check(grid.views.every((view) => inside(view.label, view.rect)), 'each label lies in its own view');
		const [a, b] = grid.views.map((view) => view.rect);
		check(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y, `the views do not overlap (${JSON.stringify([a, b])})`);
		check(grid.points.every((pair, r) => pair.every((p) => p && p.visible && inside(p, grid.views[r].rect))),
			`every body projects into its own run's view (${JSON.stringify(grid.points)})`);
		const gridShot = await page.screenshot({ path: join(work, 'compare-grid.png') });
		const px = await pixels(page, gridShot, grid.points.flat());
		// run 0 is red (#ff6b6b), run 1 blue (#4dabf7): each view shows its own run's bodies, lit
		const red = (c) => c[0] > c[2] + 30 && c[0] > c[1] + 20;
		const blue = (c) => c[2] > c[0] + 30;
		check(red(px[0]) && red(px[1]) && blue(px[2]) && blue(px[3]),
			`each view draws its run's ball and box in the run's colour (${JSON.stringify(px)})`);
		await page.click('#grid-views');
		const back = await page.evaluate(() => ({
			on: document.getElementById('grid-views').classList.contains('on'),
			legend: getComputedStyle(document.getElementById('legend')).display !== 'none',
			cells: [...document.querySelectorAll('.grid-view')].filter((e) => !e.hidden).length,
			ghosts: window.cairnViewer.runs().map((r) => r.ghosts),
		}));
		check(!back.on && back.legend && back.cells === 0 && back.ghosts.every((n) => n === 2),
			`the button puts the overlaid ghosts back (${JSON.stringify(back)})`);
		await testPageCut(page, viewer, expected, ball, shown.runs);
		check(problems.length === 0, `no page errors (${problems.join('; ')})`);
		await page.close();
		await stopViewer(viewer);
	} finally {
		await browser.close();
	}
}

// The picked body's panel per run, sync points and a cut on the page with --compare.
async function testPageCut(page, viewer, expected, ball, runs) {
	const g = 9.81;
	// the ball falls freely from rest: at frame 30 (t = 0.5 s) its speed is g t in every run
	await page.evaluate(() => {
		window.cairnViewer.seek(30);
		window.cairnViewer.pick('ball');
	});
	await page.waitForFunction(() => {
		const info = window.cairnViewer.info();
		return info && info.runs && info.runs.length === 2 && info.runs.every((r) => r.state);
	}, null, { timeout: 15000 });
	const panel = await page.evaluate(() => ({
		info: window.cairnViewer.info(),
		rows: [...document.querySelectorAll('#info-runs tr[data-run]')].map((tr) => ({
			color: tr.style.color,
			cells: [...tr.cells].map((c) => c.textContent),
		})),
	}));
	const t = 30 / 60;
	check(panel.info.runs.every((r, k) => r.method === methods[k] && Math.abs(r.state.speed - g * t) < 1e-9 &&
		Math.abs(r.state.kinetic - 0.5 * 2 * (g * t) ** 2) < 1e-8),
	`each run's state of the ball: speed g t and 1/2 m (g t)^2 (${JSON.stringify(panel.info.runs.map((r) => r.state.speed))})`);
	// colours as the page writes them back (rgb(...)) from the runs' hex colours
	const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
	check(panel.rows.length === 2 && panel.rows.every((row, k) => row.color === rgb(runs[k].color) && row.cells[0] === methods[k] &&
		Math.abs(Number(row.cells[1]) - g * t) < 1e-4 && Math.abs(Number(row.cells[4]) - panel.info.runs[k].state.total) < 1e-4 * Math.abs(panel.info.runs[k].state.total)),
	`the panel shows a row per run in its colour with its speed and energies (${JSON.stringify(panel.rows)})`);

	// a sync point on the page is every run's
	const marks = await page.evaluate(() => window.cairnViewer.markSync(10));
	check(JSON.stringify(marks) === '[10]', `sync point marked at 10 (${marks})`);
	const lists = await Promise.all([0, 1].map(async (r) => (await getJson(viewer.url, `/api/sync?run=${r}`)).json.syncPoints));
	check(lists.every((l) => JSON.stringify(l) === '[10]'), `both runs list it (${JSON.stringify(lists)})`);
	const cutPanel = await page.evaluate(() => window.cairnViewer.cutPanel());
	check(cutPanel && cutPanel.enabled, `the cut panel is enabled with --compare (${JSON.stringify(cutPanel)})`);
	const links = await page.evaluate(() => [...document.querySelectorAll('#save-recording, #save-recording-1, #save-scene, #save-scene-1')].map((a) => a.getAttribute('href')));
	check(JSON.stringify(links) === JSON.stringify(['/api/save/recording?run=0', '/api/save/recording?run=1', '/api/save/scene?run=0', '/api/save/scene?run=1']),
		`a download per run (${links})`);

	// a cut from the page: every run goes on from its edited world
	const N = 40;
	const answer = await page.evaluate((n) => window.cairnViewer.cut(n, [{ op: 'velocity', body: 'ball', linear: [0, 0, 3] }]), N);
	check(answer && answer.cutFrame === N, `cut at ${N} (${JSON.stringify(answer)})`);
	await page.waitForFunction(() => {
		const v = window.cairnViewer;
		return v.runs().every((r) => r.complete) && v.complete && v.loadedEverywhere === v.frameCount && v.plot().complete.every(Boolean);
	}, null, { timeout: 30000 });
	const F = 50;
	const drawn = await page.evaluate((f) => {
		const v = window.cairnViewer;
		v.seek(20);
		const before = [0, 1].map((r) => v.ghostPosition(r, 'ball'));
		v.seek(f);
		const after = [0, 1].map((r) => v.ghostPosition(r, 'ball'));
		return { before, after, rows: v.plot().rows, frameCount: v.frameCount, back: v.backSync(), cuts: v.cuts() };
	}, F);
	const server = await Promise.all([0, 1].map(async (r) => (await getJson(viewer.url, `/api/frames?run=${r}&from=${F}&count=1`)).json.frames[0]));
	const at = (frame, i) => frame.slice(1 + 7 * i, 4 + 7 * i);
	const same = (p, q) => p && Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < 1e-6;
	check([0, 1].every((r) => same(drawn.after[r], at(server[r], ball)) && !same(drawn.after[r], at(expected.runs[r][F], ball))),
		`after the cut each run's ghost is at its run's new frame ${F} (${JSON.stringify(drawn.after)})`);
	// up 3 m/s from where it was at the cut: higher than before at frame 50 in both runs
	check([0, 1].every((r) => drawn.after[r][2] > expected.runs[r][F][3 + 7 * ball]), 'the edited ball is higher than before');
	check([0, 1].every((r) => same(drawn.before[r], at(expected.runs[r][20], ball))), 'before the cut the ghosts are where they were');
	check(drawn.rows.every((n) => n === drawn.frameCount), `every run's plot rows loaded again (${drawn.rows})`);
	check(drawn.back === 10 && drawn.cuts.cutFrame === N, `back one sync point from ${F} goes to 10 (${drawn.back}), the cut at ${N}`);
	await page.screenshot({ path: join(work, 'compare-cut.png') });
}

try {
	const expected = await testRuns();
	await testDefaults();
	if (process.env.CAIRN_VIEW_NO_BROWSER !== '1') await testPage(expected);
} catch (error) {
	check(false, `unexpected: ${error.stack || error}`);
}
finish('view_compare');
