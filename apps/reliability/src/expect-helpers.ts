// Facts the attack tests check on every answer: timestamps in the spec's format, problem+json with a Request-Id.
import { TIMESTAMP } from './attacks/floods.js';
import type { Answer } from './http.js';

/**
 * Every timestamp in a JSON value (fields named `now` or ending in `_at`, non-null), with its path.
 *
 * @example
 * timestampsIn({ created_at: '2026-01-01T00:00:00Z' }); // [['created_at', '2026-…']]
 */
export function timestampsIn(value: unknown, path = ''): Array<[string, string]> {
  if (Array.isArray(value))
    return value.flatMap((item, index) => timestampsIn(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, field]) => {
    const here = path === '' ? name : `${path}.${name}`;
    if ((name === 'now' || name.endsWith('_at')) && field !== null && field !== undefined) {
      return [[here, String(field)] as [string, string]];
    }
    return timestampsIn(field, here);
  });
}

/**
 * The timestamps of a JSON value that do not match `YYYY-MM-DDThh:mm:ssZ`.
 *
 * @example
 * badTimestamps({ now: '+012020-04-02T12:34:00Z' }); // [['now', '+012020-…']]
 */
export function badTimestamps(value: unknown): Array<[string, string]> {
  return timestampsIn(value).filter(([, text]) => !TIMESTAMP.test(text));
}

/**
 * What is wrong with an answer that should be an RFC 9457 problem: missing media type, missing
 * `Request-Id`, missing `code`. Empty when it is a proper problem.
 *
 * @example
 * problemDefects(answer); // []
 */
export function problemDefects(answer: Answer): string[] {
  const defects: string[] = [];
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) defects.push(`content-type "${type}"`);
  if (answer.headers['request-id'] === undefined) defects.push('no Request-Id header');
  if (typeof answer.json?.code !== 'string') defects.push('no code');
  return defects;
}

/**
 * The payment ids of a list answer (`data[].id`), or [] when it has no list.
 *
 * @example
 * listedIds(await call(url, { path: '/v1/payments?limit=100', key })); // ['pay_…']
 */
export function listedIds(answer: Answer): string[] {
  const data = answer.json?.data;
  return Array.isArray(data) ? data.map((item) => String((item as { id?: unknown }).id)) : [];
}
