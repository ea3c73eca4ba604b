// The server of `cairn view` over HTTP (Node.js built-ins only; run by run.sh):
//   node server_test.mjs CAIRN SOURCE_DIR WORK_DIR
// - a recording made by `cairn run --record` is served as it is: /api/scene describes its bodies and
//   shapes, /api/frames gives every body's pose at every frame, equal to `cairn run --csv`;
// - a scene is simulated by the server into the same frames as the recording of `cairn run`;
// - path traversal (../, %2e%2e/, ..%2f, absolute paths), bad query numbers, oversized and malformed
//   requests and other methods get 4xx answers (a JSON error where the server answers itself) and
//   never a file; clients that disconnect mid-answer and 50 concurrent clients for
//   CAIRN_VIEW_SOAK_SECONDS (default 5) leave it running;
// - the editor's requests (POST /api/editor/check, /save, /apply) answer malformed, oversized,
//   deeply nested and file-naming scenes with 4xx and the loader's message, and keep answering;
// - bad command lines give status 2, a busy port 1, and SIGINT and SIGTERM stop it with status 0.
// Under the sanitizer build the server is the sanitized tool: a leak or an error fails its exit.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';

const [cairn, src, work] = process.argv.slice(2);
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
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// --- the tool ---------------------------------------------------------------------------------

function run(args) {
	const r = spawnSync(cairn, args, { encoding: 'utf8', timeout: 120000 });
	if (r.status !== 0) {
		console.log(`cairn ${args.join(' ')}: status ${r.status}\n${r.stderr}`);
	}
	return r;
}

/** Starts `cairn view ARGS --no-open`; resolves with the process and its URL. */
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
				resolve({ child, url: new URL(m[1]), stderr: () => err, stdout: () => out });
			}
		});
		child.stderr.on('data', (d) => {
			err += d;
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`cairn view exited (${code}) before listening: ${err}`));
		});
	});
}

/** Sends a signal and resolves with the exit status (or 'timeout'). */
function stopViewer(viewer, signal) {
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
		viewer.child.kill(signal);
	});
}

// --- HTTP ---------------------------------------------------------------------------------------

/** GET a path; resolves with status, headers and the body as a Buffer. */
function get(url, path, agent) {
	return new Promise((resolve, reject) => {
		const request = http.get({ host: url.hostname, port: url.port, path, agent }, (response) => {
			const chunks = [];
			response.on('data', (c) => chunks.push(c));
			response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
			response.on('error', reject);
		});
		request.on('error', reject);
		request.setTimeout(30000, () => request.destroy(new Error(`timeout: ${path}`)));
	});
}

async function getJson(url, path) {
	const r = await get(url, path);
	return { status: r.status, json: JSON.parse(r.body.toString('utf8')) };
}

/** Writes raw bytes on a new connection and resolves with all it gets back (until closed). */
function raw(url, bytes, timeout = 15000) {
	return new Promise((resolve) => {
		const socket = net.connect(Number(url.port), url.hostname);
		const chunks = [];
		socket.on('data', (c) => chunks.push(c));
		socket.on('error', () => {});
		socket.on('close', () => {
			const text = Buffer.concat(chunks).toString('latin1');
			const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
			resolve({ status: m ? Number(m[1]) : 0, text, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
		});
		socket.setTimeout(timeout, () => socket.destroy());
		socket.write(bytes);
	});
}

const request = (url, target, extra = '') =>
	`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n${extra}\r\n`;

// --- data ---------------------------------------------------------------------------------------

/** `cairn run --csv` rows: Map "time|body" -> numbers [x, y, z, qw, qx, qy, qz]. */
function readCsv(path) {
	const rows = new Map();
	const lines = readFileSync(path, 'utf8').trim().split('\n');
	for (const line of lines.slice(1)) {
		const f = line.split(',');
		rows.set(`${f[0]}|${f[1]}`, f.slice(2, 9).map(Number));
	}
	return rows;
}

const near = (a, b) => Math.abs(a - b) <= 1e-8 * Math.max(1, Math.abs(b));

// --- tests ----------------------------------------------------------------------------------------

async function testRecording(recording, csv) {
	const viewer = await startViewer([recording]);
	const { url } = viewer;
	check(url.hostname === '127.0.0.1', `binds 127.0.0.1 by default (${url})`);

	const scene = (await getJson(url, '/api/scene')).json;
	check(scene.name === 'can_toss' && scene.source === 'recording', 'scene name and source');
	check(scene.bodies.length === 9 && scene.stride === 1 + 7 * 9, `9 bodies, stride 64 (${scene.bodies.length})`);
	check(scene.frameCount === 61 && scene.complete === true, `61 frames, complete (${scene.frameCount})`);
	const can = scene.bodies.find((b) => b.name === 'can_0');
	check(can && can.type === 'dynamic' && can.shapes[0].type === 'cylinder' && can.shapes[0].radius > 0 &&
		can.shapes[0].halfHeight > 0, 'can_0: a dynamic cylinder with its sizes');
	const ground = scene.bodies.find((b) => b.name === 'ground');
	check(ground && ground.type === 'static' && ground.shapes[0].halfExtents.length === 3, 'ground: a static box');

	// every pose of every moving body at every frame equals `cairn run --csv`
	const frames = (await getJson(url, '/api/frames?from=0&count=1000')).json;
	check(frames.count === 61 && frames.frames.length === 61, `all 61 frames at once (${frames.count})`);
	let compared = 0;
	let differing = 0;
	frames.frames.forEach((frame) => {
		scene.bodies.forEach((body, i) => {
			const want = csv.get(`${frame[0].toPrecision(9).replace(/\.?0+$/, '')}|${body.name}`) ||
				csv.get(`${Number(frame[0].toPrecision(9))}|${body.name}`);
			if (!want) return;
			compared += 1;
			const got = frame.slice(1 + 7 * i, 8 + 7 * i);
			if (!got.every((v, k) => near(v, want[k]))) differing += 1;
		});
	});
	check(compared === 61 * 7 && differing === 0, `poses equal the CSV's (${compared} compared, ${differing} differ)`);

	// frame N alone, and the binary form of the same numbers
	const n = 37;
	const one = (await getJson(url, `/api/frames?from=${n}&count=1`)).json;
	check(one.from === n && one.count === 1 && JSON.stringify(one.frames[0]) === JSON.stringify(frames.frames[n]),
		'frame 37 alone is frame 37 of all');
	const bin = await get(url, '/api/frames?from=0&count=1000&format=binary');
	check(bin.status === 200 && bin.headers['content-type'] === 'application/octet-stream', 'binary frames');
	const doubles = new Float64Array(bin.body.buffer.slice(bin.body.byteOffset, bin.body.byteOffset + bin.body.length));
	check(doubles.length === 61 * 64 && bin.headers['x-cairn-count'] === '61', `binary: 61 x 64 doubles (${doubles.length})`);
	check(frames.frames.flat().every((v, k) => v === doubles[k]), 'binary numbers equal the JSON ones exactly');
	const past = (await getJson(url, '/api/frames?from=61&count=5')).json;
	check(past.count === 0 && past.frames.length === 0, 'frames past the end: none');
	const status = (await getJson(url, '/api/status')).json;
	check(status.frameCount === 61 && status.complete === true && status.message === '', 'status');

	// the page
	const page = await get(url, '/');
	check(page.status === 200 && /text\/html/.test(page.headers['content-type']) &&
		page.body.toString().includes('vcr-play'), 'the page at /');
	check(/default-src 'self'/.test(page.headers['content-security-policy'] || ''), 'the page has a content security policy');
	const script = await get(url, '/viewer.js');
	check(script.status === 200 && /javascript/.test(script.headers['content-type']) && script.body.length > 100000,
		`the bundle at /viewer.js (${script.body.length} bytes)`);
	const head = await raw(url, `HEAD /api/scene HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
	check(head.status === 200 && head.body === '', 'HEAD answers without a body');

	await testHostile(url);
	const code = await stopViewer(viewer, 'SIGINT');
	check(code === 0, `SIGINT stops it with status 0 (${code})`);
	check(!/AddressSanitizer|runtime error|LeakSanitizer/.test(viewer.stderr()), 'no sanitizer report');
}

async function testHostile(url) {
	const passwd = /root:/;
	// path traversal, percent-encoded or not, and absolute paths: an error, never a file
	const targets = [
		'/../etc/passwd',
		'/../../../../etc/passwd',
		'/%2e%2e/etc/passwd',
		'/%2E%2E/%2E%2E/etc/passwd',
		'/..%2fetc%2fpasswd',
		'/..%2f..%2f..%2fetc%2fpasswd',
		'/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
		'/api/../../etc/passwd',
		'/index.html/../../etc/passwd',
		'/..\\..\\etc\\passwd',
		'/etc/passwd',
		'//etc/passwd',
		'/%2fetc%2fpasswd',
		`/${src.replace(/^\//, '')}/README.md`,
		'/web/index.html',
		'/viewer.js%00.html',
		'/index.html%00',
		'/api/scene/',
		'/API/SCENE',
		'/api',
		'/%',
		'/%zz',
		'/%c0%ae%c0%ae/etc/passwd',
		'http://evil.example/etc/passwd',
		'*',
	];
	for (const target of targets) {
		const r = await raw(url, request(url, target));
		check(r.status >= 400 && r.status < 500 && !passwd.test(r.text), `GET ${target}: ${r.status}`);
		if (r.status === 400 || r.status === 404) {
			let json = null;
			try {
				json = JSON.parse(r.body);
			} catch {
				// libmicrohttpd's own answers to requests it rejects before the server sees them are HTML
			}
			check(json === null || typeof json.error === 'string', `GET ${target}: a JSON error`);
		}
	}
	// bad query numbers
	const queries = ['from=-1', 'from=abc', 'from=1e3', 'from=0x10', 'from=99999999999', 'from=2147483648', 'from=',
		'count=-5', 'count=3.5', 'count=%2d1', 'count=99999999999999999999', 'format=xml', 'from=1&from=-1&count=1'];
	for (const query of queries) {
		const r = await raw(url, request(url, `/api/frames?${query}`));
		const json = (() => {
			try {
				return JSON.parse(r.body);
			} catch {
				return null;
			}
		})();
		const ok = query.startsWith('from=1&from=-1') ? r.status === 200 : r.status === 400 && json && json.error;
		check(ok, `/api/frames?${query}: ${r.status} ${r.body.slice(0, 80)}`);
	}
	// a huge count is cut to what exists; a huge (valid) from gives nothing
	const big = await raw(url, request(url, '/api/frames?from=2147483647&count=2147483647'));
	check(big.status === 200 && JSON.parse(big.body).count === 0, 'from=INT_MAX: no frames');

	// other methods, bodies, malformed and oversized requests
	const long = 'a'.repeat(100000);
	const cases = [
		['POST', `POST /api/scene HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello`],
		['PUT', `PUT /index.html HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`],
		['DELETE', `DELETE /api/scene HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`],
		['a huge body', `POST /api/frames HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\n${'x'.repeat(65536)}`],
		['a 100 kB URL', request(url, `/${long}`)],
		['a 3 kB query', request(url, `/api/frames?from=0&x=${'b'.repeat(3000)}`)],
		['a 100 kB header', request(url, '/api/status', `X-Big: ${long}\r\n`)],
		['10000 headers', request(url, '/api/status', 'X-A: b\r\n'.repeat(10000))],
		['garbage', 'GARBAGE\r\n\r\n'],
		['binary junk', '\x00\x01\x02\xff\xfe\r\n\r\n'],
		['no version', 'GET /\r\n\r\n'],
		['HTTP/9.9', `GET / HTTP/9.9\r\nHost: ${url.host}\r\n\r\n`],
		['no Host in HTTP/1.1', 'GET /api/status HTTP/1.1\r\nConnection: close\r\n\r\n'],
		['another site\'s Host (DNS rebinding)', `GET /api/scene HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`],
		['a bad chunked body', `POST / HTTP/1.1\r\nHost: ${url.host}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n`],
	];
	for (const [what, bytes] of cases) {
		// some garbage gets no answer: the server waits for the rest of a request until its timeout
		const r = await raw(url, bytes, 3000);
		// a 4xx, or the connection closed with no answer (libmicrohttpd's way with some garbage)
		check((r.status >= 400 && r.status < 500) || r.status === 0 || r.status === 505,
			`${what}: ${r.status} ${r.text.slice(0, 60).replace(/\r\n/g, ' ')}`);
	}
	const alive = await getJson(url, '/api/status');
	check(alive.status === 200 && alive.json.frameCount > 0, 'still answering after the hostile requests');
}

// Clients that read a little of a large answer and go away (or go away before reading anything).
async function testDisconnects(url, path) {
	for (let i = 0; i < 20; ++i) {
		await new Promise((resolve) => {
			const socket = net.connect(Number(url.port), url.hostname);
			let got = 0;
			socket.on('data', (c) => {
				got += c.length;
				if (got > 1000) socket.destroy();
			});
			socket.on('error', () => {});
			socket.on('close', resolve);
			socket.write(request(url, path));
			if (i % 4 === 0) socket.destroy();
			setTimeout(() => socket.destroy(), 5000);
		});
	}
	// half a request, then gone
	await new Promise((resolve) => {
		const socket = net.connect(Number(url.port), url.hostname);
		socket.on('error', () => {});
		socket.on('close', resolve);
		socket.write('GET /api/frames?from=0');
		setTimeout(() => socket.destroy(), 200);
	});
	const alive = await getJson(url, '/api/status');
	check(alive.status === 200, 'still answering after clients disconnected mid-answer');
}

// 50 clients asking for everything at once for a while.
async function testConcurrent(url, seconds) {
	const paths = ['/api/scene', '/api/status', '/api/frames?from=0&count=1000&format=binary', '/api/frames?from=3&count=7',
		'/', '/viewer.js', '/nothing', '/../etc/passwd', '/api/body?index=1&frame=3', '/api/contacts?frame=30'];
	const end = Date.now() + seconds * 1000;
	let answers = 0;
	let errors = 0;
	const clients = [];
	for (let c = 0; c < 50; ++c) {
		// half keep their connection, half open a new one per request
		const agent = new http.Agent({ keepAlive: c % 2 === 0, maxSockets: 1 });
		clients.push((async () => {
			for (let k = c; Date.now() < end; ++k) {
				try {
					const r = await get(url, paths[k % paths.length], agent);
					answers += r.status > 0 ? 1 : 0;
				} catch (error) {
					errors += 1;
					if (errors < 5) console.log(`concurrent client ${c}: ${error.message}`);
				}
			}
			agent.destroy();
		})());
	}
	await Promise.all(clients);
	check(errors === 0 && answers > 100, `50 clients for ${seconds} s: ${answers} answers, ${errors} errors`);
}

// A recording of 3009 bodies: answers of megabytes, cut off by clients that go away.
async function testLarge(recording) {
	const viewer = await startViewer([recording]);
	const { url } = viewer;
	const all = await get(url, '/api/frames?format=binary');
	const stride = 1 + 7 * 3009;
	check(all.status === 200 && all.body.length === 16 * stride * 8, `3009 bodies: 16 frames of ${stride} doubles`);
	await testDisconnects(url, '/api/frames');
	await testDisconnects(url, '/api/frames?format=binary');
	check((await stopViewer(viewer, 'SIGTERM')) === 0, 'stopped after the disconnects');
	check(!/AddressSanitizer|runtime error|LeakSanitizer/.test(viewer.stderr()), 'no sanitizer report');
}

// The editor's requests (view_scene_edit.c): a scene document in the body, checked by the loader.
async function testEditor(url) {
	const post = async (path, body, headers = {}) => {
		const r = await fetch(new URL(path, url), { method: 'POST', body, headers });
		const text = await r.text();
		let json = null;
		try {
			json = JSON.parse(text);
		} catch {
			// a saved scene is JSON too; anything else stays text
		}
		return { status: r.status, text, json, headers: r.headers };
	};
	const scene = (await get(url, '/api/save/scene')).body.toString('utf8');
	const ok = await post('/api/editor/check', scene);
	check(ok.status === 200 && ok.json.bodies.length === 9 && ok.json.poses.length === 9, `editor check of the scene: ${ok.status}`);
	const saved = await post('/api/editor/save', scene);
	check(saved.status === 200 && /attachment/.test(saved.headers.get('content-disposition')) && saved.json.cairn === 1, 'editor save: the scene as a download');
	const hostile = [
		['nothing', ''],
		['not JSON', '{{{'],
		['an array', '[1, 2]'],
		['a zero byte', '{"cairn": 1,\u0000 "bodies": []}'],
		['a wrong version', '{"cairn": 2}'],
		['an unknown key', '{"cairn": 1, "bodys": []}'],
		['10^5 nested arrays', '['.repeat(100000)],
		['a mesh file', '{"cairn": 1, "bodies": [{"name": "m", "type": "static", "shapes": [{"type": "mesh", "file": "/etc/passwd"}]}]}'],
		['a hull file, deeper', `{"cairn": 1, "bodies": [{"name": "h", "shapes": [{"type": "hull", "file": "${src}/README.md"}]}]}`],
	];
	for (const [what, body] of hostile) {
		const r = await post('/api/editor/check', body);
		check(r.status === 400 && r.json && typeof r.json.error === 'string' && !/root:|Cairn/.test(r.text), `editor check of ${what}: ${r.status} ${r.text.slice(0, 90)}`);
	}
	const loaderSays = await post('/api/editor/check', '{"cairn": 1, "bodys": []}');
	check(/^scene\.json: bodys: unknown key "bodys"/.test(loaderSays.json.error), `the loader's own message: ${loaderSays.json.error}`);
	// 5 MiB in chunks (no Content-Length to refuse it by): read to the end, then refused
	const mib = ' '.repeat(1024 * 1024);
	const chunks = `${(1024 * 1024).toString(16)}\r\n${mib}\r\n`.repeat(5);
	const large = await raw(url, `POST /api/editor/check HTTP/1.1\r\nHost: ${url.host}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`, 10000);
	check(large.status === 413, `a 5 MiB scene: ${large.status}`);
	const claimed = await raw(url, `POST /api/editor/save HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 1000000000\r\nConnection: close\r\n\r\n{`, 3000);
	check(claimed.status === 413, `a Content-Length of 1 GB: ${claimed.status}`);
	check((await get(url, '/api/editor/check')).status === 405, 'GET on the editor: 405');
	const bad = await post('/api/editor/apply', '{"cairn": 1, "bodies": [{"name": "b", "shapes": [{"type": "sphere", "radius": -1}]}]}');
	check(bad.status === 400 && /radius: must be > 0/.test(bad.json.error), `a refused apply: ${bad.text.slice(0, 90)}`);
	const status = await getJson(url, '/api/status');
	check(status.status === 200 && status.json.frameCount > 0, 'still answering after the editor\'s hostile requests');
}

async function testScene(recordingFrames) {
	// the server simulates the scene: the same frames as `cairn run --record`
	const viewer = await startViewer([join(src, 'scenes', 'can_toss.json')]);
	const { url } = viewer;
	const scene = (await getJson(url, '/api/scene')).json;
	check(scene.source === 'scene' && scene.bodies.length === 9, 'a scene: simulated here, 9 bodies');
	let status = scene;
	for (let i = 0; i < 600 && !status.complete; ++i) {
		await sleep(100);
		status = (await getJson(url, '/api/status')).json;
	}
	check(status.complete && status.message === '' && status.frameCount === 121,
		`the simulation ends with 121 frames (${status.frameCount}, "${status.message}")`);
	const frames = (await getJson(url, '/api/frames?from=0&count=61')).json.frames;
	const same = frames.length === 61 && frames.every((f, k) => f.every((v, j) => near(v, recordingFrames[k][j])));
	check(same, 'the simulated frames equal the recording of `cairn run` (its first second)');
	// a body's state at a frame; bad bodies and frames are 400s with a JSON error, never a crash
	const dynamic = scene.bodies.findIndex((b) => b.type === 'dynamic');
	const body = (await getJson(url, `/api/body?index=${dynamic}&frame=60`)).json;
	check(body.available === true && body.index === dynamic && body.frame === 60 && body.mass > 0 && body.kinetic >= 0 &&
		Math.abs(body.total - body.kinetic - body.potential) < 1e-9 * Math.max(1, Math.abs(body.total)),
	`/api/body?index=${dynamic}&frame=60: ${JSON.stringify(body).slice(0, 120)}`);
	for (const query of ['', 'index=1', 'frame=1', 'index=9&frame=1', 'index=-1&frame=1', 'index=1&frame=121',
		'index=1&frame=2147483647', 'index=2147483648&frame=1', 'index=1&frame=1e2', 'index=%2d1&frame=1', 'index=1&frame=',
		'index=abc&frame=1', `index=${'9'.repeat(40)}&frame=1`]) {
		const r = await getJson(url, `/api/body?${query}`);
		check(r.status === 400 && r.json && typeof r.json.error === 'string', `/api/body?${query}: ${r.status}`);
	}
	await testEditor(url);
	const seconds = Number(process.env.CAIRN_VIEW_SOAK_SECONDS || 5);
	await testConcurrent(url, seconds);
	const code = await stopViewer(viewer, 'SIGTERM');
	check(code === 0, `SIGTERM stops it with status 0 (${code})`);
	check(!/AddressSanitizer|runtime error|LeakSanitizer/.test(viewer.stderr()), 'no sanitizer report');

	// stopped while it simulates: the step is cancelled and the thread joined at once
	const busy = await startViewer([join(src, 'scenes', 'pyramid.json')]);
	await sleep(300);
	const early = (await getJson(busy.url, '/api/status')).json;
	const started = Date.now();
	const busyCode = await stopViewer(busy, 'SIGINT');
	check(busyCode === 0 && Date.now() - started < 10000,
		`stopped while simulating (${early.frameCount} frames, complete ${early.complete}): status ${busyCode}`);
}

async function testCommandLine(recording) {
	const status = (args) => spawnSync(cairn, ['view', ...args], { encoding: 'utf8', timeout: 30000 });
	const none = status([]);
	check(none.status === 2 && /cairn: error: view needs/.test(none.stderr), 'no file: status 2');
	const missing = status([join(work, 'missing.cnrec'), '--no-open']);
	check(missing.status === 2 && /cairn: error:/.test(missing.stderr), 'a missing file: status 2');
	const bad = status([join(src, 'README.md'), '--no-open']);
	check(bad.status === 2, 'a file that is neither scene nor recording: status 2');
	const port = status([recording, '--port', '70000']);
	check(port.status === 2 && /--port/.test(port.stderr), '--port 70000: status 2');
	const host = status([recording, '--host', 'not-an-address', '--no-open']);
	check(host.status === 2 && /--host/.test(host.stderr), '--host not-an-address: status 2');
	const help = status(['--help']);
	check(help.status === 0 && /--no-open/.test(help.stdout), '--help');
	// a port in use: the second server cannot listen
	const first = await startViewer([recording]);
	const second = status([recording, '--port', first.url.port, '--no-open']);
	check(second.status === 1 && /cannot listen/.test(second.stderr), `a busy port: status 1 (${second.status})`);
	// another loopback address is allowed with a warning; the page names it in the URL
	const other = await startViewer([recording, '--host', '127.0.0.2']);
	check(other.url.hostname === '127.0.0.2' && /warning/.test(other.stderr()) === false,
		'--host 127.0.0.2 (loopback): no warning');
	const answer = await getJson(other.url, '/api/status');
	check(answer.status === 200, 'answers on 127.0.0.2');
	check((await stopViewer(other, 'SIGTERM')) === 0, 'stopped');
	check((await stopViewer(first, 'SIGTERM')) === 0, 'stopped');
}

const recording = join(work, 'toss.cnrec');
const csvPath = join(work, 'toss.csv');
run(['run', join(src, 'scenes', 'can_toss.json'), '--duration', '1', '--record', recording, '--csv', csvPath, '--quiet']);
const csv = readCsv(csvPath);

try {
	await testRecording(recording, csv);
	// the recording's frames, for the scene simulated by the server
	const viewer = await startViewer([recording]);
	const recordingFrames = (await getJson(viewer.url, '/api/frames?from=0&count=61')).json.frames;
	const applied = await fetch(new URL('/api/editor/apply', viewer.url), { method: 'POST', body: '{"cairn": 1}' });
	check(applied.status === 409, `a recording is not replaced by an applied scene: ${applied.status}`);
	await stopViewer(viewer, 'SIGTERM');
	await testScene(recordingFrames);
	const fall = join(work, 'fall.cnrec');
	run(['run', join(src, 'scenes', 'fall3000.json'), '--duration', '0.25', '--record', fall, '--quiet']);
	await testLarge(fall);
	await testCommandLine(recording);
} catch (error) {
	failed += 1;
	console.log(`FAIL: ${error.stack}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
