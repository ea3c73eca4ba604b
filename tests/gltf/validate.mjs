// SPDX-License-Identifier: MIT
// Validates glTF files with the Khronos glTF validator (npm gltf-validator), as tests/cli_export.sh
// runs it: `node validate.mjs FILE.glb|FILE.gltf...`. Prints every issue of every file and one
// summary line per file; exits 1 when any file has an error (warnings and hints are printed, not
// failed), 2 when a file cannot be read or is not glTF at all.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

const severities = ['error', 'warning', 'info', 'hint'];
let status = 0;
for (const file of process.argv.slice(2)) {
	let report;
	try {
		const bytes = await readFile(file);
		report = await validator.validateBytes(new Uint8Array(bytes), {
			uri: path.basename(file),
			maxIssues: 0,
			writeTimestamp: false,
			// a .gltf names its .bin relative to itself
			externalResourceFunction: (uri) =>
				readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))).then((data) => new Uint8Array(data)),
		});
	} catch (error) {
		console.log(`${file}: cannot validate: ${error}`);
		status = 2;
		continue;
	}
	const issues = report.issues;
	for (const m of issues.messages) {
		console.log(`${file}: ${severities[m.severity] ?? m.severity}: ${m.code}: ${m.message} (${m.pointer ?? ''})`);
	}
	console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ${issues.numInfos} infos, ` +
		`${issues.numHints} hints (glTF validator ${report.validatorVersion})`);
	if (issues.numErrors > 0 && status === 0) {
		status = 1;
	}
}
process.exit(status);
