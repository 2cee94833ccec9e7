// Masks secrets in any text the kit shows: secret keys (`sk_test_…`, `sk_live_…`) and webhook signing secrets (`whsec_…`). The one masker of the kit: the mock, the contract checks and the proxy use it (the proxy's finder takes its pattern from here).
//
// What is a key (the provider's document §5 says only that keys begin with `sk_`, sandbox keys
// with `sk_test_`; the mock accepts `sk_test_` and 8 to 128 of `A-Z a-z 0-9 _ -`; the SDK sends
// any visible ASCII after `sk_`):
// - `sk_<mode>_` (any mode of letters and digits) and at least one key character, where `sk_` does
//   not follow a letter, a digit or `_`: `sk_test_a1`, `(sk_live_x)`, `key=sk_prod_abc`.
// - glued after a letter, a digit or `_` (`x_sk_test_…`, `Bearersk_live_…`, `123sk_test_…`): only
//   `sk_test_` or `sk_live_` followed by at least 8 of the mock's key alphabet, so that words
//   stay as written: `task_test_`, `task_test_runner`, `desk_live_feed`, `risk_level_high_value`.
//   An identifier such as `task_test_results_2024` is masked (`task_test_…`): it cannot be told
//   from a key glued after `ta`, and hiding a word costs less than showing a key.
// - either way the key runs on over every visible ASCII character that is not a delimiter of
//   URL, JSON or header syntax (`sk_live_Zz9-x.y!z` is masked whole, not up to the dot).
// - `whsec_` and its base64 the same way (standalone: any length; glued: 8 base64 characters).
// It is found as written, percent-encoded (`sk%5Ftest%5F…`, `%73k_…`, escaped twice), JSON-escaped
// (`sk\u005ftest_…`), each undone up to four times over, and inside `Basic` credentials. Only the
// secret's characters are replaced (`sk_test_…`); the text around it stays as it was written.

/** What a key runs over: visible ASCII but `"#&'(),/;<=>?[\]`{|}`; a signing secret's base64 also over `/` and `=`. */
const KEY_TAIL = '[!$%*+\\-.\\w:@^~]+';
const SECRET_TAIL = '[!$%*+\\-./\\w:=@^~]+';

/** The regular expression source of a key or signing secret, as described above. */
const SECRET_SOURCE = `(?<!\\w)sk_[^\\W_]+_${KEY_TAIL}|(?<=\\w)sk_(?:test|live)_(?=[\\w-]{8})${KEY_TAIL}|(?<!\\w)whsec_${SECRET_TAIL}|(?<=\\w)whsec_(?=[\\w+/=-]{8})${SECRET_TAIL}`;

/**
 * A fresh global regular expression matching one secret key or signing secret as written (no
 * decoding): the kit's one definition, for finders that decode on their own (the proxy's).
 *
 * @example
 * 'x_sk_test_abcdefgh12 task_test_'.match(secretPattern()); // ['sk_test_abcdefgh12']
 */
export function secretPattern(): RegExp {
  return new RegExp(SECRET_SOURCE, 'g');
}

/**
 * The kind of a secret matched by {@link secretPattern}: its mode (`test`, `live`, …) for a key,
 * `whsec` for a signing secret.
 *
 * @example
 * secretKind('sk_live_abc'); // 'live'
 */
export function secretKind(secret: string): string {
  return secret.startsWith('whsec_') ? 'whsec' : secret.slice(3, secret.indexOf('_', 3));
}

/**
 * What a secret is shown as: its kind, never its characters.
 *
 * @example
 * secretMask('live'); // 'sk_live_…'
 */
export function secretMask(kind: string): string {
  return kind === 'whsec' ? 'whsec_…' : `sk_${kind}_…`;
}

/** A secret found in a text: where it stands as written, and its kind (see {@link secretKind}). */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

const SECRET = secretPattern();

/** How many decodings are undone on top of each other (`%255F` is two). */
const MAX_DEPTH = 4;

/**
 * A text decoded from the one before it (none: the raw text). Where its characters stand in the
 * text before it, by breakpoints: from `at[k]` on, character `at[k] + n` stands at `before[k] + n`
 * (an escape's character is a breakpoint of its own, standing where the escape starts). So a 1 MB
 * body with one escape costs one copy of the text and two breakpoints, not a number per character.
 */
interface View {
  text: string;
  parent?: View;
  at?: number[];
  before?: number[];
}

/** The last k with `sorted[k] <= value` (sorted ascending, `sorted[0]` is 0). */
function lastAtOrBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sorted[middle] as number) <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Where character `index` of a view (or its end, at the view's length) starts in the raw text. */
function rawIndex(view: View, index: number): number {
  let at = index;
  for (let current = view; current.parent !== undefined; current = current.parent) {
    const points = current.at as number[];
    const k = lastAtOrBelow(points, at);
    at = ((current.before as number[])[k] as number) + (at - (points[k] as number));
  }
  return at;
}

/** One escape a server may undo: `%XX`, or JSON's `\uXXXX` and `\n`-style escapes. */
const ESCAPES = /%[\dA-Fa-f]{2}|\\(?:u[\dA-Fa-f]{4}|["\\/bfnrt])/g;

/** The character one escape stands for (a JSON escape read as JSON reads it). */
function unescaped(sequence: string): string {
  return sequence[0] === '%'
    ? String.fromCharCode(Number.parseInt(sequence.slice(1), 16))
    : (JSON.parse(`"${sequence}"`) as string);
}

/** `view` with its escapes undone, or undefined when it holds none. */
function decoded(view: View): View | undefined {
  const chunks: string[] = [];
  const at = [0];
  const before = [0];
  for (const { 0: sequence, index } of view.text.matchAll(ESCAPES)) {
    // The last breakpoint starts the verbatim run this escape ends.
    const copied = before[before.length - 1] as number;
    const length = (at[at.length - 1] as number) + index - copied;
    chunks.push(view.text.slice(copied, index), unescaped(sequence));
    at.push(length, length + 1);
    before.push(index, index + sequence.length);
  }
  if (chunks.length === 0) return undefined;
  chunks.push(view.text.slice(before[before.length - 1]));
  return { text: chunks.join(''), parent: view, at, before };
}

/** What a decoded text holds when it may hold a secret: a key's or signing secret's prefix, or `Basic`. */
const SECRET_HINT = /sk_|whsec_|basic/i;

/**
 * Whether undoing the escapes of `text`, up to `MAX_DEPTH` times, makes a text that may hold a
 * secret: the cheap look (text only, no index maps) that spares a query string such as
 * `q=caf%C3%A9%20order` the decoded views.
 */
function decodesToHint(text: string): boolean {
  let current = text;
  for (let depth = 0; depth < MAX_DEPTH && /[%\\]/.test(current); depth++) {
    const next = current.replace(ESCAPES, unescaped);
    if (next === current) return false;
    if (SECRET_HINT.test(next)) return true;
    current = next;
  }
  return false;
}

/** The raw text, then what undoing its escapes makes of it, again and again (`%255F` is two), up to `MAX_DEPTH` times. */
function views(text: string): View[] {
  const all: View[] = [{ text }];
  if (!decodesToHint(text)) return all;
  for (let view: View | undefined = all[0]; all.length <= MAX_DEPTH && view !== undefined; ) {
    view = /[%\\]/.test(view.text) ? decoded(view) : undefined;
    if (view !== undefined) all.push(view);
  }
  return all;
}

/** `Basic` credentials: base64 of `user:password`, after a space (a `+` in a form body or query). */
const BASIC_CREDENTIALS = /\bBasic[ \t+]+([A-Za-z0-9+/_-]{4,}={0,2})/gi;

/**
 * The secrets inside a view's `Basic` credentials, each spanning the whole base64 token. A token is
 * decoded once however many views hold it (`kinds`: what each token holds), and the credentials are
 * searched as written and decoded but not for `Basic` credentials inside them (a server opens
 * them once): base64 inside base64 multiplied the work by the views at each level (3 KB took 1 s).
 */
function basicSpans(view: View, kinds: Map<string, string | undefined>, spans: SecretSpan[]): void {
  if (!/basic/i.test(view.text)) return;
  for (const match of view.text.matchAll(BASIC_CREDENTIALS)) {
    const token = match[1] as string;
    if (!kinds.has(token)) kinds.set(token, credentialsKind(token));
    const kind = kinds.get(token);
    if (kind === undefined) continue;
    const start = match.index + match[0].length - token.length;
    spans.push({ start: rawIndex(view, start), end: rawIndex(view, start + token.length), kind });
  }
}

/** The kind of the first secret in base64 `Basic` credentials, or undefined. */
function credentialsKind(token: string): string | undefined {
  try {
    return findSecretsAt(atob(token.replace(/-/g, '+').replace(/_/g, '/')), false)[0]?.kind;
  } catch {
    return undefined;
  }
}

/** Whether `text` may hold a secret in any form this masker reads: the cheap look first. */
const MAY_HOLD_SECRET = /sk_|whsec_|[%\\]|basic/i;

/** The secrets in `text` and its decodings; in `Basic` credentials too when `basic`. */
function findSecretsAt(text: string, basic: boolean): SecretSpan[] {
  if (!MAY_HOLD_SECRET.test(text)) return [];
  const spans: SecretSpan[] = [];
  const kinds = new Map<string, string | undefined>();
  for (const view of views(text)) {
    // The pattern's lookbehinds cost 40 ns a character: looked for only where a prefix stands.
    const prefixed = view.text.includes('sk_') || view.text.includes('whsec_');
    for (const match of prefixed ? view.text.matchAll(SECRET) : []) {
      spans.push({
        start: rawIndex(view, match.index),
        end: rawIndex(view, match.index + match[0].length),
        kind: secretKind(match[0]),
      });
    }
    if (basic) basicSpans(view, kinds, spans);
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretSpan[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      if (span.kind === 'live') last.kind = 'live';
    } else merged.push({ ...span });
  }
  return merged;
}

/**
 * Every secret key and signing secret in `text`, as written, percent-encoded, JSON-escaped or in
 * `Basic` credentials, as spans of `text` (overlaps merged; `live` wins a merge).
 *
 * @example
 * findSecrets('GET /v1/payments/sk%5Flive%5Fabc'); // [{ start: 17, end: 32, kind: 'live' }]
 */
export function findSecrets(text: string): SecretSpan[] {
  return findSecretsAt(text, true);
}

/**
 * Replaces every secret key in `text` by its kind (`sk_test_…` or `sk_live_…`), and every
 * webhook signing secret by `whsec_…`, wherever it stands (after a word, percent-encoded,
 * JSON-escaped, in `Basic` credentials); the rest of the text stays as written.
 *
 * @example
 * maskSecrets('the key sk_test_abc123 is not valid'); // 'the key sk_test_… is not valid'
 * maskSecrets('id=x_sk_live_4eC39HqLyjWDarjtT1zdp7dc'); // 'id=x_sk_live_…'
 * maskSecrets('/v1/payments/sk%5Ftest%5Fabcdefgh'); // '/v1/payments/sk_test_…'
 * maskSecrets('secret whsec_c2VjcmV0'); // 'secret whsec_…'
 * maskSecrets('Use an sk_… key here; task_test_ runs'); // unchanged
 */
export function maskSecrets(text: string): string {
  const spans = findSecrets(text);
  if (spans.length === 0) return text;
  let masked = '';
  let at = 0;
  for (const span of spans) {
    masked += text.slice(at, span.start) + secretMask(span.kind);
    at = span.end;
  }
  return masked + text.slice(at);
}

/**
 * A copy of a JSON value with every secret inside its strings (and member names) masked; the
 * value itself when it holds none.
 *
 * @example
 * maskSecretsIn({ detail: 'sk_live_123 refused' }); // { detail: 'sk_live_… refused' }
 */
export function maskSecretsIn<Value>(value: Value): Value {
  const json = JSON.stringify(value);
  if (json === undefined || findSecrets(json).length === 0) return value;
  return maskStrings(JSON.parse(json)) as Value;
}

/** A parsed JSON value with each string masked (a member named `__proto__` stays a member). */
function maskStrings(value: unknown): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (Array.isArray(value)) return value.map(maskStrings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [maskSecrets(name), maskStrings(item)]),
  );
}
