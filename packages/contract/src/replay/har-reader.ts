// Reads a HAR recording for replay: bounded in size and depth, its shape checked with a JSON Schema, every mistake a ConfigurationError (exit 2) naming the field.
import { readFile, stat } from 'node:fs/promises';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { ConfigurationError } from '../errors.js';
import type { TrafficExchange } from '../proxy/traffic-checker.js';
import { cleanTargetText } from '../untrusted-text.js';

/** The largest recording replay reads, in bytes. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;
/** The most entries one recording may hold. */
export const MAX_HAR_ENTRIES = 200_000;
/** How deep a recording may nest (a HAR needs 6 levels). */
export const MAX_HAR_DEPTH = 32;

const pair = {
  type: 'object',
  required: ['name', 'value'],
  properties: { name: { type: 'string', maxLength: 8192 }, value: { type: 'string' } },
};

/** The parts of HAR 1.2 that replay reads, as a JSON Schema (other fields are allowed and ignored). */
export const harSchema = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'entries'],
      properties: {
        version: { type: 'string' },
        entries: {
          type: 'array',
          maxItems: MAX_HAR_ENTRIES,
          items: {
            type: 'object',
            required: ['request', 'response'],
            properties: {
              request: {
                type: 'object',
                required: ['method', 'url', 'headers'],
                properties: {
                  method: { type: 'string', pattern: '^[A-Za-z]{1,20}$' },
                  url: { type: 'string', maxLength: 65536 },
                  headers: { type: 'array', maxItems: 1000, items: pair },
                  postData: {
                    type: 'object',
                    properties: {
                      mimeType: { type: 'string' },
                      text: { type: 'string' },
                      _truncated: { type: 'boolean' },
                    },
                  },
                },
              },
              response: {
                type: 'object',
                required: ['status', 'headers', 'content'],
                properties: {
                  status: { type: 'integer', minimum: 0, maximum: 999 },
                  headers: { type: 'array', maxItems: 1000, items: pair },
                  content: {
                    type: 'object',
                    properties: {
                      size: { type: 'number' },
                      text: { type: 'string' },
                      encoding: { type: 'string' },
                      _truncated: { type: 'boolean' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const validateHar = new Ajv2020({ strict: false, allErrors: false }).compile(harSchema);

/** `/log/entries/3/response/status` → `log.entries[3].response.status`. */
function fieldName(instancePath: string, extra?: string): string {
  const tokens = instancePath.split('/').slice(1);
  if (extra !== undefined) tokens.push(extra);
  return tokens
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (name, token) =>
        /^\d+$/.test(token) ? `${name}[${token}]` : name === '' ? token : `${name}.${token}`,
      '',
    );
}

/** The first field (as a path) that nests deeper than `limit`, found without recursion. */
function tooDeepField(value: unknown, limit: number): string | undefined {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length > 0) {
    const [current, path, depth] = stack.pop() as [unknown, string, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return path || '(the top)';
    const entries = Array.isArray(current)
      ? current.map((inner, index) => [`${path}[${index}]`, inner] as const)
      : Object.entries(current).map(
          ([key, inner]) => [path ? `${path}.${key}` : key, inner] as const,
        );
    for (const [name, inner] of entries)
      if (inner !== null && typeof inner === 'object') stack.push([inner, name, depth + 1]);
  }
  return undefined;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required')
    return `${fieldName(error.instancePath, String(params.missingProperty))} is missing`;
  return `${fieldName(error.instancePath) || 'the recording'} ${error.message ?? 'is not valid'}`;
}

interface HarPair {
  name: string;
  value: string;
}

interface Entry {
  request: {
    method: string;
    url: string;
    headers: HarPair[];
    postData?: { mimeType?: string; text?: string; _truncated?: boolean };
  };
  response: {
    status: number;
    headers: HarPair[];
    content: { size?: number; text?: string; encoding?: string; _truncated?: boolean };
  };
}

function headerRecord(pairs: HarPair[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const { name, value } of pairs) {
    const key = name.toLowerCase();
    // HTTP/2 pseudo-headers (`:authority`) are not headers of the exchange.
    if (key.startsWith(':')) continue;
    record[key] = key in record ? `${record[key]}, ${value}` : value;
  }
  return record;
}

function exchangeOf(entry: Entry, index: number, file: string): TrafficExchange {
  let url: URL;
  try {
    url = new URL(entry.request.url);
  } catch {
    throw new ConfigurationError(
      `${file}: log.entries[${index}].request.url is not a URL (${cleanTargetText(entry.request.url, 80)})`,
    );
  }
  const { request, response } = entry;
  const content = response.content;
  let responseBody = content.text ?? '';
  let responseBodyUnread: string | undefined;
  if (content.text !== undefined && content.encoding === 'base64')
    responseBody = Buffer.from(content.text, 'base64').toString('utf8');
  else if (content.encoding !== undefined && content.text !== undefined)
    responseBodyUnread = `body in an unknown encoding (${cleanTargetText(content.encoding, 40)})`;
  if (content._truncated) responseBodyUnread = 'body cut in the recording (over its cap)';
  else if (content.text === undefined && (content.size ?? 0) > 0)
    responseBodyUnread = 'body not in the recording';
  const exchange: TrafficExchange = {
    method: request.method.toUpperCase(),
    url: url.href,
    path: `${url.pathname}${url.search}`,
    requestHeaders: headerRecord(request.headers),
    status: response.status,
    responseHeaders: headerRecord(response.headers),
    responseBody,
  };
  if (request.postData?.text !== undefined) exchange.requestBody = request.postData.text;
  if (request.postData?._truncated)
    exchange.requestBodyUnread = 'body cut in the recording (over its cap)';
  if (responseBodyUnread !== undefined) exchange.responseBodyUnread = responseBodyUnread;
  if (response.status === 0) exchange.noAnswer = 'no answer in the recording';
  return exchange;
}

/**
 * Reads a HAR file into the exchanges it recorded. Anything the replay cannot use (a missing or
 * huge file, not JSON, nested too deep, a field of the wrong type) is a ConfigurationError (exit 2)
 * whose message names the field.
 *
 * @example
 * const exchanges = await readHar('traffic.har');
 */
export async function readHar(file: string): Promise<TrafficExchange[]> {
  const shown = cleanTargetText(file, 200);
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw Object.assign(new Error(), { code: 'not a file' });
    size = info.size;
  } catch (error) {
    throw new ConfigurationError(
      `${shown}: the recording cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (size > MAX_HAR_BYTES)
    throw new ConfigurationError(
      `${shown}: the recording is ${size} bytes; replay reads at most ${MAX_HAR_BYTES} (record with a smaller cap)`,
    );
  let har: unknown;
  try {
    har = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConfigurationError(
      `${shown}: the recording is not JSON (${cleanTargetText((error as Error).message, 200)})`,
    );
  }
  const deep = tooDeepField(har, MAX_HAR_DEPTH);
  if (deep !== undefined)
    throw new ConfigurationError(
      `${shown}: ${cleanTargetText(deep, 200)} nests deeper than ${MAX_HAR_DEPTH} levels: not a HAR recording`,
    );
  if (!validateHar(har)) {
    const error = validateHar.errors?.[0] as ErrorObject;
    throw new ConfigurationError(`${shown}: ${cleanTargetText(describe(error), 300)}`);
  }
  const entries = (har as { log: { entries: Entry[] } }).log.entries;
  return entries.map((entry, index) => exchangeOf(entry, index, shown));
}
