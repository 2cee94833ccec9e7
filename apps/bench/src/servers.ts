// Starts and stops the measured servers as child processes: our mock's CLI, the floor, Prism.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BASELINE_MOCK_COMMIT, BEFORE_SEAM_MOCK_COMMIT } from './baseline-mock.js';
import { parseJson, sendRequest } from './http-client.js';
import { ownChild } from './owned.js';
import {
  CONTRACT_CLI,
  FLOOR_MAIN,
  FORWARD_FLOOR_MAIN,
  HONO_FLOOR_MAIN,
  MOCK_CLI,
  MOCK_CLI_NODE_FLAGS,
  SPEC_PATH,
} from './paths.js';
import { CREATE_BODY_TEXT, CREATE_HEADERS, isPaymentBody } from './payment-request.js';

/**
 * Which server: the raw floor, the Hono floor, our mock (default settings or --quiet), our mock
 * before its redesign or before the store seam, another build of our mock (a quick A/B,
 * `BENCH_PREVIOUS`), or Prism.
 */
export type ServerName =
  | 'floor'
  | 'hono-floor'
  | 'mock'
  | 'mock-quiet'
  | 'mock-data-dir'
  | 'mock-redis-1'
  | 'mock-redis-2'
  | 'mock-before'
  | 'mock-before-seam'
  | 'mock-previous'
  | 'contract-proxy'
  | 'forward-floor'
  | 'prism';

/** Human labels of the servers, for the report. */
export const SERVER_LABELS: Record<ServerName, string> = {
  floor: 'raw node:http floor',
  'hono-floor': 'Hono floor (the same answers from a bare Hono app on @hono/node-server)',
  mock: 'our mock (CLI, default settings: logs each request)',
  'mock-quiet': 'our mock (CLI, --quiet)',
  'mock-data-dir': 'our mock (CLI, --quiet, --data-dir)',
  'mock-redis-1': 'our mock (CLI, --quiet, --redis-url): one instance on redis-server',
  'mock-redis-2':
    'our mock (CLI, --quiet, --redis-url): two instances on one redis-server behind HAProxy (round robin)',
  'mock-before': `our mock before the redesign (${BASELINE_MOCK_COMMIT}, CLI, default settings)`,
  'mock-before-seam': `our mock before the store seam (${BEFORE_SEAM_MOCK_COMMIT}, CLI, default settings)`,
  'mock-previous': 'our mock as built at $BENCH_PREVIOUS (CLI, default settings; quick A/B)',
  'contract-proxy':
    'the contract proxy (payment-service-contract proxy) in front of our mock (--quiet)',
  'forward-floor':
    'the forwarding floor (a bare node:http proxy: pipes each request and answer, no checking) in front of our mock (--quiet)',
  prism: 'Prism 5.14 on our spec',
};

/** How to start one server on a port. */
export interface ServerCommand {
  name: ServerName;
  /** node arguments (the node binary is process.execPath). */
  args(port: number): string[];
}

/** A server process listening on 127.0.0.1. */
export interface RunningServer {
  name: ServerName;
  url: string;
  pid: number;
  child: ChildProcess;
  /** Where the server's stdout and stderr go (its request log, for the mock and Prism). */
  logFile: string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** The entries of the servers installed on demand. */
export interface OnDemandEntries {
  /** Prism's CLI script. */
  prism?: string;
  /** The pre-redesign mock's CLI script. */
  mockBefore?: string;
  /** The CLI script of the mock before the store seam. */
  mockBeforeSeam?: string;
  /** Another build's CLI script, for a quick A/B (`BENCH_PREVIOUS`). */
  mockPrevious?: string;
  /** The data directory of `mock-data-dir`. */
  dataDir?: string;
  /** The `--redis-url` of `mock-redis-1` and `mock-redis-2`. */
  redisUrl?: string;
  /** The URL `contract-proxy` forwards to. */
  proxyTarget?: string;
}

/**
 * The start command of each server; Prism and the pre-redesign mock need their entries.
 *
 * @example
 * serverCommand('mock').args(4010); // ['--max-old-space-size=384', '…/packages/mock/bin/payment-service-mock.js', '--port', '4010']
 */
export function serverCommand(name: ServerName, entries: OnDemandEntries = {}): ServerCommand {
  switch (name) {
    case 'floor':
      return { name, args: (port) => [FLOOR_MAIN, String(port)] };
    case 'hono-floor':
      return { name, args: (port) => [HONO_FLOOR_MAIN, String(port)] };
    case 'mock':
      return { name, args: (port) => [...MOCK_CLI_NODE_FLAGS, MOCK_CLI, '--port', String(port)] };
    case 'mock-quiet':
      return {
        name,
        args: (port) => [...MOCK_CLI_NODE_FLAGS, MOCK_CLI, '--port', String(port), '--quiet'],
      };
    case 'mock-data-dir': {
      const dataDir = entries.dataDir;
      if (dataDir === undefined) throw new Error('mock-data-dir needs a data directory.');
      return {
        name,
        args: (port) => [
          ...MOCK_CLI_NODE_FLAGS,
          MOCK_CLI,
          '--port',
          String(port),
          '--quiet',
          '--data-dir',
          dataDir,
        ],
      };
    }
    case 'mock-redis-1':
    case 'mock-redis-2': {
      const redisUrl = entries.redisUrl;
      if (redisUrl === undefined) throw new Error(`${name} needs a redis URL.`);
      return {
        name,
        args: (port) => [
          ...MOCK_CLI_NODE_FLAGS,
          MOCK_CLI,
          '--port',
          String(port),
          '--quiet',
          '--redis-url',
          redisUrl,
        ],
      };
    }
    case 'mock-before': {
      const entry = entries.mockBefore;
      if (entry === undefined) throw new Error('The pre-redesign mock is not built.');
      // Started as the mock is (the heap flag keeps it from relaunching itself).
      return { name, args: (port) => [...MOCK_CLI_NODE_FLAGS, entry, '--port', String(port)] };
    }
    case 'mock-before-seam': {
      const entry = entries.mockBeforeSeam;
      if (entry === undefined) throw new Error('The mock before the store seam is not built.');
      return { name, args: (port) => [...MOCK_CLI_NODE_FLAGS, entry, '--port', String(port)] };
    }
    case 'mock-previous': {
      const entry = entries.mockPrevious;
      if (entry === undefined) throw new Error('BENCH_PREVIOUS names no CLI script.');
      return { name, args: (port) => [...MOCK_CLI_NODE_FLAGS, entry, '--port', String(port)] };
    }
    case 'contract-proxy': {
      const target = entries.proxyTarget;
      if (target === undefined) throw new Error('contract-proxy needs a target URL.');
      return {
        name,
        args: (port) => [CONTRACT_CLI, 'proxy', '--target', target, '--port', String(port)],
      };
    }
    case 'forward-floor': {
      const target = entries.proxyTarget;
      if (target === undefined) throw new Error('forward-floor needs a target URL.');
      return { name, args: (port) => [FORWARD_FLOOR_MAIN, target, String(port)] };
    }
    case 'prism': {
      const entry = entries.prism;
      if (entry === undefined) throw new Error('Prism is not installed.');
      return {
        name,
        args: (port) => [entry, 'mock', '-h', '127.0.0.1', '-p', String(port), SPEC_PATH],
      };
    }
  }
}

/**
 * A free TCP port on 127.0.0.1.
 *
 * @example
 * const port = await freePort();
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a server with its output sent to a log file in `logDir`; `nodeOptions` go before the
 * script (e.g. `--cpu-prof`), `env` is added to this process's environment.
 *
 * @example
 * const server = spawnServer(serverCommand('floor'), 4100, '/tmp');
 */
export function spawnServer(
  command: ServerCommand,
  port: number,
  logDir: string,
  nodeOptions: string[] = [],
  env: Record<string, string> = {},
): RunningServer {
  const logFile = join(logDir, `${command.name}-${port}.log`);
  const log = openSync(logFile, 'w');
  // The run's until it exits: stopped if the bench is (Ctrl-C, SIGTERM, an error).
  const child = ownChild(
    spawn(process.execPath, [...nodeOptions, ...command.args(port)], {
      stdio: ['ignore', log, log],
      env: { ...process.env, ...env },
    }),
  );
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name: command.name,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    child,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Sends creates until one answers 2xx with a payment, or the deadline passes, pausing
 * `intervalMs` between tries (2 ms: what a cold start's timing needs). Returns the payment's id;
 * throws with the last answer or error on timeout.
 *
 * @example
 * const id = await waitForFirstCreate('http://127.0.0.1:4010', 10_000);
 */
export async function waitForFirstCreate(
  url: string,
  timeoutMs: number,
  intervalMs = 2,
): Promise<string> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    try {
      const answer = await sendRequest(`${url}/v1/payments`, {
        method: 'POST',
        headers: { ...CREATE_HEADERS, 'idempotency-key': randomUUID() },
        body: CREATE_BODY_TEXT,
      });
      const body = parseJson(answer.text);
      if (answer.status >= 200 && answer.status < 300 && isPaymentBody(body)) return body.id;
      last = `HTTP ${answer.status} ${answer.text.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} never answered a create within ${timeoutMs} ms: ${last}`);
}

/**
 * How often `startServer` tries a create while a server starts: nothing is timed there, and
 * trying every 2 ms (a refused connection each time) cost the harness about a CPU-second a run.
 */
export const START_POLL_MS = 20;

/**
 * Starts a server and waits until it answers a create (tried every `START_POLL_MS`).
 *
 * @example
 * const server = await startServer(serverCommand('mock'), '/tmp');
 */
export async function startServer(
  command: ServerCommand,
  logDir: string,
  nodeOptions: string[] = [],
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const server = spawnServer(command, await freePort(), logDir, nodeOptions, env);
  try {
    await waitForFirstCreate(server.url, 30_000, START_POLL_MS);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
