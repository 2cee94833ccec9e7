// The CLI's Valkey/Redis flags: where they come from, what they refuse, and that a password is never shown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import type { RunningMockServer } from '../server/node-server.js';
import { parseRedisUrl } from '../store/redis/url.js';
import { startTestRedis, type TestRedis } from '../test-support/redis-server.js';
import { readCli, readPasswordFile } from './options.js';
import { dataLine, main } from './run.js';

const settingsOf = (args: string[], env: Record<string, string | undefined> = {}) => {
  const request = readCli(args, env);
  if (request.kind !== 'serve') throw new Error(`not served: ${JSON.stringify(request)}`);
  return request.settings;
};

const errorOf = (args: string[], env: Record<string, string | undefined> = {}) => {
  const request = readCli(args, env);
  if (request.kind !== 'error') throw new Error(`not refused: ${JSON.stringify(request)}`);
  return request.message;
};

describe('readCli --redis-url and --redis-prefix', () => {
  it('takes the URL from the flag, else from $PAYMENT_SERVICE_MOCK_REDIS_URL', () => {
    expect(settingsOf(['--redis-url', 'redis://127.0.0.1:6379']).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
    expect(
      settingsOf([], { PAYMENT_SERVICE_MOCK_REDIS_URL: 'rediss://cache:6380/2' }).redisUrl,
    ).toBe('rediss://cache:6380/2');
    expect(
      settingsOf(['--redis-url', 'redis://a:1'], { PAYMENT_SERVICE_MOCK_REDIS_URL: 'redis://b:2' })
        .redisUrl,
    ).toBe('redis://a:1');
    expect(settingsOf([]).redisUrl).toBeUndefined();
  });

  it('takes a prefix with the URL', () => {
    const settings = settingsOf(['--redis-url', 'redis://127.0.0.1', '--redis-prefix', 'team-a:']);
    expect(settings.redisPrefix).toBe('team-a:');
  });

  it('refuses a bad URL naming the flag or variable, with the password masked', () => {
    const fromFlag = errorOf(['--redis-url', 'http://user:hunter22@cache:6379']);
    expect(fromFlag).toContain('--redis-url');
    expect(fromFlag).toContain('redis://');
    expect(fromFlag).not.toContain('hunter22');
    const fromEnv = errorOf([], {
      PAYMENT_SERVICE_MOCK_REDIS_URL: 'redis://:hunter22@cache:6379/db-one',
    });
    expect(fromEnv).toContain('$PAYMENT_SERVICE_MOCK_REDIS_URL');
    expect(fromEnv).not.toContain('hunter22');
    expect(errorOf(['--redis-url', ''])).toContain('--redis-url needs');
  });

  it('refuses a store URL with a data directory, and a prefix without a URL or out of shape', () => {
    expect(errorOf(['--redis-url', 'redis://127.0.0.1', '--data-dir', '/tmp/x'])).toContain(
      'cannot be used together',
    );
    expect(errorOf(['--redis-prefix', 'psm2:'])).toContain('needs --redis-url');
    expect(errorOf(['--redis-url', 'redis://127.0.0.1', '--redis-prefix', 'a b'])).toContain(
      'printable ASCII',
    );
    expect(
      errorOf(['--redis-url', 'redis://127.0.0.1', '--redis-prefix', 'x'.repeat(65)]),
    ).toContain('1 to 64');
  });
});

describe('the banner line about the data', () => {
  it('names the store with the password masked, and the prefix', () => {
    const line = dataLine(settingsOf(['--redis-url', 'redis://app:hunter22@cache:6379/1']));
    expect(line).toBe(
      'Data:      on Valkey/Redis at redis://app:***@cache:6379/1, prefix psm: (shared by every instance on it)',
    );
    expect(dataLine(settingsOf(['--data-dir', '/tmp/d']))).toContain('kept in /tmp/d');
    expect(dataLine(settingsOf([]))).toContain('in memory');
  });
});

describe('the store password kept out of the command line', () => {
  it('joins $PAYMENT_SERVICE_MOCK_REDIS_PASSWORD to the URL, percent-encoded', () => {
    const settings = settingsOf(['--redis-url', 'redis://cache:6379/2'], {
      PAYMENT_SERVICE_MOCK_REDIS_PASSWORD: 'p@ss/w:rd#1',
    });
    expect(parseRedisUrl(settings.redisUrl as string).password).toBe('p@ss/w:rd#1');
    expect(settings.redisPasswordInArgs).toBeUndefined();
  });

  it('keeps --redis-password-file to read at start, and refuses a password given twice or without a URL', () => {
    expect(
      settingsOf(['--redis-url', 'redis://cache', '--redis-password-file', '/run/secrets/r'])
        .redisPasswordFile,
    ).toBe('/run/secrets/r');
    const twice = errorOf([
      '--redis-url',
      'redis://:hunter22@cache',
      '--redis-password-file',
      '/run/secrets/r',
    ]);
    expect(twice).toContain('give the password once');
    expect(twice).not.toContain('hunter22');
    expect(
      errorOf([], {
        PAYMENT_SERVICE_MOCK_REDIS_URL: 'redis://:hunter22@cache',
        PAYMENT_SERVICE_MOCK_REDIS_PASSWORD: 'other',
      }),
    ).toContain('$PAYMENT_SERVICE_MOCK_REDIS_PASSWORD and a password in the store URL');
    expect(errorOf(['--redis-password-file', '/run/secrets/r'])).toContain('needs --redis-url');
  });

  it('marks a password on the command line (warned at start), not one in the variable', () => {
    expect(settingsOf(['--redis-url', 'redis://:hunter22@cache']).redisPasswordInArgs).toBe(true);
    expect(settingsOf(['--redis-url', 'redis://app:hunter22@cache']).redisPasswordInArgs).toBe(
      true,
    );
    expect(settingsOf(['--redis-url', 'redis://cache']).redisPasswordInArgs).toBeUndefined();
    expect(
      settingsOf([], { PAYMENT_SERVICE_MOCK_REDIS_URL: 'redis://:hunter22@cache' })
        .redisPasswordInArgs,
    ).toBeUndefined();
  });

  it('reads a password file: one line, its line break dropped; errors name the file, never its content', () => {
    const directory = temporaryDirectory('redis-password-');
    const file = (name: string, content: string) => {
      writeFileSync(join(directory, name), content);
      return join(directory, name);
    };
    expect(readPasswordFile(file('ok', 'hunter22\n'))).toBe('hunter22');
    expect(readPasswordFile(file('crlf', 'hunter22\r\n'))).toBe('hunter22');
    for (const [path, why] of [
      [file('empty', '\n'), 'is empty'],
      [file('lines', 'hunter22\nmore\n'), 'more than one line'],
      [file('big', 'h'.repeat(5000)), 'over 4096 bytes'],
      [join(directory, 'missing'), 'cannot be read (ENOENT)'],
      [directory, 'cannot be read (EISDIR)'],
    ] as const) {
      const message = (() => {
        try {
          readPasswordFile(path);
        } catch (error) {
          return (error as Error).message;
        }
        return 'read';
      })();
      expect(message).toBe(
        `--redis-password-file ${path}: ${message.split(': ').slice(1).join(': ')}`,
      );
      expect(message).toContain(why);
      expect(message).not.toContain('hunter22');
    }
  });
});

describe('main with a store password', () => {
  let redis: TestRedis | undefined;
  let server: RunningMockServer | undefined;
  afterAll(async () => {
    await server?.close({ graceMs: 0 });
    await redis?.stop();
  });

  it('connects with the password from a file, and warns (without it) when it is on the command line', async () => {
    redis = await startTestRedis('hunter22-Secret');
    const directory = temporaryDirectory('redis-password-');
    const file = join(directory, 'password');
    writeFileSync(file, 'hunter22-Secret\n');
    const plain = `redis://127.0.0.1:${redis.port}`;
    const quiet = { stdout: sink(), stderr: sink() };
    server = await main(
      ['--port', '0', '--quiet', '--redis-url', plain, '--redis-password-file', file],
      {},
      quiet,
    );
    const key = { authorization: 'Bearer sk_test_password_file' };
    expect((await fetch(`${server?.url}/v1/payments`, { headers: key })).status).toBe(200);
    expect(quiet.stderr.text()).not.toContain('warning');
    await server?.close({ graceMs: 0 });

    const warned = { stdout: sink(), stderr: sink() };
    server = await main(['--port', '0', '--quiet', '--redis-url', redis.url], {}, warned);
    expect((await fetch(`${server?.url}/v1/payments`, { headers: key })).status).toBe(200);
    expect(warned.stderr.text()).toContain(
      'warning: the password in --redis-url is shown to every user of this machine',
    );
    expect(warned.stderr.text() + warned.stdout.text()).not.toContain('hunter22');
  });
});

/** A stream stand-in that keeps what is written. */
function sink() {
  const chunks: string[] = [];
  return { chunks, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}
