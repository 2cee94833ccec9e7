// The run's webhook receiver: where it listens for each kind of URL, and bad --webhook-listen values.

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listenAddress, startWebhookReceiver } from './webhook-receiver.js';

/** Standard Webhooks headers for a body, signed with a `whsec_` secret. */
async function signedHeaders(secret: string, id: string, body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
    'content-type': 'application/json',
  };
}

describe('listenAddress', () => {
  it('listens where a loopback URL points, and where --webhook-listen says for a public one', () => {
    expect(listenAddress(new URL('http://127.0.0.1:0/hooks'), undefined)).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
    expect(listenAddress(new URL('https://abc.tunnel.example/hooks'), '8080')).toEqual({
      host: '127.0.0.1',
      port: 8080,
    });
    expect(listenAddress(new URL('https://abc.tunnel.example/hooks'), '0.0.0.0:9000')).toEqual({
      host: '0.0.0.0',
      port: 9000,
    });
  });

  it.each([
    [
      new URL('https://abc.tunnel.example/hooks'),
      undefined,
      /is not on this machine: say where the receiver listens with --webhook-listen/,
    ],
    [
      new URL('http://127.0.0.1:0/hooks'),
      'port',
      /--webhook-listen must be \[host:\]port, not port/,
    ],
    [new URL('http://127.0.0.1:0/hooks'), '70000', /--webhook-listen must be/],
  ])('refuses %s with --webhook-listen %s', (url, listen, message) => {
    expect(listenAddress(url, listen)).toMatch(message);
  });
});

describe('startWebhookReceiver', () => {
  it('takes a free port for port 0, counts a delivery it cannot verify without keeping it, and refuses oversized bodies', async () => {
    const receiver = await startWebhookReceiver({ url: 'http://127.0.0.1:0/hooks' });
    try {
      expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/hooks$/);
      const unsigned = await fetch(receiver.url, { method: 'POST', body: '{"id":"evt_1"}' });
      expect(unsigned.status).toBe(400);
      expect(receiver.received).toEqual([]);
      expect(receiver.refused).toMatchObject({ count: 1, firstReason: expect.any(String) });
      const huge = await fetch(receiver.url, { method: 'POST', body: 'x'.repeat(300 * 1024) });
      expect(huge.status).toBe(413);
      expect(receiver.refused.count).toBe(2);
      expect(await receiver.waitUntil(() => receiver.received.length === 0, 1000)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('keeps every verified delivery after 1 000 unsigned ones, and flags a malformed event instead of throwing', async () => {
    const receiver = await startWebhookReceiver({ url: 'http://127.0.0.1:0/hooks' });
    const secret = `whsec_${Buffer.from('a-signing-secret-of-32-bytes-----').toString('base64')}`;
    receiver.secret = secret;
    try {
      for (let index = 0; index < 1000; index++) {
        const answer = await fetch(receiver.url, { method: 'POST', body: `{"n":${index}}` });
        expect(answer.status).toBe(400);
      }
      const send = async (event: unknown) => {
        const body = JSON.stringify(event);
        const headers = await signedHeaders(secret, 'evt_1', body);
        return fetch(receiver.url, { method: 'POST', body, headers });
      };
      const good = {
        id: 'evt_1',
        object: 'event',
        type: 'payment.succeeded',
        created_at: '2026-01-01T00:00:00Z',
        data: { object: { id: 'pay_1', object: 'payment' } },
      };
      expect((await send(good)).status).toBe(204);
      expect((await send({ ...good, data: {} })).status).toBe(204);
      expect((await send({ ...good, data: { object: null } })).status).toBe(204);
      expect(receiver.refused.count).toBe(1000);
      expect(receiver.received.map((delivery) => delivery.malformed ?? 'ok')).toEqual([
        'ok',
        'data.object is not an object with an id',
        'data.object is not an object with an id',
      ]);
      // A predicate that reads a malformed event as if it were whole does not crash the receiver.
      expect(
        await receiver.waitUntil(
          () =>
            receiver.received.some(
              (delivery) =>
                (delivery.event as never as { data: { object: { id: string } } }).data.object.id ===
                'x',
            ),
          10,
        ),
      ).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});
