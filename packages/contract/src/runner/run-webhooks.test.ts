// The run's webhook receiver: where it listens for each kind of URL, bad --webhook-listen values, and events the checks cannot read.
import { describe, expect, it } from 'vitest';
import { listenAddress, malformedEvent, startRunReceiver } from './run-webhooks.js';

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

describe('startRunReceiver', () => {
  it('takes a free port for port 0 on a loopback URL, and its url follows it', async () => {
    const receiver = await startRunReceiver({ url: 'http://127.0.0.1:0/hooks' });
    try {
      expect(receiver.url).toBe(`http://127.0.0.1:${receiver.port}/hooks`);
      expect(receiver.port).toBeGreaterThan(0);
      const unsigned = await fetch(receiver.url, { method: 'POST', body: '{"id":"evt_1"}' });
      expect(unsigned.status).toBe(400);
      expect(receiver.refused.count).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('shows the public URL and listens where --webhook-listen says', async () => {
    const receiver = await startRunReceiver({
      url: 'https://abc.tunnel.example/hooks',
      listen: '127.0.0.1:0',
    });
    try {
      expect(receiver.url).toBe('https://abc.tunnel.example/hooks');
      const local = await fetch(`http://127.0.0.1:${receiver.port}/hooks`, {
        method: 'POST',
        body: '{}',
      });
      expect(local.status).toBe(400);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a public URL without --webhook-listen', async () => {
    await expect(startRunReceiver({ url: 'https://abc.tunnel.example/hooks' })).rejects.toThrow(
      /--webhook-listen/,
    );
  });
});

describe('malformedEvent', () => {
  const good = {
    id: 'evt_1',
    object: 'event',
    type: 'payment.succeeded',
    data: { object: { id: 'pay_1', object: 'payment' } },
  };

  it('accepts an event with a data.object that has an id', () => {
    expect(malformedEvent(good)).toBeUndefined();
  });

  it.each([
    [{ ...good, data: {} }, 'data.object is not an object with an id'],
    [{ ...good, data: { object: null } }, 'data.object is not an object with an id'],
    [{ ...good, data: { object: { id: 1 } } }, 'data.object is not an object with an id'],
    [{ ...good, type: 7 }, 'type is not a string'],
    [null, 'the event is not an object'],
  ])('flags %j: %s', (event, reason) => {
    expect(malformedEvent(event)).toBe(reason);
  });
});
