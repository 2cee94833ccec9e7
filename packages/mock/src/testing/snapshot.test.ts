import { inspect } from 'node:util';
import { webhooks } from '@payment-service/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CLOCK_OFFSET_SECONDS } from '../service/account-service.js';
import { SandboxFixtureError } from './fixtures.js';
import { createTestSandbox } from './sandbox.js';
import type { SandboxSnapshot, TestSandbox } from './types.js';

const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
});
function sandboxFor(seed: string): TestSandbox {
  const sandbox = createTestSandbox({ seed });
  sandboxes.push(sandbox);
  return sandbox;
}

const HOOK_URL = 'http://shop.test/webhooks';
const pendingPayment = {
  amount: 1000,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_pending' },
} as const;

/** A POST of the API with an Idempotency-Key, as an app would send it. */
function post(sandbox: TestSandbox, path: string, key: string, body: unknown) {
  return sandbox.fetch(path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${sandbox.apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  });
}

/** A handler that fails its first `failures` deliveries, then verifies each with `secret()`. */
function flakyHandler(failures: number, secret: () => string) {
  const verified: string[] = [];
  let calls = 0;
  const handler = async (request: Request) => {
    calls++;
    if (calls <= failures) return new Response('busy', { status: 500 });
    const event = await webhooks.verify(await request.text(), request.headers, secret());
    verified.push(`${event.type} ${event.id}`);
    return new Response(null, { status: 204 });
  };
  return { handler, verified, calls: () => calls };
}

/** A key with one of every kind of state, its snapshot as JSON, and what the test needs again. */
async function busyKey(sandbox: TestSandbox) {
  let secret = '';
  const flaky = flakyHandler(1, () => secret);
  ({ secret } = await sandbox.webhooks.deliverTo(flaky.handler, {
    url: HOOK_URL,
    events: ['payment.succeeded'],
  }));
  const registration = await post(sandbox, '/v1/webhook_endpoints', 'endpoint-1', {
    url: 'http://127.0.0.1:9/webhooks',
    events: ['payment.refunded'],
  });
  const registered = await registration.text();
  await sandbox.controls.advanceClock(60);
  const pending = await sandbox.client.payments.create(pendingPayment, {
    idempotencyKey: 'order-1',
  });
  // Settles 5 s later: the flaky handler answers 500, a retry is queued for about 5 s after.
  await sandbox.clock.advance(5_000);
  await sandbox.controls.setFaults({ latency_ms: 5 });
  const [failed] = await sandbox.webhooks.deliveries();
  expect(failed).toMatchObject({ status: 500, event_type: 'payment.succeeded' });
  return { secret, flaky, registered, pending, failed };
}

describe('sandbox.snapshot and restore: the whole key', () => {
  it('round-trips endpoints with their secrets, events, the log, a queued retry, the offset', async () => {
    const sandbox = sandboxFor('snapshot-whole');
    const { secret, flaky, registered, pending } = await busyKey(sandbox);
    const taken = sandbox.snapshot();
    const text = JSON.stringify(taken);
    const snapshot = JSON.parse(text) as SandboxSnapshot;
    // No secret in the text a test might log: the signing keys only, by name.
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/]{4}/);
    expect(text).not.toContain(sandbox.apiKey);
    expect(inspect(taken, { depth: 9 })).not.toContain(secret.slice('whsec_'.length));
    expect(inspect(taken, { depth: 9 })).toContain("signing_key_base64: '[hidden]'");
    expect(snapshot).toMatchObject({
      version: 2,
      clock_offset_seconds: 60,
      webhook_endpoints: [
        { endpoint: { url: HOOK_URL, events: ['payment.succeeded'], status: 'enabled' } },
        { endpoint: { url: 'http://127.0.0.1:9/webhooks', events: ['payment.refunded'] } },
      ],
      webhook_deliveries: [{ status: 500, attempt: 1 }],
      queued_deliveries: [{ attempt: 2 }],
    });
    expect(snapshot.events.map((event) => event.type)).toEqual([
      'payment.pending',
      'payment.succeeded',
    ]);

    // Everything changes, then the snapshot comes back.
    await sandbox.reset();
    await sandbox.trigger('payment.succeeded');
    expect(flaky.verified).toEqual([expect.stringMatching(/^payment\.succeeded /)]);
    await sandbox.restore(snapshot);
    expect(sandbox.snapshot()).toEqual(snapshot);
    expect((await sandbox.controls.getClock()).offset_seconds).toBe(60);
    expect(await sandbox.controls.getFaults()).toEqual({ latency_ms: 5 });
    expect((await sandbox.controls.listWebhookDeliveries()).data).toHaveLength(1);
    const listed = await sandbox.client.webhookEndpoints.list();
    expect(listed.data.map((endpoint) => endpoint.id)).toEqual(
      snapshot.webhook_endpoints.map(({ endpoint }) => endpoint.id),
    );
    // The registration replays byte for byte, with its secret.
    const replay = await post(sandbox, '/v1/webhook_endpoints', 'endpoint-1', {
      url: 'http://127.0.0.1:9/webhooks',
      events: ['payment.refunded'],
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(registered);

    // The queued retry goes out when the clock reaches it, signed with the original secret.
    flaky.verified.length = 0;
    await sandbox.clock.advance(10_000);
    expect(flaky.verified).toEqual([`payment.succeeded ${snapshot.events[1]?.id}`]);
    expect((await sandbox.client.payments.retrieve(pending.id)).status).toBe('SUCCEEDED');
  });

  it('carries endpoints to another sandbox: deliverTo({ endpoint }) attaches a handler', async () => {
    const first = sandboxFor('snapshot-from');
    const { secret } = await busyKey(first);
    const snapshot = JSON.parse(JSON.stringify(first.snapshot())) as SandboxSnapshot;
    const second = sandboxFor('snapshot-to');
    await second.restore(snapshot);
    const id = snapshot.webhook_endpoints[0]?.endpoint.id as string;
    const flaky = flakyHandler(0, () => secret);
    const attached = await second.webhooks.deliverTo(flaky.handler, { endpoint: id });
    expect(attached).toEqual({ id, url: HOOK_URL, secret });
    expect(secret).toMatch(/^whsec_/);
    await second.clock.advance(10_000);
    expect(flaky.verified).toEqual([`payment.succeeded ${snapshot.events[1]?.id}`]);
    const event = await second.webhooks.next({ type: 'payment.succeeded' });
    expect(event.id).toBe(snapshot.events[1]?.id);
    await expect(second.webhooks.deliverTo(flaky.handler, { endpoint: 'we_nope' })).rejects.toThrow(
      'the sandbox has no endpoint "we_nope"',
    );
  });

  it('round-trips every kind of stored answer: captures, cancels, refunds, problems', async () => {
    const sandbox = sandboxFor('snapshot-answers');
    for (const type of ['payment.refunded', 'payment.canceled', 'payment.failed'] as const) {
      await sandbox.trigger(type);
    }
    const [refunded] = (await sandbox.client.payments.list()).data.slice(-1);
    const conflict = await post(sandbox, `/v1/payments/${refunded?.id}/capture`, 'late', {});
    expect(conflict.status).toBe(409);
    const answer = await conflict.text();
    const snapshot = JSON.parse(JSON.stringify(sandbox.snapshot())) as SandboxSnapshot;
    const statuses = snapshot.idempotency_records.map((entry) => entry.response.status);
    expect(statuses).toEqual(expect.arrayContaining([200, 201, 409]));
    await sandbox.reset();
    await sandbox.restore(snapshot);
    expect(sandbox.snapshot()).toEqual(snapshot);
    const replay = await post(sandbox, `/v1/payments/${refunded?.id}/capture`, 'late', {});
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(answer);
  });

  it('reads a version 1 snapshot: no webhooks, the deliverTo endpoints stay', async () => {
    const sandbox = sandboxFor('snapshot-v1');
    const received: string[] = [];
    await sandbox.webhooks.deliverTo(async (request) => {
      received.push(JSON.parse(await request.text()).type);
      return new Response(null, { status: 204 });
    });
    const paid = await sandbox.trigger('payment.succeeded');
    const {
      clock_offset_seconds: _offset,
      webhook_endpoints: _endpoints,
      events: _events,
      webhook_deliveries: _log,
      queued_deliveries: _queued,
      ...current
    } = sandbox.snapshot();
    await sandbox.reset();
    await sandbox.restore({ ...current, version: 1 } as unknown as SandboxSnapshot);
    expect((await sandbox.client.payments.retrieve(paid.id)).status).toBe('SUCCEEDED');
    await sandbox.trigger('payment.failed');
    expect(received).toEqual(['payment.succeeded', 'payment.failed']);
  });
});

type Snapshot = SandboxSnapshot & Record<string, unknown>;
/** A hostile change to a good snapshot, and what the refusal must say. */
type Hostile = [name: string, change: (snapshot: Snapshot) => void, message: string];

const record = (snapshot: Snapshot) =>
  snapshot.idempotency_records[0] as Snapshot['idempotency_records'][0];
const payment = (snapshot: Snapshot) => snapshot.payments[0] as Snapshot['payments'][0];
const endpoint = (snapshot: Snapshot) =>
  snapshot.webhook_endpoints[0] as Snapshot['webhook_endpoints'][0];
const queued = (snapshot: Snapshot) =>
  snapshot.queued_deliveries[0] as Snapshot['queued_deliveries'][0];

const HOSTILE: Hostile[] = [
  [
    'a replayed status of 1000',
    (s) => {
      record(s).response.status = 1000;
    },
    'idempotency_records[0].response.status must be one of 201, 400, 401, 409, 413, 415, 422, 429, 500, 502, 503, 504; got 1000',
  ],
  [
    'a replayed status of 101',
    (s) => {
      record(s).response.status = 101;
    },
    'idempotency_records[0].response.status must be one of 201,',
  ],
  [
    'a header name with CR/LF',
    (s) => {
      record(s).response.headers['x-a\r\nset-cookie'] = 'b';
    },
    'idempotency_records[0].response.headers: "x-a\\r\\nset-cookie" is not a header name',
  ],
  [
    'a header value with CR/LF',
    (s) => {
      record(s).response.headers['x-note'] = 'a\r\nset-cookie: b';
    },
    'idempotency_records[0].response.headers["x-note"] must be a header value',
  ],
  [
    'a content-length of its own',
    (s) => {
      record(s).response.headers['content-length'] = '1';
    },
    'idempotency_records[0].response.headers["content-length"] is set by the sandbox',
  ],
  [
    'a body that is not JSON',
    (s) => {
      record(s).response.body = '<html>';
    },
    'idempotency_records[0].response.body must be JSON',
  ],
  [
    'a success body that is no payment',
    (s) => {
      const order = s.idempotency_records.find((entry) => entry.key === 'order-1');
      (order as Snapshot['idempotency_records'][0]).response.body = '{"id":"pay_1"}';
    },
    'idempotency_records[2].response.body.object is required',
  ],
  [
    'a problem body of another status',
    (s) => {
      record(s).response.status = 409;
      record(s).response.headers['content-type'] = 'application/problem+json';
      record(s).response.body = '{"status":404,"code":"not_found"}';
    },
    'idempotency_records[0].response.body must be a problem of status 409',
  ],
  [
    'a record of an operation without keys',
    (s) => {
      record(s).method = 'GET';
    },
    'idempotency_records[0].method and path must be those of an operation that takes an Idempotency-Key',
  ],
  [
    'an Idempotency-Key of 256 characters',
    (s) => {
      record(s).key = 'k'.repeat(256);
    },
    'idempotency_records[0].key must be an Idempotency-Key of 1 to 255 characters',
  ],
  [
    'a body fingerprint of no known form',
    (s) => {
      record(s).body_fingerprint = 'x';
    },
    'idempotency_records[0].body_fingerprint must be',
  ],
  [
    'a clock at +275760',
    (s) => {
      s.clock = '+275760-09-13T00:00:00.000Z';
    },
    'clock must be a UTC time such as 2026-01-01T00:00:00.000Z, from year 0000 to 9999; got "+275760-09-13T00:00:00.000Z"',
  ],
  [
    'a day that does not exist',
    (s) => {
      s.clock = '2026-02-30T00:00:00.000Z';
    },
    'clock must be a UTC time',
  ],
  [
    'an offset beyond the limit',
    (s) => {
      s.clock_offset_seconds = MAX_CLOCK_OFFSET_SECONDS + 1;
    },
    `clock_offset_seconds must be whole seconds from 0 to ${MAX_CLOCK_OFFSET_SECONDS}`,
  ],
  [
    'a negative offset',
    (s) => {
      s.clock_offset_seconds = -1;
    },
    'clock_offset_seconds must be whole seconds',
  ],
  [
    'an amount of 0',
    (s) => {
      payment(s).payment.amount = 0;
    },
    'payments[0].payment.amount must be an integer ≥ 1',
  ],
  [
    'a settlement time for a settled payment',
    (s) => {
      payment(s).settles_at = s.clock;
    },
    'payments[0].settles_at must be null for a SUCCEEDED payment',
  ],
  [
    'a timeline step at no time',
    (s) => {
      (payment(s).timeline[0] as { at: string }).at = 'soon';
    },
    'payments[0].timeline[0].at must be a UTC time',
  ],
  [
    'a timeline of 33 steps',
    (s) => {
      const [first] = payment(s).timeline;
      payment(s).timeline = Array.from({ length: 33 }, () => structuredClone(first) as never);
    },
    'payments[0].timeline must have at most 32 items',
  ],
  [
    'two payments with one id',
    (s) => {
      s.payments.push(structuredClone(payment(s)));
    },
    'payments[1].payment.id "pay_',
  ],
  [
    'an endpoint URL the sandbox may not call',
    (s) => {
      endpoint(s).endpoint.url = 'ftp://shop.test/webhooks';
    },
    'webhook_endpoints[0].endpoint.url',
  ],
  [
    'an endpoint status of no kind',
    (s) => {
      (endpoint(s).endpoint as { status: string }).status = 'paused';
    },
    'webhook_endpoints[0].endpoint.status must be one of',
  ],
  [
    'seventeen endpoints',
    (s) => {
      s.webhook_endpoints = Array.from({ length: 17 }, () => structuredClone(endpoint(s)));
    },
    'webhook_endpoints must have at most 16 items',
  ],
  [
    'an event of an unknown type',
    (s) => {
      (s.events[0] as { type: string }).type = 'payment.exploded';
    },
    'events[0].type must be one of',
  ],
  [
    'a logged attempt 0',
    (s) => {
      (s.webhook_deliveries[0] as { attempt: number }).attempt = 0;
    },
    'webhook_deliveries[0].attempt must be',
  ],
  [
    'a queued attempt of no event',
    (s) => {
      queued(s).event_id = 'evt_gone';
    },
    `queued_deliveries[0].event_id must be the id of one of the snapshot's events; got "evt_gone"`,
  ],
  [
    'a queued attempt to no endpoint',
    (s) => {
      queued(s).endpoint_id = 'we_gone';
    },
    "queued_deliveries[0].endpoint_id must be the id of one of the snapshot's webhook_endpoints",
  ],
  [
    'a queued attempt 99',
    (s) => {
      queued(s).attempt = 99;
    },
    'queued_deliveries[0].attempt must be an integer from 1 to 9; got 99',
  ],
  [
    'payments over the key cap',
    (s) => {
      s.payments = Array.from({ length: 100_001 }, () => payment(s));
    },
    'payments must have at most',
  ],
];

describe('sandbox.restore: hostile values', () => {
  it.each(HOSTILE)(
    'refuses %s, changes nothing, and the key answers as before',
    async (_, change, message) => {
      const sandbox = sandboxFor('snapshot-hostile');
      await busyKey(sandbox);
      const good = JSON.parse(JSON.stringify(sandbox.snapshot())) as Snapshot;
      const hostile = structuredClone(good);
      change(hostile);
      const error = await sandbox.restore(hostile).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxFixtureError);
      expect((error as SandboxFixtureError).message).toContain(`- ${message}`);
      // All or nothing: the key is as it was, and answers normally.
      expect(JSON.parse(JSON.stringify(sandbox.snapshot()))).toEqual(good);
      const replay = await post(sandbox, '/v1/payments', 'order-1', pendingPayment);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await post(sandbox, '/v1/payments', 'order-2', pendingPayment)).status).toBe(201);
      expect((await sandbox.controls.advanceClock(1)).offset_seconds).toBe(61);
    },
  );

  it('names every part an empty snapshot lacks, and never a value it cannot read', async () => {
    const sandbox = sandboxFor('snapshot-empty');
    const error = (await sandbox
      .restore({ format: 'payment-service-mock.sandbox-snapshot', version: 2 } as never)
      .catch((caught: unknown) => caught)) as SandboxFixtureError;
    expect(error.errors.map((problem) => problem.param)).toEqual([
      'clock',
      'clock_offset_seconds',
      'faults',
      'payments',
      'idempotency_records',
      'webhook_endpoints',
      'events',
      'webhook_deliveries',
      'queued_deliveries',
    ]);
    expect(error.message).toContain('- faults must be a JSON object');
    expect(error.message).toContain('- events must be an array; got nothing');
  });

  it('never shows a signing key, even a broken one', async () => {
    const sandbox = sandboxFor('snapshot-key');
    await busyKey(sandbox);
    const hostile = JSON.parse(JSON.stringify(sandbox.snapshot())) as Snapshot;
    endpoint(hostile).signing_key_base64 = 'whsec_c2VjcmV0IGtleSBieXRlcw==';
    const error = (await sandbox.restore(hostile).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain(
      "- webhook_endpoints[0].signing_key_base64 must be the base64 of the endpoint's signing key (1 to 256 bytes)",
    );
    expect(error.message).not.toContain('c2VjcmV0');
  });
});
