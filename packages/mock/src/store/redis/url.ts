// The Valkey/Redis connection URL: parsed and checked, and described without its password.

/** Where the store connects: what a `redis://` or `rediss://` URL says. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
}

/** A URL that is not a usable `redis://` or `rediss://` URL (its message never holds the password). */
export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

const DEFAULT_PORT = 6379;

/**
 * Parses `redis://[user:password@]host:port[/db]` (or `rediss://`, TLS). Bad input throws a
 * `RedisUrlError` whose message shows the URL with its password masked.
 *
 * @example
 * parseRedisUrl('redis://:s3cret@127.0.0.1:6380/2'); // { host: '127.0.0.1', port: 6380, db: 2, password: 's3cret', tls: false, … }
 */
export function parseRedisUrl(text: string): RedisTarget {
  const shown = describeRedisUrl(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RedisUrlError(
      `the store URL is not a URL: ${shown} (expected redis://[user:password@]host:port[/db] or rediss://…)`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new RedisUrlError(`the store URL must start with redis:// or rediss://, not ${shown}`);
  }
  if (url.hostname === '') throw new RedisUrlError(`the store URL names no host: ${shown}`);
  if (url.search !== '' || url.hash !== '') {
    throw new RedisUrlError(`the store URL takes no query or fragment: ${shown}`);
  }
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  const path = url.pathname.replace(/^\//, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) {
    throw new RedisUrlError(`the database in the store URL must be a number 0-99: ${shown}`);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new RedisUrlError(
        `the credentials in the store URL are not valid percent-encoding: ${shown}`,
      );
    }
  };
  return {
    host,
    port,
    db: path === '' ? 0 : Number(path),
    username: url.username === '' ? undefined : decode(url.username),
    password: url.password === '' ? undefined : decode(url.password),
    tls: url.protocol === 'rediss:',
  };
}

/**
 * The URL as it may be shown (banner, logs, errors): the password replaced by `***`. Works on
 * text that is not a valid URL too.
 *
 * @example
 * describeRedisUrl('redis://app:s3cret@cache:6379/0'); // 'redis://app:***@cache:6379/0'
 */
export function describeRedisUrl(text: string): string {
  // Text without a scheme cannot be told apart from a password: it is never shown.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0];
  if (scheme === undefined) return '(not a URL)';
  const rest = text.slice(scheme.length);
  // Everything before the last '@' is credentials, whatever it holds ('/', '?', '#', '@').
  const at = rest.lastIndexOf('@');
  if (at < 0) return text;
  const userinfo = rest.slice(0, at);
  const colon = userinfo.indexOf(':');
  // A user alone may be a password (redis://secret@host): mask it too.
  const masked = colon < 0 ? '***' : `${userinfo.slice(0, colon)}:***`;
  return `${scheme}${masked}@${rest.slice(at + 1)}`;
}

/**
 * The URL with `password` as its password (percent-encoded as a URL needs): how a password kept
 * out of the command line (a file, a variable) joins the URL given, whose own password it replaces.
 *
 * @example
 * withRedisPassword('redis://cache:6379/2', 'p@ss/word'); // 'redis://:p%40ss%2Fword@cache:6379/2'
 */
export function withRedisPassword(text: string, password: string): string {
  const url = new URL(text);
  url.password = password;
  return url.href;
}
