// `npm run sandbox`: installs and builds what the mock needs (quietly), then runs its CLI in this same process,
// so SIGTERM and SIGINT from npm reach the server directly.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const quiet = {
  ...process.env,
  TURBO_NO_UPDATE_NOTIFIER: '1',
  TURBO_TELEMETRY_DISABLED: '1',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_TELEMETRY: 'off',
};

/** Runs a step with its output captured; prints it only if the step fails. */
function step(description, command, args) {
  const result = spawnSync(command, args, {
    cwd: root,
    env: quiet,
    encoding: 'utf8',
    shell: false,
  });
  if (result.status !== 0) {
    process.stderr.write(
      `sandbox: ${description} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}\n`,
    );
    process.exit(result.status ?? 1);
  }
}

const pnpm = `${root}node_modules/pnpm/bin/pnpm.cjs`;
step(
  'installing dependencies',
  existsSync(pnpm) ? process.execPath : 'npx',
  existsSync(pnpm)
    ? [pnpm, 'install', '--frozen-lockfile', '--reporter=silent']
    : ['-y', 'pnpm@10.34.8', 'install', '--frozen-lockfile', '--reporter=silent'],
);
step('building the mock', process.execPath, [
  `${root}node_modules/turbo/bin/turbo`,
  'run',
  'build',
  '--filter=@payment-service/mock',
  '--output-logs=errors-only',
]);
await import(pathToFileURL(`${root}packages/mock/dist/cli.js`).href);
