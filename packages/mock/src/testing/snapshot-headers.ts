// The headers of a snapshot's stored answers: checked as HTTP allows them and as the API sends them.
import { isRecord, type Problems, shown } from './snapshot-check.js';

/** A header name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value: visible Latin-1 characters, inner spaces and tabs, no CR, LF or NUL. */
const FIELD_VALUE = /^([\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;
/** Headers the sandbox sets itself when it answers, or that would break the answer's framing. */
const RESERVED = new Set([
  'connection',
  'content-length',
  'idempotent-replayed',
  'keep-alive',
  'proxy-connection',
  'request-id',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const MAX_HEADERS = 16;
const MAX_HEADER_CHARACTERS = 1024;

/** Where a header is, as a problem names it: built for a problem only, not for each header read. */
const headerAt = (where: string, name: string) => `${where}[${JSON.stringify(name)}]`;

/**
 * Reads the headers of a stored answer: HTTP-valid names and values (no CR, LF or NUL), at most
 * 16, none the sandbox sets itself or that frame the answer, and the JSON content type the API
 * answers with (`application/problem+json` for a problem). Names come back in lower case.
 *
 * @example
 * readHeaders({ 'content-type': 'application/json' }, 'response.headers', true, problems);
 */
export function readHeaders(
  given: unknown,
  where: string,
  success: boolean,
  problems: Problems,
): Record<string, string> {
  if (!isRecord(given)) {
    problems.add(
      where,
      `${where} must be an object of header names and values; got ${shown(given)}`,
    );
    return {};
  }
  const entries = Object.entries(given);
  if (entries.length > MAX_HEADERS) {
    problems.add(where, `${where} must have at most ${MAX_HEADERS} headers; got ${entries.length}`);
    return {};
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!TOKEN.test(name) || name.length > MAX_HEADER_CHARACTERS) {
      problems.add(
        where,
        `${where}: ${shown(name)} is not a header name (an RFC 9110 token: letters, digits and !#$%&'*+.^_\`|~-)`,
      );
      continue;
    }
    const lowerName = name.toLowerCase();
    if (RESERVED.has(lowerName)) {
      problems.add(
        headerAt(where, name),
        `${headerAt(where, name)} is set by the sandbox when it answers (or frames the answer); leave it out`,
      );
      continue;
    }
    if (
      typeof value !== 'string' ||
      !FIELD_VALUE.test(value) ||
      value.length > MAX_HEADER_CHARACTERS
    ) {
      problems.add(
        headerAt(where, name),
        `${headerAt(where, name)} must be a header value of at most ${MAX_HEADER_CHARACTERS} visible Latin-1 characters (no CR, LF or NUL, no space at either end); got ${shown(value)}`,
      );
      continue;
    }
    headers[lowerName] = value;
  }
  const type = success ? 'application/json' : 'application/problem+json';
  if (headers['content-type'] !== type) {
    problems.add(
      `${where}["content-type"]`,
      `${where}["content-type"] must be ${type} (the API answers ${success ? 'a success' : 'a problem'} with it); got ${shown(headers['content-type'])}`,
    );
  }
  return headers;
}
