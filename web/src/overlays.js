// What the page draws over the bodies on demand: trails of the centres of mass up to the frame
// shown, the contact points and normals of the frame (scenes only: every point of every touching
// manifold, which the server records from cnWorld_GetContactData while it simulates), and a camera mounted on a body (AERO's camera "mounted on a body", section 2.3),
// which follows it as it moves while the orbit controls still turn and zoom around it.
import {
	BufferAttribute,
	BufferGeometry,
	Color,
	InstancedMesh,
	Line,
	LineBasicMaterial,
	LineSegments,
	Matrix4,
	MeshBasicMaterial,
	Quaternion,
	SphereGeometry,
	Vector3,
} from 'three';
import { getJson } from './api.js';

// most contact points drawn at one frame
const CONTACT_MARKERS = 4096;
const TOUCHING = new Color(0xff5a4a);
const SPECULATIVE = new Color(0xffc8b0);

// more trails than this would cost more than they show
const MAX_TRAILS = 100;

/**
 * The centre of mass of each body in its own frame: the server's for a scene (exact, from the
 * world), else estimated from the shapes (a single shape's centre; otherwise the body's origin).
 */
export function bodyCenters(scene) {
	if (Array.isArray(scene.centers) && scene.centers.length === scene.bodies.length) return scene.centers;
	return scene.bodies.map((body) => {
		const solid = body.shapes.filter((s) => s.type !== 'plane');
		return solid.length === 1 ? solid[0].position.slice() : [0, 0, 0];
	});
}

// The world position of body i's point `local` at a frame.
function worldPoint(frame, i, local, out) {
	const o = 1 + 7 * i;
	// a body that does not exist at the frame (a zero quaternion) stays where its origin is given
	if (frame[o + 3] === 0 && frame[o + 4] === 0 && frame[o + 5] === 0 && frame[o + 6] === 0) {
		return out.set(frame[o], frame[o + 1], frame[o + 2]);
	}
	out.set(local[0], local[1], local[2]);
	out.applyQuaternion(new Quaternion(frame[o + 4], frame[o + 5], frame[o + 6], frame[o + 3]));
	return out.add(new Vector3(frame[o], frame[o + 1], frame[o + 2]));
}

const CSS = `
#overlays { position: absolute; left: 12px; top: 52px; display: flex; flex-direction: column; gap: 3px;
	padding: 6px 8px; background: rgba(20, 24, 28, 0.75); border: 1px solid #3b434c; border-radius: 6px; }
#overlays select, #overlays button { background: #2a3139; color: #e8e8e8; border: 1px solid #3d4650; border-radius: 4px; }
#overlays label[aria-disabled="true"] { opacity: 0.5; }
`;

/** Trails, contacts and the mounted camera. */
export class Overlays {
	/**
	 * stage: the Stage; store: the FrameStore; size: the scene's radius (sets the markers' sizes);
	 * picked(): the index of the body picked with a click, or -1.
	 */
	constructor(stage, scene, store, size, picked) {
		this.stage = stage;
		this.scene = scene;
		this.store = store;
		this.size = Math.max(size, 1e-3);
		this.picked = picked;
		this.centers = bodyCenters(scene);
		this.simulated = scene.source === 'scene';
		this.index = -1;
		this.trailsOn = false;
		this.contactsOn = false;
		this.riding = -1;
		this.contactCache = new Map();
		this.contactPoints = [];
		this.makeTrails();
		this.makeContacts();
		this.makePanel();
	}

	makeTrails() {
		this.trailBodies = [];
		this.scene.bodies.forEach((body, i) => {
			if (body.type !== 'static' && this.trailBodies.length < MAX_TRAILS) this.trailBodies.push(i);
		});
		this.trails = this.trailBodies.map((i) => {
			const geometry = new BufferGeometry();
			geometry.setAttribute('position', new BufferAttribute(new Float32Array(0), 3));
			// each trail in a colour of its own, light enough to read on the dark background
			const color = new Color().setHSL((0.13 + 0.618 * i) % 1, 0.75, 0.65);
			const line = new Line(geometry, new LineBasicMaterial({ color }));
			line.frustumCulled = false;
			line.visible = false;
			line.userData.body = i;
			this.stage.scene.add(line);
			return { body: i, line, filled: 0, points: new Float32Array(0) };
		});
	}

	// The trail's points for the frames loaded so far (computed once per frame).
	fillTrail(trail) {
		const loaded = this.store.loaded;
		if (trail.filled >= loaded) return;
		if (trail.points.length < 3 * loaded) {
			const grown = new Float32Array(Math.max(3 * loaded, 2 * trail.points.length));
			grown.set(trail.points.subarray(0, 3 * trail.filled));
			trail.points = grown;
			trail.line.geometry.setAttribute('position', new BufferAttribute(trail.points, 3));
		}
		const p = new Vector3();
		for (let f = trail.filled; f < loaded; ++f) {
			worldPoint(this.store.frame(f), trail.body, this.centers[trail.body], p);
			trail.points.set([p.x, p.y, p.z], 3 * f);
		}
		trail.filled = loaded;
		trail.line.geometry.getAttribute('position').needsUpdate = true;
	}

	makeContacts() {
		const r = 0.012 * this.size;
		// white material: each marker's own colour, red for a point in contact, pale for a
		// speculative one (within the contact margin, not touching yet)
		this.contactMarkers = new InstancedMesh(new SphereGeometry(r, 10, 6), new MeshBasicMaterial({ color: 0xffffff }), CONTACT_MARKERS);
		this.contactMarkers.setColorAt(0, TOUCHING);
		this.contactMarkers.count = 0;
		this.contactMarkers.frustumCulled = false;
		this.normalGeometry = new BufferGeometry();
		this.normalGeometry.setAttribute('position', new BufferAttribute(new Float32Array(0), 3));
		this.normals = new LineSegments(this.normalGeometry, new LineBasicMaterial({ color: 0xff9a6a }));
		this.normals.frustumCulled = false;
		this.stage.scene.add(this.contactMarkers, this.normals);
	}

	makePanel() {
		const style = document.createElement('style');
		style.textContent = CSS;
		document.head.append(style);
		const panel = document.createElement('div');
		panel.id = 'overlays';
		const check = (id, text, on, enabled, title) => {
			const label = document.createElement('label');
			const box = document.createElement('input');
			box.type = 'checkbox';
			box.id = id;
			box.checked = on;
			box.disabled = !enabled;
			label.title = title;
			label.setAttribute('aria-disabled', String(!enabled));
			label.append(box, document.createTextNode(` ${text}`));
			panel.append(label);
			return box;
		};
		const trails = check('show-trails', 'trails of centres of mass', false, true, 'the path of every moving body\'s centre of mass up to the frame shown');
		trails.addEventListener('change', () => this.setTrails(trails.checked));
		this.trailsBox = trails;
		const contacts = check(
			'show-contacts',
			'contact points and normals',
			false,
			this.simulated,
			this.simulated ? 'where shapes touch at the frame shown, and the normal from A to B' : 'not available for recordings: they hold poses, not contacts',
		);
		contacts.addEventListener('change', () => this.setContacts(contacts.checked));
		this.contactsBox = contacts;
		const ride = document.createElement('select');
		ride.id = 'ride';
		ride.title = 'a camera mounted on a body: it follows the body; drag still turns around it';
		const free = document.createElement('option');
		free.value = '-1';
		free.textContent = 'camera: free';
		ride.append(free);
		this.scene.bodies.forEach((body, i) => {
			if (body.type === 'static') return;
			const option = document.createElement('option');
			option.value = String(i);
			option.textContent = `ride ${body.name || `body ${i}`}`;
			ride.append(option);
		});
		ride.addEventListener('change', () => this.ride(Number(ride.value)));
		const ridePicked = document.createElement('button');
		ridePicked.textContent = 'ride picked';
		ridePicked.title = 'mount the camera on the body picked with a click';
		ridePicked.addEventListener('click', () => this.ride(this.picked()));
		const row = document.createElement('div');
		row.append(ride, document.createTextNode(' '), ridePicked);
		panel.append(row);
		this.rideSelect = ride;
		document.body.append(panel);
	}

	/** Shows or hides the trails. */
	setTrails(on) {
		this.trailsOn = on;
		this.trailsBox.checked = on;
		for (const t of this.trails) t.line.visible = on;
		this.show(this.index);
	}

	/** Shows or hides the contact points and normals (scenes only). */
	setContacts(on) {
		this.contactsOn = on && this.simulated;
		this.contactsBox.checked = this.contactsOn;
		this.contactMarkers.visible = this.contactsOn;
		this.normals.visible = this.contactsOn;
		this.show(this.index);
	}

	/** Mounts the camera on body i (-1: a free camera again). */
	ride(i) {
		const valid = Number.isInteger(i) && i >= 0 && i < this.scene.bodies.length;
		this.riding = valid ? i : -1;
		this.rideSelect.value = String(this.riding);
		if (this.riding < 0) this.rideSelect.value = '-1';
		this.lastRide = null;
		this.show(this.index);
	}

	/** Places what is on at frame index; called whenever the frame shown changes. */
	show(index) {
		this.index = index;
		const frame = this.store.frame(index);
		if (!frame) return;
		if (this.trailsOn) {
			for (const t of this.trails) {
				this.fillTrail(t);
				t.line.geometry.setDrawRange(0, index + 1);
			}
		}
		if (this.contactsOn) this.showContacts(index);
		if (this.riding >= 0) {
			// the camera keeps its offset from the body's centre: it moves with the body, and the
			// orbit controls still turn and zoom around it
			const c = worldPoint(frame, this.riding, this.centers[this.riding], new Vector3());
			const camera = this.stage.camera;
			const controls = this.stage.controls;
			if (this.lastRide) camera.position.add(c.clone().sub(this.lastRide));
			else camera.position.add(c.clone().sub(controls.target));
			controls.target.copy(c);
			controls.update();
			this.lastRide = c;
		}
		this.stage.invalidate();
	}

	async showContacts(index) {
		let points = this.contactCache.get(index);
		if (points === undefined) {
			try {
				const answer = await getJson(`/api/contacts?frame=${index}`);
				points = answer.points || [];
			} catch {
				points = [];
			}
			if (this.contactCache.size > 4096) this.contactCache.clear();
			this.contactCache.set(index, points);
			// another frame may be shown by now
			if (index !== this.index) return;
		}
		this.drawContacts(points);
	}

	drawContacts(points) {
		this.contactPoints = points;
		const n = Math.min(points.length, this.contactMarkers.instanceMatrix.count);
		const m = new Matrix4();
		for (let k = 0; k < n; ++k) {
			m.makeTranslation(points[k][0], points[k][1], points[k][2]);
			this.contactMarkers.setMatrixAt(k, m);
			this.contactMarkers.setColorAt(k, points[k][6] > 0 ? SPECULATIVE : TOUCHING);
		}
		this.contactMarkers.count = n;
		this.contactMarkers.instanceMatrix.needsUpdate = true;
		if (this.contactMarkers.instanceColor) this.contactMarkers.instanceColor.needsUpdate = true;
		// each normal drawn a little longer than the markers are wide
		const length = 0.12 * this.size;
		const segments = new Float32Array(6 * points.length);
		points.forEach((p, k) => {
			segments.set([p[0], p[1], p[2], p[0] + length * p[3], p[1] + length * p[4], p[2] + length * p[5]], 6 * k);
		});
		this.normalGeometry.setAttribute('position', new BufferAttribute(segments, 3));
		this.stage.invalidate();
	}

	/** What the tests read. */
	describe() {
		return {
			trails: this.trailsOn,
			contacts: this.contactsOn,
			contactPoints: this.contactsOn ? this.contactPoints : [],
			riding: this.riding >= 0 ? this.scene.bodies[this.riding].name : null,
			target: this.stage.controls.target.toArray(),
			camera: this.stage.camera.position.toArray(),
		};
	}

	/** The trail of a body up to the frame shown: its centre of mass at each frame. */
	trail(i) {
		const t = this.trails.find((x) => x.body === i);
		if (!t || !this.trailsOn) return [];
		const out = [];
		for (let f = 0; f <= this.index && f < t.filled; ++f) out.push([t.points[3 * f], t.points[3 * f + 1], t.points[3 * f + 2]]);
		return out;
	}
}
