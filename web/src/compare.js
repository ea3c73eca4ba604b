// Methods side by side (`cairn view --compare`): the server simulates one scene in several contact
// methods, each a run of its own (/api/frames?run=I, /api/status?run=I); the page draws every
// run's moving bodies as translucent ghosts in one colour per method, in one view under one
// timeline, with a legend, so one sees where the methods part ways. Static bodies are the same in
// every run and are drawn once, as usual.
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

	async load() {
		for (;;) {
			try {
				const status = await getJson(`/api/status?run=${this.run}`);
				this.frameCount = status.frameCount;
				this.message = status.message || '';
				if (this.loaded < this.frameCount) {
					const { numbers, count } = await getFrames(this.loaded, this.frameCount - this.loaded, this.stride, this.run);
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

	/** Frames every run has loaded (the shortest run's). */
	get loadedEverywhere() {
		return Math.min(...this.stores.map((s) => s.loaded));
	}
}
