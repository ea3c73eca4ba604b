// Snapping: positions to a grid and rotations to an angle step while dragging in the views (and
// new bodies to the grid), switched on and off with a toggle; the steps are the user's.

export class Snap {
	constructor() {
		this.on = true;
		/** grid step, m */
		this.grid = 0.25;
		/** angle step, degrees */
		this.angle = 15;
	}

	/** A coordinate on the grid (as it is when snapping is off or the step is not positive). */
	position(x) {
		if (!this.on || !(this.grid > 0)) return x;
		const s = Math.round(x / this.grid) * this.grid;
		// round off the step's binary error (0.1 * 3 = 0.30000000000000004)
		return Number(s.toPrecision(12)) + 0;
	}

	/** An angle in degrees on the angle step. */
	rotation(degrees) {
		if (!this.on || !(this.angle > 0)) return degrees;
		return Number((Math.round(degrees / this.angle) * this.angle).toPrecision(12)) + 0;
	}
}
