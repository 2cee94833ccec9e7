// Runs the installed `payment-service-mock` command with a webhook receiver, for a fresh project.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tiedToSpawner } from '../../../test-support/child-lifetime.js';
import { toolPath } from './pack.js';

/** One webhook delivery as received: the raw body and its headers. */
export interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

/** The installed CLI, listening on a free port, delivering every event to a local receiver. */
export interface CliSandbox {
  url: string;
  secret: string;
  /** The first delivery the receiver gets. */
  firstDelivery: Promise<Delivery>;
  /** Everything the CLI wrote to stdout and stderr. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Resolves with the base URL the CLI prints once it listens; rejects if it exits first.
 *
 * @example
 * const url = await waitForUrl(child, () => text);
 */
export function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = output().match(/listening on (http:\/\/\S+)/);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`the CLI exited (${code}) before listening:\n${output()}`)),
    );
  });
}

/**
 * Starts the installed `payment-service-mock --port 0` in `cwd` with `--webhook-url` set to a receiver here.
 *
 * @example
 * const sandbox = await startCliSandbox(projectDir);
 * await sandbox.stop();
 */
export async function startCliSandbox(cwd: string): Promise<CliSandbox> {
  let deliver: (delivery: Delivery) => void = () => {};
  const firstDelivery = new Promise<Delivery>((resolve) => {
    deliver = resolve;
  });
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliver({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;

  // The installed bin link itself: npx would put npm and sh between the signal and node.
  const child = spawn(
    ...tiedToSpawner(join(cwd, 'node_modules/.bin/payment-service-mock'), [
      '--port',
      '0',
      '--webhook-url',
      receiverUrl,
      '--webhook-secret',
      secret,
    ]),
    { cwd, env: { ...process.env, PATH: toolPath() }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const output = () => text;
  const url = await waitForUrl(child, output);
  return {
    url,
    secret,
    firstDelivery,
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      receiver.close();
      return code;
    },
  };
}
