// The scene editor (issue 14; AERO's editor, Keller et al. 1993, section 2.1): the four views
// (views.js) and the object window (panel.js) over the scene document (model.js), with snapping
// (snap.js), undo and redo of every edit (undo.js), saving the scene and applying it to the viewer.
// Each edit is a new document; the server's loader checks it and describes what it made
// (POST /api/editor/check), and that description is what the views draw, so the page draws what
// `cairn run` would load. A document the loader refuses stays (undo or fix it), with the loader's
// message shown; the views keep the last valid one. The document is the world at the frame the
// player shows (GET /api/save/scene?frame=N, made again from the server's snapshots without cutting).
// Applying simulates the document from its t = 0 when it was taken at frame 0 of a history without
// cuts, else continues the history from the frame it was taken at, as a cut there (cut.js).
import { cutEdits } from './cut.js';
import { bodyPosition, clone, newBody, newJoint, post, setEuler, eulerDegrees, uniqueName } from './model.js';
import { ObjectPanel } from './panel.js';
import { Snap } from './snap.js';
import { keepHistory, takeHistory, UndoStack } from './undo.js';
import { FourViews } from './views.js';

const CSS = `
#editor { position: absolute; inset: 0 0 56px 0; display: none; background: #1d2126; z-index: 3; }
#editor.open { display: block; }
#ed-toolbar { position: absolute; left: 0; right: 0; top: 0; height: 34px; display: flex; align-items: center; gap: 5px;
	padding: 0 8px; background: #14181c; border-bottom: 1px solid #2f363d; box-sizing: border-box; white-space: nowrap; }
#ed-toolbar input[type=text] { width: 38px; }
#ed-message { overflow: hidden; text-overflow: ellipsis; color: #b8c4cf; flex: 1; min-width: 0; }
#ed-message.error { color: #ff9a8a; }
#ed-views { position: absolute; left: 0; top: 34px; bottom: 0; right: 340px; }
#ed-views canvas { display: block; width: 100%; height: 100%; outline: none; }
#ed-views .view-label { position: absolute; pointer-events: none; color: #cfd8e0; text-shadow: 0 1px 2px #000; }
#ed-views::before, #ed-views::after { content: ''; position: absolute; background: #14181c; pointer-events: none; z-index: 1; }
#ed-views::before { left: 50%; top: 0; bottom: 0; width: 2px; margin-left: -1px; }
#ed-views::after { top: 50%; left: 0; right: 0; height: 2px; margin-top: -1px; }
#ed-panel { position: absolute; right: 0; top: 34px; bottom: 0; width: 340px; overflow-y: auto; padding: 4px 8px;
	box-sizing: border-box; background: #181c21; border-left: 1px solid #2f363d; }
#ed-panel h3 { margin: 8px 0 3px; font-size: 13px; }
#ed-panel .row { display: flex; align-items: center; gap: 3px; margin-top: 3px; }
#ed-panel .row > span { width: 84px; flex: none; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
#ed-panel input[type=text] { width: 52px; min-width: 0; }
#ed-panel input.wide { flex: 1; }
#ed-panel select[size] { width: 100%; margin-top: 3px; }
#ed-panel textarea { width: 100%; box-sizing: border-box; font: 11px monospace; margin-top: 4px; }
#ed-panel .buttons { display: flex; flex-wrap: wrap; gap: 3px; margin-top: 3px; }
#editor input, #editor select, #editor textarea, #editor button { background: #2a3139; color: #e8e8e8;
	border: 1px solid #3d4650; border-radius: 3px; }
#editor button { cursor: pointer; padding: 2px 6px; }
#editor button.on { background: #3f6f9f; }
#editor button:disabled { opacity: 0.45; cursor: default; }
`;

export class Editor {
	/** parent: the element the editor covers when open; shownFrame(): the frame the player shows. */
	constructor(parent, shownFrame = () => 0) {
		const style = document.createElement('style');
		style.textContent = CSS;
		document.head.append(style);
		this.root = document.createElement('div');
		this.root.id = 'editor';
		parent.append(this.root);
		this.doc = null;
		this.undoStack = new UndoStack();
		this.snap = new Snap();
		this.selection = [];
		this.joint = -1;
		this.camera = -1;
		this.tool = 'move';
		this.valid = false;
		this.message = '';
		this.sequence = 0;
		this.pending = Promise.resolve();
		this.saved = null;
		this.started = null;
		this.shownFrame = shownFrame;
		// the frame the document was taken at (-1: none yet) and the world at it as the library wrote
		// it (cut.js); the viewer's last cut (-1: none)
		this.frame = -1;
		this.cutFrame = -1;
		this.baseText = null;
		this.checked = null;
	}

	get isOpen() {
		return this.root.classList.contains('open');
	}

	/** Opens the editor (loading the scene the first time); resolves when it is drawn. */
	open() {
		this.root.classList.add('open');
		if (!this.started) this.started = this.start();
		else if (this.baseText !== null && this.frame !== this.shownFrame()) {
			// opened at another frame: the world there, unless the document has edits (kept)
			if (this.undoStack.canUndo || this.undoStack.canRedo) this.say(`the document is the world at frame ${this.frame} with your edits (the player shows frame ${this.shownFrame()})`);
			else this.started = this.started.then(() => this.load());
		}
		return this.started.then(() => {
			this.views.resize();
			this.views.invalidate();
		});
	}

	close() {
		this.root.classList.remove('open');
	}

	async start() {
		this.make();
		await this.load();
		const loop = () => {
			if (this.isOpen) this.views.renderIfNeeded();
			requestAnimationFrame(loop);
		};
		requestAnimationFrame(loop);
	}

	/** Takes the document: the world at the frame shown, as the library writes it. */
	async load() {
		const errorOf = (text) => {
			try {
				return JSON.parse(text).error;
			} catch {
				return text;
			}
		};
		const shown = Math.max(0, this.shownFrame());
		let frame = shown;
		let note = '';
		let response = await fetch(`/api/save/scene?frame=${shown}`, { cache: 'no-store' });
		let text = await response.text();
		if (!response.ok && response.status !== 409) {
			// (not simulated yet, or dropped by a cut since): the world at the last cut instead
			note = `cannot open at frame ${shown}: ${errorOf(text)}; the document is the world at the last cut`;
			frame = null;
			response = await fetch('/api/save/scene', { cache: 'no-store' });
			text = await response.text();
		}
		if (!response.ok) {
			this.doc = { cairn: 1, bodies: [] };
			this.say(`cannot edit: ${errorOf(text)}`, true);
			this.root.querySelectorAll('button, input').forEach((b) => {
				b.disabled = true;
			});
			return;
		}
		// applying continues the history from the frame the document was taken at
		const sync = await fetch('/api/sync', { cache: 'no-store' });
		if (sync.ok) this.cutFrame = (await sync.json()).cutFrame;
		this.frame = frame === null ? Math.max(0, this.cutFrame) : frame;
		this.baseText = text;
		this.updateApply();
		// the document and undo history of an apply in this tab, while the viewer simulates what it applied
		this.undoStack = new UndoStack();
		this.doc = takeHistory(text, this.undoStack) || JSON.parse(text);
		this.selection = [];
		await this.refresh(true);
		if (note) this.say(note, true);
	}

	make() {
		const bar = document.createElement('div');
		bar.id = 'ed-toolbar';
		const button = (id, text, title, fn) => {
			const b = document.createElement('button');
			b.id = id;
			b.textContent = text;
			b.title = title;
			b.addEventListener('click', fn);
			bar.append(b);
			return b;
		};
		this.undoButton = button('ed-undo', 'undo', 'undo the last edit (Ctrl-Z)', () => this.undo());
		this.redoButton = button('ed-redo', 'redo', 'redo (Ctrl-Y)', () => this.redo());
		this.moveButton = button('ed-move', 'move', 'dragging a body in the top, front or side view moves it', () => this.setTool('move'));
		this.rotateButton = button('ed-rotate', 'rotate', 'dragging a body turns it about the view axis', () => this.setTool('rotate'));
		this.scaleButton = button('ed-scale', 'scale', "dragging a shape's side in the top, front or side view changes its size", () => this.setTool('scale'));
		const snapLabel = document.createElement('label');
		const snapBox = document.createElement('input');
		snapBox.type = 'checkbox';
		snapBox.id = 'ed-snap';
		snapBox.checked = this.snap.on;
		snapBox.addEventListener('change', () => {
			this.snap.on = snapBox.checked;
		});
		snapLabel.append(snapBox, ' snap');
		const step = (id, title, key) => {
			const input = document.createElement('input');
			input.type = 'text';
			input.id = id;
			input.title = title;
			input.value = String(this.snap[key]);
			input.addEventListener('change', () => {
				const v = Number(input.value);
				if (Number.isFinite(v) && v > 0) this.snap[key] = v;
				input.value = String(this.snap[key]);
			});
			return input;
		};
		bar.append(snapLabel, step('ed-grid', 'grid step, m', 'grid'), step('ed-angle', 'angle step, degrees', 'angle'), '°');
		button('ed-fit', 'fit', 'frame the views on the bodies', () => this.views.fit());
		this.saveButton = button('ed-save', 'save', 'download the scene (scene.json) as the library writes it', () => this.save());
		this.applyButton = button('ed-apply', 'apply & play', 'simulate the edited scene in the viewer', () => this.apply());
		this.restartButton = button('ed-apply-start', 'apply from t = 0', 'simulate the document from its own t = 0, dropping the frames and cuts the viewer has', () => this.applyScene());
		this.restartButton.hidden = true;
		this.messageLine = document.createElement('span');
		this.messageLine.id = 'ed-message';
		bar.append(this.messageLine);
		const views = document.createElement('div');
		views.id = 'ed-views';
		const panel = document.createElement('div');
		panel.id = 'ed-panel';
		this.root.append(bar, views, panel);
		this.views = new FourViews(views, {
			pick: (i, add) => this.pick(i, add),
			drag: (i, position, quaternion, tool) => this.drag(i, position, quaternion, tool),
			scale: (i, shape, sizes) => this.scale(i, shape, sizes),
			tool: () => this.tool,
			snap: this.snap,
		});
		this.panel = new ObjectPanel(panel, this);
		this.setTool('move');
		window.addEventListener('keydown', (e) => {
			if (!this.isOpen || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement) return;
			const key = e.key.toLowerCase();
			if ((e.ctrlKey || e.metaKey) && (key === 'y' || (key === 'z' && e.shiftKey))) this.redo();
			else if ((e.ctrlKey || e.metaKey) && key === 'z') this.undo();
			else if (e.key === 'Delete') this.deleteSelected();
			else return;
			e.preventDefault();
			e.stopImmediatePropagation();
		});
	}

	say(text, error = false) {
		this.message = text;
		this.messageLine.textContent = text;
		this.messageLine.title = text;
		this.messageLine.classList.toggle('error', error);
	}

	setTool(tool) {
		this.tool = tool;
		this.moveButton.classList.toggle('on', tool === 'move');
		this.rotateButton.classList.toggle('on', tool === 'rotate');
		this.scaleButton.classList.toggle('on', tool === 'scale');
	}

	/** Makes an edit: fn changes a copy of the document, which becomes the document (undoable). */
	edit(fn) {
		const before = JSON.stringify(this.doc);
		const next = clone(this.doc);
		fn(next);
		if (JSON.stringify(next) === before) return this.pending;
		this.undoStack.push(before);
		this.doc = next;
		return this.refresh(false);
	}

	/** Asks the server's loader about the document and draws what it made; resolves when done. */
	refresh(first) {
		const sequence = ++this.sequence;
		this.updateButtons();
		this.panel.render();
		this.pending = post('/api/editor/check', this.doc).then((r) => {
			// a later edit's answer supersedes this one
			if (sequence !== this.sequence) return;
			this.valid = r.ok;
			if (r.ok) {
				this.checked = r.body;
				this.views.setScene(r.body, first);
				const warnings = r.body.warnings || [];
				this.say(warnings.length > 0 ? `warning: ${warnings.join('; ')}` : `${this.doc.bodies.length} bodies, ${(this.doc.joints || []).length} joints: the loader accepts the scene`);
			} else {
				this.say(r.body.error || `error ${r.status}`, true);
			}
			this.selection = this.selection.filter((i) => i < (this.doc.bodies || []).length);
			this.views.select(this.selection);
			this.updateButtons();
		});
		return this.pending;
	}

	updateButtons() {
		this.undoButton.disabled = !this.undoStack.canUndo;
		this.redoButton.disabled = !this.undoStack.canRedo;
	}

	/** Picks body i (-1: none); add: adds it to the selection (the second body of a joint). */
	pick(i, add) {
		if (i < 0) this.selection = add ? this.selection : [];
		else if (add) this.selection = this.selection.includes(i) ? this.selection.filter((k) => k !== i) : [...this.selection, i];
		else this.selection = [i];
		this.views.select(this.selection);
		this.panel.render();
	}

	/** The end of a drag in a view: the body's new position, or its new rotation as euler_deg. */
	drag(i, position, quaternion, tool) {
		return this.edit((doc) => {
			if (tool === 'rotate') setEuler(doc.bodies[i], eulerDegrees(quaternion));
			else doc.bodies[i].position = position.map((x) => x + 0);
		});
	}

	/**
	 * The end of a scale drag: new sizes (radius, half_extents, half_height) for shape k of the
	 * server's description of body i, which is the document's shape of that place (a compound is
	 * described as one shape per part).
	 */
	scale(i, k, sizes) {
		return this.edit((doc) => {
			let described = 0;
			for (const shape of doc.bodies[i].shapes || []) {
				const count = shape.type === 'compound' && Array.isArray(shape.parts) ? shape.parts.length : 1;
				if (k < described + count) {
					Object.assign(shape, sizes);
					return;
				}
				described += count;
			}
		});
	}

	/** Adds a fixed camera where the perspective view looks from, looking at its target (mm). */
	addCamera() {
		const round = (v) => v.toArray().map((x) => Math.round(x * 1000) / 1000 + 0);
		const position = round(this.views.perspective.position);
		const target = round(this.views.controls.target);
		return this.edit((doc) => {
			doc.cameras = doc.cameras || [];
			doc.cameras.push({ name: uniqueName(doc.cameras, 'camera'), type: 'fixed', position, look_at: target, fov_deg: 50 });
		});
	}

	/** Adds a body with one shape of that kind at the middle of the top view, and picks it. */
	addBody(kind) {
		const c = this.views.cameras.top.userData.center;
		const position = [this.snap.position(c.x), this.snap.position(c.y), Math.max(1, this.snap.position(c.z))];
		const index = (this.doc.bodies || []).length;
		this.selection = [index];
		return this.edit((doc) => {
			doc.bodies = doc.bodies || [];
			doc.bodies.push(newBody(doc, kind, position));
		});
	}

	/** Deletes the selected bodies and what names them (joints, no-collide pairs, target forces, cameras). */
	deleteSelected() {
		if (this.selection.length === 0) return this.pending;
		const names = new Set(this.selection.map((i) => this.doc.bodies[i].name));
		this.selection = [];
		return this.edit((doc) => {
			doc.bodies = doc.bodies.filter((b) => !names.has(b.name));
			if (doc.joints) doc.joints = doc.joints.filter((j) => !(j.bodies || []).some((n) => names.has(n)));
			if (doc.no_collide) doc.no_collide = doc.no_collide.filter((pair) => !pair.some((n) => names.has(n)));
			for (const b of doc.bodies) if (b.forces) b.forces = b.forces.filter((f) => !names.has(f.target));
			if (doc.cameras) doc.cameras = doc.cameras.filter((c) => !names.has(c.body));
		});
	}

	/** Joins the selected body to the world, or the first two selected bodies, with a new joint. */
	addJoint(type) {
		if (this.selection.length === 0) {
			this.say('pick a body (and Ctrl-click a second one) to join', true);
			return this.pending;
		}
		const names = this.selection.slice(0, 2).map((i) => this.doc.bodies[i].name);
		this.joint = (this.doc.joints || []).length;
		return this.edit((doc) => {
			doc.joints = doc.joints || [];
			doc.joints.push(newJoint(doc, type, names));
		});
	}

	undo() {
		const text = this.undoStack.undo(JSON.stringify(this.doc));
		if (text === null) return this.pending;
		this.doc = JSON.parse(text);
		return this.refresh(false);
	}

	redo() {
		const text = this.undoStack.redo(JSON.stringify(this.doc));
		if (text === null) return this.pending;
		this.doc = JSON.parse(text);
		return this.refresh(false);
	}

	/** Saves: the server writes the scene its loader made (a download of scene.json). */
	async save() {
		const r = await post('/api/editor/save', this.doc);
		if (!r.ok) {
			this.say(r.body.error || `error ${r.status}`, true);
			return null;
		}
		this.saved = r.text;
		const link = document.createElement('a');
		link.href = URL.createObjectURL(new Blob([r.text], { type: 'application/json' }));
		link.download = 'scene.json';
		link.id = 'ed-download';
		document.body.append(link);
		link.click();
		link.remove();
		this.say('saved scene.json: the scene as the library writes it');
		return r.text;
	}

	// the document taken after frame 0 or with a cut: apply continues the history from its frame
	// with a cut there; "apply from t = 0" starts it anew
	get atCut() {
		return this.frame > 0 || this.cutFrame >= 0;
	}

	updateApply() {
		this.restartButton.hidden = !this.atCut;
		this.applyButton.title = this.atCut
			? `continue the viewer's history from frame ${this.frame} (where the document was taken) with the edits, as a cut there: the frames before it are kept`
			: 'simulate the edited scene in the viewer';
	}

	/** Applies the document: as a cut at the frame it was taken at (applyAtCut), or from t = 0. */
	async apply() {
		await this.pending;
		return this.atCut ? this.applyAtCut() : this.applyScene();
	}

	/**
	 * The viewer simulates the edited scene from its own t = 0: the page loads it anew, and the
	 * document and its undo history are kept for the editor of the page that loads (undo.js).
	 */
	async applyScene() {
		const r = await post('/api/editor/apply', this.doc);
		if (!r.ok) {
			this.say(r.body.error || `error ${r.status}`, true);
			return false;
		}
		await this.reloadAfterApply(-1);
		return true;
	}

	/**
	 * The edits turned into the server's cut at the frame the document was taken at (cut.js): the
	 * frames before it stay, the edited world goes on from it, and the page loads again at that
	 * frame. An edit a cut cannot make is refused with the reason, and nothing changes.
	 */
	async applyAtCut() {
		const frame = this.frame;
		if (!this.valid) {
			this.say('the loader refuses the document: fix or undo the edit before applying', true);
			return false;
		}
		const written = await post('/api/editor/save', this.doc);
		if (!written.ok) {
			this.say(written.body.error || `error ${written.status}`, true);
			return false;
		}
		const plan = cutEdits(JSON.parse(this.baseText), JSON.parse(written.text), this.checked);
		if (plan.reason) {
			this.say(`cannot continue at frame ${frame}: ${plan.reason}; "apply from t = 0" simulates the document from its own start`, true);
			return false;
		}
		const now = await fetch(`/api/save/scene?frame=${frame}`, { cache: 'no-store' });
		if ((await now.text()) !== this.baseText) {
			this.say(`the viewer's history changed since the editor opened (a cut at or before frame ${frame}): "apply from t = 0", or reload the page to edit the new history`, true);
			return false;
		}
		if (plan.edits.length === 0) {
			this.say(`nothing to apply: the document is the world at frame ${frame}`);
			return false;
		}
		const response = await fetch('/api/cut', {
			method: 'POST',
			cache: 'no-store',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ frame, edits: plan.edits }),
		});
		if (!response.ok) {
			const text = await response.text();
			let message = text;
			try {
				message = JSON.parse(text).error;
			} catch {
				// the answer's text
			}
			this.say(`the cut at frame ${frame} refused the edits: ${message}`, true);
			return false;
		}
		await this.reloadAfterApply(frame);
		return true;
	}

	// keeps the document and its history for the page that loads next, which shows the frame given
	async reloadAfterApply(frame) {
		const written = await fetch('/api/save/scene', { cache: 'no-store' });
		if (written.ok) keepHistory(await written.text(), this.doc, this.undoStack);
		if (frame >= 0) window.location.hash = `frame=${frame}`;
		window.location.reload();
	}

	/** For the tests: the body's position as drawn, or null. */
	drawnPosition(name) {
		const i = (this.doc.bodies || []).findIndex((b) => b.name === name);
		const group = this.views.bodies[i];
		return group ? group.position.toArray() : null;
	}

	/** For the tests: where a body's origin (in the document) projects in a view, page pixels. */
	project(view, name) {
		const i = this.doc.bodies.findIndex((b) => b.name === name);
		return i < 0 ? null : this.views.project(view, bodyPosition(this.doc, i));
	}
}
