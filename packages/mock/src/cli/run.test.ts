// The command line run in process with fake stdout and stderr: --ready-json's line, the help.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningMockServer } from '../server/node-server.js';
import { mockVersion } from '../shared/version.js';
import { main, readyLine } from './run.js';

/** A stream stand-in that keeps what is written. */
function sink() {
  const chunks: string[] = [];
  return { chunks, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}

let server: RunningMockServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  server = undefined;
});

describe('main --ready-json', () => {
  it('prints one JSON line on stdout and the banner on stderr', async () => {
    const stdout = sink();
    const stderr = sink();
    server = await main(['--port', '0', '--ready-json', '--quiet'], {}, { stdout, stderr });
    expect(stdout.chunks).toHaveLength(1);
    const ready = JSON.parse(stdout.text());
    expect(ready).toEqual({
      url: `http://127.0.0.1:${server?.port}`,
      key: expect.stringMatching(/^sk_test_/),
      webhook_secret: null,
    });
    expect(stderr.text()).toContain(`Test key:  ${ready.key}`);
    const health = await fetch(`${ready.url}/_sandbox/health`, {
      headers: { authorization: `Bearer ${ready.key}` },
    });
    expect(await health.json()).toMatchObject({ status: 'ok', version: mockVersion });
  });

  it('gives the --webhook-url secret', async () => {
    const stdout = sink();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    server = await main(
      [
        '--port',
        '0',
        '--ready-json',
        '--webhook-url',
        'http://127.0.0.1:9/hook',
        '--webhook-secret',
        secret,
      ],
      {},
      { stdout, stderr: sink() },
    );
    expect(JSON.parse(stdout.text()).webhook_secret).toBe(secret);
  });

  it('keeps the banner on stdout without it', async () => {
    const stdout = sink();
    server = await main(['--port', '0', '--quiet'], {}, { stdout, stderr: sink() });
    expect(stdout.text()).toContain('Payment service mock sandbox');
  });
});

describe('readyLine', () => {
  it('is one line of JSON', () => {
    const line = readyLine({ url: 'http://127.0.0.1:1', key: 'sk_test_x', webhook_secret: null });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
  });
});

describe('main --version', () => {
  it('prints the version', async () => {
    const stdout = sink();
    expect(await main(['--version'], {}, { stdout, stderr: sink() })).toBeUndefined();
    expect(stdout.text()).toBe(`${mockVersion}\n`);
  });
});
