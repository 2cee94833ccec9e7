// The sandbox's health as a load balancer asks for it, without a key: 200 while it serves, 503 store_unavailable while its store cannot (a Valkey/Redis nothing answers at), each as the spec declares.
import { createResponseValidator } from '@payment-service/contract/toolkit';
import { createMockServer, type MockServer } from '@payment-service/mock';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createRecordingFetch } from '../recording-fetch.js';

const validator = createResponseValidator();

/** GET /_sandbox/health with no Authorization header, checked against the spec and recorded. */
async function health(mock: MockServer) {
  const recording = createRecordingFetch((request) => mock.fetch(request), validator, {
    target: 'in-process',
    recordDir: inject('recordDir'),
  });
  const response = await recording.fetch('http://mock.local/_sandbox/health');
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    violations: recording.takeViolations(),
  };
}

describe('GET /_sandbox/health without a key', () => {
  const serving = createMockServer();
  // Nothing listens on port 1 of loopback: the store never answers.
  const storeless = createMockServer({ redisUrl: 'redis://127.0.0.1:1', logger: () => {} });
  afterAll(() => {
    serving.close();
    storeless.close();
  });

  it('answers 200 and the version while the sandbox serves', async () => {
    const answer = await health(serving);
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'sandbox_health', status: 'ok' });
  });

  it('answers 503 store_unavailable while its store cannot serve, saying nothing of where it is', async () => {
    const answer = await health(storeless);
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'store_unavailable', status: 503 });
    expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
  });
});
