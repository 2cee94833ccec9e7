// Finds secret keys (`sk_<mode>_…`) and webhook signing secrets (`whsec_…`) in a request or answer as a server would read it: after percent-decoding, JSON string escapes and base64 (Basic credentials, or any base64 run), each undone up to a few times. One finder for the proxy's live-key refusal and the recording's masking; what a secret is comes from the SDK's masker (secretPattern), which decodes the same ways but base64 only in Basic credentials.
import { secretKind, secretMask, secretPattern } from '@payment-service/sdk';

/** How many decoding steps are undone on top of each other (`%255F` is two). */
const MAX_DECODING_DEPTH = 4;
/** Base64 runs shorter than this cannot hold a secret's prefix and are not decoded. */
const MIN_BASE64_RUN = 12;

/**
 * A key or signing secret as written: the SDK's pattern, the kit's one definition (glued after a
 * word, how far it runs; the bare prefix, advice such as "an sk_live_ key", is no key).
 */
const SECRET = secretPattern();

/** One text decoded from the raw text: for each of its characters, where it starts in the raw text. */
interface View {
  text: string;
  /** `from[i]` is the raw index of character i; `from[text.length]` is the raw end. */
  from: number[];
}

/** A secret found, as a span of the raw text, with the mask it is replaced by. */
export interface SecretSpan {
  start: number;
  end: number;
  /** `live`, `test`, … for a key; `whsec` for a signing secret. */
  mode: string;
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** `%XX` undone (each byte as one latin1 character); undefined when there is none. */
function percentDecoded(view: View): View | undefined {
  if (!view.text.includes('%')) return undefined;
  let text = '';
  const from: number[] = [];
  let changed = false;
  for (let index = 0; index < view.text.length; index++) {
    const hex = view.text.slice(index + 1, index + 3);
    from.push(view.from[index] as number);
    if (view.text[index] === '%' && HEX.test(hex)) {
      text += String.fromCharCode(Number.parseInt(hex, 16));
      index += 2;
      changed = true;
    } else text += view.text[index];
  }
  from.push(view.from[view.text.length] as number);
  return changed ? { text, from } : undefined;
}

const JSON_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** JSON string escapes undone (`\u005f`, `\/`); undefined when there is none. */
function jsonUnescaped(view: View): View | undefined {
  if (!view.text.includes('\\')) return undefined;
  let text = '';
  const from: number[] = [];
  let changed = false;
  for (let index = 0; index < view.text.length; index++) {
    from.push(view.from[index] as number);
    const character = view.text[index] as string;
    const next = view.text[index + 1] ?? '';
    if (
      character === '\\' &&
      next === 'u' &&
      /^[0-9A-Fa-f]{4}$/.test(view.text.slice(index + 2, index + 6))
    ) {
      text += String.fromCharCode(Number.parseInt(view.text.slice(index + 2, index + 6), 16));
      index += 5;
      changed = true;
    } else if (character === '\\' && next in JSON_ESCAPES) {
      text += JSON_ESCAPES[next];
      index += 1;
      changed = true;
    } else text += character;
  }
  from.push(view.from[view.text.length] as number);
  return changed ? { text, from } : undefined;
}

/** The raw text and every text a server could decode from it, up to `MAX_DECODING_DEPTH` steps. */
function views(text: string): View[] {
  const from = Array.from({ length: text.length + 1 }, (_, index) => index);
  const all: View[] = [{ text, from }];
  const seen = new Set([text]);
  let layer = all.slice();
  for (let depth = 0; depth < MAX_DECODING_DEPTH && layer.length > 0; depth++) {
    const next: View[] = [];
    for (const view of layer)
      for (const decoded of [percentDecoded(view), jsonUnescaped(view)])
        if (decoded && !seen.has(decoded.text)) {
          seen.add(decoded.text);
          next.push(decoded);
        }
    all.push(...next);
    layer = next;
  }
  return all;
}

/**
 * `text` and every text a server could decode from it by percent-encoding or JSON escapes, each
 * undone up to four times over (`%252e` → `%2e` → `.`).
 *
 * @example
 * decodings('/v1/%252e%252e'); // ['/v1/%252e%252e', '/v1/%2e%2e', '/v1/..']
 */
export function decodings(text: string): string[] {
  return views(text).map((view) => view.text);
}

/**
 * The parts of `word`'s base64 that do not depend on what stands around it, for each of the three
 * byte alignments: found in any base64 run, wherever the run was cut.
 */
function base64Signatures(word: string): string[] {
  const signatures: string[] = [];
  for (let alignment = 0; alignment < 3; alignment++) {
    const low = Buffer.concat([Buffer.alloc(alignment, 0), Buffer.from(word), Buffer.alloc(3, 0)]);
    const high = Buffer.concat([
      Buffer.alloc(alignment, 255),
      Buffer.from(word),
      Buffer.alloc(3, 255),
    ]);
    const [a, b] = [low.toString('base64'), high.toString('base64')];
    let run = '';
    let best = '';
    for (let index = 0; index < a.length; index++) {
      run = a[index] === b[index] ? run + a[index] : '';
      if (run.length > best.length) best = run;
    }
    signatures.push(best, best.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(signatures)];
}

/** What base64 of a live key looks like, at any alignment (standard and URL-safe alphabets). */
const LIVE_KEY_BASE64 = base64Signatures('sk_live_');
const BASE64_RUN = new RegExp(`[A-Za-z0-9+/_-]{${MIN_BASE64_RUN},}={0,2}`, 'g');

function secretSpansOf(view: View, spans: SecretSpan[]) {
  for (const match of view.text.matchAll(SECRET)) {
    const start = match.index;
    const end = start + match[0].length;
    spans.push({
      start: view.from[start] as number,
      end: view.from[end] as number,
      mode: secretKind(match[0]),
    });
  }
}

/**
 * The secrets of each base64 run already decoded in one search, by depth and run: a run stands in
 * every decoding of the text that holds it, and nested base64 multiplied the decodings at each
 * level (13 KB of a hostile answer took 2 s to mask).
 */
type Opened = Map<string, SecretSpan[]>;

function base64SpansOf(view: View, spans: SecretSpan[], depth: number, opened: Opened) {
  for (const match of view.text.matchAll(BASE64_RUN)) {
    const run = match[0];
    const span = {
      start: view.from[match.index] as number,
      end: view.from[match.index + run.length] as number,
    };
    if (LIVE_KEY_BASE64.some((signature) => run.includes(signature))) {
      spans.push({ ...span, mode: 'live' });
      continue;
    }
    if (depth >= MAX_DECODING_DEPTH) continue;
    const key = `${depth} ${run}`;
    let inner = opened.get(key);
    if (inner === undefined) {
      inner = findSecrets(Buffer.from(run, 'base64').toString('latin1'), depth + 1, opened);
      opened.set(key, inner);
    }
    const [first] = inner;
    if (first)
      spans.push({
        ...span,
        mode: inner.some((found) => found.mode === 'live') ? 'live' : first.mode,
      });
  }
}

/**
 * Every secret key and signing secret in `text`, as it stands or once decoded (percent-encoding,
 * JSON escapes, base64, each up to four steps deep), as spans of `text`, overlaps merged. A secret
 * found inside a base64 run spans the whole run.
 *
 * @example
 * findSecrets('/v1/payments?key=sk%5Flive_abc'); // [{ start: 17, end: 30, mode: 'live' }]
 */
export function findSecrets(text: string, depth = 0, opened: Opened = new Map()): SecretSpan[] {
  const spans: SecretSpan[] = [];
  // Nothing of a secret, plain or encoded, fits in fewer characters than `whsec_`.
  if (text.length < 6) return spans;
  for (const view of views(text)) {
    secretSpansOf(view, spans);
    base64SpansOf(view, spans, depth, opened);
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretSpan[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      if (span.mode === 'live') last.mode = 'live';
    } else merged.push({ ...span });
  }
  return merged;
}

const PERCENT = /%([0-9A-Fa-f]{2})/g;
const JSON_ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|(["\\/bfnrt]))/g;

/** `text` and what percent-decoding and JSON escapes make of it, as text only (the refusal's fast path). */
function decodedTexts(text: string): string[] {
  const all = [text];
  let layer = [text];
  for (let depth = 0; depth < MAX_DECODING_DEPTH && layer.length > 0; depth++) {
    const next: string[] = [];
    for (const current of layer) {
      const decoded = [
        current.includes('%')
          ? current.replace(PERCENT, (_, hex: string) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            )
          : current,
        current.includes('\\')
          ? current.replace(
              JSON_ESCAPE,
              (_, hex: string | undefined, simple: string | undefined) =>
                hex !== undefined
                  ? String.fromCharCode(Number.parseInt(hex, 16))
                  : (JSON_ESCAPES[simple as string] as string),
            )
          : current,
      ];
      for (const text of decoded)
        if (!all.includes(text)) {
          all.push(text);
          next.push(text);
        }
    }
    layer = next;
  }
  return all;
}

/** Whether one text shows `sk_live_`, as it stands, decoded, or in base64 (nested up to the depth bound). */
function showsLiveKey(text: string, depth: number): boolean {
  for (const decoded of decodedTexts(text)) {
    if (decoded.includes('sk_live_')) return true;
    if (decoded.length < MIN_BASE64_RUN) continue;
    if (LIVE_KEY_BASE64.some((signature) => decoded.includes(signature))) return true;
    if (depth >= MAX_DECODING_DEPTH) continue;
    // A base64 run that hides an encoded key (base64 of `sk%5Flive_…`): decoded, then looked at again.
    for (const [run] of decoded.matchAll(BASE64_RUN)) {
      const inner = Buffer.from(run, 'base64').toString('latin1');
      if ((inner.includes('%') || inner.includes('\\')) && showsLiveKey(inner, depth + 1))
        return true;
    }
  }
  return false;
}

/**
 * Whether any of the texts (a request line, a header name or value, a body) carries an `sk_live_`
 * key, as it stands or as a server would decode it: percent-encoded (`sk%5Flive_`, `/v1/%73k_live_`),
 * inside Basic credentials or any base64, JSON-escaped (`sk\u005flive_`).
 *
 * @example
 * carriesLiveKey('Bearer sk_live_abc', '/v1/payments'); // true
 * carriesLiveKey(undefined, '/v1/payments?key=sk%5Flive_abc'); // true
 */
export function carriesLiveKey(...texts: Array<string | undefined>): boolean {
  return texts.some((text) => text !== undefined && showsLiveKey(text, 0));
}

/** The mask a secret is replaced by: its kind, never its characters (`sk_test_…`, `whsec_…`). */
function maskOf(span: SecretSpan): string {
  return secretMask(span.mode);
}

/** What base64 of a key's or a signing secret's start looks like (any mode), at any alignment. */
const SECRET_BASE64 = [...base64Signatures('sk_'), ...base64Signatures('whsec_')];

/** Whether `text` may hold a secret in any form: the cheap look before the exact one (text only, no maps). */
function mayHoldSecret(text: string): boolean {
  return decodedTexts(text).some(
    (decoded) =>
      decoded.includes('sk_') ||
      decoded.includes('whsec_') ||
      SECRET_BASE64.some((signature) => decoded.includes(signature)) ||
      [...decoded.matchAll(BASE64_RUN)].some(([run]) => {
        const inner = Buffer.from(run, 'base64').toString('latin1');
        return inner.includes('%') || inner.includes('\\');
      }),
  );
}

/** `text` with the spans `findSecrets` finds replaced, again until none is left (a few rounds at most). */
function maskSpans(text: string): string {
  let masked = text;
  for (let round = 0; round < 3; round++) {
    const spans = findSecrets(masked);
    if (spans.length === 0) return masked;
    let next = '';
    let at = 0;
    for (const span of spans) {
      next += masked.slice(at, span.start) + maskOf(span);
      at = span.end;
    }
    masked = next + masked.slice(at);
  }
  return masked;
}

/** Past this many characters, a text is masked line by line (a report), each line only if it may hold a secret. */
const WHOLE_TEXT_CHARS = 16 * 1024;

/**
 * `text` with every secret key and signing secret replaced by its kind (`sk_test_…`), found as
 * `findSecrets` finds them: percent-encoded, JSON-escaped or in base64 included. A long text (a
 * report) is masked line by line, and a line that cannot hold a secret is left as it is.
 *
 * @example
 * maskDecodedSecrets('k=sk%5Ftest%5Fharsecret%5F0001&x=1'); // 'k=sk_test_…&x=1'
 */
export function maskDecodedSecrets(text: string): string {
  if (!mayHoldSecret(text)) return text;
  if (text.length <= WHOLE_TEXT_CHARS || !text.includes('\n')) return maskSpans(text);
  return text
    .split('\n')
    .map((line) => (mayHoldSecret(line) ? maskSpans(line) : line))
    .join('\n');
}

/**
 * Bytes that are not UTF-8 text with their secrets masked: read byte for byte (latin1), masked as
 * `maskDecodedSecrets` masks, the masks written as UTF-8.
 *
 * @example
 * maskDecodedSecretsInBytes(Buffer.from([0xff, ...Buffer.from('sk_test_abc')])); // <ff 73 6b … e2 80 a6>
 */
export function maskDecodedSecretsInBytes(bytes: Uint8Array): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const masked = maskDecodedSecrets(text);
  if (masked === text) return Buffer.from(bytes);
  const out: number[] = [];
  for (const character of masked) {
    const code = character.codePointAt(0) as number;
    if (code <= 0xff) out.push(code);
    else out.push(...Buffer.from(character, 'utf8'));
  }
  return Buffer.from(out);
}

/** How much of a streamed body is held back so that a key cut between two chunks is still seen whole. */
export const LIVE_KEY_WINDOW_BYTES = 1024;

/**
 * Scans a streamed body for a live key as it passes: `push` each chunk and forward what it
 * returns (all but the last `LIVE_KEY_WINDOW_BYTES`, which wait for the next chunk), then `end`;
 * either returns `'refused'` once a live key is seen, and nothing of it is returned before. Its
 * types name `Uint8Array` (a `Buffer` is one), so that this module's declarations need no Node types.
 *
 * @example
 * const scan = liveKeyScanner();
 * const pass = scan.push(chunk); // a Buffer to forward, or 'refused'
 */
export function liveKeyScanner(window = LIVE_KEY_WINDOW_BYTES) {
  let held: Buffer = Buffer.alloc(0);
  const scan = (bytes: Buffer) => carriesLiveKey(bytes.toString('latin1'));
  return {
    push(chunk: Uint8Array): Uint8Array | 'refused' {
      held =
        held.byteLength === 0
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.concat([held, chunk]);
      if (scan(held)) return 'refused';
      const cut = Math.max(0, held.byteLength - window);
      const pass = held.subarray(0, cut);
      held = held.subarray(cut);
      return pass;
    },
    end(): Uint8Array | 'refused' {
      const rest = held;
      held = Buffer.alloc(0);
      return scan(rest) ? 'refused' : rest;
    },
  };
}
