// The CLI's one relaunch with a heap limit that fits the memory budget, for a node started without it.
import { RELAUNCHED_ENV } from './heap-limit.js';
import { LAUNCHER_PID_ENV, watchLauncher } from './launcher-watch.js';

/**
 * Runs `main` in a child node with `flags` added: stdio is shared, signals are passed on, the
 * exit code is kept. Node's modules for it are loaded here, not at every start.
 *
 * @example
 * await relaunch(new URL('./cli-bundle.js', import.meta.url), ['--max-old-space-size=384'], ['--port', '4010']);
 */
export async function relaunch(main: URL, flags: string[], args: string[]): Promise<void> {
  const [{ spawn }, { constants }, { fileURLToPath }] = await Promise.all([
    import('node:child_process'),
    import('node:os'),
    import('node:url'),
  ]);
  const child = spawn(
    process.execPath,
    [...process.execArgv, ...flags, fileURLToPath(main), ...args],
    {
      stdio: 'inherit',
      env: { ...process.env, [RELAUNCHED_ENV]: '1', [LAUNCHER_PID_ENV]: String(process.pid) },
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  watchLauncher(process.env, () => child.kill('SIGTERM'));
  child.on('error', (error) => {
    process.stderr.write(`payment-service-mock: could not start: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0)));
  });
}
