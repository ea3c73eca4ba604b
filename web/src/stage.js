// The 3D stage: renderer with shadows, lights, a ground grid and an orbiting camera, framed on the
// scene. Cairn's world is z-up (gravity along -z), so the camera's up is +z and the grid lies in xy.
import {
	BufferGeometry,
	Color,
	DirectionalLight,
	Float32BufferAttribute,
	GridHelper,
	HemisphereLight,
	LineBasicMaterial,
	LineSegments,
	PCFShadowMap,
	PerspectiveCamera,
	Scene,
	Vector3,
	WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export const BACKGROUND = 0x30363d;

export class Stage {
	/**
	 * planar: a planar (FOSSSim) scene, whose world is the xy plane with y up: the camera looks at it
	 * from the front and the grid lies behind it.
	 */
	constructor(container, planar = false) {
		this.planar = planar;
		this.container = container;
		// preserveDrawingBuffer: screenshots and pixel checks read what was drawn last
		this.renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
		this.renderer.setPixelRatio(window.devicePixelRatio || 1);
		this.renderer.shadowMap.enabled = true;
		this.renderer.shadowMap.type = PCFShadowMap;
		container.appendChild(this.renderer.domElement);

		this.scene = new Scene();
		this.scene.background = new Color(BACKGROUND);
		this.camera = new PerspectiveCamera(45, 1, 0.01, 1000);
		// the orbit's axis is the camera's up when the controls are made
		if (planar) this.camera.up.set(0, 1, 0);
		else this.camera.up.set(0, 0, 1);
		this.controls = new OrbitControls(this.camera, this.renderer.domElement);
		this.controls.enableDamping = true;

		this.scene.add(new HemisphereLight(0xdde6f0, 0x3a3128, 1.4));
		this.sun = new DirectionalLight(0xffffff, 2.2);
		this.sun.castShadow = true;
		this.sun.shadow.mapSize.set(1024, 1024);
		this.sun.shadow.bias = -0.0005;
		this.sun.shadow.radius = 3;
		this.sun.shadow.normalBias = 0.01;
		this.scene.add(this.sun);
		this.scene.add(this.sun.target);

		// joints: a segment between their two anchors (coil springs and dampers come later)
		this.jointGeometry = new BufferGeometry();
		this.jointGeometry.setAttribute('position', new Float32BufferAttribute([], 3));
		this.joints = new LineSegments(this.jointGeometry, new LineBasicMaterial({ color: 0xffd479 }));
		this.joints.frustumCulled = false;
		this.scene.add(this.joints);

		new ResizeObserver(() => this.resize()).observe(container);
		this.resize();
	}

	resize() {
		const w = Math.max(1, this.container.clientWidth);
		const h = Math.max(1, this.container.clientHeight);
		this.renderer.setSize(w, h, false);
		this.camera.aspect = w / h;
		this.camera.updateProjectionMatrix();
		this.dirty = true;
	}

	/**
	 * Frames the scene: bounds is a Sphere holding the bodies at frame 0 (planes left out);
	 * groundZ the height of the grid.
	 */
	frame(bounds, groundZ) {
		const c = bounds.center;
		const r = Math.max(bounds.radius, 0.05);
		// cells of a round size (1, 2 or 5 times a power of ten) over about three times the scene
		// across: kept in front of the camera, since software renderers (headless Chromium's) drop
		// lines that pass behind it
		const rough = r / 8;
		const power = Math.pow(10, Math.floor(Math.log10(rough)));
		const cell = [1, 2, 5, 10].map((m) => m * power).find((size) => size >= rough);
		const divisions = 2 * Math.ceil((1.6 * r) / cell);
		const grid = new GridHelper(divisions * cell, divisions, 0x8a96a3, 0x5d6873);
		grid.rotateX(Math.PI / 2);
		// a little above the ground, so the lines are not lost in its surface (depth precision: the
		// near plane below is distance / 200)
		grid.position.set(c.x - (c.x % cell), c.y - (c.y % cell), this.planar ? -0.2 * r : groundZ + 0.002 * r);
		grid.material.transparent = true;
		grid.material.opacity = 0.6;
		grid.material.depthWrite = false;
		this.scene.add(grid);

		// the camera looks at the scene from the front right, a little above (as AERO's 3D view)
		const direction = this.planar ? new Vector3(0.35, 0.3, 1.0).normalize() : new Vector3(1.1, -2.0, 1.0).normalize();
		// the bounding sphere is larger than what it holds looks: come a little closer than it needs
		const distance = (r / Math.sin((this.camera.fov * Math.PI) / 360)) * 0.85;
		this.camera.position.copy(c).addScaledVector(direction, distance);
		this.camera.near = distance / 200;
		this.camera.far = distance * 100;
		this.camera.updateProjectionMatrix();
		this.controls.target.copy(c);
		this.controls.update();
		this.dirty = true;

		// the sun's shadow camera holds the scene's bounds
		const sun = this.planar ? new Vector3(0.3, 0.6, 1) : new Vector3(0.4, -0.3, 1);
		this.sun.position.copy(c).add(sun.normalize().multiplyScalar(3 * r));
		this.sun.target.position.copy(c);
		const s = this.sun.shadow.camera;
		s.left = -1.5 * r;
		s.right = 1.5 * r;
		s.top = 1.5 * r;
		s.bottom = -1.5 * r;
		s.near = 0.01 * r;
		s.far = 8 * r;
		s.updateProjectionMatrix();
	}

	/** Sets the joint segments: a flat list of endpoint coordinates. */
	setJointSegments(coordinates) {
		const attribute = this.jointGeometry.getAttribute('position');
		if (attribute.array.length !== coordinates.length) {
			this.jointGeometry.setAttribute('position', new Float32BufferAttribute(coordinates, 3));
		} else {
			attribute.array.set(coordinates);
			attribute.needsUpdate = true;
		}
		this.dirty = true;
	}

	/** Asks for a new picture at the next animation frame. */
	invalidate() {
		this.dirty = true;
	}

	/** Draws when something changed (the camera included): an idle viewer costs nothing. */
	renderIfNeeded() {
		// update() is true while the camera moves (dragged, or gliding to rest with damping)
		const moved = this.controls.update();
		if (moved || this.dirty) this.render();
	}

	render() {
		this.dirty = false;
		// the grid of --compare (compare.js) draws the scene once per view instead
		if (this.draw) this.draw(this.renderer, this.scene, this.camera);
		else this.renderer.render(this.scene, this.camera);
	}
}
