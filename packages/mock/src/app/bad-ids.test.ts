// The same bad ids, sent to a sandbox in memory, on a data directory and on Valkey/Redis: the same answers, and none reaches a store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { createMockServer, type MockServer } from './mock-server.js';

const CREATE = {
  amount: 1000,
  currency: 'KZT',
  capture: false,
  payment_method: { type: 'token', token: 'tok_test_success' },
};

let redis: TestRedis;
let directory: string;
const sandboxes: Record<string, MockServer> = {};

beforeAll(async () => {
  redis = await startTestRedis();
  directory = mkdtempSync(join(tmpdir(), 'bad-ids-'));
  sandboxes.memory = createMockServer({});
  sandboxes['data directory'] = createMockServer({ dataDir: directory });
  sandboxes.redis = createMockServer({ redisUrl: redis.url, redisPrefix: `ids${process.pid}:` });
  await Promise.all(Object.values(sandboxes).map((sandbox) => sandbox.ready()));
});

afterAll(async () => {
  for (const sandbox of Object.values(sandboxes)) sandbox.close();
  await redis?.stop();
  rmSync(directory, { recursive: true, force: true });
});

/** The bad forms of one real id: what a store must never be asked about. */
function badIds(real: string): string[] {
  return [
    `${real}%00m`,
    `${real}%00b`,
    `${real}%00s`,
    `${real}%00c`,
    `${real}%0A`,
    `${real}%7F`,
    `%00`,
    'x'.repeat(256),
  ];
}

async function answersOf(sandbox: MockServer): Promise<string[]> {
  const key = `sk_test_bad_ids_${process.pid}`;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await sandbox.fetch('/v1/payments', {
    method: 'POST',
    headers,
    body: JSON.stringify(CREATE),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const answers: string[] = [];
  for (const bad of badIds(id)) {
    for (const [method, path, body] of [
      ['GET', `/v1/payments/${bad}`],
      ['POST', `/v1/payments/${bad}/capture`, {}],
      ['POST', `/v1/payments/${bad}/cancel`, {}],
      ['POST', `/v1/payments/${bad}/refunds`, { amount: 1 }],
      ['DELETE', `/v1/webhook_endpoints/${bad}`],
      ['POST', `/_sandbox/events/${bad.replace(id, 'evt_1')}/redeliver`],
      ['GET', `/v1/payments?starting_after=${bad}`],
    ] as const) {
      const response = await sandbox.fetch(path, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const problem = (await response.json()) as { code: string; detail: string; errors?: unknown };
      answers.push(
        `${method} ${path.replace(id, '<id>')} → ${response.status} ${problem.code} ${problem.detail}`,
      );
    }
  }
  // The real id is still there, untouched.
  const read = await sandbox.fetch(`/v1/payments/${id}`, { headers });
  expect(read.status).toBe(200);
  return answers;
}

describe('an id of no possible form', () => {
  it('is answered 404 (400 as a list cursor) the same way by the three stores, never 500', async () => {
    const [memory, ...others] = await Promise.all(
      Object.values(sandboxes).map((sandbox) => answersOf(sandbox)),
    );
    for (const line of memory ?? []) expect(line).toMatch(/ → (404 not_found|400 invalid_request)/);
    for (const answers of others) expect(answers).toEqual(memory);
  });
});
