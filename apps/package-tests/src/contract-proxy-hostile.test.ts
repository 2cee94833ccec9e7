// Issue 40, from the packed tarballs in a fresh project: the installed proxy refuses an sk_live_ key in every form a server would decode and forwards nothing of it, refuses a path that leaves the target's base path, answers 504 when the target does not answer in time, and its recording keeps no sk_test_ key in any form.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Run, type RunningProxy, startProxy } from './contract-command.js';
import { sharedProject } from './shared-project.js';
import { waitForFile } from './wait-for-file.js';

const basic = (text: string) => Buffer.from(text).toString('base64');

/** Each form of a live key issue 40 found forwarded: path, headers, body. */
const LIVE: Array<[string, string, Record<string, string>, string | undefined]> = [
  ['percent-encoded in the query', '/v1/payments?key=sk%5Flive_packed0001', {}, undefined],
  ['percent-encoded in a path segment', '/v1/%73k_live_packed0001', {}, undefined],
  [
    'in Basic credentials with text after them',
    '/v1/payments',
    { authorization: `Basic ${basic('sk_live_packed0001:')} extra` },
    undefined,
  ],
  ['in X-Api-Key', '/v1/payments', { 'x-api-key': 'sk_live_packed0001' }, undefined],
  ['in a cookie', '/v1/payments', { cookie: 'key=sk_live_packed0001' }, undefined],
  ['in a JSON body', '/v1/payments', {}, '{"key":"sk_live_packed0001"}'],
  ['JSON-escaped in a body', '/v1/payments', {}, '{"key":"sk\\u005flive_packed0001"}'],
];

/** Paths that climb above the base: sent raw, as fetch would resolve the dots itself. */
const CLIMBING = ['/../../etc/passwd', '/v1/%2e%2e/%2e%2e/etc/passwd', '/v1/..%5c..%5cetc/passwd'];

/** A raw HTTP/1.1 GET over a socket; resolves with the status line. */
function rawGet(url: string, path: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the installed proxy against hostile requests', () => {
  let project: string;
  let target: Server;
  let proxy: RunningProxy;
  let run: Run;
  let har: string;
  /** Everything the target received: request lines, headers and bodies. */
  const received: string[] = [];
  const answers: Array<{ status: number; type: string | null; code: string }> = [];
  const climbed: string[] = [];
  let timedOut: { status: number; type: string | null; body: string };

  beforeAll(async () => {
    project = await sharedProject('kit', inject('tarballs'), inject('registry'));
    target = createServer((request, response) => {
      // An endpoint that never answers: the proxy's --upstream-timeout ends the wait.
      if (request.url?.endsWith('/v1/slow')) return;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(
          `${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${Buffer.concat(chunks).toString('latin1')}`,
        );
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    proxy = await startProxy(project, [
      '--target',
      `${url}/base`,
      '--record',
      'hostile.har',
      '--upstream-timeout',
      '1500',
    ]);
    for (const path of CLIMBING) climbed.push(await rawGet(proxy.url, path));
    for (const [, path, headers, body] of LIVE) {
      const answer = await fetch(`${proxy.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...headers,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      });
      const problem = (await answer.json()) as { code: string };
      answers.push({
        status: answer.status,
        type: answer.headers.get('content-type'),
        code: problem.code,
      });
    }
    // The same forms with a test key are forwarded, and recorded masked.
    const sent = await fetch(`${proxy.url}/v1/payments?k=sk%5Ftest%5Fharsecret%5F0001`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_harsecret.0001!xyz',
        'content-type': 'application/json',
      },
      body: '{"note":"sk\\u005ftest_harsecret_0002"}',
    });
    answers.push({ status: sent.status, type: sent.headers.get('content-type'), code: '' });
    await sent.arrayBuffer();
    const slow = await fetch(`${proxy.url}/v1/slow`, {
      headers: { authorization: 'Bearer sk_test_slow_0001' },
    });
    timedOut = {
      status: slow.status,
      type: slow.headers.get('content-type'),
      body: await slow.text(),
    };
    run = await proxy.stop('proxy');
    har = await waitForFile(join(project, 'hostile.har'));
  });
  afterAll(async () => {
    await new Promise((resolve) => target?.close(resolve));
  });

  it.each(LIVE.map(([form], index) => [form, index] as const))(
    'refuses an sk_live_ key %s with a 403 problem',
    (_form, index) => {
      expect(answers[index]).toEqual({
        status: 403,
        type: 'application/problem+json',
        code: 'live_key_refused',
      });
    },
  );

  it.each(CLIMBING.map((path, index) => [path, index] as const))(
    'refuses %s, which leaves the base path, with a 400 problem',
    (_path, index) => {
      expect(climbed[index]).toMatch(/^HTTP\/1\.1 400 /);
      expect(climbed[index]).toContain('path_outside_base');
    },
  );

  it('forwarded nothing of a live key or a climbing path, and the test-key request once, under the base', () => {
    expect(received).toHaveLength(1);
    expect(received[0]).toMatch(/^POST \/base\/v1\/payments\?/);
    expect(received.join('\n')).not.toMatch(/sk_live_|sk%5Flive|%73k_live|c2tfbGl2ZV/);
    expect(answers.at(-1)?.status).toBe(200);
  });

  it('answers 504 problem+json once --upstream-timeout has passed without an answer', () => {
    expect(timedOut).toMatchObject({ status: 504, type: 'application/problem+json' });
    expect(JSON.parse(timedOut.body)).toMatchObject({ code: 'target_timeout' });
    expect(timedOut.body).toContain('1500 ms');
  });

  it('recorded no test key in any form, and counts the refused ones', () => {
    expect(har).not.toContain('harsecret');
    const entry = JSON.parse(har).log.entries[0];
    expect(entry.request.url).toContain('k=sk_test_…');
    expect(entry.request.postData.text).toBe('{"note":"sk_test_…"}');
    expect(JSON.parse(har).log.entries).toHaveLength(2);
    expect(run.stdout).toContain(`${LIVE.length} requests refused for an sk_live_ key`);
  });
});
