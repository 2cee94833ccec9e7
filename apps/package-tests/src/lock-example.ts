// Writes merchant-app.package-lock.json: the lockfile of examples/merchant-app's install from the tarballs, without the kit's packages (run after changing the example's dependencies or the kit's: `npx tsx src/lock-example.ts`, the packages built).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyExample, EXAMPLE_LOCKFILE, lockWithoutKit, withResolved } from './example-project.js';
import { runIn } from './fresh-project.js';
import { packPublished } from './pack.js';

const directory = await mkdtemp(join(tmpdir(), 'payment-service-example-lock-'));
try {
  const tarballs = Object.values(await packPublished(directory));
  const project = join(directory, 'merchant-app');
  // From the committed lockfile: what still satisfies the example's ranges keeps its version.
  await copyExample(project);
  await runIn(project, 'npm', [
    'install',
    '--package-lock-only',
    '--no-audit',
    '--no-fund',
    // Each package's tarball URL in the lockfile, whatever the user's npm config says (npm keeps
    // an entry it already has as it is: withResolved adds the URL there).
    '--no-omit-lockfile-registry-resolved',
    ...tarballs,
  ]);
  const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
  await writeFile(
    EXAMPLE_LOCKFILE,
    `${JSON.stringify(withResolved(lockWithoutKit(lock)), null, 2)}\n`,
  );
  console.log(`wrote ${EXAMPLE_LOCKFILE}`);
} finally {
  await rm(directory, { recursive: true, force: true });
}
