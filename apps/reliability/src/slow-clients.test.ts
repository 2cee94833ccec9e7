// Attack 6: 300 sockets dribble their headers a byte at a time; normal requests are answered
// meanwhile, and the server cuts the slow ones by its (short) headers timeout.
import { afterAll, describe, expect, it } from 'vitest';
import { dribbleHeaders, type HeldSockets } from './attacks/sockets.js';
import { call, pause, paymentBody } from './http.js';
import { useSandbox } from './test-support/use-sandbox.js';

const SLOW_SOCKETS = 300;
const HEADERS_TIMEOUT_MS = 2000;
const FLAGS = [
  '--quiet',
  '--headers-timeout',
  String(HEADERS_TIMEOUT_MS),
  '--request-timeout',
  '4000',
];

const fx = useSandbox(FLAGS);
let slow: HeldSockets | undefined;
afterAll(() => slow?.close());

describe('slow clients', () => {
  it('answers normal requests while 300 clients dribble headers, and cuts the slow ones', {
    timeout: 20_000,
  }, async () => {
    const { url } = fx.sandbox;
    const key = 'sk_test_reliability_slow';
    slow = await dribbleHeaders(fx.sandbox.port, { sockets: SLOW_SOCKETS, intervalMs: 500 });
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
    const held = slow;
    while (held.closedByServer() < SLOW_SOCKETS) await pause(100);
    expect(held.closedByServer()).toBe(SLOW_SOCKETS);
    expect(fx.sandbox.alive()).toBe(true);
    expect((await call(url, { path: '/v1/payments?limit=5', key })).status).toBe(200);
  });
});
