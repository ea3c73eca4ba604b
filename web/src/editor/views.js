// AERO's four views (Keller et al. 1993, section 2.1, figure 2): top, front and side in parallel
// (orthographic) projection and the perspective view, in a 2x2 layout on one canvas (one renderer,
// four viewports). A click picks a body in any view (with Ctrl or Shift it adds to the selection,
// to join two bodies); dragging a picked body in an ortho view moves it in that view's plane, or
// turns it about the view's axis in the rotate tool, or, in the scale tool, drags the side of the
// shape under the pointer (sphere radius, box half extents, capsule and cylinder radius and half
// height) to a new size; dragging elsewhere pans an ortho view, the wheel zooms it; the perspective
// view orbits as the player's does.
import {
	Color,
	DirectionalLight,
	GridHelper,
	HemisphereLight,
	OrthographicCamera,
	PerspectiveCamera,
	Quaternion,
	Raycaster,
	Scene,
	Vector2,
	Vector3,
	WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { makeBodies, shapeReach } from '../shapes.js';
import { BACKGROUND } from '../stage.js';

// each ortho view: the world axes along its screen's right (u) and up (v), where its camera looks
// from, and the axis towards the viewer (a counter-clockwise turn on screen is positive about it)
const ORTHO = {
	top: { u: new Vector3(1, 0, 0), v: new Vector3(0, 1, 0), toViewer: new Vector3(0, 0, 1), label: 'top (x right, y up)' },
	front: { u: new Vector3(1, 0, 0), v: new Vector3(0, 0, 1), toViewer: new Vector3(0, -1, 0), label: 'front (x right, z up)' },
	side: { u: new Vector3(0, 1, 0), v: new Vector3(0, 0, 1), toViewer: new Vector3(1, 0, 0), label: 'side (y right, z up)' },
};

/** The quadrant of each view: column, row (row 0 at the top of the canvas). */
export const LAYOUT = { top: [0, 0], perspective: [1, 0], front: [0, 1], side: [1, 1] };

export class FourViews {
	/**
	 * container: the element the canvas fills; hooks: pick(index, add), drag(index, position,
	 * quaternion, done), scale(index, shape, sizes), tool() ('move', 'rotate' or 'scale'), snap (a Snap).
	 */
	constructor(container, hooks) {
		this.container = container;
		this.hooks = hooks;
		this.renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
		this.renderer.setPixelRatio(window.devicePixelRatio || 1);
		this.renderer.setScissorTest(true);
		this.canvas = this.renderer.domElement;
		container.appendChild(this.canvas);
		this.scene = new Scene();
		this.scene.background = new Color(BACKGROUND);
		this.scene.add(new HemisphereLight(0xdde6f0, 0x3a3128, 1.6));
		const sun = new DirectionalLight(0xffffff, 1.8);
		sun.position.set(0.4, -0.3, 1);
		this.scene.add(sun);
		this.bodies = [];
		this.selected = [];
		this.center = new Vector3(0, 0, 0.5);
		this.cameras = {};
		for (const [name, view] of Object.entries(ORTHO)) {
			const camera = new OrthographicCamera(-1, 1, 1, -1, 0.01, 1000);
			camera.up.copy(view.v);
			camera.userData = { name, view, halfHeight: 3, center: new Vector3() };
			this.cameras[name] = camera;
		}
		// each grid is seen in its own view only (layers 1 to 3), the xy one in the 3D view too
		this.grids = [];
		// my listeners come before OrbitControls' own: they say which view a gesture is in first
		this.canvas.addEventListener('pointerdown', (e) => this.down(e));
		this.canvas.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
		this.perspective = new PerspectiveCamera(45, 1, 0.01, 1000);
		this.perspective.up.set(0, 0, 1);
		this.perspective.layers.enable(1);
		this.controls = new OrbitControls(this.perspective, this.canvas);
		this.controls.addEventListener('change', () => this.invalidate());
		this.canvas.addEventListener('pointermove', (e) => this.move(e));
		this.canvas.addEventListener('pointerup', (e) => this.up(e));
		this.labels = {};
		for (const name of Object.keys(LAYOUT)) {
			const label = document.createElement('div');
			label.className = 'view-label';
			label.textContent = name === 'perspective' ? 'perspective' : ORTHO[name].label;
			container.append(label);
			this.labels[name] = label;
		}
		this.raycaster = new Raycaster();
		new ResizeObserver(() => this.resize()).observe(container);
		this.resize();
		this.dirty = true;
	}

	invalidate() {
		this.dirty = true;
	}

	resize() {
		this.width = Math.max(2, this.container.clientWidth);
		this.height = Math.max(2, this.container.clientHeight);
		this.renderer.setSize(this.width, this.height, false);
		for (const [name, [c, r]] of Object.entries(LAYOUT)) {
			Object.assign(this.labels[name].style, { left: `${(c * this.width) / 2 + 6}px`, top: `${(r * this.height) / 2 + 4}px` });
		}
		this.updateCameras();
	}

	/** The rectangle of a view in CSS pixels of the canvas: x, y (from the top left), w, h. */
	rect(name) {
		const [c, r] = LAYOUT[name];
		const w = this.width / 2;
		const h = this.height / 2;
		return { x: c * w, y: r * h, w, h };
	}

	/** The view under a point of the canvas (CSS pixels). */
	viewAt(x, y) {
		const c = x < this.width / 2 ? 0 : 1;
		const r = y < this.height / 2 ? 0 : 1;
		return Object.keys(LAYOUT).find((name) => LAYOUT[name][0] === c && LAYOUT[name][1] === r);
	}

	camera(name) {
		return name === 'perspective' ? this.perspective : this.cameras[name];
	}

	updateCameras() {
		const aspect = this.width / this.height;
		for (const camera of Object.values(this.cameras)) {
			const { view, halfHeight, center } = camera.userData;
			camera.left = -halfHeight * aspect;
			camera.right = halfHeight * aspect;
			camera.top = halfHeight;
			camera.bottom = -halfHeight;
			camera.position.copy(center).addScaledVector(view.toViewer, 500);
			camera.near = 1;
			camera.far = 1000;
			camera.lookAt(center);
			camera.updateProjectionMatrix();
			camera.updateMatrixWorld();
		}
		this.perspective.aspect = aspect;
		this.perspective.updateProjectionMatrix();
		this.invalidate();
	}

	/**
	 * Frames every view on the bodies (planes left out); on the moving ones when the static ones
	 * (a ground) are more than three times as large, as the player frames its camera.
	 */
	fit() {
		const bounds = (moving) => {
			const min = new Vector3(Infinity, Infinity, Infinity);
			const max = new Vector3(-Infinity, -Infinity, -Infinity);
			this.description.bodies.forEach((body, i) => {
				if (moving && body.type === 'static') return;
				let reach = 0;
				for (const shape of body.shapes) reach = Math.max(reach, shapeReach(shape));
				if (reach <= 0) return;
				const p = new Vector3(...this.poses[i].slice(0, 3));
				min.min(p.clone().subScalar(reach));
				max.max(p.clone().addScalar(reach));
			});
			return Number.isFinite(min.x) ? { center: min.clone().add(max).multiplyScalar(0.5), size: Math.max(max.x - min.x, max.y - min.y, max.z - min.z) } : null;
		};
		const all = bounds(false) || { center: new Vector3(0, 0, 0.5), size: 2 };
		const moving = bounds(true);
		const { center, size: extent } = moving && moving.size < all.size / 3 ? { center: moving.center, size: 1.8 * moving.size } : all;
		const size = Math.max(extent, 0.5);
		for (const camera of Object.values(this.cameras)) {
			camera.userData.center.copy(center);
			camera.userData.halfHeight = 0.75 * size;
		}
		const distance = 1.6 * size + 1;
		this.perspective.position.copy(center).addScaledVector(new Vector3(1.1, -2.0, 1.0).normalize(), distance);
		this.perspective.near = distance / 200;
		this.perspective.far = distance * 100;
		this.controls.target.copy(center);
		this.controls.update();
		this.makeGrids(center, size);
		this.updateCameras();
	}

	makeGrids(center, size) {
		for (const grid of this.grids) this.scene.remove(grid);
		// the snap step when it gives a readable grid, else a round size (1, 2 or 5 times a power of ten)
		const step = this.hooks.snap ? this.hooks.snap.grid : 0;
		const rough = size / 12;
		const power = Math.pow(10, Math.floor(Math.log10(rough)));
		const cell = step > 0 && size / step <= 24 ? step : [1, 2, 5, 10].map((m) => m * power).find((c) => c >= rough);
		const divisions = 2 * Math.ceil((1.5 * size) / cell);
		const snapTo = (x) => Math.round(x / cell) * cell;
		const make = (layer, rotate) => {
			const grid = new GridHelper(divisions * cell, divisions, 0x8a96a3, 0x4d5863);
			rotate(grid);
			grid.position.set(snapTo(center.x), snapTo(center.y), snapTo(center.z));
			grid.layers.set(layer);
			grid.material.transparent = true;
			grid.material.opacity = 0.5;
			grid.material.depthWrite = false;
			this.scene.add(grid);
			this.grids.push(grid);
		};
		// GridHelper lies in xz: turned into xy (top and 3D), kept in xz (front), turned into yz (side)
		make(1, (g) => g.rotateX(Math.PI / 2));
		make(2, () => {});
		make(3, (g) => g.rotateZ(Math.PI / 2));
		this.grids[0].position.z = 0;
		this.cameras.top.layers.enable(1);
		this.cameras.front.layers.enable(2);
		this.cameras.side.layers.enable(3);
	}

	/**
	 * Draws the scene the server described (POST /api/editor/check: bodies with their shapes, and
	 * their poses); selected: the indices picked.
	 */
	setScene(description, first) {
		for (const group of this.bodies) {
			this.scene.remove(group);
			group.traverse((o) => {
				if (o.geometry) o.geometry.dispose();
				if (o.material) o.material.dispose();
			});
		}
		this.description = description;
		this.poses = description.poses;
		this.bodies = makeBodies(description, 400);
		this.bodies.forEach((group, i) => {
			const p = this.poses[i];
			group.position.set(p[0], p[1], p[2]);
			group.quaternion.set(p[4], p[5], p[6], p[3]);
			this.scene.add(group);
		});
		if (first) this.fit();
		this.select(this.selected);
	}

	/** Highlights the bodies of these indices. */
	select(indices) {
		this.selected = indices.filter((i) => i >= 0 && i < this.bodies.length);
		this.bodies.forEach((group, i) => {
			const on = this.selected.includes(i);
			group.traverse((o) => {
				if (o.material && o.material.emissive) o.material.emissive.setHex(on ? (i === this.selected[0] ? 0x664400 : 0x224466) : 0);
			});
		});
		this.invalidate();
	}

	local(e) {
		const r = this.canvas.getBoundingClientRect();
		return { x: e.clientX - r.left, y: e.clientY - r.top };
	}

	// normalised device coordinates of a canvas point in a view
	ndc(name, x, y) {
		const r = this.rect(name);
		return new Vector2(((x - r.x) / r.w) * 2 - 1, -((y - r.y) / r.h) * 2 + 1);
	}

	/** The body under a canvas point (an index, or -1). */
	hit(name, x, y) {
		const hit = this.hitObject(name, x, y);
		return hit ? hit.object.userData.body : -1;
	}

	// the nearest intersection under a canvas point (its object is a shape's mesh), or undefined
	hitObject(name, x, y) {
		this.raycaster.setFromCamera(this.ndc(name, x, y), this.camera(name));
		return this.raycaster.intersectObjects(this.bodies, true)[0];
	}

	// the world point under a canvas point, in an ortho view's plane through `through`
	planePoint(name, x, y) {
		const n = this.ndc(name, x, y);
		const { view, halfHeight, center } = this.cameras[name].userData;
		const aspect = this.width / this.height;
		return center.clone().addScaledVector(view.u, n.x * halfHeight * aspect).addScaledVector(view.v, n.y * halfHeight);
	}

	down(e) {
		const { x, y } = this.local(e);
		const name = this.viewAt(x, y);
		this.controls.enabled = name === 'perspective';
		this.gesture = { name, x, y, moved: false, button: e.button, add: e.ctrlKey || e.shiftKey || e.metaKey };
		if (name === 'perspective' || e.button !== 0) return;
		this.canvas.setPointerCapture(e.pointerId);
		const hit = this.hitObject(name, x, y);
		const index = hit ? hit.object.userData.body : -1;
		if (index >= 0 && !this.gesture.add) {
			// drag the body under the pointer (picked first)
			if (this.selected[0] !== index) this.hooks.pick(index, false);
			const group = this.bodies[index];
			this.gesture.body = index;
			this.gesture.start = this.planePoint(name, x, y);
			this.gesture.position = group.position.clone();
			this.gesture.quaternion = group.quaternion.clone();
			this.gesture.mesh = hit.object;
		} else if (index < 0) {
			this.gesture.pan = this.cameras[name].userData.center.clone();
		}
	}

	move(e) {
		const g = this.gesture;
		if (!g || g.name === 'perspective') return;
		const { x, y } = this.local(e);
		if (Math.hypot(x - g.x, y - g.y) > 3) g.moved = true;
		if (!g.moved) return;
		const camera = this.cameras[g.name];
		const { view } = camera.userData;
		if (g.pan) {
			const aspect = this.width / this.height;
			const r = this.rect(g.name);
			const h = camera.userData.halfHeight;
			camera.userData.center
				.copy(g.pan)
				.addScaledVector(view.u, (-(x - g.x) / r.w) * 2 * h * aspect)
				.addScaledVector(view.v, ((y - g.y) / r.h) * 2 * h);
			this.updateCameras();
			return;
		}
		if (g.body === undefined) return;
		const group = this.bodies[g.body];
		const snap = this.hooks.snap;
		if (this.hooks.tool() === 'scale') {
			this.scaleMove(g, view, this.planePoint(g.name, x, y));
		} else if (this.hooks.tool() === 'rotate') {
			// the angle swept around the body's centre on screen, counter-clockwise positive
			const c = g.position;
			const a = this.planePoint(g.name, g.x, g.y).sub(c);
			const b = this.planePoint(g.name, x, y).sub(c);
			let degrees = ((Math.atan2(b.dot(view.v), b.dot(view.u)) - Math.atan2(a.dot(view.v), a.dot(view.u))) * 180) / Math.PI;
			degrees = snap.rotation(((degrees + 540) % 360) - 180);
			const turn = new Quaternion().setFromAxisAngle(view.toViewer, (degrees * Math.PI) / 180);
			group.quaternion.copy(turn.multiply(g.quaternion));
		} else {
			const delta = this.planePoint(g.name, x, y).sub(g.start);
			const p = g.position.clone().addScaledVector(view.u, delta.dot(view.u)).addScaledVector(view.v, delta.dot(view.v));
			// the two axes of the view snap to the grid; the third stays as it was
			for (const axis of ['x', 'y', 'z']) if (view.u[axis] !== 0 || view.v[axis] !== 0) p[axis] = snap.position(p[axis]);
			group.position.copy(p);
		}
		this.invalidate();
	}

	up(e) {
		const g = this.gesture;
		this.gesture = null;
		this.controls.enabled = true;
		if (!g) return;
		if (!g.moved && g.button === 0) {
			const { x, y } = this.local(e);
			this.hooks.pick(this.hit(g.name, x, y), g.add);
			return;
		}
		if (g.moved && g.body !== undefined && this.hooks.tool() === 'scale') {
			if (g.sizes) this.hooks.scale(g.body, g.mesh.userData.shape, g.sizes);
			return;
		}
		if (g.moved && g.body !== undefined) {
			const group = this.bodies[g.body];
			this.hooks.drag(g.body, group.position.toArray(), group.quaternion.clone(), this.hooks.tool());
		}
	}

	/**
	 * The scale tool: the pointer drags the side of the shape it grabbed. Along each of the view's
	 * two axes the shape's size along its local axis nearest to that one grows by how far the pointer
	 * moved away from the shape's centre (a sphere's radius, and a capsule's or cylinder's radius
	 * seen along its axis, by the pointer's distance from the centre); each size snaps to the grid
	 * step like a move, and stays above zero. The mesh is stretched to show it; the document
	 * changes when the pointer is let go (hooks.scale).
	 */
	scaleMove(g, view, point) {
		const mesh = g.mesh;
		const shape = this.description.bodies[g.body].shapes[mesh.userData.shape];
		if (!shape || !['sphere', 'box', 'capsule', 'cylinder'].includes(shape.type)) return;
		if (!g.centre) {
			g.centre = mesh.getWorldPosition(new Vector3());
			g.turn = mesh.getWorldQuaternion(new Quaternion());
		}
		const snap = this.hooks.snap;
		const size = (value) => {
			const s = snap.position(value);
			const least = snap.on && snap.grid > 0 ? snap.grid : 1e-3;
			return s > 0 ? s : least;
		};
		const a = g.start.clone().sub(g.centre);
		const b = point.clone().sub(g.centre);
		const axes = [view.u, view.v];
		// growth away from the centre along a view axis, and in the view's plane
		const grow = (w) => (a.dot(w) < 0 ? -1 : 1) * b.clone().sub(a).dot(w);
		const radial = Math.hypot(b.dot(view.u), b.dot(view.v)) - Math.hypot(a.dot(view.u), a.dot(view.v));
		// the shape's local axes in the world, and the one nearest each view axis
		const local = [new Vector3(1, 0, 0), new Vector3(0, 1, 0), new Vector3(0, 0, 1)].map((e) => e.applyQuaternion(g.turn));
		const nearest = (w, skip) => [0, 1, 2].filter((i) => i !== skip).reduce((best, i) => (Math.abs(local[i].dot(w)) > Math.abs(local[best].dot(w)) ? i : best), skip === 0 ? 1 : 0);
		const scale = new Vector3(1, 1, 1);
		if (shape.type === 'sphere') {
			g.sizes = { radius: size(shape.radius + radial) };
			scale.setScalar(g.sizes.radius / shape.radius);
		} else if (shape.type === 'box') {
			const half = shape.halfExtents.slice();
			const first = nearest(axes[0], -1);
			const second = nearest(axes[1], first);
			half[first] = size(half[first] + grow(axes[0]));
			half[second] = size(half[second] + grow(axes[1]));
			g.sizes = { half_extents: half };
			scale.set(half[0] / shape.halfExtents[0], half[1] / shape.halfExtents[1], half[2] / shape.halfExtents[2]);
		} else {
			// capsules and cylinders: the length along the local z, the radius across it
			let radius = shape.radius;
			let halfHeight = shape.halfHeight;
			const along = axes.filter((w) => Math.abs(local[2].dot(w)) >= Math.SQRT1_2);
			if (along.length === 0) radius += radial;
			else {
				halfHeight += grow(along[0]);
				const across = axes.find((w) => w !== along[0]);
				radius += grow(across);
			}
			g.sizes = { radius: size(radius), half_height: size(halfHeight) };
			scale.set(g.sizes.radius / shape.radius, g.sizes.radius / shape.radius, g.sizes.half_height / shape.halfHeight);
		}
		mesh.scale.copy(scale);
	}

	wheel(e) {
		const { x, y } = this.local(e);
		const name = this.viewAt(x, y);
		this.controls.enabled = name === 'perspective';
		if (name === 'perspective') return;
		e.preventDefault();
		this.cameras[name].userData.halfHeight *= Math.exp(e.deltaY * 0.001);
		this.updateCameras();
	}

	/** Where a world point is drawn in a view, in CSS pixels of the page; inside: in its quadrant. */
	project(name, point) {
		const p = new Vector3(...point).project(this.camera(name));
		const r = this.rect(name);
		const c = this.canvas.getBoundingClientRect();
		return {
			x: c.left + r.x + ((p.x + 1) / 2) * r.w,
			y: c.top + r.y + ((1 - p.y) / 2) * r.h,
			inside: Math.abs(p.x) <= 1 && Math.abs(p.y) <= 1,
		};
	}

	render() {
		this.dirty = false;
		for (const name of Object.keys(LAYOUT)) {
			const r = this.rect(name);
			// WebGL's viewport counts rows from the bottom (three.js scales by the pixel ratio)
			const y = this.height - r.y - r.h;
			this.renderer.setViewport(r.x, y, r.w, r.h);
			this.renderer.setScissor(r.x, y, r.w, r.h);
			this.renderer.render(this.scene, this.camera(name));
		}
	}

	renderIfNeeded() {
		const moved = this.controls.update();
		if (moved || this.dirty) this.render();
	}
}
