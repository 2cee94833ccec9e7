import { describe, expect, it } from 'vitest';
import { describeRedisUrl, parseRedisUrl, RedisUrlError } from './url.js';

describe('parseRedisUrl', () => {
  it('reads host, port, database and credentials', () => {
    expect(parseRedisUrl('redis://app:s%40cret@cache.local:6380/3')).toEqual({
      host: 'cache.local',
      port: 6380,
      db: 3,
      username: 'app',
      password: 's@cret',
      tls: false,
    });
    expect(parseRedisUrl('rediss://:pw@[::1]:7000')).toMatchObject({
      host: '::1',
      port: 7000,
      db: 0,
      username: undefined,
      password: 'pw',
      tls: true,
    });
    expect(parseRedisUrl('redis://127.0.0.1')).toMatchObject({ port: 6379, password: undefined });
  });

  it.each([
    'http://user:hunter2@host:6379',
    'redis://user:hunter2@host:6379/x',
    'redis://user:hunter2@host:6379/0?tls=1',
    'redis://user:hunter2@:6379',
    'redis:// user:hunter2@host:99999',
    'hunter2',
    'redis://:hunter2/x@host:6379',
    'redis://:hunter2%zz@host:6379',
    'redis://:hun#ter2@host:6379',
    'redis://:hun?ter2@host:6379',
    'redis://user:hunter2@host:6379/0/extra',
  ])('refuses %s without showing the password', (text) => {
    let error: unknown;
    try {
      parseRedisUrl(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RedisUrlError);
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});

describe('describeRedisUrl', () => {
  it('masks the password, keeps the rest', () => {
    expect(describeRedisUrl('redis://app:s3cret@cache:6379/0')).toBe(
      'redis://app:***@cache:6379/0',
    );
    expect(describeRedisUrl('rediss://:s3cret@cache:6379')).toBe('rediss://:***@cache:6379');
    expect(describeRedisUrl('redis://s3cret@cache:6379')).toBe('redis://***@cache:6379');
    expect(describeRedisUrl('redis://cache:6379')).toBe('redis://cache:6379');
    expect(describeRedisUrl('redis://a:p@ss@w@rd@cache:1')).toBe('redis://a:***@cache:1');
    expect(describeRedisUrl('redis://:pa/ss#w?d@cache:1/2')).toBe('redis://:***@cache:1/2');
  });
});

describe('describeRedisUrl on text that is not a URL', () => {
  it('shows none of it', () => {
    expect(describeRedisUrl('hunter2')).toBe('(not a URL)');
  });
});
