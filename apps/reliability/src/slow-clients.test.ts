// Attack 6: 300 sockets dribble their headers and 50 their bodies, a byte at a time; normal
// requests are answered meanwhile, and the server cuts the slow ones by its (short) timeouts.
import { afterAll, describe, expect, it } from 'vitest';
import { dribble, type HeldSockets } from './attacks/sockets.js';
import { call, paymentBody } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const SLOW_HEADERS = 300;
const SLOW_BODIES = 50;
const FLAGS = ['--quiet', '--headers-timeout', '2000', '--request-timeout', '4000'];

const fx = useSandbox(FLAGS);
const held: HeldSockets[] = [];
afterAll(() => {
  for (const sockets of held) sockets.close();
});

describe('slow clients', () => {
  it('answers normal requests while 350 clients dribble, and cuts the slow ones', {
    timeout: 20_000,
  }, async () => {
    const { url, port } = fx.sandbox;
    const key = 'sk_test_reliability_slow';
    const headers = await dribble(port, {
      sockets: SLOW_HEADERS,
      intervalMs: 500,
      part: 'headers',
    });
    const bodies = await dribble(port, {
      sockets: SLOW_BODIES,
      intervalMs: 500,
      part: 'body',
      key,
    });
    held.push(headers, bodies);
    // A hanging request fails this test by its timeout; no speed is asserted.
    for (let index = 0; index < 5; index++) {
      const answer = await call(url, {
        path: '/v1/payments',
        key,
        idempotencyKey: `n-${index}`,
        body: paymentBody(),
      });
      expect(answer.status).toBe(201);
    }
    expect((await call(url, { path: '/v1/payments?limit=5', key })).status).toBe(200);
    // The server ends every slow socket (well before this test's 20 s timeout fails it).
    await headers.untilClosedByServer(SLOW_HEADERS);
    await bodies.untilClosedByServer(SLOW_BODIES);
    expect(fx.sandbox.alive()).toBe(true);
    expect((await call(url, { path: '/v1/payments?limit=5', key })).status).toBe(200);
  });
});
