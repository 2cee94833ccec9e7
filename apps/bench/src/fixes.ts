// Hot-path fixes made in packages/mock after profiling, with the numbers measured before and after.

/** One fix: what changed, and create throughput before and after on the same machine. */
export interface HotPathFix {
  commit: string;
  change: string;
  /** Creates per second through the CLI (default settings) before and after, same machine. */
  before: string;
  after: string;
}

/** The fixes, oldest first. Filled in by hand when a fix lands (the numbers come from bench runs). */
export const HOT_PATH_FIXES: HotPathFix[] = [];
