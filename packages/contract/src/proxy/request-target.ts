// Where a request may go under the target's base path: a path that climbs above its root (`..`, however encoded or separated) never leaves the proxy.
import { decodings } from './decoded-secrets.js';

/**
 * Whether the path of a request target climbs above its root in any form a server could decode:
 * a `..` segment as it stands, percent-encoded (`%2e%2e`, `%252e%252e`) or JSON-escaped, with `/`,
 * `\` or their encodings (`%2f`, `%5c`) as separators, and a segment's `;parameters` ignored
 * (`..;/`). An empty segment (`//`) counts as no level, so `/v1//../..` climbs too.
 *
 * @example
 * climbsAboveRoot('/../../etc/passwd'); // true
 * climbsAboveRoot('/v1/%2e%2e/%2e%2e/etc'); // true
 * climbsAboveRoot('/v1/payments/../refunds'); // false: it stays under the root
 */
export function climbsAboveRoot(target: string): boolean {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  for (const decoded of decodings(path)) {
    let depth = 0;
    for (const raw of decoded.split(/[/\\]/)) {
      const segment = raw.split(';', 1)[0] ?? '';
      if (segment === '..') depth -= 1;
      else if (segment !== '' && segment !== '.') depth += 1;
      if (depth < 0) return true;
    }
  }
  return false;
}
