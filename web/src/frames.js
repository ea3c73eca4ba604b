// The page's copy of the frames: loaded from the server in chunks, in order, and kept, so any
// frame already seen is shown at once. While a scene is still being simulated on the server, the
// status is polled and new frames are loaded as they appear.
import { getFrames, getJson } from './api.js';

export class FrameStore {
	constructor(stride, frameCount, complete) {
		this.stride = stride;
		/** frames the server has (grows while it simulates) */
		this.frameCount = frameCount;
		this.complete = complete;
		this.message = '';
		/** frames loaded here: always frames 0..loaded-1 */
		this.loaded = 0;
		// chunks of chunkFrames frames each (the last may be shorter and grows)
		this.chunkFrames = Math.max(1, Math.min(512, Math.floor((1 << 20) / stride)));
		this.chunks = [];
		this.listeners = [];
		this.error = null;
		// whether run() is going; bumped by invalidate() so that answers asked for before are dropped
		this.running = false;
		this.generation = 0;
	}

	/**
	 * Drops the frames from `from` on (a cut made them again on the server) and loads them anew;
	 * frames 0..from-1 are kept.
	 */
	invalidate(from) {
		const keep = Math.max(0, Math.min(Math.floor(from), this.loaded));
		this.generation += 1;
		const chunkIndex = Math.floor(keep / this.chunkFrames);
		const inChunk = keep % this.chunkFrames;
		this.chunks.length = chunkIndex + (inChunk > 0 ? 1 : 0);
		if (inChunk > 0) this.chunks[chunkIndex] = this.chunks[chunkIndex].slice(0, inChunk * this.stride);
		this.loaded = keep;
		this.frameCount = keep;
		this.complete = false;
		this.message = '';
		this.changed();
		if (!this.running) this.run();
	}

	/** Calls fn() whenever frames arrive or the status changes. */
	onChange(fn) {
		this.listeners.push(fn);
	}

	changed() {
		for (const fn of this.listeners) fn();
	}

	/** The numbers of a loaded frame (a view into its chunk), or null. */
	frame(index) {
		if (index < 0 || index >= this.loaded) return null;
		const chunk = this.chunks[Math.floor(index / this.chunkFrames)];
		const offset = (index % this.chunkFrames) * this.stride;
		return chunk.subarray(offset, offset + this.stride);
	}

	/** Time of a loaded frame (NaN when not loaded). */
	time(index) {
		const f = this.frame(index);
		return f ? f[0] : NaN;
	}

	/** Loads every frame the server has, then keeps polling until the server says it is done. */
	async run() {
		this.running = true;
		try {
			await this.runLoop();
		} finally {
			this.running = false;
		}
	}

	async runLoop() {
		for (;;) {
			try {
				if (this.loaded < this.frameCount) {
					await this.loadNext();
					continue;
				}
				if (this.complete) return;
				await new Promise((resolve) => setTimeout(resolve, 300));
				const generation = this.generation;
				const status = await getJson('/api/status');
				if (generation !== this.generation) continue;
				if (status.frameCount !== this.frameCount || status.complete !== this.complete) {
					this.frameCount = status.frameCount;
					this.complete = status.complete;
					this.message = status.message || '';
					this.changed();
				}
			} catch (error) {
				this.error = error;
				this.changed();
				// the server went away or failed: try again a little later
				await new Promise((resolve) => setTimeout(resolve, 2000));
			}
		}
	}

	// Loads the rest of the chunk the next frame falls in (aligned, so a frame's chunk is index / size).
	async loadNext() {
		const chunkIndex = Math.floor(this.loaded / this.chunkFrames);
		const inChunk = this.loaded % this.chunkFrames;
		const generation = this.generation;
		const { numbers, count } = await getFrames(this.loaded, this.chunkFrames - inChunk, this.stride);
		// a cut dropped frames while this was asked for: ask again
		if (generation !== this.generation) return;
		if (count === 0) {
			// fewer frames than the status said: ask again after the next poll
			this.frameCount = this.loaded;
			return;
		}
		const used = count * this.stride;
		const old = this.chunks[chunkIndex];
		if (old === undefined) {
			this.chunks[chunkIndex] = numbers.slice(0, used);
		} else {
			const grown = new Float64Array(old.length + used);
			grown.set(old);
			grown.set(numbers.subarray(0, used), old.length);
			this.chunks[chunkIndex] = grown;
		}
		this.loaded += count;
		this.frameCount = Math.max(this.frameCount, this.loaded);
		this.error = null;
		this.changed();
	}
}
