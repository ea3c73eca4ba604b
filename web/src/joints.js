// Joints drawn as AERO drew its connections (Keller et al. 1993, figures of springs and dampers),
// with the shapes and sizes of src/render/joint_draw.c, so the page, POV-Ray and glTF agree: a coil
// for a spring, a dark cylinder with a steel rod sliding in it for a damper, a rod for a distance
// joint (and a slider's rail), a sphere at the anchor of ball, hinge, universal and cone-twist
// joints, a small cube on the body for fixed joints (one on each body for sliders and
// point-on-plane joints). Each frame the pieces follow the anchors the bodies' poses give.
import {
	BoxGeometry,
	Color,
	CylinderGeometry,
	Curve,
	Group,
	Mesh,
	MeshStandardMaterial,
	Quaternion,
	SphereGeometry,
	TubeGeometry,
	Vector3,
} from 'three';
import { shapeReach } from './shapes.js';

const Z = new Vector3(0, 0, 1);
// CairnJointSteel and CairnJointDark of the POV-Ray frames
const steel = () => new MeshStandardMaterial({ color: new Color(0.78, 0.8, 0.82), roughness: 0.3, metalness: 0.8 });
const dark = () => new MeshStandardMaterial({ color: new Color(0.12, 0.12, 0.13), roughness: 0.5, metalness: 0.3 });

/** How far a body's shapes reach from its origin (planes left out); 0 for a point mass. */
function bodyRadius(body) {
	let r = 0;
	for (const shape of body.shapes) {
		if (shape.type === 'plane') continue;
		r = Math.max(r, shapeReach(shape));
	}
	return r;
}

/** The world position of a joint's anchor on body index (-1: the anchor is in world coordinates). */
function anchorAt(frame, body, local, out) {
	out.set(local[0], local[1], local[2]);
	if (body < 0 || !frame) return out;
	const o = 1 + 7 * body;
	const q = new Quaternion(frame[o + 4], frame[o + 5], frame[o + 6], frame[o + 3]);
	return out.applyQuaternion(q).add(new Vector3(frame[o], frame[o + 1], frame[o + 2]));
}

/**
 * The sizes of each joint's pieces from frame 0 (cnJointLooks): the smaller joined body sets the
 * scale, long things are drawn thin against their length, markers never reach a neighbour's.
 */
export function jointLooks(scene, first, sceneSize) {
	const anchors = scene.joints.map((j) => anchorAt(first, j.bodyA, j.anchorA, new Vector3()));
	return scene.joints.map((joint, i) => {
		const a = anchors[i];
		const b = anchorAt(first, joint.bodyB, joint.anchorB, new Vector3());
		const rest = a.distanceTo(b);
		let size = 0;
		for (const end of [joint.bodyA, joint.bodyB]) {
			const r = end >= 0 && scene.bodies[end] ? bodyRadius(scene.bodies[end]) : 0;
			if (r > 0) size = size > 0 ? Math.min(size, r) : r;
		}
		if (size <= 0) size = sceneSize > 0 ? 0.05 * sceneSize : rest > 0 ? 0.25 * rest : 0.1;
		const thin = rest > 0 ? rest : size;
		const look = { size, restLength: rest, meshLength: rest > 1e-9 * size ? rest : size };
		look.coilRadius = Math.min(0.25 * size, 0.15 * thin);
		look.wireRadius = 0.15 * look.coilRadius;
		// a pitch of about 1.2 coil radii at rest: an open coil whose windings read apart
		look.turns = Math.min(40, Math.max(3, Math.round(look.meshLength / (1.2 * look.coilRadius))));
		look.rodRadius = Math.min(0.08 * size, 0.03 * thin);
		let markerSize = size;
		anchors.forEach((c, k) => {
			const gap = k !== i ? a.distanceTo(c) : 0;
			if (gap > 1e-9 * size) markerSize = Math.min(markerSize, gap);
		});
		look.sphereRadius = 0.2 * markerSize;
		look.markerHalf = 0.12 * markerSize;
		look.damperRadius = Math.min(0.15 * size, 0.08 * thin);
		look.damperRodRadius = 0.45 * look.damperRadius;
		look.damperLength = rest > 0 ? 0.55 * rest : 2 * size;
		return look;
	});
}

// A helix of a whole number of turns along z from 0 to length (cnCoilPoint).
class Helix extends Curve {
	constructor(radius, turns, length) {
		super();
		this.radius = radius;
		this.turns = turns;
		this.length = length;
	}

	getPoint(t, target = new Vector3()) {
		const angle = 2 * Math.PI * this.turns * t;
		return target.set(this.radius * Math.cos(angle), this.radius * Math.sin(angle), this.length * t);
	}
}

// A unit cylinder along z from 0 to 1, placed and stretched between two points by placeRod.
function rodGeometry() {
	const g = new CylinderGeometry(1, 1, 1, 16, 1);
	g.rotateX(Math.PI / 2);
	g.translate(0, 0, 0.5);
	return g;
}

// Places a piece made along z from 0 to `length0` so that it runs from a to b.
function placeAlong(mesh, a, b, radius, length0) {
	const d = b.clone().sub(a);
	const length = d.length();
	mesh.visible = length > 1e-12;
	if (!mesh.visible) return;
	mesh.position.copy(a);
	mesh.quaternion.setFromUnitVectors(Z, d.divideScalar(length));
	mesh.scale.set(radius, radius, length / length0);
}

/** The joints of a scene as three.js objects placed at each frame (update). */
export class JointView {
	constructor(scene, first, sceneSize) {
		this.scene = scene;
		this.group = new Group();
		this.group.name = 'joints';
		this.looks = jointLooks(scene, first, sceneSize);
		/** per joint: its pieces, each { kind, mesh, a, b, radius } as last placed */
		this.joints = scene.joints.map((joint, i) => this.makePieces(joint, this.looks[i]));
		for (const j of this.joints) for (const p of j) this.group.add(p.mesh);
	}

	makePieces(joint, look) {
		const piece = (kind, geometry, material, radius) => {
			const mesh = new Mesh(geometry, material);
			mesh.castShadow = true;
			mesh.userData.joint = joint.name;
			mesh.userData.piece = kind;
			return { kind, mesh, radius, a: new Vector3(), b: new Vector3() };
		};
		switch (joint.type) {
			case 'spring': {
				// made at the rest length with unit coil radius in x and y; stretched along z
				const helix = new Helix(1, look.turns, look.meshLength);
				const tube = new TubeGeometry(helix, 16 * look.turns, look.wireRadius / look.coilRadius, 6, false);
				return [piece('coil', tube, steel(), look.coilRadius)];
			}
			case 'damper':
				return [piece('cylinder', rodGeometry(), dark(), look.damperRadius), piece('rod', rodGeometry(), steel(), look.damperRodRadius)];
			case 'distance':
				return [piece('rod', rodGeometry(), steel(), look.rodRadius)];
			case 'ball':
			case 'hinge':
			case 'universal':
			case 'cone_twist':
				return [piece('sphere', new SphereGeometry(look.sphereRadius, 20, 12), steel(), look.sphereRadius)];
			case 'fixed':
				return [piece('marker', new BoxGeometry(2 * look.markerHalf, 2 * look.markerHalf, 2 * look.markerHalf), steel(), look.markerHalf)];
			case 'slider':
			case 'point_on_plane': {
				const h = 2 * look.markerHalf;
				const pieces = [piece('marker', new BoxGeometry(h, h, h), steel(), look.markerHalf), piece('marker', new BoxGeometry(h, h, h), steel(), look.markerHalf)];
				if (joint.type === 'slider') pieces.push(piece('rod', rodGeometry(), steel(), look.rodRadius));
				return pieces;
			}
			default:
				return [];
		}
	}

	/** Places every joint's pieces at a frame (an array of stride numbers). */
	update(frame) {
		const a = new Vector3();
		const b = new Vector3();
		// a body that does not exist at the frame has a zero quaternion: its joints are not drawn
		const absent = (body) => {
			if (body < 0 || !frame) return false;
			const o = 1 + 7 * body;
			return frame[o + 3] === 0 && frame[o + 4] === 0 && frame[o + 5] === 0 && frame[o + 6] === 0;
		};
		this.scene.joints.forEach((joint, i) => {
			const look = this.looks[i];
			const gone = absent(joint.bodyA) || absent(joint.bodyB);
			for (const p of this.joints[i]) p.mesh.visible = !gone;
			if (gone) return;
			anchorAt(frame, joint.bodyA, joint.anchorA, a);
			anchorAt(frame, joint.bodyB, joint.anchorB, b);
			const pieces = this.joints[i];
			const length = a.distanceTo(b);
			const u = length > 1e-9 * look.size ? b.clone().sub(a).divideScalar(length) : Z.clone();
			const set = (p, from, to) => {
				p.a.copy(from);
				p.b.copy(to);
			};
			const bodyQuaternion = (body) => {
				if (body < 0 || !frame) return new Quaternion();
				const o = 1 + 7 * body;
				return new Quaternion(frame[o + 4], frame[o + 5], frame[o + 6], frame[o + 3]).normalize();
			};
			switch (joint.type) {
				case 'spring':
					set(pieces[0], a, b);
					// the coil of unit radius made at the rest length stretches and compresses with the anchors
					placeAlong(pieces[0].mesh, a, b, look.coilRadius, look.meshLength);
					break;
				case 'damper': {
					// the cylinder hangs from A's anchor and never reaches past B's; the rod comes from B's
					// anchor and ends inside it, so it slides in and out as the anchors move
					const body = Math.min(look.damperLength, length);
					const end = a.clone().addScaledVector(u, body);
					const inside = a.clone().addScaledVector(u, 0.1 * body);
					set(pieces[0], a, end);
					placeAlong(pieces[0].mesh, a, end, look.damperRadius, 1);
					set(pieces[1], b, inside);
					placeAlong(pieces[1].mesh, b, inside, look.damperRodRadius, 1);
					break;
				}
				case 'distance':
					set(pieces[0], a, b);
					placeAlong(pieces[0].mesh, a, b, look.rodRadius, 1);
					break;
				case 'slider':
				case 'point_on_plane':
					set(pieces[0], a, a);
					pieces[0].mesh.position.copy(a);
					pieces[0].mesh.quaternion.copy(bodyQuaternion(joint.bodyA));
					set(pieces[1], b, b);
					pieces[1].mesh.position.copy(b);
					pieces[1].mesh.quaternion.copy(bodyQuaternion(joint.bodyB));
					if (pieces[2]) {
						set(pieces[2], a, b);
						placeAlong(pieces[2].mesh, a, b, look.rodRadius, 1);
					}
					break;
				default:
					if (pieces[0]) {
						set(pieces[0], a, a);
						pieces[0].mesh.position.copy(a);
						if (joint.type === 'fixed') pieces[0].mesh.quaternion.copy(bodyQuaternion(joint.bodyA));
					}
			}
		});
	}

	/** What the tests read: per joint its type and pieces (kind, ends, radius, visible). */
	describe() {
		return this.scene.joints.map((joint, i) => ({
			name: joint.name,
			type: joint.type,
			pieces: this.joints[i].map((p) => ({
				kind: p.kind,
				a: [p.a.x, p.a.y, p.a.z],
				b: [p.b.x, p.b.y, p.b.z],
				radius: p.radius,
				visible: p.mesh.visible,
			})),
		}));
	}
}
