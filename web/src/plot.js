// The live energy plot under the timeline (uPlot): kinetic, potential and total energy of a scene
// as the server measured them while simulating (/api/quantities), or its linear momentum, or its
// angular momentum about the world origin, with a
// cursor at the frame shown; with `cairn view --compare`, the total energy (or the momentum's size)
// of every method in its colour, so one sees where the methods part ways. A recording holds poses
// only, not masses: the plot then says that energy is not available for recordings.
import uPlot from 'uplot';
import { getJson } from './api.js';

const HEIGHT = 150;
const BAR = 56;
// what uPlot needs of its stylesheet (uPlot.min.css), small enough to keep here
const CSS = `
#plot { position: absolute; left: 0; right: 0; bottom: 0; height: ${HEIGHT}px; background: #14181c;
	border-top: 1px solid #2f363d; box-sizing: border-box; padding: 2px 8px 0 4px; }
#plot-head { position: absolute; right: 12px; top: 4px; z-index: 2; display: flex; gap: 8px; align-items: center; }
#plot-head select { background: #2a3139; color: #e8e8e8; border: 1px solid #3d4650; border-radius: 4px; }
#plot-note { position: absolute; left: 16px; top: 50px; color: #b8c4cf; }
#plot .uplot { font: 11px system-ui, sans-serif; color: #d0d6dc; }
#plot .u-wrap { position: relative; user-select: none; }
#plot .u-over, #plot .u-under { position: absolute; }
#plot .u-under { overflow: hidden; }
#plot .uplot canvas { display: block; position: relative; width: 100%; height: 100%; }
#plot .u-axis { position: absolute; }
#plot .u-legend { font-size: 11px; margin: 0 auto; text-align: center; line-height: 1.3; }
#plot .u-inline { display: block; }
#plot .u-inline * { display: inline-block; }
#plot .u-inline tr { margin-right: 14px; }
#plot .u-legend th { font-weight: 600; }
#plot .u-legend th > * { vertical-align: middle; display: inline-block; }
#plot .u-legend .u-marker { width: 1em; height: 3px; margin-right: 4px; }
#plot .u-legend .u-off > * { opacity: 0.3; }
#plot .u-select { background: rgba(255,255,255,0.07); position: absolute; pointer-events: none; }
#plot .u-cursor-x, #plot .u-cursor-y { position: absolute; left: 0; top: 0; pointer-events: none; will-change: transform; }
#plot .u-hz .u-cursor-x, #plot .u-vt .u-cursor-y { height: 100%; border-right: 1px dashed #8a96a3; }
#plot .u-hz .u-cursor-y, #plot .u-vt .u-cursor-x { width: 100%; border-bottom: 1px dashed #8a96a3; }
#plot .u-cursor-pt { position: absolute; top: 0; left: 0; border-radius: 50%; border: 0 solid; pointer-events: none; }
#plot-frame { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px solid #ffd479; pointer-events: none; }
`;

/** The energy or momentum plot of one or more runs. */
export class EnergyPlot {
	/**
	 * runs: [{ method, color }] (one for a plain view); onSeek(time) is called when the plot is
	 * clicked.
	 */
	constructor(scene, runs, onSeek) {
		this.scene = scene;
		this.runs = runs;
		this.onSeek = onSeek;
		this.available = scene.source === 'scene';
		this.mode = 'energy';
		this.time = 0;
		// per run: the frames' measured rows [t, kinetic, potential, total, px, py, pz, Lx, Ly, Lz]
		this.rows = runs.map(() => []);
		this.complete = runs.map(() => false);
		this.makePanel();
		if (this.available) this.poll();
	}

	makePanel() {
		const style = document.createElement('style');
		style.textContent = CSS;
		document.head.append(style);
		// the plot lies under the timeline: the bar and the view move up to make room
		const view = document.getElementById('view');
		const bar = document.getElementById('bar');
		if (view) view.style.bottom = `${BAR + HEIGHT}px`;
		if (bar) bar.style.bottom = `${HEIGHT}px`;
		this.panel = document.createElement('div');
		this.panel.id = 'plot';
		const head = document.createElement('div');
		head.id = 'plot-head';
		const select = document.createElement('select');
		select.id = 'plot-mode';
		for (const [value, label] of [
			['energy', 'energy'],
			['momentum', 'momentum'],
			['angular', 'angular momentum'],
		]) {
			const option = document.createElement('option');
			option.value = value;
			option.textContent = label;
			select.append(option);
		}
		select.addEventListener('change', () => {
			this.mode = select.value;
			this.rebuild();
		});
		head.append(select);
		this.panel.append(head);
		document.body.append(this.panel);
		if (!this.available) {
			select.disabled = true;
			const note = document.createElement('div');
			note.id = 'plot-note';
			note.textContent = 'energy and momentum: not available for recordings (they hold poses, not masses or velocities); view the scene instead';
			this.panel.append(note);
			return;
		}
		this.rebuild();
		new ResizeObserver(() => {
			if (this.plot) this.plot.setSize(this.size());
		}).observe(this.panel);
	}

	size() {
		return { width: Math.max(100, this.panel.clientWidth - 12), height: HEIGHT - 34 };
	}

	// The series shown: one run's energies or momentum, or each run's total energy or |p|.
	seriesDefs() {
		if (this.runs.length === 1) {
			return this.mode === 'energy'
				? [
						{ label: 'kinetic (J)', stroke: '#5fb3f0', column: 1 },
						{ label: 'potential (J)', stroke: '#9ccc65', column: 2 },
						{ label: 'total (J)', stroke: '#ffd479', column: 3, width: 2 },
					]
				: this.mode === 'momentum'
					? [
							{ label: 'px (kg m/s)', stroke: '#ef7b6b', column: 4 },
							{ label: 'py (kg m/s)', stroke: '#9ccc65', column: 5 },
							{ label: 'pz (kg m/s)', stroke: '#5fb3f0', column: 6 },
						]
					: [
							{ label: 'Lx (kg m²/s)', stroke: '#ef7b6b', column: 7 },
							{ label: 'Ly (kg m²/s)', stroke: '#9ccc65', column: 8 },
							{ label: 'Lz (kg m²/s)', stroke: '#5fb3f0', column: 9 },
							{ label: '|L| (kg m²/s)', stroke: '#ffd479', column: -2, width: 2 },
						];
		}
		const labels = { energy: 'E (J)', momentum: '|p| (kg m/s)', angular: '|L| (kg m²/s)' };
		const columns = { energy: 3, momentum: -1, angular: -2 };
		return this.runs.map((run, i) => ({
			label: `${run.method} ${labels[this.mode]}`,
			stroke: run.color,
			run: i,
			column: columns[this.mode],
		}));
	}

	// Columns for uPlot: times of the run with the most frames, then each series (null where a run
	// has not got that far).
	data() {
		let longest = 0;
		this.rows.forEach((rows, i) => {
			if (rows.length > this.rows[longest].length) longest = i;
		});
		const x = this.rows[longest].map((r) => r[0]);
		const columns = [x];
		for (const s of this.defs) {
			const rows = this.rows[s.run || 0];
			const y = new Array(x.length);
			for (let k = 0; k < x.length; ++k) {
				const r = rows[k];
				// column -1: |p|, -2: |L| about the origin
				y[k] = r === undefined ? null : s.column >= 0 ? r[s.column] : s.column === -1 ? Math.hypot(r[4], r[5], r[6]) : Math.hypot(r[7], r[8], r[9]);
			}
			columns.push(y);
		}
		return columns;
	}

	rebuild() {
		if (this.plot) this.plot.destroy();
		this.defs = this.seriesDefs();
		const options = {
			...this.size(),
			scales: { x: { time: false } },
			axes: [
				{ stroke: '#b8c4cf', grid: { stroke: '#2a3139' }, ticks: { stroke: '#3d4650' }, label: 't (s)', labelSize: 14, size: 30 },
				{ stroke: '#b8c4cf', grid: { stroke: '#2a3139' }, ticks: { stroke: '#3d4650' }, size: 60 },
			],
			cursor: { y: false },
			legend: { live: true },
			series: [{ label: 't (s)' }, ...this.defs.map((s) => ({ label: s.label, stroke: s.stroke, width: s.width || 1.5, spanGaps: false }))],
		};
		this.plot = new uPlot(options, this.data(), this.panel);
		this.marker = document.createElement('div');
		this.marker.id = 'plot-frame';
		this.plot.over.append(this.marker);
		this.plot.over.addEventListener('click', (e) => {
			const t = this.plot.posToVal(e.offsetX, 'x');
			if (Number.isFinite(t) && this.onSeek) this.onSeek(t);
		});
		this.placeMarker();
	}

	/** Moves the cursor to the frame shown (its time in seconds). */
	setTime(t) {
		this.time = t;
		this.placeMarker();
	}

	placeMarker() {
		if (!this.plot || !this.marker) return;
		const x = this.plot.valToPos(this.time, 'x');
		this.marker.style.left = `${Number.isFinite(x) ? x : 0}px`;
	}

	// Loads the new rows of every run until all are complete.
	async poll() {
		for (;;) {
			let changed = false;
			let done = true;
			for (let i = 0; i < this.runs.length; ++i) {
				if (this.complete[i]) continue;
				try {
					const q = await getJson(`/api/quantities?from=${this.rows[i].length}&run=${i}`);
					if (q.count > 0) {
						for (const row of q.quantities) this.rows[i].push(row);
						changed = true;
					}
					this.complete[i] = q.complete && this.rows[i].length >= q.frameCount;
				} catch (error) {
					this.error = error.message;
				}
				done = done && this.complete[i];
			}
			if (changed) {
				this.plot.setData(this.data());
				this.placeMarker();
			}
			if (done) return;
			await new Promise((resolve) => setTimeout(resolve, 400));
		}
	}

	/** What the tests read: whether the plot has data, its series, the rows loaded and the cursor. */
	describe() {
		return {
			available: this.available,
			mode: this.mode,
			series: this.defs ? this.defs.map((s) => s.label) : [],
			rows: this.rows.map((r) => r.length),
			complete: this.complete.slice(),
			time: this.time,
			markerX: this.marker ? parseFloat(this.marker.style.left) : NaN,
		};
	}

	/** The measured rows of a run: [t, kinetic, potential, total, px, py, pz, Lx, Ly, Lz] per frame. */
	quantities(run = 0) {
		return this.rows[run] || [];
	}
}
