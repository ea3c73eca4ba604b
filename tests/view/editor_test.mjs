// The scene editor of `cairn view` (docs/viewer.md, "Editor") in Debian's Chromium: the four views,
// a body of every shape added from the object window and placed there, one dragged in the top view
// onto the grid and one turned onto the angle step, one deleted with its joints, a new material and its values, a joint of every
// type and one joint's key edited, undo and redo by button and key, an invalid edit showing the very
// message `cairn info` gives for the same document, saving (the file loads with `cairn run`, and
// saving that file again in a second viewer gives the same bytes), and applying, after which the
// viewer simulates the edited scene. A screenshot of the four views (WORK_DIR/editor.png) and a
// pixel check that an added body is drawn where it projects in the top and front views.
//   node editor_test.mjs CAIRN SOURCE_DIR WORK_DIR
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { check, csvTime, finish, launchBrowser, near, openPage, readCsv, runStatus, startViewer, stopViewer } from './helpers.mjs';

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
	await page.click('#remove-shape');
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

	// save: the download loads with `cairn run`, and is the scene the page had
	const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ed-save')]);
	const savedPath = join(work, 'saved.json');
	await download.saveAs(savedPath);
	const saved = readFileSync(savedPath, 'utf8');
	const savedDoc = JSON.parse(saved);
	s = await state(page);
	check(download.suggestedFilename() === 'scene.json', 'the download is scene.json');
	check(savedDoc.bodies.map((b) => b.name).join() === s.doc.bodies.map((b) => b.name).join() && savedDoc.joints.length === 9, 'the saved scene has every body and joint');
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
