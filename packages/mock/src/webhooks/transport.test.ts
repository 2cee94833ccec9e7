// The webhook transports: addresses checked where a name resolves, answers kept only from this machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { PUBLIC_AND_LOOPBACK, PUBLIC_ONLY } from '../domain/webhook-address.js';
import {
  ADDRESS_REFUSED,
  type DnsLookup,
  fetchTransport,
  networkTransport,
  type WebhookAttempt,
} from './transport.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver on every interface that counts what it got and answers `answer`. */
async function receiver(
  answer = 'thanks, received',
): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    request.resume();
    request.on('end', () => response.end(answer));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  return { port: (server.address() as AddressInfo).port, hits: () => hits };
}

const attempt = (url: string, restricted = true): WebhookAttempt => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1' },
  body: '{"id":"evt_1"}',
  signal: new AbortController().signal,
  restricted,
});

/** A resolver that answers from a table, as a rebinding name would. */
const resolving =
  (table: Record<string, string>): DnsLookup =>
  (hostname, _options, callback) => {
    const address = table[hostname];
    if (address === undefined)
      callback(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    else callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  };

describe('networkTransport', () => {
  it('refuses a name that resolves to a private address, before connecting', async () => {
    const transport = networkTransport(PUBLIC_AND_LOOPBACK, {
      resolve: resolving({ 'rebind.test': '10.0.0.1' }),
    });
    const failure = transport.send(attempt('http://rebind.test:9/hook'));
    await expect(failure).rejects.toMatchObject({ code: ADDRESS_REFUSED });
    await expect(failure).rejects.toThrow(
      'rebind.test resolves to 10.0.0.1, a private network address',
    );
    transport.close();
  });

  it("refuses a name that resolves to this machine's loopback under a policy without it", async () => {
    const { port, hits } = await receiver();
    const transport = networkTransport(PUBLIC_ONLY, {
      resolve: resolving({ 'home.test': '127.0.0.1' }),
    });
    await expect(transport.send(attempt(`http://home.test:${port}/admin`))).rejects.toThrow(
      "home.test resolves to 127.0.0.1, this machine's loopback",
    );
    expect(hits()).toBe(0);
    transport.close();
  });

  it('refuses a metadata address written as an IP, and never sends to it', async () => {
    const transport = networkTransport({ allowPrivate: true });
    await expect(transport.send(attempt('http://169.254.169.254/latest/'))).rejects.toMatchObject({
      code: ADDRESS_REFUSED,
    });
    transport.close();
  });

  it('connects to the address the check saw (a loopback name), and keeps its answer', async () => {
    const { port, hits } = await receiver();
    const transport = networkTransport(PUBLIC_AND_LOOPBACK, {
      resolve: resolving({ 'home.test': '127.0.0.1' }),
    });
    const answer = await transport.send(attempt(`http://home.test:${port}/hook`));
    expect(answer).toEqual({ status: 200, excerpt: 'thanks, received' });
    expect(hits()).toBe(1);
    transport.close();
  });

  it("never sends a key's attempt over the operator's pooled connection", async () => {
    const { port, hits } = await receiver();
    // The name resolves to the receiver once (the operator's connection), then to a private address.
    let lookups = 0;
    const transport = networkTransport(PUBLIC_AND_LOOPBACK, {
      resolve: (_hostname, _options, callback) => {
        lookups++;
        callback(null, [{ address: lookups === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }]);
      },
    });
    const operator = await transport.send(attempt(`http://shared.test:${port}/hook`, false));
    expect(operator.status).toBe(200);
    // Before: the key's attempt took the operator's idle keep-alive socket and was delivered.
    const key = transport.send(attempt(`http://shared.test:${port}/admin/anything`));
    await expect(key).rejects.toMatchObject({ code: ADDRESS_REFUSED });
    await expect(key).rejects.toThrow(
      'shared.test resolves to 10.0.0.1, a private network address',
    );
    expect(hits()).toBe(1);
    transport.close();
  });

  it("keeps no part of an answer from beyond this machine's loopback", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && !entry.internal && !entry.address.startsWith('fe80'));
    if (external === undefined)
      throw new Error('this test needs a network interface besides loopback');
    const { port, hits } = await receiver('secret internal page');
    const host = external.family === 'IPv6' ? `[${external.address}]` : external.address;
    // The operator's own URL (not restricted): it is sent, but the answer is not shown back.
    const transport = networkTransport(PUBLIC_AND_LOOPBACK);
    const answer = await transport.send(attempt(`http://${host}:${port}/hook`, false));
    expect(answer).toEqual({ status: 200, excerpt: null });
    expect(hits()).toBe(1);
    transport.close();
  });
});

describe('fetchTransport', () => {
  it('sends through the injected fetch and keeps the start of its answer', async () => {
    const seen: Request[] = [];
    const transport = fetchTransport(async (input, init) => {
      seen.push(new Request(input, init));
      return new Response('x'.repeat(5000), { status: 202 });
    });
    const answer = await transport.send(attempt('http://10.0.0.1/in-process'));
    expect(answer.status).toBe(202);
    expect(answer.excerpt).toBe('x'.repeat(256));
    expect(seen[0]?.headers.get('webhook-id')).toBe('evt_1');
    expect(await seen[0]?.text()).toBe('{"id":"evt_1"}');
  });

  it('ends the attempt when its signal aborts, even if the injected fetch never settles', async () => {
    const controller = new AbortController();
    // A handler that ignores the signal (a test's receiver that never answers).
    const transport = fetchTransport(() => new Promise<Response>(() => {}));
    const sending = transport.send({
      ...attempt('http://10.0.0.1/in-process'),
      signal: controller.signal,
    });
    controller.abort();
    await expect(sending).rejects.toThrowError();
    // And while reading an answer whose body never ends.
    const hanging = fetchTransport(
      async () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) })),
    );
    const second = new AbortController();
    const reading = hanging.send({
      ...attempt('http://10.0.0.1/in-process'),
      signal: second.signal,
    });
    second.abort();
    await expect(reading).rejects.toThrowError();
  });
});
