// Bundles the viewer's page (src/main.js and three.js) into one script with esbuild:
//   node web/build.mjs OUT.js
// CMake runs it at build time (apps/view/view.cmake); it reads only web/node_modules, no network.
import * as esbuild from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
	console.error('usage: node web/build.mjs OUT.js');
	process.exit(2);
}
await esbuild.build({
	entryPoints: [join(here, 'src', 'main.js')],
	bundle: true,
	minify: true,
	format: 'iife',
	target: 'es2020',
	// three.js's MIT notice travels with the bundle
	legalComments: 'eof',
	outfile: out,
	logLevel: 'warning',
});
