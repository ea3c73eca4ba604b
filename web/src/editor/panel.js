// The object window (AERO's, Keller et al. 1993, section 2.1, figure 8): adds bodies of every shape
// and deletes them, and edits the selected body (name, type, pose, velocity, mass, its shapes and their sizes,
// its material's density, friction, restitution and colour, its forces and torques), the joints
// (one of each type between the selected bodies, their keys, deleting them), the material pairs and
// no-collide pairs, and the cameras. Every field writes the
// scene document (model.js) through the editor, which asks the server's loader whether it is valid;
// the page has no rules of its own: a value it cannot read as JSON goes in as a string, and the
// loader says what it expected.
import { bodyQuaternion, CAMERA_KEYS, eulerDegrees, JOINTS, materialColor, materialNames, materialOf, newShape, quaternionOf, retypeCamera, setEuler, setMaterial, setMaterialColor, SHAPES } from './model.js';

/** A field's text as a JSON value: a number, array, ..., or the text itself when it is not JSON. */
export function parseValue(text) {
	const t = text.trim();
	try {
		return JSON.parse(t);
	} catch {
		return t;
	}
}

const show = (value) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

// linear RGB <-> the sRGB hex of <input type="color">
const toSrgb = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055);
const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));
function hexOf(rgb) {
	return `#${rgb.map((c) => Math.round(Math.min(1, Math.max(0, toSrgb(Number(c) || 0))) * 255).toString(16).padStart(2, '0')).join('')}`;
}
function rgbOf(hex) {
	// four digits are enough to read the same 8-bit colour back
	return [1, 3, 5].map((k) => Number(toLinear(parseInt(hex.slice(k, k + 2), 16) / 255).toFixed(4)));
}

// the size keys of each shape type, as fields (the rest of a shape is edited as JSON)
const SIZE_KEYS = {
	sphere: ['radius'],
	box: ['half_extents'],
	capsule: ['radius', 'half_height'],
	cylinder: ['radius', 'half_height'],
	plane: ['normal', 'offset'],
	hull: ['points'],
	compound: ['parts'],
	mesh: ['vertices', 'triangles'],
	heightfield: ['size', 'heights'],
};

export class ObjectPanel {
	/** editor: the Editor (its doc, selection, edit(), pick(), joint). */
	constructor(container, editor) {
		this.container = container;
		this.editor = editor;
	}

	el(tag, props = {}, ...children) {
		const e = document.createElement(tag);
		Object.assign(e, props);
		e.append(...children);
		return e;
	}

	section(title) {
		const s = this.el('section', {}, this.el('h3', { textContent: title }));
		this.container.append(s);
		return s;
	}

	// a labelled row of inputs, each committing its text on change
	row(parent, label, fields) {
		const row = this.el('div', { className: 'row' }, this.el('span', { textContent: label }));
		for (const { id, value, commit, title, wide } of fields) {
			const input = this.el('input', { id, type: 'text', value: show(value), title: title || label });
			if (wide) input.className = 'wide';
			input.addEventListener('change', () => commit(input.value));
			row.append(input);
		}
		parent.append(row);
		return row;
	}

	button(parent, id, text, title, fn) {
		const b = this.el('button', { id, textContent: text, title });
		b.addEventListener('click', fn);
		parent.append(b);
		return b;
	}

	/** Builds the window anew for the document and the selection. */
	render() {
		const ed = this.editor;
		const doc = ed.doc;
		this.container.innerHTML = '';
		const add = this.section('add a body');
		const shapes = this.el('div', { className: 'buttons' });
		for (const kind of SHAPES) this.button(shapes, `add-${kind}`, kind, `add a body with a ${kind} shape`, () => ed.addBody(kind));
		add.append(shapes);
		const list = this.el('select', { id: 'body-list', size: 5 });
		(doc.bodies || []).forEach((b, i) => list.append(this.el('option', { value: String(i), textContent: `${b.name} (${b.type || 'dynamic'})`, selected: ed.selection.includes(i) })));
		list.addEventListener('change', () => ed.pick(Number(list.value), false));
		add.append(list);
		this.button(add, 'delete-body', 'delete', 'delete the selected bodies (Delete)', () => ed.deleteSelected());

		const index = ed.selection[0];
		const body = index !== undefined ? doc.bodies[index] : null;
		if (body) this.renderBody(body, index);
		this.renderJoints();
		this.renderPairs();
		this.renderCameras();
	}

	// a menu of values, committing the one chosen (a value the list lacks is offered as it is)
	menu(id, values, value, commit) {
		const select = this.el('select', { id });
		for (const v of new Set([...values, ...(value === undefined ? [] : [value])])) select.append(this.el('option', { value: String(v), textContent: String(v), selected: v === value }));
		select.addEventListener('change', () => commit(select.value));
		return select;
	}

	// three fields for a vector key of an item of the document (get(doc): the item, made if need be)
	vectorRow(parent, label, id, value, fallback, get, key) {
		const v = Array.isArray(value) ? value : fallback;
		return this.row(
			parent,
			label,
			[0, 1, 2].map((k) => ({
				id: `${id}-${k}`,
				value: v[k],
				commit: (text) => this.editor.edit((doc) => {
					const item = get(doc);
					item[key] = (Array.isArray(item[key]) ? item[key] : fallback).slice();
					item[key][k] = parseValue(text);
				}),
			})),
		);
	}

	// material pairs (friction, restitution of two materials in contact) and no-collide pairs of bodies
	renderPairs() {
		const ed = this.editor;
		const doc = ed.doc;
		const s = this.section('material pairs');
		const materials = materialNames(doc);
		(doc.material_pairs || []).forEach((pair, i) => {
			const names = Array.isArray(pair.materials) ? pair.materials : [];
			const row = this.el('div', { className: 'row' });
			[0, 1].forEach((k) => row.append(this.menu(`pair-${i}-material-${k}`, materials, names[k], (v) => ed.edit((d) => {
				const p = d.material_pairs[i];
				p.materials = (Array.isArray(p.materials) ? p.materials : ['default', 'default']).slice();
				p.materials[k] = v;
			}))));
			s.append(row);
			const values = this.row(s, '  friction, rest.', ['friction', 'restitution'].map((key) => ({
				id: `pair-${i}-${key}`,
				value: pair[key],
				title: `${key} of this pair (empty: the mixing rule's)`,
				commit: (v) => ed.edit((d) => {
					if (v.trim() === '') delete d.material_pairs[i][key];
					else d.material_pairs[i][key] = parseValue(v);
				}),
			})));
			this.button(values, `pair-${i}-remove`, 'x', 'remove this pair', () => ed.edit((d) => {
				d.material_pairs.splice(i, 1);
				if (d.material_pairs.length === 0) delete d.material_pairs;
			}));
		});
		this.button(s, 'add-pair', 'add pair', "a pair of the selected body's material and the default one (change both in the menus)", () => ed.edit((d) => {
			const body = d.bodies[ed.selection[0]];
			const first = body ? materialOf(body) : materials[materials.length - 1];
			(d.material_pairs = d.material_pairs || []).push({ materials: [first, 'default'], friction: 0.5, restitution: 0 });
		}));

		const n = this.section('no-collide pairs');
		const bodies = (doc.bodies || []).map((b) => b.name);
		(doc.no_collide || []).forEach((pair, i) => {
			const names = Array.isArray(pair) ? pair : [];
			const row = this.el('div', { className: 'row' });
			[0, 1].forEach((k) => row.append(this.menu(`nocollide-${i}-${k}`, bodies, names[k], (v) => ed.edit((d) => {
				d.no_collide[i] = (Array.isArray(d.no_collide[i]) ? d.no_collide[i] : []).slice();
				d.no_collide[i][k] = v;
			}))));
			this.button(row, `nocollide-${i}-remove`, 'x', 'remove this pair', () => ed.edit((d) => {
				d.no_collide.splice(i, 1);
				if (d.no_collide.length === 0) delete d.no_collide;
			}));
			n.append(row);
		});
		this.button(n, 'add-nocollide', 'add no-collide', 'the two selected bodies never collide (Ctrl-click picks the second)', () => {
			if (ed.selection.length < 2) {
				ed.say('pick two bodies (Ctrl-click the second) that should never collide', true);
				return ed.pending;
			}
			const pair = ed.selection.slice(0, 2).map((i) => doc.bodies[i].name);
			return ed.edit((d) => {
				(d.no_collide = d.no_collide || []).push(pair);
			});
		});
	}

	// the cameras: a list, the chosen one's type, field of view and the keys of its type
	renderCameras() {
		const ed = this.editor;
		const doc = ed.doc;
		const s = this.section('cameras');
		const cameras = doc.cameras || [];
		const list = this.el('select', { id: 'camera-list', size: 3 });
		cameras.forEach((c, i) => list.append(this.el('option', { value: String(i), textContent: `${c.name} (${c.type || 'fixed'})`, selected: ed.camera === i })));
		list.addEventListener('change', () => {
			ed.camera = Number(list.value);
			this.render();
		});
		s.append(list);
		const buttons = this.el('div', { className: 'buttons' });
		this.button(buttons, 'add-camera', 'add camera', 'a fixed camera where the perspective view looks from, at what it looks at', () => {
			ed.camera = cameras.length;
			return ed.addCamera();
		});
		const i = ed.camera;
		const camera = cameras[i];
		if (camera) {
			this.button(buttons, 'delete-camera', 'delete camera', 'delete this camera', () => ed.edit((d) => {
				d.cameras.splice(i, 1);
				if (d.cameras.length === 0) delete d.cameras;
				ed.camera = -1;
			}));
		}
		s.append(buttons);
		if (!camera) return;
		const get = (d) => d.cameras[i];
		const set = (key, v) => ed.edit((d) => {
			if (v === '') delete d.cameras[i][key];
			else d.cameras[i][key] = v;
		});
		this.row(s, 'name', [{ id: 'camera-name', value: camera.name, commit: (v) => set('name', v) }]);
		const type = camera.type || 'fixed';
		const bodies = (doc.bodies || []).map((b) => b.name);
		const firstBody = ((doc.bodies || [])[ed.selection[0]] || (doc.bodies || [])[0] || {}).name;
		s.append(this.el('div', { className: 'row' }, this.el('span', { textContent: 'type' }), this.menu('camera-type', Object.keys(CAMERA_KEYS), type, (v) => ed.edit((d) => {
			d.cameras[i] = retypeCamera(d.cameras[i], v, firstBody);
		}))));
		this.row(s, 'fov°', [{ id: 'camera-fov', value: camera.fov_deg, title: 'horizontal field of view, degrees (empty: 50)', commit: (v) => set('fov_deg', v.trim() === '' ? '' : parseValue(v)) }]);
		for (const key of CAMERA_KEYS[type] || []) {
			if (key === 'body') {
				s.append(this.el('div', { className: 'row' }, this.el('span', { textContent: 'body' }), this.menu('camera-body', bodies, camera.body, (v) => set('body', v))));
			} else if (key === 'keys') {
				this.row(s, 'keys', [{ id: 'camera-keys', value: camera.keys, wide: true, title: '[{"time", "position", "look_at"}, ...]', commit: (v) => set('keys', parseValue(v)) }]);
			} else {
				const fallback = { position: [5, -7, 5], look_at: type === 'mounted' ? [1, 0, 0] : [0, 0, 0], offset: type === 'follow' ? [3, -4, 2] : [0, 0, 0] }[key];
				this.vectorRow(s, key === 'look_at' ? 'look at' : key, `camera-${key.replace('_', '')}`, camera[key], fallback, get, key);
			}
		}
	}

	renderBody(body, index) {
		const ed = this.editor;
		const s = this.section(`body: ${body.name}`);
		// each field edits a key of the body; an empty optional field removes its key
		const set = (key, value) => ed.edit((doc) => {
			const b = doc.bodies[index];
			if (value === '' || value === undefined) delete b[key];
			else b[key] = value;
		});
		this.row(s, 'name', [{ id: 'body-name', value: body.name, commit: (v) => set('name', v) }]);
		const type = this.el('select', { id: 'body-type' });
		for (const t of ['dynamic', 'static', 'kinematic']) type.append(this.el('option', { value: t, textContent: t, selected: (body.type || 'dynamic') === t }));
		type.addEventListener('change', () => set('type', type.value));
		s.append(this.el('div', { className: 'row' }, this.el('span', { textContent: 'type' }), type));
		const vector = (label, id, key, fallback) =>
			this.row(
				s,
				label,
				[0, 1, 2].map((k) => ({
					id: `${id}-${k}`,
					value: (body[key] || fallback)[k],
					commit: (v) => ed.edit((doc) => {
						const b = doc.bodies[index];
						b[key] = (b[key] || fallback).slice();
						b[key][k] = parseValue(v);
					}),
				})),
			);
		vector('position', 'body-pos', 'position', [0, 0, 0]);
		const euler = Array.isArray(body.euler_deg) ? body.euler_deg : eulerDegrees(bodyQuaternion(ed.doc, index));
		this.row(
			s,
			'rotation°',
			[0, 1, 2].map((k) => ({
				id: `body-rot-${k}`,
				value: euler[k],
				title: ['roll (about x), degrees', 'pitch (about y)', 'yaw (about z)'][k],
				commit: (v) => ed.edit((doc) => {
					const e = euler.slice();
					e[k] = parseValue(v);
					setEuler(doc.bodies[index], e);
				}),
			})),
		);
		vector('velocity', 'body-vel', 'velocity', [0, 0, 0]);
		vector('ang. vel.', 'body-angvel', 'angular_velocity', [0, 0, 0]);
		this.row(s, 'mass', [{ id: 'body-mass', value: body.mass, title: 'kg; empty: from the shapes and their density', commit: (v) => set('mass', v.trim() === '' ? '' : parseValue(v)) }]);

		// the shapes: each one's sizes, its place and rotation on the body, and removing it
		(body.shapes || []).forEach((shape, k) => {
			const head = this.el('div', { className: 'row' }, this.el('span', { textContent: `shape ${k}: ${shape.type}` }));
			this.button(head, `shape-${k}-remove`, 'x', 'remove this shape from the body', () => ed.edit((doc) => {
				doc.bodies[index].shapes.splice(k, 1);
			}));
			s.append(head);
			for (const key of SIZE_KEYS[shape.type] || []) {
				this.row(s, `  ${key}`, [
					{
						id: `shape-${k}-${key}`,
						value: shape[key],
						wide: true,
						commit: (v) => ed.edit((doc) => {
							doc.bodies[index].shapes[k][key] = parseValue(v);
						}),
					},
				]);
			}
			const getShape = (doc) => doc.bodies[index].shapes[k];
			this.vectorRow(s, '  offset', `shape-${k}-pos`, shape.position, [0, 0, 0], getShape, 'position');
			const euler = Array.isArray(shape.euler_deg) ? shape.euler_deg : eulerDegrees(quaternionOf(shape));
			this.row(s, '  rotation°', [0, 1, 2].map((j) => ({
				id: `shape-${k}-rot-${j}`,
				value: euler[j],
				title: ['roll (about x), degrees, in the body frame', 'pitch (about y)', 'yaw (about z)'][j],
				commit: (v) => ed.edit((doc) => {
					const e = euler.slice();
					e[j] = parseValue(v);
					setEuler(getShape(doc), e);
				}),
			})));
		});

		// another shape on this body, of any kind, at an offset in the body frame
		const shapeRow = this.el('div', { className: 'row' }, this.el('span', { textContent: 'add shape' }));
		const kind = this.el('select', { id: 'shape-kind' });
		for (const k of SHAPES) kind.append(this.el('option', { value: k, textContent: k }));
		shapeRow.append(kind);
		const offsets = [0, 1, 2].map((j) => this.el('input', { id: `shape-offset-${j}`, type: 'text', value: '0', title: ['offset x in the body frame, m', 'offset y', 'offset z'][j] }));
		shapeRow.append(...offsets);
		this.button(shapeRow, 'add-shape', 'add', 'add a shape of this kind to the body, at this offset', () => ed.edit((doc) => {
			const shape = newShape(kind.value);
			const offset = offsets.map((o) => parseValue(o.value));
			if (offset.some((x) => x !== 0)) shape.position = offset;
			(doc.bodies[index].shapes = doc.bodies[index].shapes || []).push(shape);
		}));
		s.append(shapeRow);

		// the material of its shapes, and that material's values (every body of it changes)
		const name = materialOf(body);
		const materials = ed.doc.materials || {};
		const select = this.el('select', { id: 'body-material' });
		for (const m of new Set(['default', ...Object.keys(materials)])) select.append(this.el('option', { value: m, textContent: m, selected: m === name }));
		select.append(this.el('option', { value: '', textContent: 'new material...' }));
		select.addEventListener('change', () => ed.edit((doc) => {
			let m = select.value;
			doc.materials = doc.materials || {};
			if (m === '') {
				for (let i = 1; ; ++i) if (!doc.materials[`material${i}`]) {
					m = `material${i}`;
					break;
				}
				doc.materials[m] = { density: 1000, friction: 0.6, restitution: 0 };
			}
			setMaterial(doc.bodies[index], m);
		}));
		s.append(this.el('div', { className: 'row' }, this.el('span', { textContent: 'material' }), select));
		const material = materials[name] || {};
		const setMaterialKey = (key, value) => ed.edit((doc) => {
			doc.materials = doc.materials || {};
			doc.materials[name] = doc.materials[name] || {};
			doc.materials[name][key] = value;
		});
		this.row(s, 'density', [{ id: 'mat-density', value: material.density ?? 1000, commit: (v) => setMaterialKey('density', parseValue(v)) }]);
		this.row(s, 'friction', [{ id: 'mat-friction', value: material.friction ?? 0.6, commit: (v) => setMaterialKey('friction', parseValue(v)) }]);
		this.row(s, 'restitution', [{ id: 'mat-restitution', value: material.restitution ?? 0, commit: (v) => setMaterialKey('restitution', parseValue(v)) }]);
		const color = this.el('input', { id: 'mat-color', type: 'color', value: hexOf(materialColor(material)) });
		color.addEventListener('change', () => ed.edit((doc) => {
			doc.materials = doc.materials || {};
			doc.materials[name] = doc.materials[name] || {};
			setMaterialColor(doc.materials[name], rgbOf(color.value));
		}));
		s.append(this.el('div', { className: 'row' }, this.el('span', { textContent: 'colour' }), color));

		// forces and torques: frame, vector, start, end
		for (const kind of ['forces', 'torques']) {
			(body[kind] || []).forEach((f, k) => {
				const edit = (key, v) => ed.edit((doc) => {
					const item = doc.bodies[index][kind][k];
					if (v.trim() === '') delete item[key];
					else item[key] = parseValue(v);
				});
				const row = this.row(s, `${kind === 'forces' ? 'force' : 'torque'} ${k}`, [
					{ id: `${kind}-${k}-frame`, value: f.frame, title: 'frame: world or body', commit: (v) => edit('frame', v) },
					{ id: `${kind}-${k}-vector`, value: f.vector, title: kind === 'forces' ? 'vector, N' : 'vector, N m', wide: true, commit: (v) => edit('vector', v) },
					{ id: `${kind}-${k}-start`, value: f.start, title: 'start, s', commit: (v) => edit('start', v) },
					{ id: `${kind}-${k}-end`, value: f.end, title: 'end, s', commit: (v) => edit('end', v) },
				]);
				this.button(row, `${kind}-${k}-remove`, 'x', 'remove', () => ed.edit((doc) => {
					doc.bodies[index][kind].splice(k, 1);
					if (doc.bodies[index][kind].length === 0) delete doc.bodies[index][kind];
				}));
			});
		}
		const more = this.el('div', { className: 'buttons' });
		this.button(more, 'add-force', 'add force', 'a constant world force', () => ed.edit((doc) => {
			(doc.bodies[index].forces = doc.bodies[index].forces || []).push({ frame: 'world', vector: [0, 0, 10] });
		}));
		this.button(more, 'add-torque', 'add torque', 'a constant world torque', () => ed.edit((doc) => {
			(doc.bodies[index].torques = doc.bodies[index].torques || []).push({ frame: 'world', vector: [0, 0, 1] });
		}));
		s.append(more);

		// everything else: the body as JSON
		const json = this.el('textarea', { id: 'body-json', rows: 5, value: JSON.stringify(body, null, 1) });
		s.append(json);
		this.button(s, 'body-json-apply', 'apply JSON', 'replace the body by this JSON', () => ed.edit((doc) => {
			doc.bodies[index] = parseValue(json.value);
		}));
	}

	renderJoints() {
		const ed = this.editor;
		const doc = ed.doc;
		const s = this.section('joints');
		const row = this.el('div', { className: 'row' });
		const type = this.el('select', { id: 'joint-type' });
		for (const t of JOINTS) type.append(this.el('option', { value: t, textContent: t }));
		row.append(type);
		this.button(row, 'add-joint', 'join', 'join the selected body to the world, or the two selected bodies (Ctrl-click picks the second)', () => ed.addJoint(type.value));
		s.append(row);
		const list = this.el('select', { id: 'joint-list', size: 4 });
		(doc.joints || []).forEach((j, i) => list.append(this.el('option', { value: String(i), textContent: `${j.name} (${j.type}: ${(j.bodies || []).join(', ')})`, selected: ed.joint === i })));
		list.addEventListener('change', () => {
			ed.joint = Number(list.value);
			this.render();
		});
		s.append(list);
		const joint = (doc.joints || [])[ed.joint];
		if (!joint) return;
		const i = ed.joint;
		for (const key of Object.keys(joint)) {
			if (key === 'type') continue;
			this.row(s, key, [
				{
					id: `joint-${key}`,
					value: joint[key],
					wide: true,
					commit: (v) => ed.edit((d) => {
						d.joints[i][key] = parseValue(v);
					}),
				},
			]);
		}
		this.button(s, 'delete-joint', 'delete joint', 'delete this joint', () => ed.edit((d) => {
			d.joints.splice(i, 1);
			ed.joint = -1;
		}));
	}
}
