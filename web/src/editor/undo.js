// Undo and redo over every edit: the document is small, so each step keeps the whole document as
// text (an edit of any kind is undone the same way, and no edit needs an inverse of its own).

/** Two stacks of documents as text. */
export class UndoStack {
	constructor(limit = 500) {
		this.limit = limit;
		this.done = [];
		this.undone = [];
	}

	/** Keeps the document as it was before an edit; a new edit forgets what was undone. */
	push(before) {
		this.done.push(before);
		if (this.done.length > this.limit) this.done.shift();
		this.undone.length = 0;
	}

	get canUndo() {
		return this.done.length > 0;
	}

	get canRedo() {
		return this.undone.length > 0;
	}

	/** The document before the last edit (current: the document now, kept for redo), or null. */
	undo(current) {
		if (!this.canUndo) return null;
		this.undone.push(current);
		return this.done.pop();
	}

	/** The document the last undo left (current kept for undo), or null. */
	redo(current) {
		if (!this.canRedo) return null;
		this.done.push(current);
		return this.undone.pop();
	}
}

// The history outlives apply: applying reloads the page, so the document and both stacks are kept in
// the tab's sessionStorage with the scene the viewer then simulates, as the library writes it
// (/api/save/scene). The editor opened again takes them back only while the viewer still simulates
// that very scene (no cut since, no other page's apply), so an undo never lands on another scene.
const KEY = 'cairn.editor.history';

/** Keeps the document and the stacks for the page that loads next (written: /api/save/scene's text). */
export function keepHistory(written, doc, stack) {
	const done = stack.done.slice();
	for (;;) {
		try {
			sessionStorage.setItem(KEY, JSON.stringify({ written, doc, done, undone: stack.undone }));
			return true;
		} catch {
			// over the storage quota: drop the oldest steps, and at last the whole history
			if (done.length === 0) return false;
			done.splice(0, Math.ceil(done.length / 2));
		}
	}
}

/** The document and stacks kept by keepHistory, when written is the scene they were kept with; else null. */
export function takeHistory(written, stack) {
	let kept = null;
	try {
		kept = JSON.parse(sessionStorage.getItem(KEY) || 'null');
		sessionStorage.removeItem(KEY);
	} catch {
		return null;
	}
	if (!kept || kept.written !== written) return null;
	stack.done = kept.done;
	stack.undone = kept.undone;
	return kept.doc;
}
