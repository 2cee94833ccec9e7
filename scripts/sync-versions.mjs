// Runs after `changeset version` (the root `version` script): copies the new package versions into every
// other place that carries one, then runs each package's `release:version` hook.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const versionOf = (dir) =>
  JSON.parse(readFileSync(`${root}packages/${dir}/package.json`, 'utf8')).version;
const sdk = versionOf('sdk');
const openapi = versionOf('openapi');
const mock = versionOf('mock');

/** Rewrites `file` with `edit`; fails if the pattern the edit relies on is missing. */
function rewrite(file, pattern, replacement) {
  const text = readFileSync(`${root}${file}`, 'utf8');
  if (!pattern.test(text))
    throw new Error(`sync-versions: ${file} has nothing matching ${pattern}`);
  const next = text.replace(pattern, replacement);
  if (next !== text) {
    writeFileSync(`${root}${file}`, next);
    process.stdout.write(`sync-versions: updated ${file}\n`);
  }
}

// The SDK's User-Agent constant.
rewrite('packages/sdk/src/version.ts', /sdkVersion = '[^']*'/, `sdkVersion = '${sdk}'`);
// The mock's version, answered by GET /_sandbox/health.
rewrite('packages/mock/src/shared/version.ts', /mockVersion = '[^']*'/, `mockVersion = '${mock}'`);
// Both spec documents ship in @payment-service/openapi: their info.version is that package's version.
for (const spec of ['spec/openapi.yaml', 'spec/sandbox.yaml']) {
  rewrite(spec, /^( {2}version: ).*$/m, `$1${openapi}`);
}
// Examples of the User-Agent in the documentation.
const userAgent = /payment-service-sdk\/\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?/g;
for (const file of ['README.md', 'packages/sdk/README.md', 'packages/sdk/src/runtime.ts']) {
  rewrite(file, userAgent, `payment-service-sdk/${sdk}`);
}

const pnpm = `${root}node_modules/pnpm/bin/pnpm.cjs`;
const run = (args) =>
  execFileSync(process.execPath, [pnpm, ...args], { cwd: root, stdio: 'inherit' });
// The generated spec modules carry info.version.
run(['--filter', '@payment-service/openapi', 'run', 'generate']);
// Hook: a package that keeps something else per release (such as a snapshot of the released spec)
// defines a `release:version` script; it runs here, after every version above is in place.
run(['--recursive', '--if-present', 'run', 'release:version']);
// The lockfile records workspace package versions.
run(['install', '--lockfile-only', '--reporter=silent']);
