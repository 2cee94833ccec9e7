// Round two of the attacks (issue 23): amplifying bodies, readers that never read, a latency lock, hanging receivers over many keys, a neighbour's latency.
import { DEFAULT_MAX_BODY_BYTES as MAX_BODY_BYTES } from '@payment-service/mock';
import { createChanges } from '../changes.js';
import { call, count, newTally, paymentBody, pool, type Tally } from '../http.js';
import { type HeldSockets, socketsTo } from './sockets.js';

/**
 * The two bodies that made the sandbox answer megabytes: a webhook endpoint whose `events` hold
 * thousands of distinct strings (~54 KB), and a create with thousands of unknown members (just
 * under 64 KiB).
 *
 * @example
 * const { events, unknownMembers } = amplifyingBodies();
 * events.length; // ~54,000
 */
export function amplifyingBodies(): { events: string; unknownMembers: string } {
  const events: string[] = [];
  for (let index = 0; events.join('","').length < 53_000; index++) events.push(`e${index}`);
  const create: Record<string, unknown> = paymentBody();
  let size = JSON.stringify(create).length;
  for (let index = 0; ; index++) {
    const member = `,"u${index}":${index}`;
    if (size + member.length >= MAX_BODY_BYTES) break;
    create[`u${index}`] = index;
    size += member.length;
  }
  return {
    events: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events }),
    unknownMembers: JSON.stringify(create),
  };
}

/**
 * A raw HTTP/1.1 POST of a JSON body, for sockets that send it and never read the answer.
 *
 * @example
 * rawPost('/v1/payments', key, body, { 'Idempotency-Key': 'k1' });
 */
export function rawPost(
  path: string,
  key: string,
  body: string,
  headers: Record<string, string> = {},
): string {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n${extra}` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Opens `sockets` connections that each send `request` once and never read the answer.
 *
 * @example
 * const held = await sendWithoutReading(port, rawPost('/v1/payments', key, body), 150);
 * held.close();
 */
export async function sendWithoutReading(
  port: number,
  request: string,
  sockets: number,
): Promise<HeldSockets> {
  const { held, open } = socketsTo(port);
  for (let index = 0; index < sockets; index++) (await open({ paused: true })).write(request);
  return held;
}

/** A latency lock: the connections it holds, and the answers that came back while it held. */
export interface LatencyLock {
  /** Status (and code) of every answer received so far. */
  answered: Tally;
  /** Resolves once `count` answers came back. */
  untilAnswered(count: number): Promise<void>;
  close(): void;
}

/**
 * Arms `latency_ms` on `key` and sends one create on each of `connections` fresh connections
 * (each with its own Idempotency-Key), as a client that wants to hold the server would.
 *
 * @example
 * const lock = await holdWithLatency(url, port, key, { connections: 1000, latencyMs: 60_000 });
 * await lock.untilAnswered(984); // every request beyond the key's cap is refused at once
 * lock.close();
 */
export async function holdWithLatency(
  baseUrl: string,
  port: number,
  key: string,
  size: { connections: number; latencyMs: number },
): Promise<LatencyLock> {
  await call(baseUrl, {
    method: 'PUT',
    path: '/_sandbox/faults',
    key,
    body: { latency_ms: size.latencyMs },
  });
  const answered = newTally();
  let answers = 0;
  const changes = createChanges();
  const { held, open } = socketsTo(port);
  const body = JSON.stringify(paymentBody());
  await pool(size.connections, 50, async (index) => {
    const socket = await open({ paused: false });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      if (text.startsWith('HTTP/')) return;
      text += chunk.toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status === null) return;
      const code = /"code":"([a-z_]+)"/.exec(text)?.[1];
      count(answered, {
        status: Number(status[1]),
        headers: {},
        text,
        json: code === undefined ? undefined : { code },
      });
      answers++;
      changes.notify();
    });
    socket.write(rawPost('/v1/payments', key, body, { 'Idempotency-Key': `lock-${index}` }));
  });
  return {
    answered,
    untilAnswered: (wanted) => changes.until(() => answers >= wanted),
    close: () => held.close(),
  };
}

/**
 * Registers an endpoint at `receiverUrl` for each of `keys` keys and makes `paymentsPerKey`
 * payments on each, so every key has webhook attempts into that receiver.
 *
 * @example
 * await webhooksOverKeys(url, 'sk_test_hang_', hanging.url, { keys: 8, paymentsPerKey: 12 });
 */
export async function webhooksOverKeys(
  baseUrl: string,
  keyPrefix: string,
  receiverUrl: string,
  size: { keys: number; paymentsPerKey: number },
): Promise<Tally> {
  const tally = newTally();
  for (let index = 0; index < size.keys; index++) {
    const key = `${keyPrefix}${String(index).padStart(4, '0')}`;
    const endpoint = { path: '/v1/webhook_endpoints', key, body: { url: receiverUrl } };
    count(tally, await call(baseUrl, endpoint));
    await pool(size.paymentsPerKey, 4, async () => {
      count(tally, await call(baseUrl, { path: '/v1/payments', key, body: paymentBody() }));
    });
  }
  return tally;
}

/**
 * The median time, in ms, of `samples` lists of a neighbour key, one after another: what a
 * well-behaved client feels while an attack runs (compare it with the same read on a quiet
 * server), and how many of them did not answer 200.
 *
 * @example
 * const quiet = await neighbourLatency(url, 'sk_test_neighbour_01', 20);
 */
export async function neighbourLatency(
  baseUrl: string,
  key: string,
  samples: number,
): Promise<{ medianMs: number; failures: number }> {
  const times: number[] = [];
  let failures = 0;
  for (let index = 0; index < samples; index++) {
    const started = performance.now();
    const answer = await call(baseUrl, { path: '/v1/payments?limit=10', key });
    times.push(performance.now() - started);
    if (answer.status !== 200) failures++;
  }
  times.sort((a, b) => a - b);
  return { medianMs: times[Math.floor(times.length / 2)] ?? Number.NaN, failures };
}
