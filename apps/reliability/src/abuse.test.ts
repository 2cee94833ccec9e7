// Round two (issue 23): each attack on its own CLI. Answers and CPU bounded, slow readers cut, no key
// holding the server or the delivery slots, nothing answered for another Host, nothing sent beyond
// this machine's networks, a client gone mid-body shown as such.
import { Agent } from 'node:http';
import { MAX_PROBLEM_BYTES } from '@payment-service/mock';
import { afterEach, describe, expect, it } from 'vitest';
import {
  amplifyingBodies,
  holdWithLatency,
  neighbourLatency,
  rawPost,
  sendWithoutReading,
  webhooksOverKeys,
} from './attacks/abuse.js';
import { type HeldSockets, parseRawAnswer, rawExchange } from './attacks/sockets.js';
import { call, paymentBody, pool } from './http.js';
import { PROCESS_RSS_LIMIT_MIB } from './memory.js';
import { type Receiver, startReceiver } from './receiver.js';
import { type Sandbox, startSandbox } from './sandbox.js';

const NEIGHBOUR = 'sk_test_reliability_neighbour';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(flags: string[] = ['--quiet']): Promise<Sandbox> {
  const started = await startSandbox(flags);
  cleanups.push(() => started.stop());
  return started;
}

async function receiver(mode: 'answer' | 'hang'): Promise<Receiver> {
  const started = await startReceiver(mode);
  cleanups.push(() => started.close());
  return started;
}

function hold(held: HeldSockets): HeldSockets {
  cleanups.push(() => held.close());
  return held;
}

describe('error-list amplification', () => {
  it('answers each amplifying body with one bounded problem, and a neighbour still reads', async () => {
    const { url } = await sandbox();
    const { events, unknownMembers } = amplifyingBodies();
    const endpoint = await call(url, {
      path: '/v1/webhook_endpoints',
      key: 'sk_test_reliability_amplify',
      body: events,
    });
    expect(endpoint.status).toBe(400);
    expect(Buffer.byteLength(endpoint.text)).toBeLessThanOrEqual(MAX_PROBLEM_BYTES);
    expect(endpoint.json).toMatchObject({
      code: 'invalid_request',
      errors: [expect.objectContaining({ code: 'max_values' })],
    });
    const create = await call(url, {
      path: '/v1/payments',
      key: 'sk_test_reliability_amplify',
      body: unknownMembers,
    });
    expect(create.status).toBe(400);
    expect(Buffer.byteLength(create.text)).toBeLessThanOrEqual(MAX_PROBLEM_BYTES);

    // Four keys send them in loops while a neighbour lists its payments.
    let loops = true;
    const attackers = [0, 1, 2, 3].map(async (index) => {
      const key = `sk_test_reliability_amplify_${index}`;
      let sent = 0;
      while (loops) {
        const path = index % 2 === 0 ? '/v1/webhook_endpoints' : '/v1/payments';
        const answer = await call(url, {
          path,
          key,
          body: index % 2 === 0 ? events : unknownMembers,
        });
        expect(answer.status).toBe(400);
        sent++;
      }
      return sent;
    });
    const neighbour = await neighbourLatency(url, NEIGHBOUR, 30);
    loops = false;
    expect((await Promise.all(attackers)).every((sent) => sent > 0)).toBe(true);
    expect(neighbour.failures).toBe(0);
  });

  it('stays alive under its memory budget with 150 sockets that send them and never read', async () => {
    const started = await sandbox();
    const { events, unknownMembers } = amplifyingBodies();
    const key = 'sk_test_reliability_nonreader';
    hold(await sendWithoutReading(started.port, rawPost('/v1/webhook_endpoints', key, events), 75));
    hold(await sendWithoutReading(started.port, rawPost('/v1/payments', key, unknownMembers), 75));
    // A new client on a new connection: the test process's pooled keep-alive socket (the fault's
    // PUT) was idle the longest, so the full server rightly gave its slot away.
    const create = await call(started.url, {
      path: '/v1/payments',
      key: NEIGHBOUR,
      body: paymentBody(),
      agent: new Agent({ keepAlive: false }),
    });
    expect(create.status, create.text).toBe(201);
    expect(started.alive()).toBe(true);
    expect(started.peakRssMiB()).toBeLessThan(PROCESS_RSS_LIMIT_MIB);
  });
});

describe('a latency fault cannot lock everyone out', () => {
  it("answers another client's create while one key holds 1,000 delayed requests", async () => {
    const started = await sandbox();
    const lock = await holdWithLatency(started.url, started.port, 'sk_test_reliability_lock', {
      connections: 1000,
      latencyMs: 60_000,
    });
    cleanups.push(() => lock.close());
    // Beyond the key's 16 held requests, each is refused at once with a Retry-After.
    await lock.untilAnswered(1000 - 16);
    expect(lock.answered.byStatus).toEqual({ 429: 1000 - 16 });
    // A new client on a new connection: the test process's pooled keep-alive socket (the fault's
    // PUT) was idle the longest, so the full server rightly gave its slot away.
    const create = await call(started.url, {
      path: '/v1/payments',
      key: NEIGHBOUR,
      body: paymentBody(),
      agent: new Agent({ keepAlive: false }),
    });
    expect(create.status, create.text).toBe(201);
    expect(started.alive()).toBe(true);
  });
});

describe('delivery slots are shared fairly', () => {
  it("delivers a victim's webhook while eight keys' receivers hang every shared slot", async () => {
    const { url } = await sandbox();
    const hanging = await receiver('hang');
    const answering = await receiver('answer');
    const tally = await webhooksOverKeys(url, 'sk_test_reliability_starve_', hanging.url, {
      keys: 8,
      paymentsPerKey: 12,
    });
    expect(tally.byStatus).toEqual({ 201: 8 + 8 * 12 });
    await hanging.until(() => hanging.received.length >= 32);
    const victim = 'sk_test_reliability_starve_victim';
    await call(url, { path: '/v1/webhook_endpoints', key: victim, body: { url: answering.url } });
    const payment = await call(url, { path: '/v1/payments', key: victim, body: paymentBody() });
    expect(payment.status).toBe(201);
    await answering.waitFor(String(payment.json?.id));
    // It came while every hanging attempt still hung: the victim waited for no timeout.
    expect(hanging.abandoned).toBe(0);
  });
});

describe('localhost stays localhost', () => {
  it('answers no API call and no console page addressed to another Host', async () => {
    const { port } = await sandbox();
    for (const [target, accept] of [
      ['/v1/payments', 'application/json'],
      ['/', 'text/html'],
    ]) {
      const raw = await rawExchange(
        port,
        `GET ${target} HTTP/1.1\r\nHost: attacker.example:4010\r\nAuthorization: Bearer ${NEIGHBOUR}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`,
      );
      const answer = parseRawAnswer(raw);
      expect(answer.status, raw.slice(0, 200)).toBe(421);
      expect(answer.json?.code).toBe('host_not_allowed');
      expect(raw).not.toContain('<html');
    }
  });

  it('refuses webhook endpoints on metadata and private addresses, and never sends to them', async () => {
    const { url } = await sandbox();
    const key = 'sk_test_reliability_ssrf';
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://[::ffff:192.168.0.1]/',
      'http://2852039166/',
    ]) {
      const answer = await call(url, { path: '/v1/webhook_endpoints', key, body: { url: target } });
      expect(answer.status, target).toBe(400);
      expect(answer.json?.param).toBe('url');
    }
    const listed = await call(url, { path: '/v1/webhook_endpoints', key });
    expect(listed.json?.data).toEqual([]);
  });
});

describe('a client gone mid-body', () => {
  it('is logged as aborted and shown without a status, not as a 500', async () => {
    const started = await sandbox([]);
    const key = 'sk_test_reliability_aborted';
    const body = JSON.stringify(paymentBody());
    await rawExchange(
      started.port,
      rawPost('/v1/payments', key, body).slice(0, -10), // the body's last bytes never come
      300,
    );
    await started.untilOutput((output) => / POST \/v1\/payments aborted /.test(output));
    const inspector = await call(started.url, { path: '/_sandbox/inspector', key });
    const requests = inspector.json?.requests as Array<{ status: number | null; code: unknown }>;
    expect(requests[0]).toMatchObject({ status: null, code: null });
    expect(started.output()).not.toMatch(/ 500 internal_error /);
  });
});

describe('bounded per-request work', () => {
  it('answers many hostile bodies at once without a 5xx', async () => {
    const { url } = await sandbox();
    const { events, unknownMembers } = amplifyingBodies();
    const statuses = new Set<number>();
    await pool(200, 8, async (index) => {
      const answer = await call(url, {
        path: index % 2 === 0 ? '/v1/webhook_endpoints' : '/v1/payments',
        key: `sk_test_reliability_burst_${index % 8}`,
        body: index % 2 === 0 ? events : unknownMembers,
      });
      statuses.add(answer.status);
    });
    expect([...statuses]).toEqual([400]);
  });
});
