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
