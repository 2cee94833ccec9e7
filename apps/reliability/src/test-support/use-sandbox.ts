// Vitest hooks of an attack file: one CLI process (and its webhook receivers) for the file's tests.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Receiver, startReceiver } from '../receiver.js';
import { type Sandbox, startSandbox } from '../sandbox.js';

/** Filled in by `beforeAll`: the file's CLI process and its receivers, by name. */
export interface SandboxFixture<Name extends string> {
  sandbox: Sandbox;
  receivers: Record<Name, Receiver>;
}

/**
 * Starts the CLI with `flags` (and the named receivers) before the file's tests and stops them
 * after.
 *
 * @example
 * const fx = useSandbox(['--quiet'], { hook: 'answer' });
 * it('…', async () => { await call(fx.sandbox.url, { path: '/v1/payments', key }); });
 */
export function useSandbox<Name extends string = never>(
  flags: string[],
  receivers: Record<Name, 'answer' | 'hang'> = {} as Record<Name, 'answer' | 'hang'>,
): SandboxFixture<Name> {
  const fixture = { receivers: {} } as SandboxFixture<Name>;
  let startError: unknown;
  beforeAll(async () => {
    try {
      fixture.sandbox = await startSandbox(flags);
      for (const [name, mode] of Object.entries(receivers) as Array<[Name, 'answer' | 'hang']>) {
        fixture.receivers[name] = await startReceiver(mode);
      }
    } catch (error) {
      startError = error;
    }
  });
  // A CLI that refuses its flags fails every test of the file (rather than skipping them).
  beforeEach(() => {
    if (startError !== undefined) throw startError;
  });
  afterAll(async () => {
    await fixture.sandbox?.stop();
    for (const receiver of Object.values<Receiver>(fixture.receivers)) await receiver.close();
  });
  return fixture;
}
