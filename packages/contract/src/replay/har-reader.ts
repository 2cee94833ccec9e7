// Reads a HAR recording for replay as a stream, one entry in memory at a time: bounded in size, depth and bytes per value, each entry's shape checked with a JSON Schema, every mistake a ConfigurationError (exit 2) naming the field.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ConfigurationError } from '../errors.js';
import type { TrafficExchange } from '../proxy/traffic-checker.js';
import { cleanTargetText } from '../untrusted-text.js';

/** The largest recording replay reads, in bytes. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;
/** The most entries one recording may hold. */
export const MAX_HAR_ENTRIES = 200_000;
/** How deep a recording may nest (a HAR needs 6 levels). */
export const MAX_HAR_DEPTH = 32;
/** The most bytes one entry (or any other value) of a recording may take: what replay holds at once. */
export const MAX_HAR_ENTRY_BYTES = 32 * 1024 * 1024;
/** How much of the file is read at a time. */
const CHUNK_BYTES = 64 * 1024;

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

let entryValidator: ValidateFunction | undefined;
/**
 * One entry's schema (entries are checked one at a time, as they are read), compiled for the
 * first entry, not at import: compiling it and the 2020-12 meta-schema it is checked against was
 * about a fifth of the CPU of every `payment-service-contract` process, replay or not.
 */
function entrySchema(): ValidateFunction {
  entryValidator ??= new Ajv2020({ strict: false, allErrors: false }).compile(
    harSchema.properties.log.properties.entries.items,
  );
  return entryValidator;
}

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

/** Where the token walk is: one frame per open object or array, with the member or index in it. */
interface Frame {
  array: boolean;
  /** The member's name (objects) or the element's index (arrays) being read. */
  at: string | number | undefined;
  /** In an object: whether the next string is a member's name. */
  expectsKey: boolean;
}

function pathOf(frames: Frame[]): string {
  return frames
    .filter((frame) => frame.at !== undefined)
    .map((frame, index) =>
      frame.array ? `[${frame.at}]` : index === 0 ? String(frame.at) : `.${String(frame.at)}`,
    )
    .join('');
}

const TYPE_OF_TOKEN: Partial<Record<TokenType, string>> = {
  [TokenType.LEFT_BRACE]: 'object',
  [TokenType.LEFT_BRACKET]: 'array',
  [TokenType.STRING]: 'string',
  [TokenType.NUMBER]: 'number',
  [TokenType.TRUE]: 'boolean',
  [TokenType.FALSE]: 'boolean',
  [TokenType.NULL]: 'null',
};

/**
 * Reads a HAR file as a stream and yields the exchanges it recorded, one entry in memory at a
 * time. Anything the replay cannot use (a missing or huge file, not JSON, nested too deep, a value
 * over 32 MiB, a field of the wrong type) is a ConfigurationError (exit 2) whose message names the
 * field; entries before it have been yielded.
 *
 * @example
 * for await (const exchange of harExchanges('traffic.har')) checker.check(exchange);
 */
export async function* harExchanges(
  file: string,
  limits: { maxEntryBytes?: number } = {},
): AsyncGenerator<TrafficExchange> {
  const maxEntryBytes = limits.maxEntryBytes ?? MAX_HAR_ENTRY_BYTES;
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
  const refuse = (message: string): never => {
    throw new ConfigurationError(`${shown}: ${cleanTargetText(message, 300)}`);
  };
  const notJson = (error: unknown): never =>
    refuse(`the recording is not JSON (${(error as Error).message})`);

  const frames: Frame[] = [];
  const seen = { log: false, version: false, entries: false };
  let entries = 0;
  const ready: Entry[] = [];
  // The values under log.entries, built one at a time and handed over whole; nothing else is kept.
  const parser = new TokenParser({ paths: ['$.*.*.*'], keepStack: false });
  parser.onValue = ({ value, stack }) => {
    if (stack.length === 3 && stack[1]?.key === 'log' && stack[2]?.key === 'entries')
      ready.push(value as unknown as Entry);
  };
  parser.onError = notJson;
  let lastToken = 0;
  /** Where the entry being read began, in bytes: it is held whole, so it is bounded too. */
  let entryStart: number | undefined;
  const tokenizer = new Tokenizer();
  tokenizer.onError = notJson;
  tokenizer.onToken = (info) => {
    lastToken = info.offset;
    const { token } = info;
    const top = frames[frames.length - 1];
    // A value starts here: what it is, where it is.
    // Only the top three levels say what the recording is: deeper values are the entries' own.
    if (
      frames.length <= 3 &&
      TYPE_OF_TOKEN[token] !== undefined &&
      !(top && !top.array && top.expectsKey)
    ) {
      if (frames.length === 0 && token !== TokenType.LEFT_BRACE)
        refuse(`the recording must be object, not ${TYPE_OF_TOKEN[token]}`);
      const where = pathOf(frames);
      const type = TYPE_OF_TOKEN[token];
      if (where === 'log') {
        seen.log = true;
        if (type !== 'object') refuse(`log must be object, not ${type}`);
      } else if (where === 'log.version') {
        seen.version = true;
        if (type !== 'string') refuse(`log.version must be string, not ${type}`);
      } else if (where === 'log.entries') {
        seen.entries = true;
        if (type !== 'array') refuse(`log.entries must be array, not ${type}`);
      } else if (frames.length === 3 && /^log\.entries\[\d+\]$/.test(where)) {
        entries += 1;
        entryStart = info.offset;
        if (entries > MAX_HAR_ENTRIES)
          refuse(`log.entries must NOT have more than ${MAX_HAR_ENTRIES} items`);
      }
    }
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (frames.length >= MAX_HAR_DEPTH)
          refuse(
            `${pathOf(frames) || '(the top)'} nests deeper than ${MAX_HAR_DEPTH} levels: not a HAR recording`,
          );
        frames.push(
          token === TokenType.LEFT_BRACKET
            ? { array: true, at: 0, expectsKey: false }
            : { array: false, at: undefined, expectsKey: true },
        );
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        if (frames.length === 3) entryStart = undefined;
        frames.pop();
        break;
      case TokenType.STRING:
        if (top && !top.array && top.expectsKey) {
          top.at = String(info.value);
          top.expectsKey = false;
        }
        break;
      case TokenType.COMMA:
        if (frames.length === 3) entryStart = undefined;
        if (top?.array) top.at = Number(top.at) + 1;
        else if (top) top.expectsKey = true;
        break;
    }
    parser.write(info);
  };

  let index = 0;
  let read = 0;
  const stream = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream) {
      read += (chunk as Buffer).byteLength;
      tokenizer.write(chunk as Buffer);
      // One value (an entry, a string) may not take more than its bound: the tokenizer holds it whole.
      if (read - Math.min(lastToken, entryStart ?? lastToken) > maxEntryBytes)
        refuse(
          `${pathOf(frames) || 'the recording'} holds a value over ${maxEntryBytes} bytes: replay reads one entry at a time, each within that bound`,
        );
      for (const entry of ready.splice(0)) yield checkedEntry(entry, index++, shown);
    }
    if (!tokenizer.isEnded) tokenizer.end();
    // The tokenizer knows words, the parser knows structure: a document cut short ends it mid-value.
    if (!parser.isEnded) parser.end();
  } finally {
    stream.destroy();
  }
  for (const entry of ready.splice(0)) yield checkedEntry(entry, index++, shown);
  if (!seen.log) refuse('log is missing');
  if (!seen.version) refuse('log.version is missing');
  if (!seen.entries) refuse('log.entries is missing');
}

/** One entry checked against the entry schema and made an exchange; a ConfigurationError names its field. */
function checkedEntry(entry: Entry, index: number, shown: string): TrafficExchange {
  const validateEntry = entrySchema();
  if (!validateEntry(entry)) {
    const error = validateEntry.errors?.[0] as ErrorObject;
    throw new ConfigurationError(
      `${shown}: ${cleanTargetText(describe({ ...error, instancePath: `/log/entries/${index}${error.instancePath}` }), 300)}`,
    );
  }
  return exchangeOf(entry, index, shown);
}

/**
 * Reads a whole HAR file into the exchanges it recorded (replay itself reads entry by entry with
 * `harExchanges`). Every mistake is a ConfigurationError (exit 2) naming the field.
 *
 * @example
 * const exchanges = await readHar('traffic.har');
 */
export async function readHar(file: string): Promise<TrafficExchange[]> {
  const exchanges: TrafficExchange[] = [];
  for await (const exchange of harExchanges(file)) exchanges.push(exchange);
  return exchanges;
}
