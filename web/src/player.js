// Playback: AERO's video recorder buttons (to start, back one frame, play/stop, forward one frame,
// to end), the timeline, speed and loop, and the keys Space, Left, Right, Home and End. The playhead
// moves in simulated time (speed 1: real time) over the frames loaded so far; when it reaches
// them while the server is still simulating, it waits for more.
const $ = (id) => document.getElementById(id);

export class Player {
	constructor(store, fps, show) {
		this.store = store;
		this.fps = fps > 0 ? fps : 60;
		this.show = show;
		this.playing = false;
		/** the playhead, in frames (fractional while playing) */
		this.position = 0;
		this.speed = 1;
		this.loop = true;
		this.last = null;
		this.shown = -1;

		this.playButton = $('vcr-play');
		this.timeline = $('timeline');
		this.clock = $('clock');
		$('vcr-start').addEventListener('click', () => this.seek(0));
		$('vcr-back').addEventListener('click', () => this.step(-1));
		this.playButton.addEventListener('click', () => this.toggle());
		$('vcr-forward').addEventListener('click', () => this.step(1));
		$('vcr-end').addEventListener('click', () => this.seek(this.last_()));
		// scrubbing stops playback, as a hand on a tape does
		this.timeline.addEventListener('input', () => {
			this.setPlaying(false);
			this.seek(Number(this.timeline.value));
		});
		const speed = $('speed');
		speed.addEventListener('change', () => {
			this.speed = Number(speed.value) || 1;
		});
		const loop = $('loop');
		this.loop = loop.checked;
		loop.addEventListener('change', () => {
			this.loop = loop.checked;
		});
		window.addEventListener('keydown', (e) => {
			if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
			const actions = {
				' ': () => this.toggle(),
				ArrowLeft: () => this.step(-1),
				ArrowRight: () => this.step(1),
				Home: () => this.seek(0),
				End: () => this.seek(this.last_()),
			};
			if (actions[e.key]) {
				e.preventDefault();
				actions[e.key]();
			}
		});
	}

	// the last frame that can be shown now
	last_() {
		return Math.max(0, this.store.loaded - 1);
	}

	setPlaying(on) {
		this.playing = on;
		this.last = null;
		// play shows a triangle, stop (while playing) a square
		this.playButton.querySelector('path').setAttribute('d', on ? 'M3.5 3.5h9v9h-9z' : 'M4 2.5v11L13.5 8z');
		this.playButton.classList.toggle('on', on);
	}

	toggle() {
		// play from the start again when stopped at the end of a finished run
		if (!this.playing && this.store.complete && Math.floor(this.position) >= this.last_()) this.position = 0;
		this.setPlaying(!this.playing);
		this.update();
	}

	step(delta) {
		this.setPlaying(false);
		this.seek(Math.round(this.position) + delta);
	}

	seek(frame) {
		this.position = Math.max(0, Math.min(this.last_(), Math.round(frame)));
		this.update();
	}

	/** Called when frames arrive: the timeline grows. */
	framesChanged() {
		this.timeline.max = String(this.last_());
		this.update();
	}

	/** Advances the playhead by the wall time since the last call. */
	tick(now) {
		if (this.playing) {
			if (this.last !== null) {
				const dt = Math.min(0.25, (now - this.last) / 1000);
				this.position += dt * this.fps * this.speed;
				const end = this.last_();
				if (this.position > end) {
					if (!this.store.complete) {
						// the server is still simulating: wait at the newest frame
						this.position = end;
					} else if (this.loop) {
						this.position = 0;
					} else {
						this.position = end;
						this.setPlaying(false);
					}
				}
			}
			this.last = now;
		}
		this.update();
	}

	update() {
		const frame = Math.max(0, Math.min(this.last_(), Math.floor(this.position)));
		if (this.store.loaded === 0) return;
		this.show(frame);
		if (frame !== this.shown) {
			this.shown = frame;
			this.timeline.value = String(frame);
		}
		const t = this.store.time(frame);
		this.clock.textContent = `t = ${t.toFixed(3)} s   frame ${frame} / ${this.last_()}`;
	}
}
