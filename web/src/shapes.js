// Three.js objects for the recorded bodies: one group per body, placed each frame by its pose, with
// one mesh per shape at the shape's pose in the body frame. Every shape is drawn at its exact size:
// spheres, boxes, capsules and cylinders (axis along local z) from their dimensions, planes as large
// squares, polygons (planar scenes) as thin prisms, hulls, meshes and heightfields from the
// triangulated surfaces the recording carries.
import {
	BoxGeometry,
	BufferAttribute,
	BufferGeometry,
	CapsuleGeometry,
	Color,
	CylinderGeometry,
	DoubleSide,
	ExtrudeGeometry,
	Group,
	Mesh,
	MeshStandardMaterial,
	PlaneGeometry,
	Quaternion,
	Shape,
	SphereGeometry,
	Vector3,
} from 'three';

// finish → how the surface reflects (cnFinish names)
const FINISHES = {
	plastic: { roughness: 0.45, metalness: 0.0 },
	matte: { roughness: 0.95, metalness: 0.0 },
	metal: { roughness: 0.3, metalness: 0.85 },
	glass: { roughness: 0.05, metalness: 0.0, transparent: true, opacity: 0.45 },
	wood: { roughness: 0.75, metalness: 0.0 },
	marble: { roughness: 0.25, metalness: 0.0 },
	rubber: { roughness: 0.9, metalness: 0.0 },
};

function makeMaterial(shape, doubleSided) {
	const finish = FINISHES[shape.finish] || FINISHES.plastic;
	const c = shape.color || [0.7, 0.7, 0.7];
	// recorded colours are linear RGB, which is three.js's working colour space
	const material = new MeshStandardMaterial({ color: new Color(c[0], c[1], c[2]), ...finish });
	if (doubleSided) material.side = DoubleSide;
	return material;
}

// A geometry from flat vertex and triangle lists (hulls and meshes flat shaded: their faces are
// facets, not samples of a smooth surface; heightfields smooth).
function surfaceGeometry(shape, smooth) {
	const v = shape.vertices || [];
	const t = shape.triangles || [];
	let geometry = new BufferGeometry();
	geometry.setAttribute('position', new BufferAttribute(new Float32Array(v), 3));
	const vertexCount = v.length / 3;
	const IndexArray = vertexCount > 65535 ? Uint32Array : Uint16Array;
	geometry.setIndex(new BufferAttribute(new IndexArray(t), 1));
	if (!smooth) geometry = geometry.toNonIndexed();
	geometry.computeVertexNormals();
	return geometry;
}

// A polygon of a planar scene: its outline thickened by the edge radius, extruded a little along z.
function polygonGeometry(shape) {
	const v = shape.vertices || [];
	const outline = new Shape();
	for (let i = 0; i < v.length / 3; ++i) {
		if (i === 0) outline.moveTo(v[0], v[1]);
		else outline.lineTo(v[3 * i], v[3 * i + 1]);
	}
	const r = shape.radius || 0;
	let size = 0;
	for (let i = 0; i < v.length; ++i) size = Math.max(size, Math.abs(v[i]));
	const depth = Math.max(2 * r, 0.1 * size, 0.01);
	const geometry = new ExtrudeGeometry(outline, {
		depth,
		bevelEnabled: r > 0,
		bevelThickness: r,
		bevelSize: r,
		bevelSegments: 2,
	});
	geometry.translate(0, 0, -depth / 2);
	return geometry;
}

/**
 * The geometry of one recorded shape in its own frame, or null when it cannot be drawn.
 * planeSize: the side of the square that stands for an infinite plane.
 */
export function shapeGeometry(shape, planeSize) {
	switch (shape.type) {
		case 'sphere':
			return new SphereGeometry(shape.radius, 48, 24);
		case 'box': {
			const h = shape.halfExtents;
			return new BoxGeometry(2 * h[0], 2 * h[1], 2 * h[2]);
		}
		case 'capsule': {
			// three.js capsules and cylinders stand along y; Cairn's along z
			const g = new CapsuleGeometry(shape.radius, 2 * shape.halfHeight, 12, 32);
			g.rotateX(Math.PI / 2);
			return g;
		}
		case 'cylinder': {
			const g = new CylinderGeometry(shape.radius, shape.radius, 2 * shape.halfHeight, 48);
			g.rotateX(Math.PI / 2);
			return g;
		}
		case 'plane': {
			// the square lies in the plane, centred on the point of it nearest the frame's origin
			const g = new PlaneGeometry(planeSize, planeSize);
			const n = new Vector3(...shape.normal).normalize();
			g.applyQuaternion(new Quaternion().setFromUnitVectors(new Vector3(0, 0, 1), n));
			const c = n.clone().multiplyScalar(shape.offset);
			g.translate(c.x, c.y, c.z);
			return g;
		}
		case 'polygon':
			return polygonGeometry(shape);
		case 'hull':
		case 'mesh':
			return surfaceGeometry(shape, false);
		case 'heightfield':
			return surfaceGeometry(shape, true);
		default:
			return null;
	}
}

/** One group per body with its shapes' meshes; group.userData.body is the body's index. */
export function makeBodies(scene, planeSize) {
	return scene.bodies.map((body, index) => {
		const group = new Group();
		group.name = body.name;
		group.userData.body = index;
		body.shapes.forEach((shape, shapeIndex) => {
			const geometry = shapeGeometry(shape, planeSize);
			if (geometry === null) return;
			// open surfaces (static meshes, heightfields) are seen from both sides
			const doubleSided = shape.type === 'mesh' || shape.type === 'heightfield';
			const mesh = new Mesh(geometry, makeMaterial(shape, doubleSided));
			const p = shape.position;
			const q = shape.orientation;
			mesh.position.set(p[0], p[1], p[2]);
			mesh.quaternion.set(q[1], q[2], q[3], q[0]);
			mesh.castShadow = shape.type !== 'plane';
			mesh.receiveShadow = true;
			mesh.userData.body = index;
			mesh.userData.shapeType = shape.type;
			// the shape's index in its body's description (the editor scales it)
			mesh.userData.shape = shapeIndex;
			group.add(mesh);
		});
		return group;
	});
}

/** How far a shape reaches from its body's origin (planes: 0, they have no size). */
export function shapeReach(shape) {
	const p = shape.position;
	const offset = Math.hypot(p[0], p[1], p[2]);
	switch (shape.type) {
		case 'sphere':
			return offset + shape.radius;
		case 'box':
			return offset + Math.hypot(...shape.halfExtents);
		case 'capsule':
		case 'cylinder':
			return offset + shape.radius + shape.halfHeight;
		case 'plane':
			return 0;
		default: {
			const v = shape.vertices || [];
			let r = 0;
			for (let i = 0; i + 2 < v.length; i += 3) r = Math.max(r, Math.hypot(v[i], v[i + 1], v[i + 2]));
			return offset + r + (shape.radius || 0);
		}
	}
}
