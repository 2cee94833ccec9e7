// The CLI's Valkey/Redis flags: where they come from, what they refuse, and that a password is never shown.
import { describe, expect, it } from 'vitest';
import { readCli } from './options.js';
import { dataLine } from './run.js';

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
