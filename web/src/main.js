// The page of `cairn view`: loads the scene and its frames from the server and plays them with
// AERO's video recorder controls (to start, back one frame, play/stop, forward one frame, to end),
// a timeline to scrub, speed and loop; a click on a body shows its name, position and velocity.
import { Quaternion, Raycaster, Sphere, Vector2, Vector3 } from 'three';
import { getJson } from './api.js';
import { Compare, RUN_COLORS } from './compare.js';
import { EditPanel } from './edit.js';
import { Editor } from './editor/editor.js';
import { FrameStore } from './frames.js';
import { History } from './history.js';
import { JointView } from './joints.js';
import { Overlays } from './overlays.js';
import { EnergyPlot } from './plot.js';
import { Player } from './player.js';
import { makeBodies, shapeReach } from './shapes.js';
import { Stage } from './stage.js';

const $ = (id) => document.getElementById(id);
// sessionStorage key of the state kept across the reload after a cut that changes the bodies
const RELOAD_STATE = 'cairn-view-reload-state';

// Where the bodies are at frame 0 (planes left out): what the camera and shadows are fitted to.
function sceneBounds(scene, first) {
	const points = [];
	scene.bodies.forEach((body, i) => {
		const p = first ? [first[1 + 7 * i], first[2 + 7 * i], first[3 + 7 * i]] : [0, 0, 0];
		let reach = 0;
		for (const shape of body.shapes) reach = Math.max(reach, shapeReach(shape));
		if (reach > 0) points.push({ p: new Vector3(...p), reach });
	});
	if (points.length === 0) return new Sphere(new Vector3(0, 0, 0), 2);
	const min = new Vector3(Infinity, Infinity, Infinity);
	const max = new Vector3(-Infinity, -Infinity, -Infinity);
	for (const { p, reach } of points) {
		min.min(p.clone().subScalar(reach));
		max.max(p.clone().addScalar(reach));
	}
	const center = min.clone().add(max).multiplyScalar(0.5);
	// the largest static body (the ground) would dwarf the moving ones: bound those that move, and
	// the ground only as far as they need
	const moving = points.filter((_, k) => scene.bodies[k] && scene.bodies[k].type !== 'static');
	let radius = min.distanceTo(max) / 2;
	if (moving.length > 0) {
		const mmin = new Vector3(Infinity, Infinity, Infinity);
		const mmax = new Vector3(-Infinity, -Infinity, -Infinity);
		for (const { p, reach } of moving) {
			mmin.min(p.clone().subScalar(reach));
			mmax.max(p.clone().addScalar(reach));
		}
		const mcenter = mmin.clone().add(mmax).multiplyScalar(0.5);
		const mradius = mmin.distanceTo(mmax) / 2;
		if (mradius < radius / 3) {
			return new Sphere(mcenter, Math.max(mradius * 1.8, 0.2));
		}
	}
	return new Sphere(center, radius);
}

// The height of the ground grid: an upward plane's, else 0 (the top of the shipped scenes' grounds).
function groundHeight(scene) {
	for (const body of scene.bodies) {
		for (const shape of body.shapes) {
			if (shape.type === 'plane' && shape.normal[2] > 0.99) return shape.offset / shape.normal[2];
		}
	}
	return 0;
}

function format(x) {
	return (Math.abs(x) < 5e-10 ? 0 : x).toFixed(3);
}

async function start() {
	const scene = await getJson('/api/scene');
	document.title = `${scene.name || 'scene'} - Cairn viewer`;
	$('name').textContent = scene.name || '(unnamed scene)';
	const store = new FrameStore(scene.stride, scene.frameCount, scene.complete);
	store.message = scene.message || '';
	const loading = store.run();

	// polygons exist only in planar (FOSSSim) worlds, whose plane is xy with y up
	const planar = scene.bodies.some((body) => body.shapes.some((shape) => shape.type === 'polygon'));
	const stage = new Stage($('view'), planar);
	// frame 0 places the camera; wait for it briefly (a scene's first frame comes at once)
	for (let i = 0; i < 250 && store.loaded === 0 && (store.frameCount > 0 || !store.complete); ++i) {
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	const bounds = sceneBounds(scene, store.frame(0));
	const bodies = makeBodies(scene, Math.max(200, 20 * bounds.radius));
	for (const group of bodies) stage.scene.add(group);
	stage.frame(bounds, groundHeight(scene));
	// joints as AERO drew them, the runs of --compare as ghosts, trails, contacts, the mounted camera
	const joints = new JointView(scene, store.frame(0), 2 * bounds.radius);
	stage.scene.add(joints.group);
	const runs = scene.runs && scene.runs.length > 1 ? scene.runs : [{ method: scene.runs ? scene.runs[0].method : '' }];
	const compare = runs.length > 1 ? new Compare(scene, stage, store, bodies) : null;
	const overlays = new Overlays(stage, scene, store, bounds.radius, () => picked);

	const byName = new Map();
	scene.bodies.forEach((body, i) => {
		if (!byName.has(body.name)) byName.set(body.name, i);
	});

	// places every body (and joint) at a frame
	let shown = -1;
	// bodies the tests hid through setBodyVisible
	const hiddenByHook = new Set();
	function show(index) {
		const f = store.frame(index);
		if (!f) return false;
		for (let i = 0; i < bodies.length; ++i) {
			const o = 1 + 7 * i;
			// a body that does not exist at this frame (created later or deleted: recording format
			// version 6, or a cut) comes with a zero quaternion and is not drawn
			const absent = f[o + 3] === 0 && f[o + 4] === 0 && f[o + 5] === 0 && f[o + 6] === 0;
			bodies[i].visible = !absent && !hiddenByHook.has(i);
			if (absent) continue;
			bodies[i].position.set(f[o], f[o + 1], f[o + 2]);
			bodies[i].quaternion.set(f[o + 4], f[o + 5], f[o + 6], f[o + 3]);
		}
		joints.update(f);
		shown = index;
		if (compare) compare.show(index);
		overlays.show(index);
		plot.setTime(f[0]);
		stage.invalidate();
		return true;
	}

	// the body picked with a click, and its state at the frame shown
	let picked = -1;
	const info = $('info');
	function velocity(body, index) {
		// central differences of the positions (one-sided at the ends)
		const lo = Math.max(0, index - 1);
		const hi = Math.min(store.loaded - 1, index + 1);
		const a = store.frame(lo);
		const b = store.frame(hi);
		if (!a || !b || hi === lo || b[0] === a[0]) return [0, 0, 0];
		const o = 1 + 7 * body;
		const dt = b[0] - a[0];
		return [(b[o] - a[o]) / dt, (b[o + 1] - a[o + 1]) / dt, (b[o + 2] - a[o + 2]) / dt];
	}
	// a scene's bodies: velocities and energies as the simulation had them at each frame
	// (/api/body), fetched once per run, body and frame
	const bodyStates = new Map();
	let infoRows = {};
	let infoState = null;
	let infoRuns = [];
	async function bodyState(body, index, run = 0) {
		const key = `${run}:${body}:${index}`;
		if (!bodyStates.has(key)) {
			let state = null;
			try {
				state = await getJson(`/api/body?index=${body}&frame=${index}${run > 0 ? `&run=${run}` : ''}`);
			} catch {
				return null;
			}
			if (bodyStates.size > 4096) bodyStates.clear();
			bodyStates.set(key, state);
		}
		return bodyStates.get(key);
	}
	function energy(x) {
		return `${Math.abs(x) < 5e-10 ? '0' : x.toPrecision(6)} J`;
	}
	function showInfo() {
		if (picked < 0) {
			info.hidden = true;
			infoRows = {};
			infoState = null;
			infoRuns = [];
			return;
		}
		const body = scene.bodies[picked];
		const p = bodies[picked].position;
		const rows = [['position', `${format(p.x)}  ${format(p.y)}  ${format(p.z)} m`]];
		const state = bodyStates.get(`0:${picked}:${shown}`);
		if (scene.source !== 'scene') {
			// a recording holds poses only: the origin's velocity by differences, no energy
			const v = velocity(picked, shown);
			rows.push(['velocity', `${format(v[0])}  ${format(v[1])}  ${format(v[2])} m/s`]);
			rows.push(['speed', `${format(Math.hypot(...v))} m/s`]);
			rows.push(['energy', 'not available for recordings']);
		} else if (state && state.available) {
			const v = state.velocity;
			const w = state.angularVelocity;
			rows.push(['velocity', `${format(v[0])}  ${format(v[1])}  ${format(v[2])} m/s`]);
			rows.push(['speed', `${format(state.speed)} m/s`]);
			rows.push(['angular velocity', `${format(w[0])}  ${format(w[1])}  ${format(w[2])} rad/s`]);
			if (body.type === 'dynamic') {
				rows.push(['mass', `${state.mass.toPrecision(6)} kg`]);
				rows.push(['kinetic energy', energy(state.kinetic)]);
				rows.push(['  translational', energy(state.translational)]);
				rows.push(['  rotational', energy(state.rotational)]);
				rows.push(['potential energy', energy(state.potential)]);
				rows.push(['total energy', energy(state.total)]);
				const l = state.angularMomentum;
				const o = state.angularMomentumOrigin;
				rows.push(['L about centre of mass', `${format(l[0])}  ${format(l[1])}  ${format(l[2])} kg m²/s`]);
				rows.push(['L about origin', `${format(o[0])}  ${format(o[1])}  ${format(o[2])} kg m²/s`]);
			}
		} else if (state) {
			rows.push(['energy', state.reason || 'not available']);
		} else {
			rows.push(['velocity', '...']);
			const which = picked;
			const index = shown;
			bodyState(which, index).then((answer) => {
				if (answer && which === picked && index === shown) showInfo();
			});
		}
		infoRows = Object.fromEntries(rows);
		infoState = state && state.available ? state : null;
		// with --compare, the rows above are the first run's; a table gives every run's in its colour
		const runRows = compare ? runStates(body) : null;
		info.hidden = false;
		info.innerHTML = '';
		const title = document.createElement('b');
		title.textContent = body.name || `body ${picked}`;
		info.append(title, document.createTextNode(` (${body.type}, ${body.shapes.map((s) => s.type).join(', ')})`));
		const table = document.createElement('table');
		for (const [label, value] of rows) {
			const tr = table.insertRow();
			tr.insertCell().textContent = label;
			tr.insertCell().textContent = value;
		}
		info.append(table);
		if (runRows) info.append(runRows);
	}
	// the picked body's velocity and energies in every run of --compare, one row per method in its
	// colour (the runs part ways, so each has its own); asks the server for those not known yet
	function runStates(body) {
		const which = picked;
		const index = shown;
		const table = document.createElement('table');
		table.id = 'info-runs';
		const head = table.insertRow();
		const dynamic = body.type === 'dynamic';
		for (const label of dynamic ? ['method', 'speed m/s', 'kinetic J', 'potential J', 'total J'] : ['method', 'speed m/s']) {
			const th = document.createElement('th');
			th.textContent = label;
			th.style.cssText = 'text-align:left;font-weight:600;padding-right:8px';
			head.append(th);
		}
		let waiting = false;
		infoRuns = runs.map((run, r) => {
			const state = bodyStates.get(`${r}:${which}:${index}`);
			const tr = table.insertRow();
			tr.dataset.run = String(r);
			tr.style.color = RUN_COLORS[r % RUN_COLORS.length];
			tr.insertCell().textContent = run.method;
			if (state === undefined) {
				waiting = true;
				tr.insertCell().textContent = '...';
				bodyState(which, index, r).then((answer) => {
					if (answer && which === picked && index === shown) showInfo();
				});
				return { method: run.method, state: null };
			}
			const number = (x) => (Math.abs(x) < 5e-10 ? '0' : x.toPrecision(6));
			if (state.available) {
				tr.insertCell().textContent = number(state.speed);
				if (dynamic) for (const x of [state.kinetic, state.potential, state.total]) tr.insertCell().textContent = number(x);
			} else {
				tr.insertCell().textContent = state.reason || 'not available';
			}
			return { method: run.method, state: state.available ? state : null };
		});
		table.dataset.complete = waiting ? 'false' : 'true';
		return table;
	}
	function highlight(index, on) {
		stage.invalidate();
		if (index < 0) return;
		bodies[index].traverse((o) => {
			if (o.material && o.material.emissive) o.material.emissive.setHex(on ? 0x553300 : 0x000000);
		});
	}

	const plot = new EnergyPlot(
		scene,
		runs.map((run, i) => ({ method: run.method, color: RUN_COLORS[i % RUN_COLORS.length] })),
		(t) => player.seek(Math.round(t * scene.fps)),
	);
	const player = new Player(store, scene.fps, (index) => {
		if (index !== shown && show(index)) {
			showInfo();
			if (edit) edit.refresh();
		}
	});

	// sync points and cuts (history.js, edit.js); with --compare the runs share the one timeline, and
	// the server marks and cuts every run at once
	const history = new History(player, store);
	let edit = null;
	// after a cut at frame N the server made the frames from N on again: load them anew
	function afterCut(frame, answer) {
		// a cut that added bodies (or dropped the cut that had) changes the bodies the frames hold:
		// the page loads again, at the cut frame (a deleted body is only absent from the frames)
		if (answer.bodySet !== undefined && answer.bodySet !== scene.bodySet) {
			// the page's state comes back after the reload: the picked and the mounted body (by name),
			// the camera, and the cut panel left open
			const name = (i) => (i >= 0 && i < scene.bodies.length ? scene.bodies[i].name : null);
			const c = stage.camera.position;
			const t = stage.controls.target;
			try {
				sessionStorage.setItem(RELOAD_STATE, JSON.stringify({
					picked: name(picked),
					riding: name(overlays.riding),
					camera: [c.x, c.y, c.z],
					target: [t.x, t.y, t.z],
					panelOpen: edit ? edit.panel.open : false,
				}));
			} catch {
				// (no session storage: the page comes back at the cut frame only)
			}
			location.hash = `frame=${frame}`;
			location.reload();
			return;
		}
		player.setPlaying(false);
		store.invalidate(frame);
		// every run of --compare was cut at the frame
		if (compare) compare.invalidate(frame);
		overlays.contactCache.clear();
		bodyStates.clear();
		for (const trail of overlays.trails || []) trail.filled = Math.min(trail.filled, frame);
		if (plot.available) {
			const wasDone = plot.complete.every(Boolean);
			plot.rows.forEach((rows, r) => {
				rows.length = Math.min(rows.length, frame);
				plot.complete[r] = false;
			});
			if (wasDone) plot.poll();
		}
		history.update(answer);
		shown = -1;
		player.position = frame;
		player.update();
	}
	if (history) {
		edit = new EditPanel(scene, () => picked, () => Math.max(0, shown), (i) => {
			const p = bodies[i].position;
			return [p.x, p.y, p.z];
		}, afterCut, (i) => {
			const o = bodies[i].quaternion;
			return [o.w, o.x, o.y, o.z];
		});
		// with --compare: a recording to save per run, and the scene (the first run's world at the cut)
		if (compare) edit.setRuns(runs.map((run, r) => ({ method: run.method, color: RUN_COLORS[r % RUN_COLORS.length] })));
	}

	// a click (not a drag of the camera) picks the body under the pointer
	const raycaster = new Raycaster();
	const canvas = stage.renderer.domElement;
	let down = null;
	canvas.addEventListener('pointerdown', (e) => {
		down = { x: e.clientX, y: e.clientY };
	});
	canvas.addEventListener('pointerup', (e) => {
		if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return;
		const rect = canvas.getBoundingClientRect();
		const ndc = new Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
		raycaster.setFromCamera(ndc, stage.camera);
		const hit = raycaster.intersectObjects(bodies, true)[0];
		highlight(picked, false);
		picked = hit ? hit.object.userData.body : -1;
		highlight(picked, true);
		showInfo();
		if (edit) edit.refresh();
	});

	// status line: frames, and whether the server still simulates
	const status = $('status');
	function showStatus() {
		const what = scene.source === 'scene' ? 'simulated here' : 'recording';
		let text = `${what}, ${store.frameCount} frames at ${scene.fps} fps`;
		if (store.loaded < store.frameCount) text += `, ${store.loaded} loaded`;
		if (scene.source === 'scene' && !store.complete) text += ', simulating...';
		if (store.message) text += ` - ${store.message}`;
		if (store.error) text += ` - ${store.error.message}`;
		status.textContent = text;
		status.classList.toggle('error', Boolean(store.error) || Boolean(store.message && store.complete));
	}
	store.onChange(() => {
		showStatus();
		player.framesChanged();
		if (history) history.drawTicks();
	});
	showStatus();
	player.framesChanged();

	// the scene editor's four views and object window (editor/): a button and key V toggle them
	// over the player's single view; only a scene simulated here can be edited
	const editor = compare ? null : new Editor(document.body, () => shown);
	const fourViews = document.createElement('button');
	fourViews.id = 'four-views';
	fourViews.title = 'the editor: four views and the object window (V); again for the player';
	fourViews.innerHTML = '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z"/></svg>';
	fourViews.disabled = !editor || scene.source !== 'scene';
	$('loop').parentElement.after(fourViews);
	let editorBarBottom = '';
	function toggleEditor(on = !editor.isOpen) {
		if (!editor) return Promise.resolve(false);
		fourViews.classList.toggle('on', on);
		$('title').hidden = on;
		// the editor takes the plot's room too; the bar stays under it
		const plotBox = $('plot');
		if (plotBox) plotBox.style.display = on ? 'none' : '';
		if (on) editorBarBottom = $('bar').style.bottom;
		$('bar').style.bottom = on ? '0px' : editorBarBottom;
		if (on) {
			player.setPlaying(false);
			info.hidden = true;
			return editor.open().then(() => true);
		}
		editor.close();
		showInfo();
		stage.invalidate();
		return Promise.resolve(false);
	}
	fourViews.addEventListener('click', () => toggleEditor());

	// with --compare, a button and key G toggle between the overlaid ghosts and a grid of views, one
	// per method (compare.js); without it there is one run and nothing to lay out
	const gridViews = document.createElement('button');
	gridViews.id = 'grid-views';
	gridViews.title = 'the methods in a grid of views, one per method (G); again for the overlaid ghosts';
	gridViews.innerHTML = '<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M1 3h4v4H1zM6 3h4v4H6zM11 3h4v4h-4zM1 9h4v4H1zM6 9h4v4H6zM11 9h4v4h-4z"/></svg>';
	gridViews.disabled = !compare;
	fourViews.after(gridViews);
	function toggleGrid(on = !(compare && compare.grid)) {
		if (!compare) return false;
		gridViews.classList.toggle('on', Boolean(on));
		return compare.setGrid(on);
	}
	gridViews.addEventListener('click', () => toggleGrid());

	window.addEventListener('keydown', (e) => {
		if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
		if (e.key === 'v' && !e.ctrlKey && !e.metaKey && !e.altKey && !fourViews.disabled) {
			e.preventDefault();
			toggleEditor();
		}
		if (e.key === 'g' && !e.ctrlKey && !e.metaKey && !e.altKey && !gridViews.disabled) {
			e.preventDefault();
			toggleGrid();
		}
	});

	// the state a cut that changed the bodies kept for the reload (afterCut): the picked body and the
	// mounted camera's body, by name, where they still exist; the camera; the cut panel open
	function restoreState() {
		let state = null;
		try {
			state = JSON.parse(sessionStorage.getItem(RELOAD_STATE) || 'null');
			sessionStorage.removeItem(RELOAD_STATE);
		} catch {
			state = null;
		}
		if (!state || typeof state !== 'object') return;
		const finite = (v) => Array.isArray(v) && v.length === 3 && v.every(Number.isFinite);
		if (finite(state.camera) && finite(state.target)) {
			stage.camera.position.set(...state.camera);
			stage.controls.target.set(...state.target);
			stage.controls.update();
		}
		if (typeof state.riding === 'string' && byName.has(state.riding)) overlays.ride(byName.get(state.riding));
		if (typeof state.picked === 'string' && byName.has(state.picked)) {
			highlight(picked, false);
			picked = byName.get(state.picked);
			highlight(picked, true);
			showInfo();
		}
		if (edit) {
			if (state.panelOpen) edit.panel.open = true;
			edit.refresh();
		}
		stage.invalidate();
	}

	// #frame=N (set by a cut that changed the bodies): show that frame once it is loaded
	const startAt = /^#frame=(\d+)$/.exec(location.hash);
	if (startAt) {
		const frame = Number(startAt[1]);
		window.history.replaceState(null, '', location.pathname + location.search);
		player.setPlaying(false);
		for (let i = 0; i < 500 && store.loaded <= frame && !(store.complete && store.loaded >= store.frameCount); ++i) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		player.seek(Math.min(frame, Math.max(0, store.loaded - 1)));
		restoreState();
	}

	function loop() {
		player.tick(performance.now());
		stage.renderIfNeeded();
		requestAnimationFrame(loop);
	}
	requestAnimationFrame(loop);

	// the hook the browser tests use (tests/view/browser_test.mjs)
	const q = new Quaternion();
	window.cairnViewer = {
		ready: true,
		get frame() {
			return shown;
		},
		get frameCount() {
			return store.frameCount;
		},
		get loadedFrames() {
			return store.loaded;
		},
		get complete() {
			return store.complete;
		},
		get playing() {
			return player.playing;
		},
		bodyNames: () => scene.bodies.map((b) => b.name),
		/** The drawn position of a body (its origin), [x, y, z], or null for an unknown name. */
		bodyPosition(name) {
			const i = byName.get(name);
			if (i === undefined) return null;
			const p = bodies[i].position;
			return [p.x, p.y, p.z];
		},
		/** The drawn orientation of a body, [w, x, y, z]. */
		bodyOrientation(name) {
			const i = byName.get(name);
			if (i === undefined) return null;
			q.copy(bodies[i].quaternion);
			return [q.w, q.x, q.y, q.z];
		},
		/** Where a body's origin is drawn, in CSS pixels of the page, and whether it is in view. */
		project(name) {
			const i = byName.get(name);
			if (i === undefined) return null;
			const p = bodies[i].position.clone().project(stage.camera);
			const rect = canvas.getBoundingClientRect();
			return {
				x: rect.left + ((p.x + 1) / 2) * rect.width,
				y: rect.top + ((1 - p.y) / 2) * rect.height,
				visible: p.z > -1 && p.z < 1 && Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1,
			};
		},
		setBodyVisible(name, visible) {
			const i = byName.get(name);
			if (i !== undefined) {
				if (visible) hiddenByHook.delete(i);
				else hiddenByHook.add(i);
				show(shown);
			}
			stage.render();
		},
		/** Whether a body is drawn at the frame shown (false where it does not exist). */
		bodyDrawn(name) {
			const i = byName.get(name);
			return i === undefined ? null : bodies[i].visible;
		},
		time: (index) => store.time(index),
		seek: (index) => player.seek(index),
		pick(name) {
			highlight(picked, false);
			picked = byName.has(name) ? byName.get(name) : -1;
			highlight(picked, true);
			showInfo();
			if (edit) edit.refresh();
		},
		render: () => stage.render(),
		/** The picked body's panel: its rows as shown ({label: text}) and the server's numbers (null for a recording or while loading). */
		info: () =>
			picked < 0 || info.hidden
				? null
				: { name: scene.bodies[picked].name, frame: shown, rows: { ...infoRows }, state: infoState, runs: compare ? infoRuns.map((r) => ({ ...r })) : null },
		loading,
		/** The joints' pieces as drawn at the frame shown (joints.js). */
		joints: () => joints.describe(),
		/** The energy plot: whether it has data, its series, rows loaded, the cursor (plot.js). */
		plot: () => plot.describe(),
		quantities: (run = 0) => plot.quantities(run),
		setTrails: (on) => overlays.setTrails(on),
		setContacts: (on) => overlays.setContacts(on),
		trail: (name) => overlays.trail(byName.has(name) ? byName.get(name) : -1),
		/** The camera: its position, the point it orbits, the body it is mounted on (a name, or null). */
		camera: () => {
			const c = stage.camera.position;
			const t = stage.controls.target;
			const r = overlays.riding;
			return { position: [c.x, c.y, c.z], target: [t.x, t.y, t.z], riding: r >= 0 ? scene.bodies[r].name : null };
		},
		/** Places the camera at position, looking at target (a free camera stays free, a mounted one keeps its body). */
		setCamera(position, target) {
			stage.camera.position.set(...position);
			stage.controls.target.set(...target);
			stage.controls.update();
			stage.render();
		},
		/** The picked body's name (null: none). */
		picked: () => (picked >= 0 ? scene.bodies[picked].name : null),
		/** Mounts the camera on the body of that name (null: a free camera). */
		ride: (name) => overlays.ride(name !== null && byName.has(name) ? byName.get(name) : -1),
		overlays: () => overlays.describe(),
		/** With --compare: per run its method, colour, frames loaded and ghosts shown (compare.js). */
		runs: () => (compare ? compare.describe() : [{ method: runs[0].method, loaded: store.loaded, complete: store.complete }]),
		ghostPosition: (run, name) => (compare ? compare.ghostPosition(run, name) : null),
		/** With --compare: shows the grid of views (true), the ghosts (false) or toggles (no argument); returns whether the grid is shown. */
		grid: (on) => toggleGrid(on),
		/** Per view of the grid: method, colour, rectangle and label in page pixels (null label: hidden). */
		gridViews: () => (compare ? compare.describeGrid() : []),
		/** Where run r's ghost of a body is drawn in its view of the grid (page pixels). */
		projectInGrid: (run, name) => (compare ? compare.projectInGrid(run, name) : null),
		get loadedEverywhere() {
			return compare ? compare.loadedEverywhere : store.loaded;
		},
		/** Sync points and cuts (history.js, edit.js): the marked frames, sorted. */
		syncPoints: () => (history ? history.points.slice() : []),
		/** The last cut's frame (-1: none) and the number of cuts, as the server last said. */
		cuts: () => (history ? { cutFrame: history.cutFrame, cuts: history.cuts } : { cutFrame: -1, cuts: 0 }),
		/** Marks the frame shown (or `frame`); resolves with the sync points. */
		markSync: (frame) => (history ? history.mark(frame === undefined ? history.current() : frame) : Promise.resolve([])),
		/** Back and forward one sync point; return the frame gone to. */
		backSync: () => (history ? history.back() : -1),
		forwardSync: () => (history ? history.forward() : -1),
		/** POST /api/cut; resolves with the server's answer ({ error } when refused). */
		cut: (frame, edits) => (edit ? edit.cut(frame, edits) : Promise.resolve({ error: 'no cuts with --compare' })),
		/** The editor (editor/editor.js): toggles the four views; its state and calls for the tests. */
		fourViews: (on) => toggleEditor(on),
		editor,
		/** The cut panel's message, and whether it is enabled. */
		cutPanel: () => (edit ? { enabled: !edit.fields.disabled, message: edit.message.textContent } : null),
	};
}

start().catch((error) => {
	const status = $('status');
	status.textContent = `cannot load the scene: ${error.message}`;
	status.classList.add('error');
	window.cairnViewer = { ready: false, error: error.message };
});
