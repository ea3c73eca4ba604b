// Methods side by side (`cairn view --compare`): the server simulates one scene in several contact
// methods, each a run of its own (/api/frames?run=I, /api/status?run=I); the page draws every
// run's moving bodies as translucent ghosts in one colour per method, in one view under one
// timeline, with a legend, so one sees where the methods part ways. Static bodies are the same in
// every run and are drawn once, as usual. The grid (button or key G) shows the runs instead in a grid
// of small views, one per method, all drawn by the stage's one renderer (a viewport and scissor per
// view, as editor/views.js does) from the one camera at the one frame shown, so they stay in step.
import { DoubleSide, MeshStandardMaterial, Color } from 'three';
import { getFrames, getJson } from './api.js';
import { makeBodies } from './shapes.js';

/** One colour per method, told apart on the dark background and by most colour-blind eyes. */
export const RUN_COLORS = ['#ff6b6b', '#4dabf7', '#69db7c', '#ffd43b', '#da77f2', '#ff922b', '#3bc9db', '#f783ac'];

// The frames of one run, loaded in order and kept (as FrameStore does for the first run).
class RunFrames {
	constructor(run, stride) {
		this.run = run;
		this.stride = stride;
		this.numbers = new Float64Array(0);
		this.loaded = 0;
		this.frameCount = 0;
		this.complete = false;
		this.message = '';
	}

	frame(index) {
		if (index < 0 || index >= this.loaded) return null;
		return this.numbers.subarray(index * this.stride, (index + 1) * this.stride);
	}

	/** Drops the frames from `from` on (a cut made them again in every run) and loads them anew. */
	invalidate(from) {
		this.generation = (this.generation || 0) + 1;
		this.loaded = Math.max(0, Math.min(Math.floor(from), this.loaded));
		this.frameCount = this.loaded;
		this.complete = false;
		this.message = '';
		if (!this.loading) this.load();
	}

	async load() {
		this.loading = true;
		try {
			await this.loadLoop();
		} finally {
			this.loading = false;
		}
	}

	async loadLoop() {
		for (;;) {
			// answers asked for before a cut are dropped (invalidate bumps the generation)
			const generation = this.generation || 0;
			try {
				const status = await getJson(`/api/status?run=${this.run}`);
				if (generation !== (this.generation || 0)) continue;
				this.frameCount = status.frameCount;
				this.message = status.message || '';
				if (this.loaded < this.frameCount) {
					const { numbers, count } = await getFrames(this.loaded, this.frameCount - this.loaded, this.stride, this.run);
					if (generation !== (this.generation || 0)) continue;
					if (this.numbers.length < (this.loaded + count) * this.stride) {
						const grown = new Float64Array(Math.max((this.loaded + count) * this.stride, 2 * this.numbers.length));
						grown.set(this.numbers.subarray(0, this.loaded * this.stride));
						this.numbers = grown;
					}
					this.numbers.set(numbers.subarray(0, count * this.stride), this.loaded * this.stride);
					this.loaded += count;
				}
				if (status.complete && this.loaded >= status.frameCount) {
					this.complete = true;
					return;
				}
			} catch {
				// the server went away or failed: try again a little later
			}
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	}
}

/** The ghosts of every run and their legend. */
export class Compare {
	/** store: the first run's FrameStore (the page's own); bodies: the page's body groups. */
	constructor(scene, stage, store, bodies) {
		this.scene = scene;
		this.stage = stage;
		this.runs = scene.runs.map((run, i) => ({ method: run.method, color: RUN_COLORS[i % RUN_COLORS.length] }));
		this.stores = this.runs.map((_, i) => (i === 0 ? store : new RunFrames(i, scene.stride)));
		for (const s of this.stores) if (s instanceof RunFrames) s.load();
		// the moving bodies are drawn as ghosts only: the page's own would hide the first run's ghost
		this.moving = [];
		scene.bodies.forEach((body, i) => {
			if (body.type !== 'static') {
				this.moving.push(i);
				bodies[i].visible = false;
			}
		});
		this.materials = [];
		// whether each run has the frame shown (its ghosts are hidden where it has not)
		this.present = this.runs.map(() => false);
		this.grid = false;
		this.ghosts = this.runs.map((run, r) => {
			const groups = makeBodies(scene, 1);
			const material = new MeshStandardMaterial({
				color: new Color(run.color),
				transparent: true,
				opacity: 0.45,
				roughness: 0.6,
				depthWrite: false,
				side: DoubleSide,
			});
			this.materials.push(material);
			const ghosts = new Map();
			for (const i of this.moving) {
				const group = groups[i];
				group.name = `${run.method}:${scene.bodies[i].name}`;
				group.userData.run = r;
				group.traverse((o) => {
					if (o.isMesh) {
						o.material = material;
						o.castShadow = false;
						o.receiveShadow = false;
					}
				});
				// a translucent body drawn after the solid ones, so each ghost shows through the others
				group.renderOrder = 1 + r;
				group.visible = false;
				stage.scene.add(group);
				ghosts.set(i, group);
			}
			return ghosts;
		});
		this.makeLegend();
		this.makeCells();
	}

	// one frame per view of the grid, over the canvas: a border, and the method's name in its colour
	makeCells() {
		this.cells = this.runs.map((run, r) => {
			const cell = document.createElement('div');
			cell.className = 'grid-view';
			cell.dataset.run = String(r);
			cell.hidden = true;
			cell.style.cssText = 'position:absolute;box-sizing:border-box;border:1px solid #14181c;pointer-events:none;';
			const label = document.createElement('span');
			label.className = 'grid-label';
			label.style.cssText =
				'position:absolute;left:50%;transform:translateX(-50%);top:8px;padding:2px 8px;white-space:nowrap;' +
				`background:rgba(20,24,28,0.8);border:1px solid ${run.color};border-radius:5px;color:${run.color};`;
			label.textContent = run.method;
			cell.append(label);
			this.stage.container.append(cell);
			return cell;
		});
		new ResizeObserver(() => this.layoutCells()).observe(this.stage.container);
	}

	/** The view of run r in the grid, in CSS pixels of the canvas: x, y (from the top left), w, h. */
	cellRect(r) {
		const n = this.runs.length;
		const cols = Math.ceil(Math.sqrt(n));
		const rows = Math.ceil(n / cols);
		const width = Math.max(cols, this.stage.container.clientWidth);
		const height = Math.max(rows, this.stage.container.clientHeight);
		// whole pixels, so that neighbouring views neither overlap nor leave a seam
		const x0 = Math.round(((r % cols) * width) / cols);
		const x1 = Math.round((((r % cols) + 1) * width) / cols);
		const y0 = Math.round((Math.floor(r / cols) * height) / rows);
		const y1 = Math.round(((Math.floor(r / cols) + 1) * height) / rows);
		return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
	}

	layoutCells() {
		this.cells.forEach((cell, r) => {
			const { x, y, w, h } = this.cellRect(r);
			Object.assign(cell.style, { left: `${x}px`, top: `${y}px`, width: `${w}px`, height: `${h}px` });
		});
	}

	/** Shows the runs in a grid of views (on) or overlaid as ghosts (off). */
	setGrid(on) {
		this.grid = Boolean(on);
		// alone in its view a run's bodies need not show through another's: drawn solid
		for (const material of this.materials) {
			material.transparent = !this.grid;
			material.opacity = this.grid ? 1 : 0.45;
			material.depthWrite = this.grid;
			material.needsUpdate = true;
		}
		for (const cell of this.cells) cell.hidden = !this.grid;
		// the legend's own display (flex) would win over the hidden attribute
		document.getElementById('legend').style.display = this.grid ? 'none' : 'flex';
		this.layoutCells();
		this.stage.draw = this.grid ? (renderer, scene, camera) => this.drawGrid(renderer, scene, camera) : null;
		this.stage.invalidate();
		return this.grid;
	}

	// with the camera's aspect made that of run r's view (the stage's own is put back after)
	withCellCamera(r, camera, what) {
		const aspect = camera.aspect;
		const { w, h } = this.cellRect(r);
		camera.aspect = w / h;
		camera.updateProjectionMatrix();
		try {
			return what();
		} finally {
			camera.aspect = aspect;
			camera.updateProjectionMatrix();
		}
	}

	drawGrid(renderer, scene, camera) {
		const width = this.stage.container.clientWidth;
		const height = this.stage.container.clientHeight;
		renderer.setScissorTest(true);
		this.runs.forEach((_, r) => {
			const { x, y, w, h } = this.cellRect(r);
			// viewports count from the canvas's bottom left, in CSS pixels (three.js scales them)
			renderer.setViewport(x, height - y - h, w, h);
			renderer.setScissor(x, height - y - h, w, h);
			this.ghosts.forEach((ghosts, q) => {
				for (const group of ghosts.values()) group.visible = q === r && this.present[q];
			});
			this.withCellCamera(r, camera, () => renderer.render(scene, camera));
		});
		this.ghosts.forEach((ghosts, q) => {
			for (const group of ghosts.values()) group.visible = this.present[q];
		});
		renderer.setScissorTest(false);
		renderer.setViewport(0, 0, width, height);
	}

	/** What the tests read of the grid: per view its method, colour, rectangle and label (page pixels). */
	describeGrid() {
		const canvas = this.stage.renderer.domElement.getBoundingClientRect();
		return this.runs.map((run, r) => {
			const rect = this.cellRect(r);
			const label = this.cells[r].querySelector('.grid-label');
			const box = label.getBoundingClientRect();
			return {
				method: run.method,
				color: run.color,
				rect: { x: canvas.left + rect.x, y: canvas.top + rect.y, w: rect.w, h: rect.h },
				label: this.cells[r].hidden ? null : { text: label.textContent, x: box.left, y: box.top, w: box.width, h: box.height },
			};
		});
	}

	/** Where run r's ghost of the body named name is drawn in its view of the grid (page pixels). */
	projectInGrid(r, name) {
		const i = this.scene.bodies.findIndex((b) => b.name === name);
		const group = this.ghosts[r] ? this.ghosts[r].get(i) : undefined;
		if (!group) return null;
		const camera = this.stage.camera;
		const p = this.withCellCamera(r, camera, () => group.position.clone().project(camera));
		const canvas = this.stage.renderer.domElement.getBoundingClientRect();
		const rect = this.cellRect(r);
		return {
			x: canvas.left + rect.x + ((p.x + 1) / 2) * rect.w,
			y: canvas.top + rect.y + ((1 - p.y) / 2) * rect.h,
			visible: p.z > -1 && p.z < 1 && Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1,
		};
	}

	makeLegend() {
		const legend = document.createElement('div');
		legend.id = 'legend';
		legend.style.cssText =
			'position:absolute;left:50%;transform:translateX(-50%);top:10px;display:flex;gap:12px;padding:4px 10px;' +
			'background:rgba(20,24,28,0.8);border:1px solid #3b434c;border-radius:6px;';
		this.runs.forEach((run, r) => {
			const item = document.createElement('span');
			item.className = 'legend-run';
			const swatch = document.createElement('span');
			swatch.style.cssText = `display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:5px;vertical-align:-1px;background:${run.color}`;
			item.append(swatch, document.createTextNode(run.method));
			item.dataset.run = String(r);
			legend.append(item);
		});
		document.body.append(legend);
	}

	/** Places every run's ghosts at frame index (hidden where a run has not got that far). */
	show(index) {
		this.index = index;
		this.runs.forEach((_, r) => {
			const frame = this.stores[r].frame(index);
			this.present[r] = Boolean(frame);
			for (const [i, group] of this.ghosts[r]) {
				group.visible = Boolean(frame);
				if (!frame) continue;
				const o = 1 + 7 * i;
				group.position.set(frame[o], frame[o + 1], frame[o + 2]);
				group.quaternion.set(frame[o + 4], frame[o + 5], frame[o + 6], frame[o + 3]);
			}
		});
		this.stage.invalidate();
	}

	/** What the tests read: per run its method, colour, frames loaded, and the ghosts shown. */
	describe() {
		return this.runs.map((run, r) => ({
			method: run.method,
			color: run.color,
			loaded: this.stores[r].loaded,
			complete: this.stores[r].complete,
			ghosts: [...this.ghosts[r].values()].filter((g) => g.visible).length,
		}));
	}

	/** The drawn position of a run's ghost of the body named name, or null. */
	ghostPosition(run, name) {
		const i = this.scene.bodies.findIndex((b) => b.name === name);
		const group = this.ghosts[run] ? this.ghosts[run].get(i) : undefined;
		return group ? group.position.toArray() : null;
	}

	/** A cut at frame `from` made every run's frames from there again: the other runs load them anew (the first run's store is the page's own). */
	invalidate(from) {
		for (const s of this.stores) if (s instanceof RunFrames) s.invalidate(from);
	}

	/** Frames every run has loaded (the shortest run's). */
	get loadedEverywhere() {
		return Math.min(...this.stores.map((s) => s.loaded));
	}
}
