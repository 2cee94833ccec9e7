// Build step: ships Redoc's standalone bundle as one CommonJS module of the mock (loaded by its console
// through the package's own `./redoc-standalone` entry, from ESM and CommonJS alike), so the console
// serves the API reference from its own origin, offline. Only the mock carries it: the SDK's install
// does not.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bundlePath = require.resolve('redoc/bundles/redoc.standalone.js');
const { version } = JSON.parse(
  readFileSync(join(dirname(bundlePath), '..', 'package.json'), 'utf8'),
);
const source = readFileSync(bundlePath, 'utf8').replace(
  // The bundle's banner points at a license file; ours sits beside the module.
  /^\/\*! For license information please see [^*]*\*\/\n?/,
  `/*! Redoc ${version} (MIT) — license: redoc-standalone.LICENSE.txt in @payment-service/mock/dist/redoc */\n`,
);
// Redoc's sidebar footer loads its logo from Redocly's CDN: the only request the bundle makes
// to another origin. Point it at an empty data URL (the image hides itself when it fails).
const REMOTE_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';
if (source.split(REMOTE_LOGO).length !== 2) {
  throw new Error(
    `redoc ${version}: expected one ${REMOTE_LOGO} in the bundle; check its remote requests`,
  );
}
const offline = source.replace(REMOTE_LOGO, '"data:,"');
const license = [
  readFileSync(join(dirname(bundlePath), '..', 'LICENSE'), 'utf8'),
  readFileSync(`${bundlePath}.LICENSE.txt`, 'utf8'),
].join('\n\n');

const out = 'dist/redoc';
mkdirSync(out, { recursive: true });
const literal = JSON.stringify(offline);
const doc = `/** Redoc ${version}'s standalone bundle (\`redoc.standalone.js\`), as text to serve. */`;
writeFileSync(
  join(out, 'redoc-standalone.cjs'),
  `${doc}\nexports.redocStandalone = ${literal};\nexports.redocVersion = ${JSON.stringify(version)};\n`,
);
const types = `${doc}\nexport declare const redocStandalone: string;\n/** The Redoc version bundled. */\nexport declare const redocVersion: string;\n`;
writeFileSync(join(out, 'redoc-standalone.d.cts'), types);
writeFileSync(join(out, 'redoc-standalone.LICENSE.txt'), license);
console.log(`dist/redoc: Redoc ${version} standalone, ${(source.length / 1024).toFixed(0)} KiB`);
