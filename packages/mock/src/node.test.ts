import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxControls } from './controls.js';
import { type RunningMockServer, startMockServer } from './node.js';

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
