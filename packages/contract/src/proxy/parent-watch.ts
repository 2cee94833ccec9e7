// Notices when the process that started the proxy ends: `npx` and `npm exec` run it under a shell that dies on SIGTERM without passing it on, leaving the proxy orphaned with its reports unwritten.
/** Tells once that the parent process has gone. */
export interface ParentWatch {
  /** Calls `listener` once the parent has gone; returns the function that stops watching. */
  onGone(listener: () => void): () => void;
}

/** What `watchParent` reads and schedules with (tests inject both). */
export interface ParentWatchOptions {
  /** The parent's pid now. Default `process.ppid`. */
  ppid?: () => number;
  /** Runs `tick` every `ms`; returns the canceller. Default an unref'd `setInterval`. */
  every?: (ms: number, tick: () => void) => () => void;
  /** How often the parent is looked at, in ms. Default 500. */
  intervalMs?: number;
}

/** How often the parent is looked at, in ms, without `intervalMs`. */
export const PARENT_WATCH_INTERVAL_MS = 500;

function unrefInterval(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Watches the parent process: once the pid of this process's parent changes (it ended and this
 * process was handed to init or a subreaper), the listener runs, once.
 *
 * @example
 * const stop = watchParent().onGone(() => writeReportsAndExit());
 */
export function watchParent(options: ParentWatchOptions = {}): ParentWatch {
  const ppid = options.ppid ?? (() => process.ppid);
  const every = options.every ?? unrefInterval;
  return {
    onGone(listener) {
      const first = ppid();
      let cancel: () => void = () => {};
      cancel = every(options.intervalMs ?? PARENT_WATCH_INTERVAL_MS, () => {
        if (ppid() === first) return;
        cancel();
        listener();
      });
      return () => cancel();
    },
  };
}
