// The editor's model is the scene document itself: the JSON object the loader reads
// (docs/scene-format.md). This file makes the new bodies and joints the editor adds, reads and
// writes poses in it, and sends it to the server, whose loader is the only judge of what is valid
// (POST /api/editor/check, /save, /apply; apps/view/view_scene_edit.c).
import { Euler, Quaternion } from 'three';

/** Every shape the format has, as the editor adds them. */
export const SHAPES = ['sphere', 'box', 'capsule', 'cylinder', 'plane', 'hull', 'compound', 'mesh', 'heightfield'];

/** Every joint type of the format. */
export const JOINTS = ['ball', 'hinge', 'slider', 'universal', 'cone_twist', 'fixed', 'distance', 'spring', 'damper', 'point_on_plane'];

/** A deep copy of a JSON value. */
export const clone = (value) => JSON.parse(JSON.stringify(value));

/** A name not used yet by the items of list (bodies or joints): base1, base2, ... */
export function uniqueName(list, base) {
	const used = new Set((list || []).map((item) => item.name));
	for (let i = 1; ; ++i) if (!used.has(`${base}${i}`)) return `${base}${i}`;
}

// the eight corners of a box of half sizes a, b, c
function corners(a, b, c, dx = 0) {
	const points = [];
	for (const x of [-a, a]) for (const y of [-b, b]) for (const z of [-c, c]) points.push([x + dx, y, z]);
	return points;
}

/**
 * The shape a new body of that kind gets, and its body type: sizes of about a quarter metre; planes
 * and heightfields only exist on static bodies; hulls, compounds, meshes and heightfields inline
 * (the format needs no file for any of them).
 */
export function newShape(kind) {
	switch (kind) {
		case 'sphere':
			return { type: 'sphere', radius: 0.25 };
		case 'box':
			return { type: 'box', half_extents: [0.25, 0.25, 0.25] };
		case 'capsule':
			return { type: 'capsule', radius: 0.15, half_height: 0.25 };
		case 'cylinder':
			return { type: 'cylinder', radius: 0.2, half_height: 0.25 };
		case 'plane':
			return { type: 'plane', normal: [0, 0, 1], offset: 0 };
		case 'hull':
			// a square pyramid
			return { type: 'hull', points: [[-0.25, -0.25, -0.2], [0.25, -0.25, -0.2], [0.25, 0.25, -0.2], [-0.25, 0.25, -0.2], [0, 0, 0.3]] };
		case 'compound':
			// an L of two boxes
			return { type: 'compound', parts: [{ points: corners(0.3, 0.1, 0.1) }, { points: corners(0.1, 0.1, 0.2, 0.2).map(([x, y, z]) => [x, y, z + 0.3]) }] };
		case 'mesh': {
			// a closed box, each face two triangles counter-clockwise seen from outside
			const vertices = corners(0.25, 0.2, 0.15);
			// corners() order: index = 4 ix + 2 iy + iz
			const triangles = [
				[0, 1, 3], [0, 3, 2], // x = -a
				[4, 6, 7], [4, 7, 5], // x = +a
				[0, 4, 5], [0, 5, 1], // y = -b
				[2, 3, 7], [2, 7, 6], // y = +b
				[0, 2, 6], [0, 6, 4], // z = -c
				[1, 5, 7], [1, 7, 3], // z = +c
			];
			return { type: 'mesh', vertices, triangles };
		}
		case 'heightfield':
			return { type: 'heightfield', size: [2, 2], heights: [[0, 0.1, 0], [0.1, 0.3, 0.1], [0, 0.1, 0]] };
		default:
			throw new Error(`unknown shape ${kind}`);
	}
}

/** A new body with one shape of that kind at position (planes and heightfields are static). */
export function newBody(doc, kind, position) {
	const shape = newShape(kind);
	const body = { name: uniqueName(doc.bodies, kind), position: position.slice(), shapes: [shape] };
	if (kind === 'plane' || kind === 'heightfield') body.type = 'static';
	if (kind === 'plane') body.position = [0, 0, 0];
	return body;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];

/**
 * A new joint of that type between the named bodies (one: joined to the world), with the keys its
 * type requires placed between the bodies' positions: anchor at the middle, axes along world axes.
 */
export function newJoint(doc, type, names) {
	const pos = names.map((n) => bodyPosition(doc, doc.bodies.findIndex((b) => b.name === n)));
	const a = pos[0];
	const b = pos.length > 1 ? pos[1] : [a[0], a[1], a[2] + 1];
	const joint = { name: uniqueName(doc.joints, type), type, bodies: names.slice() };
	const anchor = pos.length > 1 ? mid(a, b) : a.slice();
	switch (type) {
		case 'ball':
		case 'fixed':
			joint.anchor = anchor;
			break;
		case 'hinge':
			Object.assign(joint, { anchor, axis: [0, 1, 0] });
			break;
		case 'slider':
			Object.assign(joint, { anchor, axis: Math.hypot(...sub(b, a)) > 0 ? sub(b, a) : [1, 0, 0] });
			break;
		case 'universal':
			Object.assign(joint, { anchor, axes: [[1, 0, 0], [0, 1, 0]] });
			break;
		case 'cone_twist':
			Object.assign(joint, { anchor, axis: [0, 0, 1], swing_deg: 45, twist_deg: [-45, 45] });
			break;
		case 'distance':
			joint.anchors = [a.slice(), b.slice()];
			break;
		case 'spring':
			Object.assign(joint, { anchors: [a.slice(), b.slice()], stiffness: 100, damping: 1 });
			break;
		case 'damper':
			Object.assign(joint, { anchors: [a.slice(), b.slice()], damping: 10 });
			break;
		case 'point_on_plane':
			Object.assign(joint, { anchor, normal: [0, 0, 1] });
			break;
		default:
			throw new Error(`unknown joint type ${type}`);
	}
	return joint;
}

/** Body i's position in the document ([0, 0, 0] when it has none). */
export function bodyPosition(doc, i) {
	const body = doc.bodies[i];
	return body && Array.isArray(body.position) ? body.position.slice() : [0, 0, 0];
}

/** Body i's orientation as a three.js Quaternion (from "orientation" or "euler_deg"). */
export function bodyQuaternion(doc, i) {
	return quaternionOf(doc.bodies[i]);
}

/** The orientation of a body or a shape (its "orientation" or "euler_deg") as a three.js Quaternion. */
export function quaternionOf(item) {
	if (Array.isArray(item.orientation)) {
		const [w, x, y, z] = item.orientation;
		return new Quaternion(x, y, z, w);
	}
	if (Array.isArray(item.euler_deg)) {
		const r = item.euler_deg.map((d) => (Number(d) * Math.PI) / 180);
		// R = Rz(yaw) Ry(pitch) Rx(roll) (scene-format.md): three.js's order 'ZYX'
		return new Quaternion().setFromEuler(new Euler(r[0], r[1], r[2], 'ZYX'));
	}
	return new Quaternion();
}

/** [roll, pitch, yaw] in degrees of a quaternion (the inverse of euler_deg), rounded to 1e-9. */
export function eulerDegrees(q) {
	const e = new Euler().setFromQuaternion(q, 'ZYX');
	const round = (r) => {
		const d = Math.round(((r * 180) / Math.PI) * 1e9) / 1e9;
		return d === 0 ? 0 : d;
	};
	return [round(e.x), round(e.y), round(e.z)];
}

/** Sets a body's (or a shape's) rotation as euler_deg (the loader takes either key, not both). */
export function setEuler(body, degrees) {
	delete body.orientation;
	body.euler_deg = degrees.slice();
}

/** The material a body's first shape uses: its own, the body's, or "default". */
export function materialOf(body) {
	const shape = (body.shapes || [])[0];
	return (shape && shape.material) || body.material || 'default';
}

/** Gives a body (and every one of its shapes that names one) the material called name. */
export function setMaterial(body, name) {
	body.material = name;
	for (const shape of body.shapes || []) if (shape.material !== undefined) shape.material = name;
}

/** A material's colour, linear RGB (appearance.color, color, or the default grey). */
export function materialColor(material) {
	if (material && material.appearance && Array.isArray(material.appearance.color)) return material.appearance.color;
	if (material && Array.isArray(material.color)) return material.color;
	return [0.7, 0.7, 0.7];
}

/** Sets a material's colour where it keeps it (the loader takes one of the two places). */
export function setMaterialColor(material, rgb) {
	if (material.appearance) {
		delete material.color;
		material.appearance.color = rgb;
	} else material.color = rgb;
}

/** Every material name a document's bodies may use: "default" and those of "materials". */
export function materialNames(doc) {
	return [...new Set(['default', ...Object.keys(doc.materials || {})])];
}

/** The keys each camera type takes besides name, type and fov_deg (scene-format.md, Cameras). */
export const CAMERA_KEYS = {
	fixed: ['position', 'look_at'],
	follow: ['body', 'offset'],
	mounted: ['body', 'offset', 'look_at'],
	path: ['keys'],
};

/**
 * A camera turned into another type: its name and field of view kept, the position it had (a
 * fixed camera's, a path's first key's) kept where the new type has one, and the body it had, or
 * the given one, for follow and mounted cameras.
 */
export function retypeCamera(camera, type, bodyName) {
	const position = camera.position || (Array.isArray(camera.keys) && camera.keys[0] && camera.keys[0].position) || [5, -7, 5];
	const lookAt = camera.look_at || (Array.isArray(camera.keys) && camera.keys[0] && camera.keys[0].look_at) || [0, 0, 0];
	const next = { name: camera.name, type };
	if (camera.fov_deg !== undefined) next.fov_deg = camera.fov_deg;
	if (type === 'fixed') Object.assign(next, { position, look_at: lookAt });
	else if (type === 'follow') Object.assign(next, { body: camera.body || bodyName, offset: [3, -4, 2] });
	else if (type === 'mounted') Object.assign(next, { body: camera.body || bodyName, offset: [0, 0, 0], look_at: [1, 0, 0] });
	else next.keys = [{ time: 0, position, look_at: lookAt }];
	return next;
}

/** POSTs the document to an editor endpoint; resolves with { ok, status, body, text }. */
export async function post(path, doc) {
	const response = await fetch(path, {
		method: 'POST',
		cache: 'no-store',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(doc, null, '\t'),
	});
	const text = await response.text();
	let body = {};
	try {
		body = JSON.parse(text);
	} catch {
		body = { error: `${path}: ${response.status}` };
	}
	return { ok: response.ok, status: response.status, body, text };
}
