// The conformance suite's view of a sandbox: a mock server on one store, on a manual clock, with an in-process webhook receiver, driven over HTTP only.
import { type MockServer, mockServerOf } from '../../app/mock-server.js';
import type { MockServerOptions } from '../../app/options.js';
import { createRuntime } from '../../app/runtime.js';

/** The server clock of a sandbox under test: it moves only when told. */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

/** One webhook attempt the sandbox made, as the receiver saw it. */
export interface ReceivedAttempt {
  url: string;
  /** The event's id and type, from the signed body. */
  eventId: string;
  type: string;
  body: string;
}

/** The options a suite test may choose; the store itself is the factory's. */
export type SandboxOptions = Omit<
  MockServerOptions,
  'clock' | 'dataDir' | 'redisUrl' | 'redisPrefix' | 'webhookFetch'
>;

/** A mock server on the store under test, as the suite drives it. */
export interface Sandbox {
  readonly mock: MockServer;
  readonly clock: TestClock;
  /** Every webhook attempt made so far, oldest first. */
  readonly received: ReceivedAttempt[];
  /** The status the receiver answers (200 by default), or the status of each URL. */
  receiverStatus: number | ((url: string) => number);
  /**
   * Resolves once no webhook attempt is due now and the inspector's records of the requests
   * answered so far are stored (a networked store writes them after the answer).
   */
  settled(): Promise<void>;
  /** Stops the server (the store's data stays where the store keeps it). */
  close(): Promise<void>;
}

/** How the suite opens sandboxes on one store. */
export interface StoreFactory {
  /**
   * A new sandbox on a fresh, empty store of this kind.
   */
  open(options?: SandboxOptions): Promise<Sandbox>;
  /**
   * A new server on the data `previous` left (after `previous.close()`), as a restart or a second
   * instance of a fleet sees it; `undefined` when the store keeps nothing beyond its process.
   */
  reopen?(previous: Sandbox, options?: SandboxOptions): Promise<Sandbox>;
  /** Throws away whatever the factory still holds (directories, the test server). */
  dispose(): Promise<void>;
}

/** Where every suite sandbox's clock starts: the same for every store, so answers compare. */
export const SUITE_START = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The seed of every suite sandbox: the same ids and secrets on every store. */
export const SUITE_SEED = 'conformance';

/**
 * Builds a sandbox on the store `storeOptions` name (none: memory), with a manual clock and a
 * receiver in process. The only place the suite builds a server.
 *
 * @example
 * const sandbox = await openSandbox({ dataDir: '/tmp/x' }, { settlementDelaySeconds: 1 });
 */
export async function openSandbox(
  storeOptions: Pick<MockServerOptions, 'dataDir' | 'redisUrl' | 'redisPrefix'>,
  options: SandboxOptions = {},
  start = SUITE_START,
): Promise<Sandbox> {
  let now = start;
  const clock: TestClock = {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
  const received: ReceivedAttempt[] = [];
  const sandbox: Pick<Sandbox, 'received' | 'receiverStatus'> = { received, receiverStatus: 200 };
  const runtime = createRuntime({
    seed: SUITE_SEED,
    ...options,
    ...storeOptions,
    clock,
    webhookFetch: async (url, init) => {
      const body = String(init.body);
      const event = JSON.parse(body) as { id: string; type: string };
      received.push({ url, eventId: event.id, type: event.type, body });
      const { receiverStatus } = sandbox;
      const status = typeof receiverStatus === 'number' ? receiverStatus : receiverStatus(url);
      return new Response(`answered ${status}`, { status });
    },
  });
  const mock = mockServerOf(runtime);
  try {
    await mock.ready();
  } catch (error) {
    mock.close();
    throw error;
  }
  return Object.assign(sandbox, {
    mock,
    clock,
    async settled() {
      await mock.webhooksSettled();
      await runtime.requestsRecorded();
    },
    async close() {
      await mock.webhooksSettled();
      await runtime.requestsRecorded();
      mock.close();
    },
  });
}
