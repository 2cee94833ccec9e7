// The run's webhook receiver: where it listens for each kind of URL, and bad --webhook-listen values.
import { describe, expect, it } from 'vitest';
import { listenAddress, startWebhookReceiver } from './webhook-receiver.js';

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
  it('takes a free port for port 0, records a delivery it cannot verify, and refuses oversized bodies', async () => {
    const receiver = await startWebhookReceiver({ url: 'http://127.0.0.1:0/hooks' });
    try {
      expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/hooks$/);
      const unsigned = await fetch(receiver.url, { method: 'POST', body: '{"id":"evt_1"}' });
      expect(unsigned.status).toBe(400);
      expect(receiver.received).toMatchObject([
        { event: undefined, verificationError: expect.any(String) },
      ]);
      const huge = await fetch(receiver.url, { method: 'POST', body: 'x'.repeat(300 * 1024) });
      expect(huge.status).toBe(413);
      expect(receiver.received).toHaveLength(1);
      expect(await receiver.waitUntil(() => receiver.received.length === 1, 1000)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
