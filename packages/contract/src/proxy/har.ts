// Records a proxy's exchanges as HAR 1.2, bounded in entries and bytes, with keys and webhook secrets masked wherever they are once decoded (percent-encoding, JSON escapes, base64, a body that is not text), credentials, signatures and cookies masked whole, and card numbers cut to six and four digits.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { contractVersion } from '../generated/version.js';
import { maskSecrets } from '../runner/exchange-record.js';
import { maskCardData } from './card-data.js';
import { findSecrets, maskDecodedSecrets, maskDecodedSecretsInBytes } from './decoded-secrets.js';
import type { CapturedExchange } from './forward.js';

/** One HAR name/value pair. */
export interface HarPair {
  name: string;
  value: string;
}

/** A HAR 1.2 entry, as the recorder writes it (`_truncated` marks a body cut at the cap). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    queryString: HarPair[];
    postData?: { mimeType: string; text: string; _truncated?: boolean };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarPair[];
    headers: HarPair[];
    content: {
      size: number;
      mimeType: string;
      text?: string;
      encoding?: 'base64';
      _truncated?: boolean;
    };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** A HAR 1.2 document. */
export interface HarDocument {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

/** The recorder's bounds. */
export interface HarLimits {
  /** Entries kept, at most; later exchanges are counted, not recorded. Default 10 000. */
  maxEntries?: number;
  /** The most all entries may weigh (their JSON), in bytes. Default 64 MiB. */
  maxBytes?: number;
  /** The most of one body an entry keeps, in bytes (the proxy's copy may be larger). Default 256 KiB. */
  maxBodyBytes?: number;
}

/** Secrets masked however they were encoded, then the kit's masker on top. */
const maskText = (text: string) => maskSecrets(maskDecodedSecrets(text));
/** What a recording keeps of a URL or a body: no secret, no whole card number, no security code. */
const maskContent = (text: string) => maskCardData(maskText(text));

/**
 * A credential header: its scheme and, when the credential is a key or holds one, the key's kind
 * (`Bearer sk_test_…`, `Basic sk_test_…`); nothing else of it.
 */
function maskCredential(value: string): string {
  const [scheme = '', ...rest] = value.trim().split(/\s+/);
  const credential = rest.join(' ');
  const [secret] = findSecrets(credential);
  const kind = secret ? (secret.mode === 'whsec' ? 'whsec_…' : `sk_${secret.mode}_…`) : '***';
  return credential === '' ? '***' : `${scheme} ${kind}`;
}

/** Headers whose values are never recorded as sent: credentials, cookies and signatures. */
const MASKED_HEADERS: Record<string, (value: string) => string> = {
  authorization: maskCredential,
  'proxy-authorization': maskCredential,
  cookie: () => '***',
  'set-cookie': () => '***',
  'webhook-signature': (value) => maskText(value).replace(/(v\d+,)[^\s]+/g, '$1***'),
};

function pairs(headers: Record<string, string>): HarPair[] {
  return Object.entries(headers).map(([name, value]) => ({
    name,
    value: (MASKED_HEADERS[name] ?? maskText)(value),
  }));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A body as HAR text: UTF-8 text masked, or base64 of its bytes masked when it is not text. */
function bodyText(
  body: Uint8Array,
  limit: number,
): { text: string; encoding?: 'base64'; cut: boolean } {
  const cut = body.byteLength > limit;
  const kept = body.subarray(0, limit);
  try {
    return { text: maskContent(utf8.decode(kept, { stream: cut })), cut };
  } catch {
    return {
      text: Buffer.from(maskDecodedSecretsInBytes(kept)).toString('base64'),
      encoding: 'base64',
      cut,
    };
  }
}

/**
 * Creates a bounded HAR recorder: `add` each exchange, `write` the file (at a signal, on demand
 * and at exit; each write replaces the file whole, through a temporary file).
 *
 * @example
 * const recorder = createHarRecorder({ maxEntries: 1000 });
 * recorder.add(exchange);
 * await recorder.write('traffic.har');
 */
export function createHarRecorder(limits: HarLimits = {}) {
  const maxEntries = limits.maxEntries ?? 10_000;
  const maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
  const maxBody = limits.maxBodyBytes ?? 256 * 1024;
  const entries: HarEntry[] = [];
  let bytes = 0;
  let dropped = 0;

  function entryOf(exchange: CapturedExchange): HarEntry {
    const url = new URL(exchange.url);
    const requestType = exchange.requestHeaders['content-type'] ?? '';
    const request = bodyText(exchange.requestBody, maxBody);
    const response = bodyText(exchange.responseBody, maxBody);
    const requestCut = request.cut || exchange.requestBytes > exchange.requestBody.byteLength;
    const responseCut = response.cut || exchange.responseBytes > exchange.responseBody.byteLength;
    const entry: HarEntry = {
      startedDateTime: new Date(exchange.startedAt).toISOString(),
      time: exchange.timings.send + exchange.timings.wait + exchange.timings.receive,
      request: {
        method: exchange.method,
        url: maskContent(url.href),
        httpVersion: exchange.httpVersion,
        cookies: [],
        headers: pairs(exchange.requestHeaders),
        queryString: [...url.searchParams].map(([name, value]) => ({
          name,
          value: maskContent(value),
        })),
        headersSize: -1,
        bodySize: exchange.requestBytes,
      },
      response: {
        status: exchange.status,
        statusText: exchange.statusText,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(exchange.responseHeaders),
        content: {
          size: exchange.responseBytes,
          mimeType: exchange.responseHeaders['content-type'] ?? '',
          ...(exchange.responseBytes > 0 ? { text: response.text } : {}),
          ...(response.encoding ? { encoding: response.encoding } : {}),
          ...(responseCut ? { _truncated: true } : {}),
        },
        redirectURL: maskText(exchange.responseHeaders.location ?? ''),
        headersSize: -1,
        bodySize: exchange.responseBytes,
      },
      cache: {},
      timings: exchange.timings,
    };
    if (exchange.requestBytes > 0) {
      entry.request.postData = {
        mimeType: requestType,
        // HAR's postData has no encoding: a body that is not text is kept as base64 and says so.
        text: request.text,
        ...(requestCut ? { _truncated: true } : {}),
      };
      if (request.encoding) entry.comment = 'request body is base64 (not UTF-8 text)';
    }
    if (exchange.noAnswer !== undefined)
      entry.comment = `no answer from the target: ${exchange.noAnswer}`;
    return entry;
  }

  return {
    /** Adds an exchange, unless the recording is full (then it is counted). */
    add(exchange: CapturedExchange): void {
      if (entries.length >= maxEntries) {
        dropped += 1;
        return;
      }
      const entry = entryOf(exchange);
      const size = Buffer.byteLength(JSON.stringify(entry));
      if (bytes + size > maxBytes) {
        dropped += 1;
        return;
      }
      bytes += size;
      entries.push(entry);
    },
    /** How many exchanges were not recorded because the recording was full. */
    get dropped() {
      return dropped;
    },
    /** The recording so far. */
    document(): HarDocument {
      return {
        log: {
          version: '1.2',
          creator: { name: '@payment-service/contract', version: contractVersion },
          entries,
          ...(dropped > 0
            ? {
                comment: `${dropped} later exchange(s) not recorded: the recording reached its cap (${maxEntries} entries or ${maxBytes} bytes)`,
              }
            : {}),
        },
      };
    },
    /**
     * Writes the recording to `path` whole (through a temporary file, so a reader never sees half);
     * a write that fails (a full disk, `path` a directory) leaves no temporary file behind.
     */
    async write(path: string): Promise<void> {
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(this.document())}\n`);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}

/** The recorder type. */
export type HarRecorder = ReturnType<typeof createHarRecorder>;
