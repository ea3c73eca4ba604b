// Applying an edit at a cut frame (AERO's "the scene can be altered at any point in time", Keller et
// al. 1993, section 2.2): the editor's document is the world at the frame it was taken at (the frame
// shown) as the library writes it, and applying turns the difference into the edits
// of the server's own cut at that frame (POST /api/cut: delete, add, move, velocity, material), so
// the frames before it are kept and the edited world goes on from it.
//
// Both sides are compared as the library writes them (the base as /api/save/scene wrote it, the
// document as /api/editor/save writes it), so a difference of form (euler_deg for orientation, a key
// left at its default) is none. What a cut cannot do is refused with the reason, never half done:
// a changed body other than its pose and velocities (a size, a mass, a shape, its type), a moved
// body that has joints (a cut moves the joint with the body, the document re-anchors it), a new or
// changed joint, material (other than friction and restitution) or pair, gravity, method, cameras.
// An added body keeps its forces and torques (the cut's add carries them, their windows counted
// from the cut, the document's t = 0).

// a JSON value as text with the keys of every object sorted (so key order is no difference)
function canonical(value) {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		return `{${Object.keys(value)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value);
}

const same = (a, b) => canonical(a) === canonical(b);

// a body without the keys a cut sets (its pose and velocities)
const POSE = ['position', 'orientation', 'euler_deg'];
const VELOCITY = ['velocity', 'angular_velocity'];
function rest(body) {
	const copy = { ...body };
	for (const key of [...POSE, ...VELOCITY]) delete copy[key];
	return copy;
}
const pick = (body, keys) => Object.fromEntries(keys.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));

const firstMaterial = (body) => ((body.shapes || [])[0] || {}).material || body.material || 'default';

/**
 * The edits of a cut that make the base world into the edited one, or the reason there are none.
 * base: the world at the cut as the library wrote it (parsed); written: the edited document as the
 * library writes it (parsed); checked: /api/editor/check's answer on the edited document (its
 * poses and velocities, bodies in the document's order). Returns { edits } or { reason }.
 */
export function cutEdits(base, written, checked) {
	const baseBodies = new Map((base.bodies || []).map((b) => [b.name, b]));
	const names = new Set((written.bodies || []).map((b) => b.name));
	const deleted = new Set([...baseBodies.keys()].filter((n) => !names.has(n)));
	const names2 = (list) => (list || []).flatMap((item) => (Array.isArray(item) ? item : [...(item.bodies || []), ...(item.body ? [item.body] : [])]));
	// what names a deleted body goes with it at the cut, as it went from the document
	const kept = (list) => (list || []).filter((item) => !names2([item]).some((n) => deleted.has(n)));

	// everything but the bodies and materials must be as it was
	const keys = new Set([...Object.keys(base), ...Object.keys(written)]);
	for (const key of keys) {
		if (key === 'bodies' || key === 'materials') continue;
		const before = ['joints', 'no_collide', 'cameras'].includes(key) ? kept(base[key]) : base[key];
		const empty = (v) => v === undefined || (Array.isArray(v) && v.length === 0);
		if (empty(before) && empty(written[key])) continue;
		if (!same(before, written[key])) return { reason: `"${key}" changed (a cut edits bodies, their friction and restitution only)` };
	}

	const edits = [];
	for (const name of deleted) edits.push({ op: 'delete', body: name });

	// materials: the same ones, changed in friction and restitution at most
	const baseMaterials = base.materials || {};
	const materials = written.materials || {};
	if (!same(Object.keys(baseMaterials).sort(), Object.keys(materials).sort())) return { reason: 'a material was added or removed (a cut makes no materials)' };
	for (const [name, material] of Object.entries(materials)) {
		const before = baseMaterials[name];
		const values = ['friction', 'restitution'];
		const strip = (m) => Object.fromEntries(Object.entries(m).filter(([k]) => !values.includes(k)));
		if (!same(strip(before), strip(material))) return { reason: `material "${name}" changed other than in friction and restitution` };
		if (same(pick(before, values), pick(material, values))) continue;
		// a cut's "material" edit changes the material of a body's first shape
		const user = [...baseBodies.values()].find((b) => !deleted.has(b.name) && firstMaterial(b) === name);
		if (!user) return { reason: `material "${name}" is the first shape's material of no body, which a cut's material edit needs` };
		edits.push({ op: 'material', body: user.name, ...pick(material, values) });
	}

	const jointed = new Set(names2(base.joints));
	for (const [i, body] of (written.bodies || []).entries()) {
		const before = baseBodies.get(body.name);
		if (!before) {
			edits.push({ op: 'add', body });
			continue;
		}
		if (!same(rest(before), rest(body))) return { reason: `body "${body.name}" changed other than in its pose and velocities` };
		const moved = !same(pick(before, POSE), pick(body, POSE));
		if (moved && jointed.has(body.name)) return { reason: `body "${body.name}" has joints: a cut moves them with it, the document places them anew` };
		const p = checked.poses[i];
		if (moved) edits.push({ op: 'move', body: body.name, position: p.slice(0, 3), orientation: p.slice(3, 7) });
		// (a turned body's centre of mass moves, and with it the velocity the document's origin velocity gives)
		if (moved || !same(pick(before, VELOCITY), pick(body, VELOCITY))) {
			const v = checked.velocities[i];
			edits.push({ op: 'velocity', body: body.name, linear: v.slice(0, 3), angular: v.slice(3, 6) });
		}
	}
	return { edits };
}
