// The CLI on --redis-url with its stdout and stderr piped, started from a plain environment (a CI step, a supervisor): it loads the store's client and serves.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, paymentBody } from '../http.js';
import { MOCK_CLI } from '../sandbox.js';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { tiedToSpawner } from './tied-child.js';

let redis: RedisServer;
let child: ChildProcess | undefined;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
});

describe('payment-service-mock --redis-url with piped output', () => {
  it('loads ioredis and serves (a plain fstat of a pipe at start broke module loading on Node 20)', async () => {
    // Only PATH and HOME, as from a plain shell: what a test runner adds to the environment
    // changed what the process did at start, and hid the failure.
    const { PATH, HOME } = process.env;
    child = spawn(
      ...tiedToSpawner(process.execPath, [MOCK_CLI, '--port', '0', '--redis-url', redis.url]),
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH, HOME },
      },
    );
    let output = '';
    const started = new Promise<string>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const url = /Base URL:\s+(http:\/\/\S+)/.exec(output)?.[1];
        if (url !== undefined) resolve(url);
      };
      child?.stdout?.on('data', collect);
      child?.stderr?.on('data', collect);
      child?.once('exit', () => reject(new Error(`the CLI exited before listening:\n${output}`)));
    });
    const url = await started;
    const created = await call(url, {
      method: 'POST',
      path: '/v1/payments',
      key: `sk_test_piped_${process.pid}`,
      body: paymentBody(1000),
    });
    expect(created.status).toBe(201);
    expect(output).not.toContain('Cannot find module');
  });
});
