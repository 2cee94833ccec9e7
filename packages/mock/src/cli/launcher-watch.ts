// Notices when the launcher of the CLI (npx's `npm exec` and its `sh -c`, pnpm exec, npm run, or
// the CLI's own first node, which relaunched it with a heap limit) is gone.
import { RELAUNCHED_ENV } from './heap-limit.js';

/** Set by the launcher in the environment of the node it relaunches: its own pid. */
export const LAUNCHER_PID_ENV = 'PAYMENT_SERVICE_MOCK_LAUNCHER_PID';

/** How often the parent process is checked, in ms. */
const CHECK_INTERVAL_MS = 200;

/**
 * Calls `onGone` once when this process's parent exits, if a package manager started it
 * (`npm_config_user_agent` is set by npm, pnpm and yarn for what they run). `npx payment-service-mock`
 * runs `npm exec`, which runs `sh -c payment-service-mock`, which runs node: a SIGTERM sent to
 * npx is passed to the shell, which dies without passing it on, and node would keep the port.
 * The node the CLI relaunched with a heap limit always watches its launcher (whose pid it is given
 * in {@link LAUNCHER_PID_ENV}): killed (SIGKILL, as a CI step that ends kills a test run), even
 * before this node started watching, the launcher cannot pass a signal on, and the server would
 * keep the port for good. Otherwise, started directly or under nohup, the server never
 * watches. The check is an unref'd timer.
 *
 * @example
 * watchLauncher(process.env, () => stop('its launcher exited'));
 */
export function watchLauncher(
  env: Readonly<Record<string, string | undefined>>,
  onGone: () => void,
): () => void {
  const relaunched = env[RELAUNCHED_ENV] === '1';
  if (env.npm_config_user_agent === undefined && !relaunched) return () => {};
  // The launcher's pid as it gave it: a launcher killed before this node got here is noticed too.
  const launcher = Number(env[LAUNCHER_PID_ENV]);
  const parent =
    relaunched && Number.isSafeInteger(launcher) && launcher > 0 ? launcher : process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
