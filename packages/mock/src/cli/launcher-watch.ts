// Notices when the launcher of the CLI (npx's `npm exec` and its `sh -c`, pnpm exec, npm run) is gone.

/** How often the parent process is checked, in ms. */
const CHECK_INTERVAL_MS = 200;

/**
 * Calls `onGone` once when this process's parent exits, if a package manager started it
 * (`npm_config_user_agent` is set by npm, pnpm and yarn for what they run). `npx payment-service-mock`
 * runs `npm exec`, which runs `sh -c payment-service-mock`, which runs node: a SIGTERM sent to
 * npx is passed to the shell, which dies without passing it on, and node would keep the port.
 * Started directly, or under nohup, the server never watches. The check is an unref'd timer.
 *
 * @example
 * watchLauncher(process.env, () => stop('its launcher exited'));
 */
export function watchLauncher(
  env: Readonly<Record<string, string | undefined>>,
  onGone: () => void,
): () => void {
  if (env.npm_config_user_agent === undefined) return () => {};
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
