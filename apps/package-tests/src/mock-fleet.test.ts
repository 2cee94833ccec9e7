// Two `npx payment-service-mock --redis-url` from the packed tarballs, on one redis-server: ioredis installs with the mock and the instances answer as one sandbox.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { waitForUrl } from './cli-sandbox.js';
import { toolPath } from './pack.js';
import { sharedProject } from './shared-project.js';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function started(child: ChildProcess, ready: RegExp): Promise<() => string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const check = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (ready.test(text)) resolve(() => text);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before ready:\n${text}`)));
  });
}

describe('npx payment-service-mock --redis-url from the packed tarballs', () => {
  let project: string;
  let redis: ChildProcess;
  let redisPort: number;
  const instances: Array<{ child: ChildProcess; url: string; output: () => string }> = [];
  const key = 'sk_test_tarball_fleet_0001';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  beforeAll(async () => {
    project = await sharedProject('kit', inject('tarballs'), inject('registry'));
    const port = await freePort();
    redisPort = port;
    redis = spawn(
      ...tiedToSpawner(REDIS_SERVER, [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
      ]),
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    await started(redis, /Ready to accept connections/);
    for (let index = 0; index < 2; index++) {
      const child = spawn(
        ...tiedToSpawner('npx', [
          '--no-install',
          'payment-service-mock',
          '--port',
          '0',
          '--quiet',
          '--redis-url',
          `redis://:not-a-password@127.0.0.1:${port}`,
        ]),
        {
          cwd: project,
          env: { ...process.env, PATH: toolPath() },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let text = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      const url = await waitForUrl(child, () => text);
      instances.push({ child, url, output: () => text });
    }
  });

  afterAll(() => {
    for (const { child } of instances) child.kill('SIGTERM');
    redis?.kill('SIGKILL');
  });

  it('names the store in the banner without its password', () => {
    for (const { output } of instances) {
      expect(output()).toMatch(
        /Data: +on Valkey\/Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+, prefix psm:/,
      );
      expect(output()).not.toContain('not-a-password');
    }
  });

  it('captures on one instance a payment made on the other', async () => {
    const [first, second] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const created = await fetch(`${first.url}/v1/payments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        amount: 1000,
        currency: 'KZT',
        capture: false,
        payment_method: { type: 'token', token: 'tok_test_success' },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const captured = await fetch(`${second.url}/v1/payments/${id}/capture`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(captured.status).toBe(200);
    expect(((await captured.json()) as { status: string }).status).toBe('SUCCEEDED');
  });

  // The store's Lua ships inside the modules (generated from the .lua sources at build): both
  // builds of the tarball load it into the server, and load it again once the server lost it.
  it.each([
    [
      'CommonJS',
      'cjs',
      "const { startMockServer } = require('@payment-service/mock/node');\nconst Redis = require('ioredis');",
    ],
    [
      'ESM',
      'mjs',
      "import { startMockServer } from '@payment-service/mock/node';\nimport Redis from 'ioredis';",
    ],
  ])(
    "%s: runs the store's scripts from the tarball, and loads them again after SCRIPT FLUSH",
    async (_, extension, imports) => {
      const file = join(project, `redis-scripts-probe.${extension}`);
      await writeFile(
        file,
        `${imports}
const url = 'redis://127.0.0.1:${redisPort}';
const key = { authorization: 'Bearer sk_test_tarball_scripts_${extension}', 'content-type': 'application/json' };
async function main() {
  const admin = new Redis(url);
  const cached = async () => Number(/number_of_cached_scripts:(\\d+)/.exec(await admin.info('memory'))[1]);
  await admin.script('FLUSH');
  const server = await startMockServer({ port: 0, redisUrl: url, redisPrefix: 'probe-${extension}:' });
  const loaded = await cached();
  const created = await fetch(server.url + '/v1/payments', { method: 'POST', headers: key, body: JSON.stringify({ amount: 1000, currency: 'KZT', payment_method: { type: 'token', token: 'tok_test_success' } }) });
  const { id } = await created.json();
  await admin.script('FLUSH');
  const flushed = await cached();
  const retrieved = await fetch(server.url + '/v1/payments/' + id, { headers: key });
  const again = await retrieved.json();
  console.log(JSON.stringify({ loaded, created: created.status, flushed, retrieved: retrieved.status, same: again.id === id, reloaded: await cached() }));
  await server.close();
  await admin.quit();
}
main().catch((error) => { console.error(error); process.exit(1); });
`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: project });
      const probe = JSON.parse(stdout.trim().split('\n').pop() as string);
      // Every script loaded at start; the flush emptied the cache (the server's own background
      // work, its heartbeat and lease keeper, may load one of its scripts again before it is read:
      // at most a few); the retrieve's loaded again.
      expect(probe.loaded).toBeGreaterThanOrEqual(30);
      expect(probe).toMatchObject({ created: 201, retrieved: 200, same: true });
      expect(probe.flushed).toBeLessThanOrEqual(3);
      expect(probe.reloaded).toBeGreaterThanOrEqual(1);
      expect(probe.reloaded).toBeLessThan(probe.loaded);
    },
  );
});
