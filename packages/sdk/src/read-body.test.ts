// Bodies are untrusted (issue 31, row 9): a gzip bomb, endless and trickling bodies, and 2xx bodies of the wrong shape, from a hostile server.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { InvalidResponseError, PaymentServiceError, TimeoutError } from './errors.js';
import { requireBuiltSdk } from './test-support/built.js';
import {
  gzipBomb,
  type HostileHandler,
  type HostileServer,
  startHostileServer,
  writeForever,
} from './test-support/hostile-server.js';

const apiKey = 'sk_test_hostileServerKey01';
const servers: HostileServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handler: HostileHandler) {
  const server = await startHostileServer(handler);
  servers.push(server);
  return server;
}

function clientOf(
  server: HostileServer,
  options: { maxResponseBytes?: number; fetch?: typeof fetch } = {},
) {
  return createClient({ apiKey, baseUrl: server.url, ...options });
}

const json = { 'content-type': 'application/json', 'request-id': 'req_hostile' };

describe('a gzip bomb', () => {
  it('throws invalid_response while the process stays under 200 MiB (measured in a child process)', async () => {
    // 2 MB on the wire that decode to 2 GiB: the SDK before the cap crashed V8 on it.
    const bomb = gzipBomb(2048);
    const server = await serve((_request, response) =>
      response.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end(bomb),
    );
    const child = fileURLToPath(
      new URL('./test-support/retrieve-and-report-rss.mjs', import.meta.url),
    );
    const report = await new Promise<string>((resolve, reject) => {
      const process = spawn('node', [child, requireBuiltSdk(), server.url], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      process.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      process.on('error', reject);
      process.on('close', () => resolve(output));
    });
    const outcome = JSON.parse(report);
    expect(outcome).toMatchObject({
      resolved: false,
      name: 'InvalidResponseError',
      code: 'invalid_response',
    });
    expect(outcome.message).toMatch(
      /^200 invalid_response: the response body is larger than the 4194304-byte limit \(the maxResponseBytes option\): the SDK stopped reading it at \d+ bytes, counted after decoding \[request req_hostile\]$/,
    );
    expect(outcome.message).not.toContain(apiKey);
    expect(outcome.peakRssMiB).toBeLessThan(200);
    expect(server.requests()).toBe(1); // not retried
  }, 30_000);
});

describe('an endless body', () => {
  it('of a 500 stops at the cap with invalid_response, naming the limit and the size read, not retried', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(500, json);
      writeForever(response, ' '.repeat(65_536));
    });
    const error = await clientOf(server, { maxResponseBytes: 1_048_576 })
      .payments.retrieve('pay_1', { timeout: 20_000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toBeInstanceOf(PaymentServiceError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 500, attempts: 1 });
    const { message } = error as Error;
    expect(message).toContain('larger than the 1048576-byte limit');
    const observed = Number(/stopped reading it at (\d+) bytes/.exec(message)?.[1]);
    expect(observed).toBeGreaterThan(1_048_576);
    expect(observed).toBeLessThanOrEqual(1_048_576 + 65_536);
    expect(message).not.toContain(apiKey);
    expect(server.requests()).toBe(1);
  });

  it('of a 200 is invalid_response, not V8’s "Cannot create a string longer than…"', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, json);
      response.write('{"id":"pay_');
      writeForever(response, 'x'.repeat(65_536));
    });
    const error = await clientOf(server)
      .payments.retrieve('pay_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('larger than the 4194304-byte limit');
  });

  it.each([
    ['the global fetch', undefined],
    // A fetch that ignores the signal once the headers are in: the SDK's own reading still stops.
    [
      'a fetch that ignores the signal',
      ((url: string, init: RequestInit) =>
        fetch(url, { ...init, signal: null })) as unknown as typeof fetch,
    ],
  ])(
    'that trickles ends at the timeout with a TimeoutError, with %s',
    async (_name, fetchOption) => {
      const server = await serve((_request, response) => {
        response.writeHead(200, json);
        response.write('{"id":"pay_1"');
        writeForever(response, ' ', 20);
      });
      const error = await clientOf(server, fetchOption ? { fetch: fetchOption } : {})
        .payments.retrieve('pay_1', { timeout: 300, maxRetries: 0 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toBe(
        'timeout: no complete response within 300 ms (attempt 1); the timeout option sets the limit',
      );
    },
    // The server trickles forever: a read the timeout did not stop never settles, and fails here
    // (an explicit bound, where a 3 s upper bound on the wall clock could fail on a loaded machine).
    30_000,
  );
});

describe('a 2xx body that is not the API’s', () => {
  it.each([
    ['null', 'null'],
    ['an array', '[{"id":"pay_1"}]'],
    ['a string', '"pay_1"'],
    ['a number', '42'],
    ['not JSON', '<html>ok</html>'],
  ])('is invalid_response when it is %s', async (_name, body) => {
    const server = await serve((_request, response) => response.writeHead(200, json).end(body));
    const error = await clientOf(server)
      .payments.retrieve('pay_1')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toBe(
      '200 invalid_response: the 2xx response body is not the JSON object the spec describes [request req_hostile]',
    );
  });

  it('still reads a body of exactly the limit', async () => {
    const payment = JSON.stringify({ id: 'pay_1', object: 'payment' });
    const body = payment.padEnd(1024, ' ');
    const server = await serve((_request, response) => response.writeHead(200, json).end(body));
    await expect(
      clientOf(server, { maxResponseBytes: 1024 }).payments.retrieve('pay_1'),
    ).resolves.toEqual({ id: 'pay_1', object: 'payment' });
  });
});
