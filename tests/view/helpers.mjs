// What the viewer's layer-3 tests (overlays_test.mjs, compare_test.mjs) share: checks, the tool,
// the server over HTTP, CSV rows and Debian's Chromium (the same ways as server_test.mjs and
// browser_test.mjs start and read them).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
// servers still running when the test ends, whatever way it ends
const children = new Set();
process.on('exit', () => {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Counts a check; prints what failed. */
export function check(ok, what) {
	if (ok) {
		passed += 1;
	} else {
		failed += 1;
		console.log(`FAIL: ${what}`);
	}
}

/** Prints the counts and exits 1 when a check failed. */
export function finish(name) {
	console.log(`${name}: ${passed} passed, ${failed} failed`);
	process.exit(failed > 0 ? 1 : 0);
}

/** Runs the tool; throws with its errors when it fails. */
export function run(cairn, args) {
	const r = spawnSync(cairn, args, { encoding: 'utf8', timeout: 120000 });
	if (r.status !== 0) throw new Error(`cairn ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
	return r;
}

/** Runs the tool and gives its status and output, whatever it is. */
export function runStatus(cairn, args) {
	return spawnSync(cairn, args, { encoding: 'utf8', timeout: 60000 });
}

/** Starts `cairn view ARGS --no-open`; resolves with the process and its URL. */
export function startViewer(cairn, args) {
	return new Promise((resolve, reject) => {
		const child = spawn(cairn, ['view', ...args, '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
		children.add(child);
		let out = '';
		let err = '';
		const timer = setTimeout(() => reject(new Error(`no URL within 60 s: ${out} ${err}`)), 60000);
		child.stderr.on('data', (d) => {
			err += d;
		});
		child.stdout.on('data', (d) => {
			out += d;
			const m = /^viewer: (http:\/\/\S+\/)$/m.exec(out);
			if (m) {
				clearTimeout(timer);
				resolve({ child, url: new URL(m[1]), stderr: () => err });
			}
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`cairn view exited (${code}) before listening: ${err}`));
		});
	});
}

/** SIGTERM; resolves with the exit status (0 expected; under ASan a leak makes it fail). */
export function stopViewer(viewer) {
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			viewer.child.kill('SIGKILL');
			resolve('timeout');
		}, 30000);
		viewer.child.removeAllListeners('exit');
		viewer.child.on('exit', (code, sig) => {
			clearTimeout(timer);
			resolve(code === null ? sig : code);
		});
		viewer.child.kill('SIGTERM');
	});
}

/** GET path as JSON: resolves with the status and the parsed body. */
export function getJson(url, path) {
	return new Promise((resolve, reject) => {
		const request = http.get({ host: url.hostname, port: url.port, path }, (response) => {
			const chunks = [];
			response.on('data', (c) => chunks.push(c));
			response.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				try {
					resolve({ status: response.statusCode, json: JSON.parse(text) });
				} catch {
					resolve({ status: response.statusCode, json: null, text });
				}
			});
			response.on('error', reject);
		});
		request.on('error', reject);
		request.setTimeout(30000, () => request.destroy(new Error(`timeout: ${path}`)));
	});
}

/** Waits until the server has simulated the whole scene (of run `run`). */
export async function waitComplete(url, run = 0) {
	for (let i = 0; i < 600; ++i) {
		const s = (await getJson(url, `/api/status?run=${run}`)).json;
		if (s.complete) return s;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	throw new Error('the simulation did not end within 60 s');
}

/** `cairn run --csv` rows: Map "time|body" -> [x, y, z, qw, qx, qy, qz]. */
export function readCsv(path) {
	const rows = new Map();
	for (const line of readFileSync(path, 'utf8').trim().split('\n').slice(1)) {
		const f = line.split(',');
		rows.set(`${f[0]}|${f[1]}`, f.slice(2, 9).map(Number));
	}
	return rows;
}

/** A frame time as the CSV writes it (9 significant digits). */
export const csvTime = (t) => `${Number(t.toPrecision(9))}`;

/** Equal to the CSV's 9 significant digits. */
export const near = (a, b) => Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(b));

/** Debian's Chromium through playwright-core, as browser_test.mjs starts it (software WebGL). */
export async function launchBrowser(src) {
	const require = createRequire(join(src, 'web', 'package.json'));
	const { chromium } = require('playwright-core');
	return chromium.launch({
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
			'--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
			'--disable-dev-shm-usage'],
	});
}

/** Opens the viewer and waits until every frame is loaded; problems collects the page's errors. */
export async function openPage(browser, url) {
	const page = await browser.newPage({ viewport: { width: 960, height: 700 } });
	const problems = [];
	page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
	});
	await page.goto(url.href);
	await page.waitForFunction(() => window.cairnViewer && (window.cairnViewer.ready === false ||
		(window.cairnViewer.complete && window.cairnViewer.loadedFrames === window.cairnViewer.frameCount)), null,
	{ timeout: 60000 });
	const ready = await page.evaluate(() => window.cairnViewer.ready);
	check(ready === true, `the page loads (${await page.evaluate(() => window.cairnViewer.error)})`);
	return { page, problems };
}
