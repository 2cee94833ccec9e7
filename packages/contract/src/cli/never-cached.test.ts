// A live check is never a replayed pass: turbo never caches it, and a second run against a stopped target exits 3.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { startMockServer } from '@payment-service/mock/node';
import { describe, expect, it } from 'vitest';
import { type CliIo, main } from './main.js';

const root = new URL('../../../../', import.meta.url);
const run = promisify(execFile);

const silent: CliIo = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  env: {},
  cwd: tmpdir(),
};

describe('a live check', () => {
  it('is a turbo task with caching off, and the root script runs the CLI itself', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        new URL('node_modules/turbo/bin/turbo', root).pathname,
        'run',
        'contract:live',
        '--filter=@payment-service/contract',
        '--dry=json',
      ],
      {
        cwd: root.pathname,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const tasks = JSON.parse(stdout).tasks as Array<{
      taskId: string;
      resolvedTaskDefinition: { cache: boolean };
    }>;
    expect(
      tasks.find((task) => task.taskId === '@payment-service/contract#contract:live')
        ?.resolvedTaskDefinition.cache,
    ).toBe(false);
    const scripts = JSON.parse(await readFile(new URL('package.json', root), 'utf8'))
      .scripts as Record<string, string>;
    expect(scripts['contract:live']).toMatch(
      /&& node packages\/contract\/bin\/payment-service-contract\.js check$/,
    );
  }, 120_000);

  it('run twice with the target stopped in between exits 0, then 3', async () => {
    const server = await startMockServer({ port: 0 });
    const argv = [
      'check',
      '--base-url',
      server.url,
      '--key',
      'sk_test_never_cached',
      '--rate',
      '10000',
      '--scenario',
      'create-payment',
    ];
    expect(await main(argv, silent)).toBe(0);
    await server.close();
    let stderr = '';
    expect(
      await main(argv, { ...silent, stderr: { write: (text: string) => (stderr += text) } }),
    ).toBe(3);
    expect(stderr).toMatch(/UNREACHABLE: (could not connect to )?127\.0\.0\.1:\d+/);
  }, 120_000);
});
