// Debian's HAProxy in front of the fleet's mock instances: round robin, health-checked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pause } from '../http.js';
import { freePort } from './free-port.js';
import { findProgram, startProcess } from './processes.js';

/** One backend: a mock instance's port on 127.0.0.1. */
export interface Backend {
  name: string;
  port: number;
}

/**
 * The HAProxy configuration of a sandbox fleet: HTTP mode, each request balanced round robin over
 * the instances, an instance taken out after two failed health checks (`GET /_sandbox/health`,
 * every 500 ms, without a key: 503 while the instance's store does not serve) and back after one
 * good one. A request is retried on another
 * instance (up to 3 times) when its connection is refused (an instance that just died) and, if
 * replaying it is safe (a GET or HEAD, or a request with an `Idempotency-Key`), when the
 * connection closes with no answer (an instance killed or stopping while it held the request).
 * Without the retry, HAProxy closes the client's kept-alive connection with no answer.
 *
 * @example
 * haproxyConfig(8080, [{ name: 'mock1', port: 4011 }, { name: 'mock2', port: 4012 }]);
 */
export function haproxyConfig(port: number, backends: readonly Backend[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  retry-on conn-failure empty-response',
    '  option redispatch 1',
    'frontend sandbox',
    `  bind 127.0.0.1:${port}`,
    '  http-request disable-l7-retry unless METH_GET || { req.hdr(idempotency-key) -m found }',
    '  default_backend mocks',
    'backend mocks',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /_sandbox/health ver HTTP/1.1 hdr Host 127.0.0.1',
    '  http-check expect status 200',
    ...backends.map(
      (backend) =>
        `  server ${backend.name} 127.0.0.1:${backend.port} check inter 500ms fall 2 rise 1`,
    ),
    '',
  ].join('\n');
}

/** A running HAProxy. */
export interface Balancer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Resolves once `predicate` holds for what HAProxy printed (servers going DOWN and UP). */
  untilOutput(predicate: (output: string) => boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts HAProxy (in the foreground, `-db`) with `haproxyConfig` on a free port.
 *
 * @example
 * const balancer = await startHaproxy([{ name: 'mock1', port: a.port }, { name: 'mock2', port: b.port }]);
 */
export async function startHaproxy(backends: readonly Backend[]): Promise<Balancer> {
  const program = findProgram('haproxy');
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'fleet-haproxy-'));
  const config = join(directory, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, backends));
  // -V prints the polling mechanism as the event loop starts, which can be before its listener
  // accepts connections (the first requests of a run were refused): wait until one connects.
  const process = await startProcess(
    program,
    ['-f', config, '-db', '-V'],
    /Using \w+\(\) as the polling mechanism/,
  );
  try {
    await untilAccepting(port, () => process.alive());
  } catch (error) {
    await process.stop();
    rmSync(directory, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}:\n${process.output()}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    untilOutput: (predicate) => process.untilOutput(predicate),
    async stop() {
      await process.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** How long HAProxy may take to accept connections once it started. */
const ACCEPT_TIMEOUT_MS = 15_000;

/** Resolves once a TCP connection to 127.0.0.1:`port` succeeds; rejects if `alive` turns false or 15 s pass. */
async function untilAccepting(port: number, alive: () => boolean): Promise<void> {
  const deadline = performance.now() + ACCEPT_TIMEOUT_MS;
  for (;;) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) return;
    if (!alive()) throw new Error('HAProxy exited before it accepted connections');
    if (performance.now() > deadline) {
      throw new Error(
        `HAProxy did not accept connections on port ${port} within ${ACCEPT_TIMEOUT_MS} ms`,
      );
    }
    await pause(20);
  }
}
