// Bundles the CLI (dist/cli.js and everything it imports) into dist/cli-bundle.js, which the
// `payment-service-contract` command runs: one file instead of some 300 modules resolved one by
// one (ajv alone is ~100 CommonJS files, yaml ~70), 0.58 -> 0.24 CPU-s a start (`--help`). The
// library entry points (`@payment-service/contract`, `/drift`, `/toolkit`) stay unbundled. The
// licences of the bundled packages go to dist/cli-bundle.LICENSES.txt.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { writeBundleLicenses } from '../../../scripts/bundle-licenses.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const result = await build({
  entryPoints: [join(root, 'dist/cli.js')],
  outfile: join(root, 'dist/cli-bundle.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // fast-xml-parser (the JUnit report's) stays a dependency loaded from node_modules: one of the
  // packages it bundles (@nodable/entities) ships no licence file to copy beside the bundle.
  external: ['fast-xml-parser'],
  // The bundled CommonJS packages (ajv) require Node built-ins; an ES module has no `require`.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  legalComments: 'none',
  minify: true,
  metafile: true,
  logLevel: 'warning',
});

writeBundleLicenses(
  result.metafile,
  root,
  'dist/cli-bundle.LICENSES.txt',
  "dist/cli-bundle.js bundles these packages with the contract's own code:",
);
