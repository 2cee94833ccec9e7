// What every part of the conformance suite is given: the store's factory and its manifest.
import type { StoreManifest } from './manifest.js';
import type { Sandbox, SandboxOptions, StoreFactory } from './sandbox.js';

/** The suite's `testCommon`: how to open a sandbox on the store, and what the store supports. */
export interface SuiteCommon {
  factory: StoreFactory;
  manifest: StoreManifest;
}

/**
 * Runs `test` on a new sandbox of the store, closing it however the test ends.
 *
 * @example
 * it('creates', () => withSandbox(common, {}, async (sandbox) => { … }));
 */
export async function withSandbox(
  common: SuiteCommon,
  options: SandboxOptions,
  test: (sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  const sandbox = await common.factory.open(options);
  try {
    await test(sandbox);
  } finally {
    await sandbox.close();
  }
}
