// Attack 3: more keys than any count cap, into a small byte budget; the victim keeps its payment
// and its Idempotency-Key replays, and a full sandbox refuses new work with 503 sandbox_full.
import { describe, expect, it } from 'vitest';
import { floodKeys } from './attacks/floods.js';
import { listedIds } from './expect-helpers.js';
import { type Answer, call, paymentBody, unexpectedServerErrors } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const VICTIM = 'sk_test_reliability_victim';
// More distinct keys than the old 10,000-account cap, into a 4 MiB sandbox: it fills up.
const FLOOD_KEYS = 10_050;
const FLAGS = ['--quiet', '--memory-budget', '4', '--key-memory-budget', '1'];

const fx = useSandbox(FLAGS);

describe('isolation: a flood of keys never costs another key its data', () => {
  it('keeps the victim whole and refuses new work with 503 sandbox_full once full', async () => {
    const { url } = fx.sandbox;
    const first = await call(url, {
      path: '/v1/payments',
      key: VICTIM,
      idempotencyKey: 'victim-1',
      body: paymentBody(),
    });
    expect(first.status).toBe(201);
    const victimId = String(first.json?.id);

    const accepted = new Map<number, string>();
    const refusals: Answer[] = [];
    const tally = await floodKeys(
      url,
      'sk_test_reliability_flood_',
      FLOOD_KEYS,
      (index, answer) => {
        if (answer.status === 201) accepted.set(index, String(answer.json?.id));
        else if (answer.status === 503 && refusals.length < 5) refusals.push(answer);
      },
    );
    expect(fx.sandbox.alive()).toBe(true);
    expect(unexpectedServerErrors(tally)).toEqual({});
    expect(tally.fullWithoutRetryAfter).toBe(0);
    expect(
      (tally.byStatus[201] ?? 0) + (tally.byStatus[503] ?? 0),
      JSON.stringify(tally.byStatus),
    ).toBe(FLOOD_KEYS);
    // The victim: its payment answers, its retry replays (no second payment).
    const again = await call(url, { path: `/v1/payments/${victimId}`, key: VICTIM });
    expect(again.status, again.text.slice(0, 200)).toBe(200);
    expect(again.json?.amount).toBe(1000);
    const retry = await call(url, {
      path: '/v1/payments',
      key: VICTIM,
      idempotencyKey: 'victim-1',
      body: paymentBody(),
    });
    expect(retry.status).toBe(201);
    expect(retry.json?.id).toBe(victimId);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const list = await call(url, { path: '/v1/payments?limit=100', key: VICTIM });
    expect(listedIds(list)).toEqual([victimId]);

    // The budget bit: the sandbox filled up and said so.
    expect(tally.byStatus[503] ?? 0, JSON.stringify(tally.byStatus)).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal.json?.code).toBe('sandbox_full');
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
      expect(String(refusal.headers['content-type'])).toMatch(/^application\/problem\+json/);
    }

    // Every flood key that was accepted keeps its payment too (the first and the last hundred).
    const sample = [...accepted.entries()].filter(
      ([index]) => index < 100 || index >= FLOOD_KEYS - 100,
    );
    expect(sample.length).toBeGreaterThan(0);
    for (const [index, id] of sample) {
      const kept = await call(url, {
        path: `/v1/payments/${id}`,
        key: `sk_test_reliability_flood_${index}`,
      });
      expect(kept.status, `flood key ${index}`).toBe(200);
    }
    // New work of the victim is either done or refused as full: never a 5xx of another kind.
    const more = await call(url, {
      path: '/v1/payments',
      key: VICTIM,
      idempotencyKey: 'victim-2',
      body: paymentBody(),
    });
    if (more.status !== 201) {
      expect(more.status).toBe(503);
      expect(more.json?.code).toBe('sandbox_full');
    }
    expect(fx.sandbox.alive()).toBe(true);
  });
});
