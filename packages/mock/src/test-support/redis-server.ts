// A throwaway redis-server for tests: persistence off, on a free port of 127.0.0.1, stopped when the tests end.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tiedToSpawner } from '../../../../test-support/child-lifetime.js';

/** Where Debian installs the server. */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** A running test server. */
export interface TestRedis {
  port: number;
  url: string;
  /** Stops it (SIGKILL: its data is thrown away anyway). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (as a restart without persistence). */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

function notInstalled(): Error {
  return new Error(
    `redis-server is not installed at ${REDIS_SERVER}: apt-get install redis-server (or set REDIS_SERVER to its path)`,
  );
}

function launch(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (password !== undefined) args.push('--requirepass', password);
  // Checked here: started through setpriv, a missing server is setpriv's exit, not ENOENT.
  if (REDIS_SERVER.includes('/') && !existsSync(REDIS_SERVER))
    return Promise.reject(notInstalled());
  // Tied to the test: a run killed before its afterAll cannot leave it running.
  const child = spawn(...tiedToSpawner(REDIS_SERVER, args), { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? notInstalled() : error);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
}

/**
 * Starts a redis-server for one test file (about 20 ms), with `password` required when given.
 *
 * @example
 * const redis = await startTestRedis();
 * afterAll(() => redis.stop());
 */
export async function startTestRedis(password?: string): Promise<TestRedis> {
  const port = await freePort();
  let child = await launch(port, password);
  const credentials = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  return {
    port,
    url: `redis://${credentials}127.0.0.1:${port}`,
    stop,
    async restart() {
      await stop();
      child = await launch(port, password);
    },
  };
}
