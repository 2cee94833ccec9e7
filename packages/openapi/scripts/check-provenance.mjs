// CLI: fails (exit 1) when an element of spec/openapi.yaml or spec/sandbox.yaml lacks valid x-provenance.
import { resolve } from 'node:path';
import { loadSpecDocument } from './load-spec.mjs';
import { defaultPaths, displayPath } from './paths.mjs';
import { checkProvenance } from './provenance.mjs';

const specPaths = process.argv.slice(2);
if (specPaths.length === 0) specPaths.push(defaultPaths.openapiSpec, defaultPaths.sandboxSpec);

let failures = 0;
for (const specPath of specPaths.map((path) => resolve(path))) {
  const label = displayPath(specPath);
  const { checked, problems } = checkProvenance(await loadSpecDocument(specPath));
  for (const { pointer, message } of problems) console.error(`${label}#${pointer}: ${message}`);
  failures += problems.length;
  const verdict = problems.length === 0 ? 'all have' : `${problems.length} lack`;
  console.log(`${label}: ${checked} elements checked, ${verdict} valid x-provenance.`);
}

if (failures > 0) {
  console.error(
    'Every operation, parameter, request body, response, header, security scheme and schema ' +
      'needs x-provenance: documented (with x-provenance-ref, the section) or inferred ' +
      '(with x-provenance-note, why).',
  );
  process.exit(1);
}
