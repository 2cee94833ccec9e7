// Two CLI instances on one redis-server behind HAProxy answer as one sandbox: the contract check
// through the balancer, payments and Idempotency-Keys across instances, webhooks sent once, a
// retry surviving `kill -9` of the instance that scheduled it, and the store going away and back.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, pause, paymentBody } from '../http.js';
import { type Receiver, startReceiver } from '../receiver.js';
import { type Fleet, startFleet } from './fleet.js';

const require = createRequire(import.meta.url);
const CONTRACT_CLI = join(
  dirname(require.resolve('@payment-service/contract/package.json')),
  'bin/payment-service-contract.js',
);

let fleet: Fleet;
let receiver: Receiver;
let keys = 0;
const newKey = () => `sk_test_fleet_${process.pid}_${++keys}`;

beforeAll(async () => {
  fleet = await startFleet({ instances: 3 });
  receiver = await startReceiver('answer');
});

afterAll(async () => {
  await receiver?.close();
  await fleet?.stop();
});

const idOf = (answer: Answer) => (answer.json as { id: string }).id;

/**
 * Calls until the answer is not a refused connection, a 503 (an instance or the store coming
 * back) or a 409 `idempotency_key_in_use` (the key taken by an instance killed with the request
 * in flight, free once its heartbeat ended: the README's "When an instance dies").
 */
async function settled(send: () => Promise<Answer>): Promise<Answer> {
  for (;;) {
    const answer = await send();
    const inUse = answer.status === 409 && answer.json?.code === 'idempotency_key_in_use';
    if (answer.status !== 0 && answer.status !== 503 && !inUse) return answer;
    await pause(50);
  }
}

describe('a fleet of three instances on redis-server behind HAProxy', () => {
  it('passes the contract check through the balancer', { timeout: 120_000 }, async () => {
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          CONTRACT_CLI,
          'check',
          '--base-url',
          fleet.url,
          '--key',
          newKey(),
          '--rate',
          '1000',
          '--webhook-url',
          'http://127.0.0.1:0/hooks',
          '--no-progress',
        ],
        { timeout: 110_000, maxBuffer: 8 * 1024 * 1024 },
        (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: stdout + stderr }),
      );
    });
    expect(result.output).not.toMatch(/\bFAIL/);
    expect(result.code, result.output).toBe(0);
  });

  it('captures on one instance a payment made on the other', async () => {
    const [a, b] = fleet.instances as [(typeof fleet.instances)[0], (typeof fleet.instances)[0]];
    const key = newKey();
    const created = await call(a.url, {
      method: 'POST',
      path: '/v1/payments',
      key,
      body: paymentBody(1000, false),
    });
    expect(created.status).toBe(201);
    const captured = await call(b.url, {
      method: 'POST',
      path: `/v1/payments/${idOf(created)}/capture`,
      key,
      body: {},
    });
    expect(captured.status).toBe(200);
    expect(captured.json).toMatchObject({ status: 'SUCCEEDED' });
    const viaBalancer = await call(fleet.url, { path: `/v1/payments/${idOf(created)}`, key });
    expect(viaBalancer.json).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('makes one payment of one Idempotency-Key sent to both instances at once', async () => {
    const key = newKey();
    const answers = await Promise.all(
      [...fleet.instances, ...fleet.instances].map((instance) =>
        call(instance.url, {
          method: 'POST',
          path: '/v1/payments',
          key,
          idempotencyKey: 'one-payment',
          body: paymentBody(2500),
        }),
      ),
    );
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const ids = new Set(answers.filter((a) => a.status === 201).map(idOf));
    expect(ids.size).toBe(1);
    const listed = await call(fleet.url, { path: '/v1/payments', key });
    expect((listed.json as { data: unknown[] }).data).toHaveLength(1);
  });

  it('sends a webhook once, not once per instance', async () => {
    const key = newKey();
    const endpoint = await call(fleet.url, {
      method: 'POST',
      path: '/v1/webhook_endpoints',
      key,
      body: { url: receiver.url },
    });
    expect(endpoint.status).toBe(201);
    const ids: string[] = [];
    for (const instance of fleet.instances) {
      const created = await call(instance.url, {
        method: 'POST',
        path: '/v1/payments',
        key,
        body: paymentBody(3000),
      });
      ids.push(idOf(created));
    }
    for (const id of ids) await receiver.waitFor(id);
    const events = receiver.received.filter((event) => ids.includes(event.data?.object?.id ?? ''));
    // Both instances poll the store for due attempts: a second copy would have been claimed by
    // the other one. The delivery log (shared) says each event was attempted once. An instance
    // logs its attempt once the receiver answered it, so after the receiver saw it: read the
    // log until it holds every attempt received (a few ms; bounded).
    let attempts: Array<{ event_id: string }> = [];
    for (let read = 0; read < 200; read++) {
      const log = await call(fleet.url, { path: '/_sandbox/webhook_deliveries', key });
      attempts = (log.json as { data: Array<{ event_id: string }> }).data;
      if (attempts.length >= events.length) break;
      await pause(20);
    }
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(attempts).toHaveLength(events.length);
  });

  it('loses no answered write when an instance is killed under load', async () => {
    const victim = fleet.instances[2] as (typeof fleet.instances)[0];
    const key = newKey();
    const answered = new Map<string, string>();
    const unanswered: string[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < 120) {
        const idempotencyKey = `load-${sent++}`;
        const answer = await call(fleet.url, {
          method: 'POST',
          path: '/v1/payments',
          key,
          idempotencyKey,
          body: paymentBody(6000),
        });
        if (answer.status === 201) answered.set(idempotencyKey, idOf(answer));
        else unanswered.push(idempotencyKey);
        if (sent === 40) await victim.kill9();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(victim.alive()).toBe(false);
    // Every answered create is there, whichever instance serves the read.
    for (const id of answered.values()) {
      expect((await call(fleet.url, { path: `/v1/payments/${id}`, key })).status).toBe(200);
    }
    // A create whose answer was lost with the instance is made (or replayed) by its retry.
    for (const idempotencyKey of unanswered) {
      const retried = await settled(() =>
        call(fleet.url, {
          method: 'POST',
          path: '/v1/payments',
          key,
          idempotencyKey,
          body: paymentBody(6000),
        }),
      );
      expect(retried.status).toBe(201);
      answered.set(idempotencyKey, idOf(retried));
    }
    expect(new Set(answered.values()).size).toBe(120);
    const listed = await call(fleet.url, { path: '/v1/payments?limit=100', key });
    expect((listed.json as { has_more: boolean }).has_more).toBe(true);
  });

  it('keeps a retry when the instance that scheduled it is killed', async () => {
    const [a, b] = fleet.instances as [(typeof fleet.instances)[0], (typeof fleet.instances)[0]];
    const key = newKey();
    const retrying = await startReceiver('answer');
    try {
      retrying.status = 500;
      await call(a.url, {
        method: 'POST',
        path: '/v1/webhook_endpoints',
        key,
        body: { url: retrying.url },
      });
      const created = await call(a.url, {
        method: 'POST',
        path: '/v1/payments',
        key,
        body: paymentBody(4000),
      });
      await retrying.until(() => retrying.received.length === 1);
      await a.kill9();
      retrying.status = 200;
      // Killed while sending the attempt, A still holds its lease: B takes the attempt over once
      // the lease ends (5 s on the store's clock). Killed after it scheduled the retry, the retry
      // is due 5 s later on the key's clock: advance it on the surviving instance.
      const advanced = await call(b.url, {
        method: 'POST',
        path: '/_sandbox/clock/advance',
        key,
        body: { seconds: 10 },
      });
      expect(advanced.status).toBe(200);
      await retrying.until(() => retrying.received.length === 2);
      expect(retrying.received[1]?.data?.object?.id).toBe(idOf(created));
      expect(retrying.received[1]?.id).toBe(retrying.received[0]?.id);
    } finally {
      await retrying.close();
    }
  });

  it('answers 503 store_unavailable while redis-server is down, and comes back without a restart', async () => {
    const key = newKey();
    const redis = fleet.redis as NonNullable<Fleet['redis']>;
    await redis.stop();
    const down = await call(fleet.url, {
      method: 'POST',
      path: '/v1/payments',
      key,
      body: paymentBody(5000),
    });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    expect(down.json).toMatchObject({ code: 'store_unavailable' });
    await redis.start();
    const back = await settled(() =>
      call(fleet.url, { method: 'POST', path: '/v1/payments', key, body: paymentBody(5000) }),
    );
    expect(back.status).toBe(201);
  });
});
