// The Node webhook receiver: keeps only verified deliveries, counts and refuses the rest, bounded in body size and storage.
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook } from '../webhooks/sign.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const secret = `whsec_${btoa('a-signing-secret-of-32-bytes----')}`;
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function start(options: Parameters<typeof startWebhookReceiver>[0] = {}) {
  const receiver = await startWebhookReceiver(options);
  receivers.push(receiver);
  return receiver;
}

function event(id: string, type = 'payment.succeeded') {
  return {
    id,
    object: 'event',
    type,
    created_at: '2026-01-01T00:00:00Z',
    data: { object: { id: 'pay_1', object: 'payment' } },
  };
}

/** Posts `body` to the receiver, signed with `key` under the webhook-id `id`. */
async function deliver(receiver: WebhookReceiver, id: string, body = event(id), key = secret) {
  const text = JSON.stringify(body);
  const headers = await signWebhook({ id, body: text, secret: key });
  return fetch(receiver.url, { method: 'POST', body: text, headers });
}

describe('startWebhookReceiver', () => {
  it('takes a free 127.0.0.1 port, keeps a verified delivery and answers it 204', async () => {
    const receiver = await start({ secret });
    expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}/webhooks`);
    expect((await deliver(receiver, 'evt_1')).status).toBe(204);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({
      webhookId: 'evt_1',
      event: { id: 'evt_1', type: 'payment.succeeded' },
      answeredWith: 204,
    });
    expect(receiver.received[0]?.headers['webhook-id']).toBe('evt_1');
    expect(receiver.events().map((received) => received.id)).toEqual(['evt_1']);
  });

  it('answers 400 to an unsigned or badly signed delivery and 413 to an oversized one, counting them without keeping them', async () => {
    const receiver = await start({ secret, maxBodyBytes: 1024 });
    const unsigned = await fetch(receiver.url, { method: 'POST', body: '{"id":"evt_1"}' });
    expect(unsigned.status).toBe(400);
    const other = `whsec_${btoa('another-secret-of-32-bytes------')}`;
    expect((await deliver(receiver, 'evt_2', event('evt_2'), other)).status).toBe(400);
    const huge = await fetch(receiver.url, { method: 'POST', body: 'x'.repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    expect(receiver.received).toEqual([]);
    expect(receiver.refused).toEqual({
      count: 3,
      firstReason: 'missing_header: the webhook-id header is missing or empty',
    });
  });

  it('refuses every delivery until a secret is set, saying so', async () => {
    const receiver = await start();
    expect((await deliver(receiver, 'evt_1')).status).toBe(400);
    expect(receiver.refused.firstReason).toBe(
      'no secret to verify with: pass secret, or set receiver.secret',
    );
    receiver.secret = secret;
    expect((await deliver(receiver, 'evt_1')).status).toBe(204);
    expect(receiver.verifiedCount).toBe(1);
  });

  it('keeps every verified delivery after 1 000 unsigned ones', async () => {
    const receiver = await start({ secret });
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          fetch(receiver.url, { method: 'POST', body: `{"n":${batch * 50 + index}}` }),
        ),
      );
      expect(answers.every((answer) => answer.status === 400)).toBe(true);
    }
    expect((await deliver(receiver, 'evt_1')).status).toBe(204);
    expect(receiver.refused.count).toBe(1000);
    expect(receiver.received.map((delivery) => delivery.webhookId)).toEqual(['evt_1']);
  }, 30_000);

  it('keeps the first maxKept verified deliveries and still verifies and answers the rest', async () => {
    const receiver = await start({ secret, maxKept: 2 });
    for (const id of ['evt_1', 'evt_2', 'evt_3']) {
      expect((await deliver(receiver, id)).status).toBe(204);
    }
    expect(receiver.received.map((delivery) => delivery.webhookId)).toEqual(['evt_1', 'evt_2']);
    expect(receiver.verifiedCount).toBe(3);
  });

  it('answers as `answer` says, and events() keeps the 2xx ones once per webhook-id', async () => {
    let down = true;
    const receiver = await start({ secret, answer: () => (down ? 503 : 200) });
    expect((await deliver(receiver, 'evt_1')).status).toBe(503);
    down = false;
    expect((await deliver(receiver, 'evt_1')).status).toBe(200);
    expect((await deliver(receiver, 'evt_1')).status).toBe(200);
    expect(receiver.received.map((delivery) => delivery.answeredWith)).toEqual([503, 200, 200]);
    expect(receiver.events()).toHaveLength(1);
  });

  it("never answers with answer 'hang', yet counts the delivery for waitFor", async () => {
    const receiver = await start({ secret, answer: () => 'hang' });
    // Its answer never comes: close() in afterEach ends the connection.
    void deliver(receiver, 'evt_1').catch(() => 'closed');
    const [delivery] = await receiver.waitFor(1, 2000);
    expect(delivery?.answeredWith).toBeUndefined();
  });

  it('waitUntil resolves false after the time-out, and a predicate that throws does not hold', async () => {
    const receiver = await start({ secret });
    expect(await receiver.waitUntil(() => receiver.received.length === 1, 20)).toBe(false);
    // Reads a field no event has, as a check written for another event shape would.
    const crashing = () => (receiver as never as { missing: { y: number } }).missing.y === 1;
    expect(await receiver.waitUntil(crashing, 20)).toBe(false);
    const waiting = receiver.waitUntil(() => receiver.events().length === 1, 2000);
    await deliver(receiver, 'evt_1');
    expect(await waiting).toBe(true);
  });

  it('waitFor rejects after the time-out, listing what arrived', async () => {
    const receiver = await start({ secret });
    await deliver(receiver, 'evt_1');
    await fetch(receiver.url, { method: 'POST', body: '{}' });
    await expect(receiver.waitFor(2, 20)).rejects.toThrow(
      'webhook receiver: 2 deliveries not met within 20 ms; 1 verified (payment.succeeded→204), 1 refused (first: missing_header: the webhook-id header is missing or empty)',
    );
  });

  it('refuses connections after stop() and receives again on the same port after reopen()', async () => {
    const receiver = await start({ secret, path: '/hooks' });
    expect(receiver.url).toMatch(/\/hooks$/);
    await receiver.stop();
    await expect(deliver(receiver, 'evt_1')).rejects.toThrow();
    await receiver.reopen();
    expect((await deliver(receiver, 'evt_1')).status).toBe(204);
  });

  it('verifies against the sender’s clock with now, and refuses a stale delivery without it', async () => {
    const past = Date.UTC(2026, 0, 1);
    const text = JSON.stringify(event('evt_1'));
    const headers = await signWebhook({ id: 'evt_1', body: text, secret, timestamp: past / 1000 });
    const onClock = await start({ secret, now: () => past });
    expect((await fetch(onClock.url, { method: 'POST', body: text, headers })).status).toBe(204);
    const onRealTime = await start({ secret });
    expect((await fetch(onRealTime.url, { method: 'POST', body: text, headers })).status).toBe(400);
    expect(onRealTime.refused.firstReason).toMatch(/^timestamp_out_of_tolerance: /);
  });

  it('shows publicUrl as its url (a tunnel’s address)', async () => {
    const receiver = await start({ secret, publicUrl: 'https://abc.tunnel.example/hooks' });
    expect(receiver.url).toBe('https://abc.tunnel.example/hooks');
  });
});
