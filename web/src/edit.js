// "Cut here" (AERO's cut, Keller et al. 1993, section 2.3): at the frame shown, change the picked
// body (its position and rotation, its velocity, an impulse, its material's friction and restitution,
// for every body of that material or for this body only), delete it,
// or add a body (a sphere or box at a position, or any body as JSON), and let
// the server simulate on from there (POST /api/cut, docs/viewer.md). The server's message is shown
// when it refuses an edit; after a cut the frames from the cut on are loaded again. Two links
// download the edited history as a recording and the world at the last cut as a JSON scene.
// A recording has nothing to simulate again: the panel is disabled and the downloads hidden.
import { Euler, Quaternion } from 'three';
import { postJson } from './history.js';

const CSS = `
#cut-panel { position: absolute; right: 12px; bottom: 66px; width: 250px; padding: 6px 8px;
	background: rgba(20, 24, 28, 0.85); border: 1px solid #3b434c; border-radius: 6px; }
#cut-panel:not([open]) { width: auto; }
#cut-panel summary { cursor: pointer; font-weight: bold; }
#cut-panel fieldset { border: 0; margin: 0; padding: 0; }
#cut-panel fieldset[disabled] { opacity: 0.5; }
#cut-panel .row { display: flex; align-items: center; gap: 3px; margin-top: 3px; }
#cut-panel .row span { width: 62px; }
#cut-panel select, #cut-panel textarea { background: #2a3139; color: #e8e8e8; border: 1px solid #3d4650; border-radius: 3px; }
#cut-panel input { width: 44px; background: #2a3139; color: #e8e8e8; border: 1px solid #3d4650; border-radius: 3px; }
#cut-panel button { background: #2a3139; color: #e8e8e8; border: 1px solid #3d4650; border-radius: 4px; cursor: pointer; }
#cut-panel a { color: #9cc7f0; margin-right: 10px; }
#cut-panel label { display: flex; align-items: center; gap: 2px; }
#cut-panel input[type=checkbox] { width: auto; }
#cut-message { margin-top: 4px; min-height: 1em; color: #b8c4cf; }
#cut-message.error { color: #ff9a8a; }
`;

const number = (input) => (input.value.trim() === '' ? null : Number(input.value));

/** The unit quaternion [w, x, y, z] of [roll, pitch, yaw] in degrees: R = Rz(yaw) Ry(pitch) Rx(roll), as the scene format's euler_deg. */
export function eulerQuaternion(degrees) {
	const r = degrees.map((d) => (d * Math.PI) / 180);
	// three.js's order 'ZYX' is this product (docs/scene-format.md, "Euler angles")
	const q = new Quaternion().setFromEuler(new Euler(r[0], r[1], r[2], 'ZYX'));
	return [q.w, q.x, q.y, q.z];
}

/** [roll, pitch, yaw] in degrees of a quaternion [w, x, y, z] (the inverse of eulerQuaternion). */
export function quaternionEuler(wxyz) {
	const e = new Euler().setFromQuaternion(new Quaternion(wxyz[1], wxyz[2], wxyz[3], wxyz[0]), 'ZYX');
	return [e.x, e.y, e.z].map((r) => (r * 180) / Math.PI);
}

/** The cut panel and the downloads. */
export class EditPanel {
	/**
	 * scene: /api/scene; picked(): the picked body's index or -1; frame(): the frame shown;
	 * pose(i): body i's drawn position [x, y, z]; afterCut(frame, answer): reloads from the cut;
	 * orientation(i): body i's drawn orientation [w, x, y, z].
	 */
	constructor(scene, picked, frame, pose, afterCut, orientation = null) {
		this.scene = scene;
		this.picked = picked;
		this.frame = frame;
		this.pose = pose;
		this.orientation = orientation;
		this.afterCut = afterCut;
		this.simulated = scene.source === 'scene';
		this.busy = false;
		const style = document.createElement('style');
		style.textContent = CSS;
		document.head.append(style);
		this.make();
		this.refresh();
	}

	make() {
		const panel = document.createElement('details');
		panel.id = 'cut-panel';
		// closed until asked for: open, it covers a corner of the scene
		panel.open = false;
		const summary = document.createElement('summary');
		summary.id = 'cut-open';
		summary.textContent = 'cut here';
		summary.title = 'change the picked body at the frame shown and simulate on from there';
		this.title = document.createElement('div');
		this.fields = document.createElement('fieldset');
		this.fields.id = 'cut-fields';
		panel.append(summary, this.title, this.fields);
		const inputs = (prefix, names) =>
			names.map((n) => {
				const input = document.createElement('input');
				input.id = `${prefix}${n}`;
				input.type = 'text';
				input.inputMode = 'decimal';
				input.placeholder = n;
				input.title = n;
				return input;
			});
		const row = (label, items) => {
			const div = document.createElement('div');
			div.className = 'row';
			const span = document.createElement('span');
			span.textContent = label;
			div.append(span, ...items);
			this.fields.append(div);
		};
		const action = (id, text, title, fn) => {
			const b = document.createElement('button');
			b.id = id;
			b.textContent = text;
			b.title = title;
			b.addEventListener('click', fn);
			return b;
		};
		this.position = inputs('cut-p', ['x', 'y', 'z']);
		row('position', this.position);
		// roll about x, pitch about y, yaw about z (degrees, R = Rz(yaw) Ry(pitch) Rx(roll)); filled
		// in with the drawn rotation, sent only when changed
		this.rotation = inputs('cut-', ['roll', 'pitch', 'yaw']);
		for (const input of this.rotation) input.title = `${input.title} (degrees): R = Rz(yaw) Ry(pitch) Rx(roll)`;
		row('rotation', this.rotation);
		row('', [action('cut-move', 'set pose', 'move the body to this position and, when the rotation was changed, turn it so (degrees) at this frame', () => this.submit('move'))]);
		this.linear = inputs('cut-v', ['x', 'y', 'z']);
		row('velocity', this.linear);
		this.angular = inputs('cut-w', ['x', 'y', 'z']);
		row('angular', this.angular);
		row('', [action('cut-velocity', 'set velocity', 'the centre of mass\'s velocity (m/s) and the angular velocity (rad/s); empty fields keep it', () => this.submit('velocity'))]);
		this.impulse = inputs('cut-i', ['x', 'y', 'z']);
		row('impulse', this.impulse);
		row('', [action('cut-impulse', 'apply impulse', 'an impulse (N s) at the centre of mass', () => this.submit('impulse'))]);
		this.friction = inputs('cut-', ['friction'])[0];
		this.restitution = inputs('cut-', ['restitution'])[0];
		this.friction.style.width = '60px';
		this.restitution.style.width = '60px';
		row('material', [this.friction, this.restitution]);
		this.own = document.createElement('input');
		this.own.type = 'checkbox';
		this.own.id = 'cut-own';
		const ownLabel = document.createElement('label');
		ownLabel.title = 'checked: only this body changes (its shapes get a copy of their material); unchecked: every body of its material changes';
		ownLabel.append(this.own, 'this body only');
		row('', [action('cut-material', 'set material', 'the friction and restitution of the body\'s material (every body of it changes, or with "this body only" a copy for this body)', () => this.submit('material')), ownLabel]);
		// adding a body (a sphere or box at a position, or any body as the scene format's JSON) and
		// deleting the picked one
		this.addShape = document.createElement('select');
		this.addShape.id = 'cut-add-shape';
		for (const kind of ['sphere', 'box', 'json']) {
			const option = document.createElement('option');
			option.value = kind;
			option.textContent = kind;
			this.addShape.append(option);
		}
		this.addName = inputs('cut-add-', ['name'])[0];
		this.addName.style.width = '70px';
		this.addSize = inputs('cut-add-', ['size'])[0];
		this.addSize.title = 'sphere: radius; box: half side (m)';
		this.addSize.value = '0.2';
		row('add', [this.addShape, this.addName, this.addSize]);
		this.addPosition = inputs('cut-a', ['x', 'y', 'z']);
		row('at', this.addPosition);
		this.addJson = document.createElement('textarea');
		this.addJson.id = 'cut-add-json';
		this.addJson.rows = 3;
		this.addJson.placeholder = '{"name": "b", "position": [0, 0, 2], "shapes": [{"type": "sphere", "radius": 0.2}]}';
		this.addJson.style.width = '236px';
		this.addJson.hidden = true;
		this.fields.append(this.addJson);
		this.addShape.addEventListener('change', () => {
			this.addJson.hidden = this.addShape.value !== 'json';
		});
		row('', [
			action('cut-add', 'add body', 'add this body at the frame shown (checked by the scene loader)', () => this.submit('add')),
			action('cut-delete', 'delete picked', 'delete the picked body from the frame shown on', () => this.submit('delete')),
		]);
		this.message = document.createElement('div');
		this.message.id = 'cut-message';
		const downloads = document.createElement('div');
		downloads.className = 'row';
		this.saveRecording = document.createElement('a');
		this.saveRecording.id = 'save-recording';
		this.saveRecording.href = '/api/save/recording';
		this.saveRecording.download = 'history.cnrec';
		this.saveRecording.textContent = 'save recording';
		this.saveRecording.title = 'every frame so far, cuts included, as a .cnrec recording';
		this.saveScene = document.createElement('a');
		this.saveScene.id = 'save-scene';
		this.saveScene.href = '/api/save/scene';
		this.saveScene.download = 'scene.json';
		this.saveScene.textContent = 'save scene';
		this.saveScene.title = 'the world at the last cut (frame 0 before any) as a JSON scene';
		downloads.append(this.saveRecording, this.saveScene);
		panel.append(this.message, downloads);
		this.panel = panel;
		// above the bar (and the energy plot under it)
		const view = document.getElementById('view');
		const bottom = view ? parseFloat(getComputedStyle(view).bottom) : NaN;
		panel.style.bottom = `${(Number.isFinite(bottom) ? bottom : 56) + 10}px`;
		document.body.append(panel);
		if (!this.simulated) this.disable('a recording cannot be cut: view the scene to change it');
	}

	/**
	 * With --compare: every run is cut at once, and each has its own history and method, so the
	 * downloads are per run (`?run=K`, named by its method in its colour): the first run's keep the
	 * ids save-recording and save-scene, the others' get save-recording-K and save-scene-K.
	 */
	setRuns(runs) {
		const row = this.saveRecording.parentElement;
		row.innerHTML = '';
		row.style.flexWrap = 'wrap';
		for (const [kind, path, file, first] of [
			['recording', '/api/save/recording', 'history', this.saveRecording],
			['scene', '/api/save/scene', 'scene', this.saveScene],
		]) {
			const label = document.createElement('span');
			label.textContent = `save ${kind}`;
			row.append(label);
			runs.forEach((run, r) => {
				const link = r === 0 ? first : document.createElement('a');
				link.id = r === 0 ? first.id : `save-${kind}-${r}`;
				link.href = `${path}?run=${r}`;
				link.download = `${file}-${run.method}.${kind === 'scene' ? 'json' : 'cnrec'}`;
				link.textContent = run.method;
				link.style.color = run.color;
				link.title = kind === 'scene' ? `the ${run.method} run's world at the last cut as a JSON scene` : `every frame of the ${run.method} run so far, cuts included`;
				row.append(link);
			});
		}
		this.say('a cut is made in every run', false);
	}

	disable(why) {
		this.simulated = false;
		this.fields.disabled = true;
		this.saveRecording.hidden = true;
		this.saveScene.hidden = true;
		this.say(why, false);
	}

	say(text, error) {
		this.message.textContent = text;
		this.message.classList.toggle('error', Boolean(error));
	}

	/** Called when the pick or the frame shown changes: names the body and fills in its position. */
	refresh() {
		const i = this.picked();
		const frame = this.frame();
		if (i < 0) {
			this.title.textContent = `frame ${frame}: pick a body`;
		} else {
			const body = this.scene.bodies[i];
			this.title.textContent = `frame ${frame}: ${body.name || `body ${i}`}`;
		}
		// where the body is drawn at the frame shown, unless the position is being typed
		const key = `${i}@${frame}`;
		const typing = this.position.includes(document.activeElement) || this.rotation.includes(document.activeElement);
		if (key !== this.filledFor && !typing) {
			this.filledFor = key;
			const p = i >= 0 ? this.pose(i) : null;
			this.position.forEach((input, k) => {
				input.value = p ? String(Number(p[k].toPrecision(6))) : '';
			});
			const q = i >= 0 && this.orientation ? this.orientation(i) : null;
			const degrees = q ? quaternionEuler(q) : null;
			this.rotation.forEach((input, k) => {
				input.value = degrees ? String(Number(degrees[k].toFixed(4))) : '';
			});
			this.filledRotation = this.rotation.map((input) => input.value);
		}
	}

	// The body the add row describes (the scene format's JSON); throws with what is missing.
	addedBody() {
		if (this.addShape.value === 'json') {
			try {
				return JSON.parse(this.addJson.value);
			} catch (error) {
				throw new Error(`body JSON: ${error.message}`);
			}
		}
		const position = this.addPosition.map(number);
		if (position.some((x) => x === null || !Number.isFinite(x))) throw new Error('add: give x, y and z');
		const size = number(this.addSize);
		if (size === null || !Number.isFinite(size)) throw new Error('add: give a size');
		const names = new Set(this.scene.bodies.map((b) => b.name));
		let name = this.addName.value.trim();
		for (let k = 1; name === ''; ++k) if (!names.has(`added ${k}`)) name = `added ${k}`;
		const shape = this.addShape.value === 'box' ? { type: 'box', half_extents: [size, size, size] } : { type: 'sphere', radius: size };
		return { name, position, shapes: [shape] };
	}

	// The edit the panel's fields describe; throws with what is missing.
	edit(op) {
		if (op === 'add') return { op, body: this.addedBody() };
		const i = this.picked();
		if (i < 0) throw new Error('pick a body first (click it)');
		const body = this.scene.bodies[i].name || i;
		const vector = (inputs, what, required) => {
			const v = inputs.map(number);
			if (v.every((x) => x === null)) {
				if (required) throw new Error(`${what}: give x, y and z`);
				return null;
			}
			if (v.some((x) => x === null || !Number.isFinite(x))) throw new Error(`${what}: x, y and z must be numbers`);
			return v;
		};
		if (op === 'delete') return { op, body };
		if (op === 'move') {
			const edit = { op, body, position: vector(this.position, 'position', true) };
			// the rotation only when it was changed (the drawn one, turned back, would round)
			const changed = this.rotation.some((input, k) => input.value.trim() !== (this.filledRotation || [])[k]);
			const degrees = changed ? this.rotation.map(number) : null;
			if (degrees && !degrees.every((x) => x === null)) {
				if (degrees.some((x) => x === null || !Number.isFinite(x))) throw new Error('rotation: roll, pitch and yaw must be numbers (degrees)');
				edit.orientation = eulerQuaternion(degrees);
			}
			return edit;
		}
		if (op === 'velocity') {
			const edit = { op, body };
			const linear = vector(this.linear, 'velocity', false);
			const angular = vector(this.angular, 'angular velocity', false);
			if (!linear && !angular) throw new Error('give a velocity, an angular velocity or both');
			if (linear) edit.linear = linear;
			if (angular) edit.angular = angular;
			return edit;
		}
		if (op === 'impulse') return { op, body, impulse: vector(this.impulse, 'impulse', true) };
		const edit = { op: 'material', body };
		const friction = number(this.friction);
		const restitution = number(this.restitution);
		if (friction === null && restitution === null) throw new Error('give a friction, a restitution or both');
		if (friction !== null) edit.friction = friction;
		if (restitution !== null) edit.restitution = restitution;
		if (this.own.checked) edit.own = true;
		return edit;
	}

	async submit(op) {
		let edit;
		try {
			edit = this.edit(op);
		} catch (error) {
			this.say(error.message, true);
			return;
		}
		await this.cut(this.frame(), [edit]);
	}

	/** POST /api/cut; resolves with the server's answer (with `error` when it refused). */
	async cut(frame, edits) {
		if (this.busy) return { error: 'a cut is being made' };
		this.busy = true;
		this.say(`cutting at frame ${frame}...`, false);
		try {
			const r = await postJson('/api/cut', { frame, edits });
			if (r.status === 409) {
				this.disable(r.body.error || 'this source cannot be cut');
				this.say(r.body.error || 'this source cannot be cut', true);
			} else if (!r.ok) {
				this.say(r.body.error || `the cut failed (${r.status})`, true);
			} else {
				this.say(`cut at frame ${frame}: simulating on from there`, false);
				this.afterCut(frame, r.body);
			}
			return r.body;
		} catch (error) {
			this.say(error.message, true);
			return { error: error.message };
		} finally {
			this.busy = false;
		}
	}
}
