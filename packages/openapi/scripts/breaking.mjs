// CLI (`npm run spec:breaking`): compares spec/openapi.yaml with the last released spec; fails on a breaking change with no pending major changeset.

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { classifyChanges } from './breaking-changes.mjs';
import { loadSpecDocument } from './load-spec.mjs';
import { repositoryRoot } from './paths.mjs';
import { pendingMajors } from './pending-majors.mjs';

/** The packages whose users a breaking spec change breaks: both need a major changeset. */
export const packagesToBump = ['@payment-service/openapi', '@payment-service/sdk'];

const { values } = parseArgs({
  options: {
    released: { type: 'string', default: resolve(repositoryRoot, 'spec/released/openapi.yaml') },
    current: { type: 'string', default: resolve(repositoryRoot, 'spec/openapi.yaml') },
    changesets: { type: 'string', default: resolve(repositoryRoot, '.changeset') },
  },
});

const changes = classifyChanges(
  await loadSpecDocument(values.released),
  await loadSpecDocument(values.current),
);
const breaking = changes.filter((change) => change.breaking);
const majors = await pendingMajors(values.changesets);
const missing = packagesToBump.filter((name) => !majors.has(name));

console.log(
  `spec:breaking: ${changes.length} change(s) since the last released spec, ${breaking.length} breaking`,
);
for (const change of changes) {
  console.log(
    `  ${change.breaking ? 'BREAKING' : 'ok      '} ${change.kind}: ${change.message} at ${change.pointer}`,
  );
}
if (breaking.length > 0 && missing.length > 0) {
  console.error(
    `\nspec:breaking: ${breaking.length} breaking change(s) need a pending major changeset for ${missing.join(' and ')}:`,
  );
  for (const change of breaking)
    console.error(`  ${change.kind}: ${change.message} at ${change.pointer}`);
  console.error(
    'Fix: undo the change, or run `npm run changeset` and choose major for both packages.',
  );
  process.exit(1);
}
