// The scene editor of `cairn view` (docs/viewer.md, "Editor") in Debian's Chromium: the four views,
// a body of every shape added from the object window and placed there, one dragged in the top view
// onto the grid and one turned onto the angle step, one deleted with its joints, a new material and its values, a joint of every
// type and one joint's key edited, undo and redo by button and key, an invalid edit showing the very
// message `cairn info` gives for the same document, saving (the file loads with `cairn run`, and
// saving that file again in a second viewer gives the same bytes), and applying, after which the
// viewer simulates the edited scene; material pairs, no-collide pairs and cameras made and edited in
// the object window, a second shape placed on a body, shapes scaled by dragging onto the grid, each
// in the saved file, the undo history kept across apply (undo, apply again), and an edit applied at
// a viewer's cut frame continuing its history (a change a cut cannot make refused), and the editor
// opened at a frame shown that is no cut, applied as a cut there with an added body's force. A screenshot of the four views (WORK_DIR/editor.png) and a
// pixel check that an added body is drawn where it projects in the top and front views.
//   node editor_test.mjs CAIRN SOURCE_DIR WORK_DIR
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { check, csvTime, finish, getJson, launchBrowser, near, openPage, readCsv, runStatus, startViewer, stopViewer, waitComplete } from './helpers.mjs';

const [cairn, src, work] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const scenePath = join(src, 'tests', 'view', 'fall.json');

// Reads pixels of a PNG screenshot in the page itself (as browser_test.mjs does).
async function pixels(page, png, points) {
	return page.evaluate(async ({ b64, points }) => {
		const image = new Image();
		image.src = `data:image/png;base64,${b64}`;
		await image.decode();
		const canvas = document.createElement('canvas');
		canvas.width = image.width;
		canvas.height = image.height;
		const context = canvas.getContext('2d');
		context.drawImage(image, 0, 0);
		return points.map(({ x, y }) => Array.from(context.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3)));
	}, { b64: png.toString('base64'), points });
}

// The message `cairn info` gives for a document saved as scene.json (the name the editor's scenes
// have in the loader's messages), without its "cairn: error: " prefix.
function loaderMessage(doc) {
	const dir = join(work, 'invalid');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'scene.json'), JSON.stringify(doc, null, '\t'));
	return spawnSync(cairn, ['info', 'scene.json'], { cwd: dir, encoding: 'utf8', timeout: 60000 });
}

const editor = (page, fn, arg) => page.evaluate(fn, arg);
const state = (page) =>
	editor(page, () => {
		const e = window.cairnViewer.editor;
		return { doc: e.doc, valid: e.valid, message: e.message, selection: e.selection, drawn: e.views.bodies.length };
	});
const settle = (page) => editor(page, () => window.cairnViewer.editor.pending);

// Types a value into a field of the object window and commits it (a change event, as Enter gives).
async function field(page, id, value) {
	await page.fill(`#${id}`, String(value));
	await page.press(`#${id}`, 'Enter');
	await page.dispatchEvent(`#${id}`, 'change');
	await settle(page);
}

const viewer = await startViewer(cairn, [scenePath]);
const browser = await launchBrowser(src);
try {
	const { page, problems } = await openPage(browser, viewer.url);
	await page.setViewportSize({ width: 1280, height: 820 });

	// the player's single view is the default; the button (or V) opens the four views
	check(await page.isVisible('#view'), 'the player shows its single view first');
	check(!(await page.isVisible('#editor')), 'the editor is closed at first');
	await page.click('#four-views');
	await page.waitForFunction(() => window.cairnViewer.editor.views && window.cairnViewer.editor.views.bodies.length === 3, null, { timeout: 30000 });
	let s = await state(page);
	check(s.valid && s.doc.bodies.map((b) => b.name).join() === 'ground,ball,box', `the document is the scene (${s.message})`);
	const cameras = await editor(page, () => {
		const v = window.cairnViewer.editor.views;
		return ['top', 'front', 'side', 'perspective'].map((n) => v.camera(n).type);
	});
	check(cameras.join() === 'OrthographicCamera,OrthographicCamera,OrthographicCamera,PerspectiveCamera', `three parallel views and a perspective one (${cameras})`);
	// the ball (x -2, y 0, z 3): left of the middle in the top and front views, in the middle of the side view
	const ball = await editor(page, () => ['top', 'front', 'side'].map((n) => window.cairnViewer.editor.project(n, 'ball')));
	const boxp = await editor(page, () => ['top', 'front', 'side'].map((n) => window.cairnViewer.editor.project(n, 'box')));
	check(ball[0].x < boxp[0].x && Math.abs(ball[0].y - boxp[0].y) < 1, 'top view: x to the right, the same y at the same height');
	check(ball[1].x < boxp[1].x && ball[1].y < boxp[1].y, 'front view: x to the right, z up');
	check(Math.abs(ball[2].x - boxp[2].x) < 1 && ball[2].y < boxp[2].y, 'side view: the same y, z up');
	check(ball.every((p) => p.inside), 'the ball is in every ortho view');

	// a body of every shape, each placed from the object window
	const kinds = ['sphere', 'box', 'capsule', 'cylinder', 'plane', 'hull', 'compound', 'mesh', 'heightfield'];
	for (const [k, kind] of kinds.entries()) {
		await page.click(`#add-${kind}`);
		await settle(page);
		s = await state(page);
		const body = s.doc.bodies[s.doc.bodies.length - 1];
		check(body.shapes[0].type === kind && s.selection[0] === s.doc.bodies.length - 1, `add ${kind}: a body of it, picked`);
		check(s.valid && s.drawn === s.doc.bodies.length, `add ${kind}: the loader accepts it and it is drawn (${s.message})`);
		if (kind === 'plane') continue;
		const place = kind === 'heightfield' ? [3, -3, 0.5] : [-3 + 0.75 * k, 3, 1];
		for (let i = 0; i < 3; ++i) await field(page, `body-pos-${i}`, place[i]);
		s = await state(page);
		check(JSON.stringify(s.doc.bodies[s.doc.bodies.length - 1].position) === JSON.stringify(place), `${kind} placed at ${place} from the panel`);
	}
	check(s.valid, `every shape together loads (${s.message})`);
	const shapeTypes = await editor(page, () => window.cairnViewer.editor.views.description.bodies.map((b) => b.shapes.map((x) => x.type).join('+')));
	check(kinds.every((k) => shapeTypes.includes(k) || (k === 'compound' && shapeTypes.includes('hull+hull'))), `the server describes each shape (${shapeTypes})`);

	// a second shape on the capsule body (index 5): the loader takes it, the server describes both
	await editor(page, () => window.cairnViewer.editor.pick(5, false));
	await page.selectOption('#shape-kind', 'box');
	await page.click('#add-shape');
	await settle(page);
	s = await state(page);
	const twoShapes = await editor(page, () => window.cairnViewer.editor.views.description.bodies[5].shapes.map((x) => x.type).join());
	check(s.valid && s.doc.bodies[5].shapes.length === 2 && twoShapes === 'capsule,box', `a box added to the capsule's body (${twoShapes}, ${s.message})`);
	await page.click('#shape-1-remove');
	await settle(page);
	check((await state(page)).doc.bodies[5].shapes.length === 1, 'and removed again');

	// drag the sphere in the top view: it lands on the grid (0.25 m) where the pointer let go
	await editor(page, () => window.cairnViewer.editor.pick(3, false));
	const from = await editor(page, () => window.cairnViewer.editor.project('top', 'sphere1'));
	const to = await editor(page, () => window.cairnViewer.editor.views.project('top', [-1.1, -2.08, 1]));
	await page.mouse.move(from.x, from.y);
	await page.mouse.down();
	await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
	await page.mouse.move(to.x, to.y, { steps: 4 });
	await page.mouse.up();
	await settle(page);
	s = await state(page);
	check(JSON.stringify(s.doc.bodies[3].position) === '[-1,-2,1]', `dragged in the top view onto the grid: ${JSON.stringify(s.doc.bodies[3].position)}`);
	check(JSON.stringify(await editor(page, () => window.cairnViewer.editor.drawnPosition('sphere1'))) === '[-1,-2,1]', 'drawn where it was put');

	// turn the box body in the top view with the rotate tool: a yaw on the 15 degree step
	await page.click('#ed-rotate');
	const boxAt = await editor(page, () => window.cairnViewer.editor.project('top', 'box1'));
	// from a point on the box, right of its centre, round to above it: a quarter turn
	await page.mouse.move(boxAt.x + 3, boxAt.y);
	await page.mouse.down();
	await page.mouse.move(boxAt.x + 25, boxAt.y - 25, { steps: 3 });
	await page.mouse.move(boxAt.x + 1, boxAt.y - 40, { steps: 3 });
	await page.mouse.up();
	await settle(page);
	await page.click('#ed-move');
	s = await state(page);
	const euler = s.doc.bodies[4].euler_deg || [];
	check(JSON.stringify(euler) === '[0,0,90]', `turned a quarter turn about z, on the angle step: ${JSON.stringify(euler)}`);
	check(s.doc.bodies[4].orientation === undefined, 'a turned body keeps euler_deg only');

	// a new material for the sphere, red, with its values
	await editor(page, () => window.cairnViewer.editor.pick(3, false));
	await page.selectOption('#body-material', '');
	await settle(page);
	await field(page, 'mat-friction', 0.3);
	await field(page, 'mat-restitution', 0.5);
	await field(page, 'mat-density', 500);
	await page.$eval('#mat-color', (input) => {
		input.value = '#ff0000';
		input.dispatchEvent(new Event('change'));
	});
	await settle(page);
	s = await state(page);
	const material = s.doc.materials.material1 || {};
	check(s.doc.bodies[3].material === 'material1' && material.friction === 0.3 && material.restitution === 0.5 && material.density === 500, `a new material with its values: ${JSON.stringify(material)}`);
	check(JSON.stringify(material.color || (material.appearance || {}).color) === '[1,0,0]', 'its colour, linear RGB');

	// the red sphere is drawn where it projects in the top and front views (and only there)
	await page.mouse.move(5, 5);
	await editor(page, () => {
		window.cairnViewer.editor.pick(-1, false);
		window.cairnViewer.editor.views.render();
	});
	const shot = await page.screenshot({ path: join(work, 'editor.png') });
	const at = await editor(page, () => ['top', 'front'].flatMap((n) => [window.cairnViewer.editor.views.project(n, [-1, -2, 1]), window.cairnViewer.editor.views.project(n, [-1.6, -2, 1.6])]));
	const px = await pixels(page, shot, at);
	const red = ([r, g, b]) => r > 60 && r > 3 * g && r > 3 * b;
	check(red(px[0]) && red(px[2]), `the red sphere is drawn where it projects in the top and front views: ${JSON.stringify([px[0], px[2]])}`);
	check(!red(px[1]) && !red(px[3]), `and not 0.6 m beside it: ${JSON.stringify([px[1], px[3]])}`);

	// a joint of every type between the ball and the box (Ctrl-click picks the second body)
	const types = await editor(page, () => Array.from(document.querySelectorAll('#joint-type option')).map((o) => o.value));
	check(types.length === 10, `every joint type is offered (${types})`);
	for (const type of types) {
		await editor(page, () => {
			window.cairnViewer.editor.pick(1, false);
			window.cairnViewer.editor.pick(2, true);
		});
		await page.selectOption('#joint-type', type);
		await page.click('#add-joint');
		await settle(page);
		s = await state(page);
		const joint = s.doc.joints[s.doc.joints.length - 1];
		check(joint.type === type && joint.bodies.join() === 'ball,box', `a ${type} joint between ball and box`);
		check(s.valid, `the loader accepts the ${type} joint (${s.message})`);
	}
	// edit the hinge's axis in the object window, then delete the point_on_plane joint
	await editor(page, () => {
		const e = window.cairnViewer.editor;
		e.joint = e.doc.joints.findIndex((j) => j.type === 'hinge');
		e.panel.render();
	});
	await field(page, 'joint-axis', '[1, 0, 0]');
	s = await state(page);
	check(JSON.stringify(s.doc.joints.find((j) => j.type === 'hinge').axis) === '[1,0,0]' && s.valid, 'the hinge axis edited');
	await editor(page, () => {
		const e = window.cairnViewer.editor;
		e.joint = e.doc.joints.findIndex((j) => j.type === 'point_on_plane');
		e.panel.render();
	});
	await page.click('#delete-joint');
	await settle(page);
	s = await state(page);
	check(s.doc.joints.length === 9 && !s.doc.joints.some((j) => j.type === 'point_on_plane'), 'a joint deleted');

	// undo and redo: buttons and keys, over every kind of edit
	const before = JSON.stringify(s.doc);
	await page.click('#ed-undo');
	await settle(page);
	s = await state(page);
	check(s.doc.joints.length === 10, 'undo brings the deleted joint back');
	await page.click('#ed-undo');
	await settle(page);
	s = await state(page);
	check(s.doc.joints.find((j) => j.type === 'hinge').axis.join() === '0,1,0', 'undo again: the hinge axis as it was');
	await page.mouse.click(5, 5);
	await page.keyboard.press('Control+y');
	await settle(page);
	await page.click('#ed-redo');
	await settle(page);
	s = await state(page);
	check(JSON.stringify(s.doc) === before, 'redo (Ctrl-Y, then the button) gives the document back exactly');
	await page.keyboard.press('Control+z');
	await settle(page);
	check((await state(page)).doc.joints.length === 10, 'Ctrl-Z undoes');
	await page.keyboard.press('Control+y');
	await settle(page);
	check(JSON.stringify((await state(page)).doc) === before, 'Ctrl-Y redoes');

	// invalid edits: the page shows what the loader says of the same document, word for word
	const invalid = async (what, act) => {
		await act();
		await settle(page);
		s = await state(page);
		const r = loaderMessage(s.doc);
		const expected = r.stderr.trim().replace(/^cairn: error: /, '');
		check(r.status === 2 && !s.valid && s.message === expected, `${what}: the loader's message "${expected}", the page "${s.message}"`);
		check(await page.evaluate(() => document.getElementById('ed-message').classList.contains('error')), `${what}: shown as an error`);
		await page.click('#ed-undo');
		await settle(page);
		check((await state(page)).valid, `${what}: undone, valid again`);
	};
	await editor(page, () => window.cairnViewer.editor.pick(3, false));
	await invalid('a negative radius', () => field(page, 'shape-0-radius', -1));
	await invalid('a negative mass', () => field(page, 'body-mass', -2));
	await invalid('a zero box size', () => editor(page, () => window.cairnViewer.editor.pick(4, false)).then(() => field(page, 'shape-0-half_extents', '[0.25, 0, 0.25]')));
	await invalid('restitution over 1', () => field(page, 'mat-restitution', 1.5));
	await invalid('an unknown key', async () => {
		const json = JSON.parse(await page.inputValue('#body-json'));
		json.colour = [1, 0, 0];
		await page.fill('#body-json', JSON.stringify(json));
		await page.click('#body-json-apply');
	});
	await invalid('a number that is text', () => field(page, 'body-pos-2', 'high'));

	// material pairs: one added for the sphere's material, its friction edited; a restitution over 1
	// and the same pair twice are the loader's messages
	await editor(page, () => window.cairnViewer.editor.pick(3, false));
	await page.click('#add-pair');
	await settle(page);
	await field(page, 'pair-0-friction', 0.2);
	s = await state(page);
	check(s.valid && JSON.stringify(s.doc.material_pairs) === '[{"materials":["material1","default"],"friction":0.2,"restitution":0}]', `a material pair added and edited: ${JSON.stringify(s.doc.material_pairs)} (${s.message})`);
	await invalid('a pair restitution over 1', () => field(page, 'pair-0-restitution', 2));
	await invalid('a pair given twice', () => page.click('#add-pair'));
	await page.selectOption('#pair-0-material-1', 'floor');
	await settle(page);
	s = await state(page);
	check(s.valid && s.doc.material_pairs[0].materials.join() === 'material1,floor', `the pair's second material chosen from the menu (${s.message})`);

	// a no-collide pair of the ball and the box (Ctrl-click picks the second); a body with itself refused
	await editor(page, () => {
		window.cairnViewer.editor.pick(1, false);
		window.cairnViewer.editor.pick(2, true);
	});
	await page.click('#add-nocollide');
	await settle(page);
	s = await state(page);
	check(s.valid && JSON.stringify(s.doc.no_collide) === '[["ball","box"]]', `a no-collide pair: ${JSON.stringify(s.doc.no_collide)}`);
	await invalid('a body that does not collide with itself', () => page.selectOption('#nocollide-0-1', 'ball'));

	// cameras: a fixed one where the perspective view is, moved; one made a follow, then a mounted
	// camera on the ball; a path camera deleted; a camera looking at its own position refused
	await editor(page, () => window.cairnViewer.editor.pick(1, false));
	const eye = await editor(page, () => {
		const v = window.cairnViewer.editor.views;
		return [v.perspective.position.toArray(), v.controls.target.toArray()];
	});
	await page.click('#add-camera');
	await settle(page);
	s = await state(page);
	const added = (s.doc.cameras || [])[0] || {};
	check(s.valid && added.type === 'fixed' && added.name === 'camera1' && [0, 1, 2].every((k) => Math.abs(added.position[k] - eye[0][k]) <= 5e-4 && Math.abs(added.look_at[k] - eye[1][k]) <= 5e-4),
		`a fixed camera where the perspective view looks from: ${JSON.stringify(added)} (${s.message})`);
	for (const [k, v] of [4, -6, 3].entries()) await field(page, `camera-position-${k}`, v);
	await field(page, 'camera-lookat-2', 0.5);
	s = await state(page);
	check(JSON.stringify(s.doc.cameras[0].position) === '[4,-6,3]' && s.doc.cameras[0].look_at[2] === 0.5, `its position and target edited: ${JSON.stringify(s.doc.cameras[0])}`);
	await invalid('a camera looking at its own position', async () => {
		for (const [k, v] of [4, -6].entries()) await field(page, `camera-lookat-${k}`, v);
		await field(page, 'camera-lookat-2', 3);
	});
	// (the invalid edit took three steps: two more undos)
	await page.click('#ed-undo');
	await settle(page);
	await page.click('#ed-undo');
	await settle(page);
	await page.click('#add-camera');
	await settle(page);
	await page.selectOption('#camera-type', 'follow');
	await settle(page);
	s = await state(page);
	check(s.valid && JSON.stringify(s.doc.cameras[1]) === '{"name":"camera2","type":"follow","fov_deg":50,"body":"ball","offset":[3,-4,2]}', `made a follow camera on the picked body: ${JSON.stringify(s.doc.cameras[1])} (${s.message})`);
	await page.selectOption('#camera-type', 'mounted');
	await settle(page);
	await page.selectOption('#camera-body', 'box');
	await settle(page);
	await field(page, 'camera-offset-2', 0.6);
	await field(page, 'camera-name', 'rider');
	s = await state(page);
	check(s.valid && JSON.stringify(s.doc.cameras[1]) === '{"name":"rider","type":"mounted","fov_deg":50,"body":"box","offset":[0,0,0.6],"look_at":[1,0,0]}', `a mounted camera on the box: ${JSON.stringify(s.doc.cameras[1])} (${s.message})`);
	await invalid('a field of view of 180 degrees', () => field(page, 'camera-fov', 180));
	await page.click('#add-camera');
	await settle(page);
	await page.selectOption('#camera-type', 'path');
	await settle(page);
	s = await state(page);
	check(s.valid && Array.isArray(s.doc.cameras[2].keys) && s.doc.cameras[2].keys.length === 1, `a path camera (${JSON.stringify(s.doc.cameras[2])}, ${s.message})`);
	await page.click('#delete-camera');
	await settle(page);
	s = await state(page);
	check(s.doc.cameras.map((c) => c.name).join() === 'camera1,rider', `a camera deleted (${s.doc.cameras.map((c) => c.name)})`);

	// a second shape placed on the capsule's body: a box 0.5 m above its origin, moved and turned there
	await editor(page, () => window.cairnViewer.editor.pick(5, false));
	await page.selectOption('#shape-kind', 'box');
	await page.fill('#shape-offset-2', '0.5');
	await page.click('#add-shape');
	await settle(page);
	await field(page, 'shape-1-pos-0', 0.25);
	await field(page, 'shape-1-rot-2', 45);
	s = await state(page);
	const placed = s.doc.bodies[5].shapes[1];
	const described = await editor(page, () => window.cairnViewer.editor.views.description.bodies[5].shapes[1]);
	const c45 = Math.cos(Math.PI / 8);
	const s45 = Math.sin(Math.PI / 8);
	check(s.valid && JSON.stringify(placed.position) === '[0.25,0,0.5]' && JSON.stringify(placed.euler_deg) === '[0,0,45]', `the second shape placed: ${JSON.stringify(placed)} (${s.message})`);
	check(JSON.stringify(described.position) === '[0.25,0,0.5]' && near(described.orientation[0], c45) && near(described.orientation[3], s45) && near(described.orientation[1], 0),
		`the loader made it there, turned 45 degrees about z: ${JSON.stringify(described.position)} ${JSON.stringify(described.orientation)}`);
	await invalid('a shape offset that is text', () => field(page, 'shape-1-pos-1', 'near'));

	// scaling by dragging a shape's side (the scale tool), onto the grid step like moves
	await page.click('#ed-scale');
	const dragScale = async (view, from, to) => {
		const a = await editor(page, ({ view, from }) => window.cairnViewer.editor.views.project(view, from), { view, from });
		const b = await editor(page, ({ view, to }) => window.cairnViewer.editor.views.project(view, to), { view, to });
		await page.mouse.move(a.x, a.y);
		await page.mouse.down();
		await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
		await page.mouse.move(b.x, b.y, { steps: 3 });
		await page.mouse.up();
		await settle(page);
		return state(page);
	};
	// the sphere (radius 0.25 at [-1, -2, 1]) from 0.2 m right of its centre to 0.5 m: 0.55, on the grid 0.5
	s = await dragScale('top', [-0.8, -2, 1], [-0.5, -2, 1]);
	check(s.doc.bodies[3].shapes[0].radius === 0.5, `the sphere's radius dragged to 0.5: ${JSON.stringify(s.doc.bodies[3].shapes[0])}`);
	// the box turned 90 degrees about z (at [-2.25, 3, 1]) in the front view: 0.3 m along x (its
	// local y) and 0.6 m up (its local z): half extents 0.25 + 0.3 and 0.25 + 0.6 on the grid
	s = await dragScale('front', [-2.05, 3, 1.1], [-1.75, 3, 1.7]);
	check(JSON.stringify(s.doc.bodies[4].shapes[0].half_extents) === '[0.25,0.5,0.75]', `the box's half extents dragged: ${JSON.stringify(s.doc.bodies[4].shapes[0].half_extents)}`);
	// the capsule (radius 0.15, half height 0.25, axis z, at [-1.5, 3, 1]) from its lower left:
	// 0.2 m out (radius 0.35, on the grid 0.25) and 0.3 m down (half height 0.55: 0.5)
	s = await dragScale('front', [-1.6, 3, 0.8], [-1.8, 3, 0.5]);
	check(s.doc.bodies[5].shapes[0].radius === 0.25 && s.doc.bodies[5].shapes[0].half_height === 0.5 && s.doc.bodies[5].shapes[1].half_extents.join() === '0.25,0.25,0.25',
		`the capsule's radius and length dragged, its box kept: ${JSON.stringify(s.doc.bodies[5].shapes)}`);
	const sizes = await editor(page, () => window.cairnViewer.editor.views.description.bodies.map((b) => b.shapes[0]));
	check(s.valid && sizes[3].radius === 0.5 && sizes[4].halfExtents.join() === '0.25,0.5,0.75' && sizes[5].radius === 0.25 && sizes[5].halfHeight === 0.5, `the loader made the new sizes (${s.message})`);
	await page.click('#ed-undo');
	await settle(page);
	check((await state(page)).doc.bodies[5].shapes[0].radius === 0.15, 'a scale is undone');
	await page.click('#ed-redo');
	await settle(page);
	await page.click('#ed-move');

	// delete a body: the joints that name it go with it; undo brings both back
	await editor(page, () => window.cairnViewer.editor.pick(2, false));
	const whole = JSON.stringify((await state(page)).doc);
	await page.click('#delete-body');
	await settle(page);
	s = await state(page);
	check(s.valid && s.doc.bodies.length === 11 && !s.doc.bodies.some((b) => b.name === 'box') && s.doc.joints.length === 0 && s.drawn === 11,
		`the box deleted with its joints (${s.doc.bodies.length} bodies, ${s.doc.joints.length} joints, ${s.message})`);
	await page.mouse.click(5, 5);
	await page.keyboard.press('Control+z');
	await settle(page);
	check(JSON.stringify((await state(page)).doc) === whole, 'undo brings the box and its joints back');

	// the last edit before saving and applying: the sphere is thrown along x at 2 m/s
	await editor(page, () => window.cairnViewer.editor.pick(3, false));
	const unthrown = JSON.stringify((await state(page)).doc);
	await field(page, 'body-vel-0', 2);
	const thrown = JSON.stringify((await state(page)).doc);

	// save: the download loads with `cairn run`, and is the scene the page had
	const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ed-save')]);
	const savedPath = join(work, 'saved.json');
	await download.saveAs(savedPath);
	const saved = readFileSync(savedPath, 'utf8');
	const savedDoc = JSON.parse(saved);
	s = await state(page);
	check(download.suggestedFilename() === 'scene.json', 'the download is scene.json');
	check(savedDoc.bodies.map((b) => b.name).join() === s.doc.bodies.map((b) => b.name).join() && savedDoc.joints.length === 9, 'the saved scene has every body and joint');
	const savedPair = (savedDoc.material_pairs || []).find((p) => p.materials.slice().sort().join() === 'floor,material1');
	check(savedPair && savedPair.friction === 0.2 && JSON.stringify(savedDoc.no_collide) === '[["ball","box"]]', `the saved scene has the material pair and the no-collide pair: ${JSON.stringify(savedDoc.material_pairs)} ${JSON.stringify(savedDoc.no_collide)}`);
	check((savedDoc.cameras || []).map((c) => `${c.name}:${c.type}:${c.body || ''}`).join() === 'camera1:fixed:,rider:mounted:box', `the saved scene has the cameras: ${JSON.stringify(savedDoc.cameras)}`);
	const savedCapsule = savedDoc.bodies.find((b) => b.name === 'capsule1');
	check(savedCapsule.shapes.length === 2 && JSON.stringify(savedCapsule.shapes[1].position) === '[0.25,0,0.5]' && savedCapsule.shapes[0].radius === 0.25 && savedCapsule.shapes[0].half_height === 0.5,
		`the saved scene has the capsule's scaled shape and its second one: ${JSON.stringify(savedCapsule.shapes)}`);
	check(JSON.stringify(savedDoc.bodies.find((b) => b.name === 'box1').shapes[0].half_extents) === '[0.25,0.5,0.75]', 'and the scaled box');
	const csv = join(work, 'saved.csv');
	const r = runStatus(cairn, ['run', savedPath, '--csv', csv, '--quiet', '--duration', '0.2', '--on-instability', 'warn']);
	check(r.status === 0, `cairn run loads the saved scene (${r.stderr})`);
	// the round trip: the saved file opened in a second viewer, edited nowhere, saved again
	const second = await startViewer(cairn, [savedPath]);
	try {
		const other = await openPage(browser, second.url);
		await other.page.setViewportSize({ width: 1280, height: 820 });
		await other.page.keyboard.press('v');
		await other.page.waitForFunction(() => window.cairnViewer.editor.valid, null, { timeout: 30000 });
		const [again] = await Promise.all([other.page.waitForEvent('download'), other.page.click('#ed-save')]);
		await again.saveAs(join(work, 'saved-again.json'));
		check(readFileSync(join(work, 'saved-again.json'), 'utf8') === saved, 'saving the saved scene again gives the same bytes');
		check(other.problems.length === 0, `no errors in the second page: ${other.problems.join('; ')}`);
		await other.page.close();
	} finally {
		check((await stopViewer(second)) === 0, 'the second viewer stops with 0');
	}

	// apply: the viewer simulates the edited scene, and the player shows it
	await page.click('#ed-apply');
	await page.waitForFunction(() => window.cairnViewer && window.cairnViewer.ready && window.cairnViewer.bodyNames().includes('sphere1') && window.cairnViewer.loadedFrames > 2, null, { timeout: 60000 });
	const names = await page.evaluate(() => window.cairnViewer.bodyNames());
	check(names.length === 12 && names.includes('heightfield1'), `after apply the player shows the edited scene (${names})`);
	check(await page.isVisible('#view'), 'and its single view');
	const at0 = await page.evaluate(() => {
		window.cairnViewer.seek(0);
		return window.cairnViewer.bodyPosition('sphere1');
	});
	check(JSON.stringify(at0) === '[-1,-2,1]', `the sphere starts where it was put (${at0})`);
	// and it moves as `cairn run` moves the saved scene: the applied and the saved scene are one world
	const rows = readCsv(csv);
	const drawn = await page.evaluate(() => {
		window.cairnViewer.seek(2);
		return { t: window.cairnViewer.time(2), names: window.cairnViewer.bodyNames(), poses: window.cairnViewer.bodyNames().map((n) => window.cairnViewer.bodyPosition(n)) };
	});
	let compared = 0;
	let same = true;
	drawn.names.forEach((name, i) => {
		const row = rows.get(`${csvTime(drawn.t)}|${name}`);
		if (!row) return;
		compared += 1;
		same = same && [0, 1, 2].every((k) => near(drawn.poses[i][k], row[k]));
	});
	check(compared >= 9 && same, `frame 2 of the applied scene equals cairn run on the saved one (${compared} bodies)`);
	// thrown at 2 m/s along x, nothing touching it yet: x = -1 + 2 t
	const sphereX = (frame) => page.evaluate((f) => {
		window.cairnViewer.seek(f);
		return [window.cairnViewer.time(f), window.cairnViewer.bodyPosition('sphere1')[0]];
	}, frame);
	const [t2, x2] = await sphereX(2);
	check(t2 > 0 && near(x2, -1 + 2 * t2), `the applied sphere moves at 2 m/s along x (x ${x2} at t ${t2})`);

	// the undo history outlives apply: the editor opened again at the frame applied (0) has the
	// applied document, and undo gives the one before the throw, which applies again
	await editor(page, () => window.cairnViewer.seek(0));
	await page.click('#four-views');
	await page.waitForFunction(() => window.cairnViewer.editor.valid, null, { timeout: 30000 });
	check(JSON.stringify((await state(page)).doc) === thrown, 'after apply the editor has the document it applied');
	await page.click('#ed-undo');
	await settle(page);
	s = await state(page);
	check(JSON.stringify(s.doc) === unthrown && s.valid, 'undo after apply: the document before the last edit');
	// (a mark on the page that applies: the page that loads next has none)
	await editor(page, () => {
		window.appliedFrom = true;
	});
	await page.click('#ed-apply');
	await page.waitForFunction(() => !window.appliedFrom && window.cairnViewer && window.cairnViewer.ready && window.cairnViewer.bodyNames().includes('sphere1') && window.cairnViewer.loadedFrames > 2, null, { timeout: 60000 });
	const [t2again, x2again] = await sphereX(2);
	check(t2again === t2 && x2again === -1, `applied again: the sphere is not thrown (x ${x2again} at t ${t2again})`);
	await editor(page, () => window.cairnViewer.seek(0));
	await page.click('#four-views');
	await page.waitForFunction(() => window.cairnViewer.editor.valid, null, { timeout: 30000 });
	await page.click('#ed-redo');
	await settle(page);
	check(JSON.stringify((await state(page)).doc) === thrown, 'and redo after the second apply gives the throw back');

	// editing at a cut frame: a viewer on fall.json cut at frame 12 (the box pushed along x); the
	// editor opened with frame 12 shown has the world there, and apply continues the history from it
	const third = await startViewer(cairn, [scenePath]);
	try {
		const framesOf = async (count) => (await getJson(third.url, `/api/frames?from=0&count=${count}`)).json.frames;
		const cutAt = async (edits) => fetch(new URL('/api/cut', third.url), { method: 'POST', body: JSON.stringify({ frame: 12, edits }) });
		await waitComplete(third.url);
		const before = await framesOf(72);
		check((await cutAt([{ op: 'velocity', body: 'box', linear: [1, 0, 0] }])).status === 200, 'a cut at frame 12 pushes the box');
		await waitComplete(third.url);
		const pushed = await framesOf(72);
		const { page: page3, problems: problems3 } = await openPage(browser, third.url);
		await page3.setViewportSize({ width: 1280, height: 820 });
		// (the editor opens on the world at the frame shown: the cut frame)
		await editor(page3, () => window.cairnViewer.seek(12));
		await page3.keyboard.press('v');
		await page3.waitForFunction(() => window.cairnViewer.editor.valid, null, { timeout: 30000 });
		s = await state(page3);
		check(JSON.stringify(s.doc.bodies[1].position) === JSON.stringify(pushed[12].slice(8, 11)), `the editor opens on the world at the cut: the ball at ${s.doc.bodies[1].position}, frame 12 has ${pushed[12].slice(8, 11)}`);
		check(await page3.isVisible('#ed-apply-start'), 'at a cut, "apply from t = 0" is offered beside apply');
		// what a cut cannot do (the ball's mass) is refused with the reason, and nothing changes
		await editor(page3, () => window.cairnViewer.editor.pick(1, false));
		await field(page3, 'body-mass', 3);
		check((await editor(page3, () => window.cairnViewer.editor.apply())) === false, 'a mass edit is not applied at the cut');
		s = await state(page3);
		check(s.message.startsWith('cannot continue at frame 12: body "ball" changed other than in its pose and velocities'), `the reason is given: ${s.message}`);
		check((await getJson(third.url, '/api/sync')).json.cuts === 1, 'and the viewer has its one cut still');
		await page3.click('#ed-undo');
		await settle(page3);
		// the ball moved to [-1, 0, 2] and thrown along x at 1 m/s, a sphere added at [0, 2, 1], the floor's friction 0.2
		for (const [k, v] of [-1, 0, 2].entries()) await field(page3, `body-pos-${k}`, v);
		for (const [k, v] of [1, 0, 0].entries()) await field(page3, `body-vel-${k}`, v);
		await page3.click('#add-sphere');
		await settle(page3);
		for (const [k, v] of [0, 2, 1].entries()) await field(page3, `body-pos-${k}`, v);
		await editor(page3, () => window.cairnViewer.editor.pick(2, false));
		await field(page3, 'mat-friction', 0.2);
		const applied = JSON.stringify((await state(page3)).doc);
		await editor(page3, () => {
			window.appliedFrom = true;
		});
		await page3.click('#ed-apply');
		await page3.waitForFunction(() => !window.appliedFrom && window.cairnViewer && window.cairnViewer.ready && window.cairnViewer.bodyNames().includes('sphere1'), null, { timeout: 60000 });
		const sync = (await getJson(third.url, '/api/sync')).json;
		check(sync.cutFrame === 12 && sync.bodyCount === 4, `the edits are a cut at frame 12 (${JSON.stringify(sync)})`);
		await waitComplete(third.url);
		const edited = await framesOf(72);
		let kept = true;
		for (let f = 0; f < 12; ++f) kept = kept && JSON.stringify(edited[f].slice(0, 22)) === JSON.stringify(before[f]);
		check(kept && edited.length === 72, 'the frames before the cut are kept bit for bit');
		check(JSON.stringify(edited[12].slice(8, 11)) === '[-1,0,2]' && JSON.stringify(edited[12].slice(22, 25)) === '[0,2,1]', `at frame 12 the ball and the sphere are where they were put (${edited[12].slice(8, 11)}; ${edited[12].slice(22, 25)})`);
		// the thrown ball flies on at 1 m/s along x
		check(near(edited[24][8], -1 + (edited[24][0] - edited[12][0])), `the ball flies at 1 m/s from the cut (x ${edited[24][8]} at frame 24)`);
		// the box, pushed at 1 m/s, slides further on a floor of friction 0.2 than of 0.6
		check(edited[60][15] > pushed[60][15] + 0.05, `the box slides further with the lower friction (${edited[60][15]} > ${pushed[60][15]})`);
		// the scene saved at the cut runs with `cairn run` as the viewer went on
		const savedCut = join(work, 'saved-cut.json');
		writeFileSync(savedCut, await (await fetch(new URL('/api/save/scene', third.url))).text());
		check(JSON.parse(readFileSync(savedCut, 'utf8')).materials.floor.friction === 0.2, 'the scene at the cut has the floor\'s friction 0.2');
		const cutCsv = join(work, 'saved-cut.csv');
		check(runStatus(cairn, ['run', savedCut, '--csv', cutCsv, '--quiet']).status === 0, 'cairn run loads the scene at the cut');
		const cutRows = readCsv(cutCsv);
		let matched = 0;
		let flies = true;
		for (let f = 12; f <= 40; ++f) {
			for (const [b, name] of [[1, 'ball'], [3, 'sphere1']]) {
				const row = cutRows.get(`${csvTime(edited[f][0] - edited[12][0])}|${name}`);
				if (!row) continue;
				matched += 1;
				flies = flies && [0, 1, 2].every((k) => near(edited[f][1 + 7 * b + k], row[k]));
			}
		}
		check(matched === 58 && flies, `the ball and the sphere after the cut equal cairn run on the scene at the cut (${matched} rows)`);
		// undo across this apply too: the friction back to 0.6, applied at the same cut
		await page3.keyboard.press('v');
		await page3.waitForFunction(() => window.cairnViewer.editor.valid, null, { timeout: 30000 });
		check(JSON.stringify((await state(page3)).doc) === applied, 'after apply at the cut the editor has the document it applied');
		await page3.click('#ed-undo');
		await settle(page3);
		await editor(page3, () => {
			window.appliedFrom = true;
		});
		await page3.click('#ed-apply');
		await page3.waitForFunction(() => !window.appliedFrom && window.cairnViewer && window.cairnViewer.ready, null, { timeout: 60000 });
		const again = await (await fetch(new URL('/api/save/scene', third.url))).json();
		check(again.materials.floor.friction === 0.6 && again.bodies.some((b) => b.name === 'sphere1'), 'undone and applied again at the cut: the friction 0.6, the sphere kept');

		// the editor opened at a frame shown that is no cut (frame 20): its document is the world there
		// (made again from the server's snapshots, cutting nothing), and apply cuts there: the ball
		// thrown up, and a body added with a constant force, which the cut carries
		await waitComplete(third.url);
		await page3.waitForFunction(() => window.cairnViewer.complete && window.cairnViewer.loadedFrames === window.cairnViewer.frameCount, null, { timeout: 60000 });
		const unedited = await framesOf(72);
		const names20 = (await getJson(third.url, '/api/scene')).json.bodies.map((b) => b.name);
		const cuts20 = (await getJson(third.url, '/api/sync')).json.cuts;
		check((await editor(page3, () => {
			window.cairnViewer.seek(20);
			return window.cairnViewer.frame;
		})) === 20, 'the player shows frame 20');
		await page3.keyboard.press('v');
		await page3.waitForFunction(() => window.cairnViewer.editor.valid && window.cairnViewer.editor.frame === 20, null, { timeout: 30000 });
		s = await state(page3);
		let posed = s.doc.bodies.length === names20.length;
		for (const body of s.doc.bodies) {
			const i = names20.indexOf(body.name);
			posed = posed && i >= 0 && JSON.stringify(body.position) === JSON.stringify(unedited[20].slice(1 + 7 * i, 4 + 7 * i)) &&
				JSON.stringify(body.orientation) === JSON.stringify(unedited[20].slice(4 + 7 * i, 8 + 7 * i));
		}
		check(posed, `the editor opened at frame 20 has every body at its pose of frame 20 (${s.doc.bodies.map((b) => `${b.name} ${b.position}`).join('; ')})`);
		check((await getJson(third.url, '/api/sync')).json.cuts === cuts20, 'opening the editor at frame 20 cut nothing');
		check((await getJson(third.url, '/api/save/scene?frame=999')).status === 400 && (await getJson(third.url, '/api/save/scene?frame=-1')).status === 400, 'a frame not simulated, or not a frame, is a 400');
		await editor(page3, (i) => window.cairnViewer.editor.pick(i, false), s.doc.bodies.findIndex((b) => b.name === 'ball'));
		for (const [k, v] of [0, 0, 3].entries()) await field(page3, `body-vel-${k}`, v);
		// 1 kg pushed by [1, 0, g]: it keeps its height and goes along x at 1 m/s^2
		await editor(page3, () => window.cairnViewer.editor.edit((doc) => {
			doc.bodies.push({ name: 'hover', material: 'floor', position: [3, 3, 2], mass: 1, shapes: [{ type: 'sphere', radius: 0.1 }], forces: [{ frame: 'world', vector: [1, 0, 9.81] }] });
		}));
		await editor(page3, () => {
			window.appliedFrom = true;
		});
		await page3.click('#ed-apply');
		await page3.waitForFunction(() => !window.appliedFrom && window.cairnViewer && window.cairnViewer.ready && window.cairnViewer.bodyNames().includes('hover'), null, { timeout: 60000 });
		const sync20 = (await getJson(third.url, '/api/sync')).json;
		check(sync20.cutFrame === 20 && sync20.bodyCount === 5, `the edits at frame 20 are a cut there (${JSON.stringify(sync20)})`);
		await waitComplete(third.url);
		const at20 = await framesOf(72);
		const hover = 1 + 7 * 4;
		let kept20 = at20.length === 72;
		for (let f = 0; f < 20; ++f) kept20 = kept20 && JSON.stringify(at20[f].slice(0, hover)) === JSON.stringify(unedited[f]) && at20[f][hover + 3] === 0;
		check(kept20, 'the frames before frame 20 are kept bit for bit, the added body absent from them');
		const savedAt20 = join(work, 'saved-20.json');
		writeFileSync(savedAt20, await (await fetch(new URL('/api/save/scene', third.url))).text());
		const csv20 = join(work, 'saved-20.csv');
		check(runStatus(cairn, ['run', savedAt20, '--csv', csv20, '--quiet']).status === 0, 'cairn run loads the scene saved at frame 20');
		const rows20 = readCsv(csv20);
		let matched20 = 0;
		let same20 = true;
		let pushedWorst = 0;
		for (let f = 20; f <= 40; ++f) {
			const t = at20[f][0] - at20[20][0];
			for (const [b, name] of [[1, 'ball'], [4, 'hover']]) {
				const row = rows20.get(`${csvTime(t)}|${name}`);
				if (!row) continue;
				matched20 += 1;
				same20 = same20 && [0, 1, 2].every((k) => near(at20[f][1 + 7 * b + k], row[k]));
			}
			// x = 3 + t^2 / 2 to the step's own error (at most h t / 2), z held at 2
			pushedWorst = Math.max(pushedWorst, Math.abs(at20[f][hover] - (3 + t * t / 2)) - t / 240, Math.abs(at20[f][hover + 2] - 2));
		}
		check(matched20 === 42 && same20, `after frame 20 the ball and the added body equal cairn run on the scene saved there (${matched20} rows)`);
		check(at20[20][hover] === 3 && pushedWorst < 1e-9, `the added body's force carries it: x = 3 + t^2 / 2 at a constant height (${pushedWorst})`);
		check(JSON.stringify(at20[21].slice(8, 11)) !== JSON.stringify(unedited[21].slice(8, 11)) && at20[21][10] > at20[20][10], 'the ball is thrown up at frame 20');
		check(problems3.length === 0, `no errors in the page at the cut: ${problems3.join('; ')}`);
		await page3.close();
	} finally {
		check((await stopViewer(third)) === 0, 'the viewer at the cut stops with 0');
	}
	// (the refused checks of the invalid edits are 400s, which Chromium logs)
	const unexpected = problems.filter((p) => !p.includes('status of 400'));
	check(unexpected.length === 0, `no errors in the page: ${unexpected.join('; ')}`);
} catch (error) {
	check(false, `the test ran through: ${error.stack}`);
} finally {
	await browser.close();
	check((await stopViewer(viewer)) === 0, 'the viewer stops with 0');
}
console.log(`screenshot in ${join(work, 'editor.png')}`);
finish('view_editor');
