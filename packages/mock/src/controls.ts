// A typed client of the mock's sandbox controls (spec/sandbox.yaml), for tests and scripts.
import type { SandboxComponents, SandboxPaths } from '@payment-service/openapi';
import createClient from 'openapi-fetch';

type Schemas = SandboxComponents['schemas'];

/** The faults a key can arm, as in the sandbox spec. */
export type SandboxFaults = Schemas['Faults'];
/** The key's sandbox clock. */
export type SandboxClock = Schemas['Clock'];
/** What a reset deleted. */
export type SandboxReset = Schemas['SandboxReset'];
/** One logged webhook delivery attempt. */
export type WebhookDelivery = Schemas['WebhookDelivery'];
/** The attempts of the key's webhook deliveries, newest first. */
export type WebhookDeliveryList = Schemas['WebhookDeliveryList'];
/** What a redelivery queued. */
export type EventRedelivery = Schemas['EventRedelivery'];
export type SandboxInspector = Schemas['Inspector'];
/** The sandbox's health: `status: ok` and its version. */
export type SandboxHealth = Schemas['SandboxHealth'];

/** Options of `createSandboxControls`. */
export interface SandboxControlsOptions {
  /** The mock's base URL, such as `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** The `sk_test_` key whose sandbox to control. */
  apiKey: string;
  /** A fetch function, such as a mock server's in-process `fetch`. Default: global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The sandbox controls of one key. Each method throws a `SandboxControlError` on a non-2xx. */
export interface SandboxControls {
  /** Whether the sandbox serves requests, and its version. */
  health(): Promise<SandboxHealth>;
  reset(): Promise<SandboxReset>;
  getClock(): Promise<SandboxClock>;
  advanceClock(seconds: number): Promise<SandboxClock>;
  setFaults(faults: SandboxFaults): Promise<SandboxFaults>;
  getFaults(): Promise<SandboxFaults>;
  clearFaults(): Promise<SandboxFaults>;
  /** The key's webhook delivery attempts, newest first; only one event's when `eventId` is given. */
  listWebhookDeliveries(eventId?: string): Promise<WebhookDeliveryList>;
  /** Sends one of the key's events again to every enabled endpoint that matches it. */
  redeliverEvent(eventId: string): Promise<EventRedelivery>;
  /** What the console's inspector shows: recent requests, payments with timelines, events with deliveries. */
  inspector(): Promise<SandboxInspector>;
}

/** A sandbox control answered with an error status. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    detail: string | undefined,
  ) {
    super(
      `Sandbox control failed with ${status}${code ? ` ${code}` : ''}${detail ? `: ${detail}` : ''}`,
    );
  }
}

/**
 * Creates a typed client of the sandbox controls.
 *
 * @example
 * const mock = createMockServer();
 * const controls = createSandboxControls({ baseUrl: 'http://localhost', apiKey: 'sk_test_12345678', fetch: mock.fetch });
 * await controls.setFaults({ fail_next: { count: 1, status: 503 } });
 * await controls.advanceClock(10); // { settled_payments: … }
 */
export function createSandboxControls(options: SandboxControlsOptions): SandboxControls {
  const client = createClient<SandboxPaths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  async function unwrap<T>(
    pending: Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    const { data, error, response } = await pending;
    if (!response.ok || data === undefined) {
      const problem = (error ?? {}) as { code?: string; detail?: string };
      throw new SandboxControlError(response.status, problem.code, problem.detail);
    }
    return data;
  }

  return {
    health: () => unwrap(client.GET('/_sandbox/health')),
    reset: () => unwrap(client.POST('/_sandbox/reset')),
    getClock: () => unwrap(client.GET('/_sandbox/clock')),
    advanceClock: (seconds) =>
      unwrap(client.POST('/_sandbox/clock/advance', { body: { seconds } })),
    setFaults: (faults) => unwrap(client.PUT('/_sandbox/faults', { body: faults })),
    getFaults: () => unwrap(client.GET('/_sandbox/faults')),
    clearFaults: () => unwrap(client.DELETE('/_sandbox/faults')),
    listWebhookDeliveries: (eventId) =>
      unwrap(
        client.GET('/_sandbox/webhook_deliveries', {
          params: { query: eventId === undefined ? {} : { event_id: eventId } },
        }),
      ),
    redeliverEvent: (eventId) =>
      unwrap(client.POST('/_sandbox/events/{id}/redeliver', { params: { path: { id: eventId } } })),
    inspector: () => unwrap(client.GET('/_sandbox/inspector')),
  };
}
