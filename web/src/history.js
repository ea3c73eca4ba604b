// Sync points (AERO's animation window, Keller et al. 1993, section 2.2): a button marks the frame
// shown as a sync point, and two buttons beside the video recorder's go back and forward one sync
// point. The marks live on the server (GET/POST /api/sync, docs/viewer.md) and are drawn as ticks
// on the timeline, with the last cut as a red tick.
const $ = (id) => document.getElementById(id);

/** POSTs a JSON body; resolves with { ok, status, body } (the server's JSON answer), never throws on 4xx. */
export async function postJson(path, body) {
	const response = await fetch(path, {
		method: 'POST',
		cache: 'no-store',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = await response.json().catch(() => ({ error: `${path}: ${response.status}` }));
	return { ok: response.ok, status: response.status, body: answer };
}

const CSS = `
#sync-ticks { position: absolute; top: 8px; height: 8px; pointer-events: none; }
#sync-ticks span { position: absolute; top: 0; width: 2px; height: 8px; margin-left: -1px; background: #f0c040; }
#sync-ticks span.cut { background: #ff6a5a; }
`;

const ICONS = {
	// a flag on a pole
	mark: 'M4 2h1.5v12H4zM6 2.5h7l-2 3 2 3H6z',
	// back to the mark before: a bar, then a double triangle
	back: 'M2 3h2v10H2zM9 3v10L4.5 8zM14 3v10L9.5 8z',
	// forward to the next mark
	forward: 'M12 3h2v10h-2zM7 3v10l4.5-5zM2 3v10l4.5-5z',
};

function button(id, title, icon) {
	const b = document.createElement('button');
	b.id = id;
	b.title = title;
	b.innerHTML = `<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="${icon}"/></svg>`;
	return b;
}

/** The sync points: buttons, ticks on the timeline, and the server's list. */
export class History {
	/** player: the Player (its seek and the frame it shows); store: the FrameStore. */
	constructor(player, store) {
		this.player = player;
		this.store = store;
		this.points = [];
		this.cutFrame = -1;
		this.cuts = 0;
		this.error = '';
		const style = document.createElement('style');
		style.textContent = CSS;
		document.head.append(style);

		const end = $('vcr-end');
		this.backButton = button('sync-back', 'back one sync point (PageUp)', ICONS.back);
		this.forwardButton = button('sync-forward', 'forward one sync point (PageDown)', ICONS.forward);
		this.markButton = button('sync-mark', 'mark the frame shown as a sync point (M); again to unmark it', ICONS.mark);
		end.after(this.backButton, this.forwardButton, this.markButton);
		this.backButton.addEventListener('click', () => this.back());
		this.forwardButton.addEventListener('click', () => this.forward());
		this.markButton.addEventListener('click', () => this.toggleMark());
		window.addEventListener('keydown', (e) => {
			if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
			const actions = { PageUp: () => this.back(), PageDown: () => this.forward(), m: () => this.toggleMark() };
			if (actions[e.key]) {
				e.preventDefault();
				actions[e.key]();
			}
		});

		this.timeline = $('timeline');
		this.ticks = document.createElement('div');
		this.ticks.id = 'sync-ticks';
		this.timeline.after(this.ticks);
		window.addEventListener('resize', () => this.drawTicks());
		this.refresh();
	}

	/** The frame shown now. */
	current() {
		return this.player.shown < 0 ? 0 : this.player.shown;
	}

	/** Takes the server's answer ({ syncPoints, cutFrame, cuts }). */
	update(answer) {
		if (!answer || !Array.isArray(answer.syncPoints)) return;
		this.points = answer.syncPoints.slice().sort((a, b) => a - b);
		this.cutFrame = typeof answer.cutFrame === 'number' ? answer.cutFrame : -1;
		this.cuts = answer.cuts || 0;
		this.drawTicks();
	}

	async refresh() {
		try {
			const response = await fetch('/api/sync', { cache: 'no-store' });
			if (response.ok) this.update(await response.json());
		} catch (error) {
			this.error = error.message;
		}
	}

	/** Marks a frame (the one shown by default) as a sync point; resolves with the list. */
	async mark(frame = this.current(), remove = false) {
		const r = await postJson('/api/sync', remove ? { frame, remove: true } : { frame });
		if (r.ok) this.update(r.body);
		else this.error = r.body.error || String(r.status);
		return this.points.slice();
	}

	toggleMark() {
		const frame = this.current();
		return this.mark(frame, this.points.includes(frame));
	}

	/** Goes to the sync point before the frame shown (frame 0 when there is none). */
	back() {
		const here = this.current();
		let to = 0;
		for (const p of this.points) if (p < here) to = p;
		this.player.setPlaying(false);
		this.player.seek(to);
		return to;
	}

	/** Goes to the sync point after the frame shown (the last frame loaded when there is none). */
	forward() {
		const here = this.current();
		const next = this.points.find((p) => p > here);
		const to = next === undefined ? this.player.last_() : next;
		this.player.setPlaying(false);
		this.player.seek(to);
		return to;
	}

	/** Places the ticks over the timeline (called when the frames or the marks change). */
	drawTicks() {
		const t = this.timeline;
		const max = Number(t.max) || 0;
		this.ticks.style.left = `${t.offsetLeft}px`;
		this.ticks.style.width = `${t.offsetWidth}px`;
		this.ticks.innerHTML = '';
		// the thumb's centre runs from half a thumb in from each end (about 8 px in Chromium)
		const inset = 8;
		const span = Math.max(0, t.offsetWidth - 2 * inset);
		const place = (frame, cls) => {
			if (max <= 0 || frame > max) return;
			const tick = document.createElement('span');
			if (cls) tick.className = cls;
			tick.style.left = `${inset + (frame / max) * span}px`;
			tick.title = `${cls === 'cut' ? 'cut' : 'sync point'} at frame ${frame}`;
			tick.dataset.frame = String(frame);
			this.ticks.append(tick);
		};
		for (const p of this.points) place(p, '');
		if (this.cutFrame >= 0) place(this.cutFrame, 'cut');
	}
}
