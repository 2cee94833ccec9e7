// Debian's HAProxy in front of the fleet's mock instances: round robin, health-checked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * every 500 ms, without a key: 503 while the instance's store does not serve) and back after one good one, and a request retried on another instance when its
 * connection is refused (an instance that just died).
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
    '  retries 2',
    '  option redispatch',
    'frontend sandbox',
    `  bind 127.0.0.1:${port}`,
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
  // -V prints the polling mechanism once the listeners are bound, as the event loop starts.
  const process = await startProcess(
    program,
    ['-f', config, '-db', '-V'],
    /Using \w+\(\) as the polling mechanism/,
  );
  return {
    url: `http://127.0.0.1:${port}`,
    untilOutput: (predicate) => process.untilOutput(predicate),
    async stop() {
      await process.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
