// CLI: regenerates src/generated/* from spec/openapi.yaml and spec/sandbox.yaml, or (--check) fails if they are stale.
import { parseArgs } from 'node:util';
import {
  defaultPaths,
  displayPath,
  findStaleFiles,
  renderGeneratedFiles,
  writeStaleFiles,
} from './generated-files.mjs';

const usage = `usage: node scripts/generate.mjs [--check] [--openapi FILE] [--sandbox FILE] [--out DIR]

  --check         compare with the files on disk instead of writing; exit 1 when any is stale
  --openapi FILE  the provider's spec (default spec/openapi.yaml)
  --sandbox FILE  the sandbox-controls spec (default spec/sandbox.yaml)
  --out DIR       where the generated modules go (default packages/openapi/src/generated)`;

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    openapi: { type: 'string', default: defaultPaths.openapiSpec },
    sandbox: { type: 'string', default: defaultPaths.sandboxSpec },
    out: { type: 'string', default: defaultPaths.outDirectory },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(usage);
  process.exit(0);
}

const files = await renderGeneratedFiles({
  openapiSpec: values.openapi,
  sandboxSpec: values.sandbox,
  outDirectory: values.out,
});

if (values.check) {
  const stale = await findStaleFiles(files);
  if (stale.length > 0) {
    console.error('Generated files are stale (they do not match the spec):');
    for (const file of stale) console.error(`  ${displayPath(file.path)}`);
    console.error('Fix: run `npm run generate` at the repository root, then commit the result.');
    process.exit(1);
  }
  console.log(`${files.length} generated files are up to date.`);
} else {
  const written = await writeStaleFiles(files);
  for (const file of written) console.log(`wrote ${displayPath(file.path)}`);
  console.log(`${written.length} of ${files.length} generated files changed.`);
}
