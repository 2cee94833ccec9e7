import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxControls } from '../controls.js';
import { type RunningMockServer, startMockServer } from './node-server.js';

const KEY = 'sk_test_over_http_0001';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const createBody = JSON.stringify({
  amount: 2500,
  currency: 'RUB',
  payment_method: { type: 'token', token: 'tok_test_success' },
});

describe('startMockServer', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves a create over HTTP on an ephemeral port', async () => {
    const lines: string[] = [];
    server = await startMockServer({ port: 0, logger: (line) => lines.push(line) });
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers,
      body: createBody,
    });
    expect(response.status).toBe(201);
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ status: 'SUCCEEDED', amount: 2500 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`POST /v1/payments 201`);
    expect(lines[0]).toContain(requestId);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('treats a POST with neither Content-Type nor Content-Length (curl -X POST) as having no body', async () => {
    server = await startMockServer({ port: 0 });
    const created = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers,
      body: createBody.replace('"RUB"', '"RUB","capture":false'),
    });
    const { id } = (await created.json()) as { id: string };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect((server as RunningMockServer).port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
      socket.end(
        `POST /v1/payments/${id}/cancel HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
      );
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain('"status":"CANCELED"');
  });

  it('drops the connection after commit over HTTP; the payment exists afterwards', async () => {
    server = await startMockServer({ port: 0 });
    const controls = createSandboxControls({ baseUrl: server.url, apiKey: KEY });
    await controls.setFaults({ drop_after_commit: { count: 1 } });

    const outcome = await new Promise<string>((resolve) => {
      const request = httpRequest(`${server?.url}/v1/payments`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': 'drop-1' },
      });
      request.on('response', (response) => resolve(`response ${response.statusCode}`));
      request.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      request.end(createBody);
    });
    expect(outcome).toMatch(/^error /);

    const list = await fetch(`${server.url}/v1/payments`, { headers });
    const page = (await list.json()) as { data: { amount: number }[] };
    expect(page.data).toHaveLength(1);
    expect(page.data[0]?.amount).toBe(2500);

    // Retrying with the same key replays the committed payment.
    const retry = await fetch(`${server.url}/v1/payments`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'drop-1' },
      body: createBody,
    });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { id: string }).id).toBe(
      (page.data[0] as unknown as { id: string }).id,
    );
  });
});

/** Sends raw HTTP/1.1 and resolves with the whole answer (the request asks to close). */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the names a sandbox answers (DNS rebinding)', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const request = (target: string, host: string, accept = 'application/json') =>
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`;

  it.each([
    ['the API, with Host attacker.example', request('/v1/payments', 'attacker.example:4010')],
    ['the console, with Host attacker.example', request('/', 'attacker.example', 'text/html')],
    [
      'an absolute-form target naming attacker.example',
      request('http://attacker.example/v1/payments', '127.0.0.1'),
    ],
    ['a private address in Host', request('/v1/payments', '192.168.1.20')],
    [
      'an absolute-form target with credentials before attacker.example',
      request('http://localhost@attacker.example/v1/payments', 'localhost'),
    ],
  ])('refuses %s with a problem+json 421 on a loopback server', async (_name, raw) => {
    server = await startMockServer({ port: 0 });
    const answer = await rawExchange(server.port, raw);
    expect(answer).toMatch(/^HTTP\/1\.1 421 /);
    expect(answer).toMatch(/content-type: application\/problem\+json/i);
    expect(answer).toMatch(/request-id: req_/i);
    expect(answer).toContain('"code":"host_not_allowed"');
    expect(answer).toContain('--allowed-hosts');
    expect(answer).not.toContain('"object":"list"');
  });

  it.each(['localhost:4010', '127.0.0.1', '[::1]:4010', 'app.localhost'])(
    'serves the loopback name %s',
    async (host) => {
      server = await startMockServer({ port: 0 });
      expect(await rawExchange(server.port, request('/v1/payments', host))).toMatch(
        /^HTTP\/1\.1 200 /,
      );
    },
  );

  it('serves the names allowedHosts lists', async () => {
    server = await startMockServer({ port: 0, allowedHosts: ['sandbox.test', '.ci.test'] });
    for (const host of ['sandbox.test', 'runner.ci.test']) {
      expect(await rawExchange(server.port, request('/v1/payments', host))).toMatch(
        /^HTTP\/1\.1 200 /,
      );
    }
    expect(await rawExchange(server.port, request('/v1/payments', 'other.test'))).toMatch(
      /^HTTP\/1\.1 421 /,
    );
  });

  it('checks every name after a served one: a new Host, and an absolute target under a served Host', async () => {
    server = await startMockServer({ port: 0 });
    const port = server.port;
    expect(await rawExchange(port, request('/v1/payments', '127.0.0.1'))).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    expect(await rawExchange(port, request('/v1/payments', 'attacker.example'))).toMatch(
      /^HTTP\/1\.1 421 /,
    );
    expect(
      await rawExchange(port, request('http://attacker.example/v1/payments', '127.0.0.1')),
    ).toMatch(/^HTTP\/1\.1 421 /);
    expect(await rawExchange(port, request('/v1/payments', '127.0.0.1'))).toMatch(
      /^HTTP\/1\.1 200 /,
    );
  });
});

describe('framing and Host edges (issue 31)', () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers an empty Host with a problem+json 400 naming Host, not a 200', async () => {
    server = await startMockServer({ port: 0 });
    const answer = await rawExchange(
      server.port,
      `GET /v1/payments HTTP/1.1\r\nHost: \r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/request-id: req_/i);
    expect(answer).toContain('"param":"Host"');
    expect(answer).not.toContain('"object":"list"');
  });

  it.each(['xchunked', 'gzip', 'identity'])(
    'answers Transfer-Encoding: %s with a 400 problem before closing the connection',
    async (coding) => {
      server = await startMockServer({ port: 0 });
      // Before: the connection closed with no answer at all.
      const answer = await rawExchange(
        server.port,
        `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: ${coding}\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/connection: close/i);
      expect(answer).toContain('"param":"Transfer-Encoding"');
      expect(answer).toContain('"code":"invalid_request"');
    },
  );

  it('still reads a chunked body', async () => {
    server = await startMockServer({ port: 0 });
    const body = createBody;
    const answer = await rawExchange(
      server.port,
      `POST /v1/payments HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: chunked-1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  });
});

describe("webhook endpoints on the sandbox's own machine", () => {
  let server: RunningMockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const register = (url: string) =>
    fetch(`${server?.url}/v1/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url }),
    });

  it('are accepted on a loopback server', async () => {
    server = await startMockServer({ port: 0 });
    expect((await register('http://127.0.0.1:9/hook')).status).toBe(201);
  });

  it('are refused, naming url and the rule, when loopback webhooks are off (a network --host)', async () => {
    server = await startMockServer({ port: 0, allowLoopbackWebhookUrls: false });
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
      'http://[::7f00:1]/',
    ]) {
      const response = await register(url);
      expect(response.status, url).toBe(400);
      const problem = await response.json();
      expect(JSON.stringify(problem.errors ?? problem), url).toMatch(/"param":"url"/);
      expect(JSON.stringify(problem), url).toContain("this machine's loopback");
    }
    expect((await register('https://hooks.example.com/payments')).status).toBe(201);
  });
});
