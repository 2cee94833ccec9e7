// How the Redis store trusts what it reads: each record checked once against the API's rules, a failure a 503 naming the key, and a bounded memory of texts already checked.
import { describeProblem, type RecordChecks, type RecordProblem } from '../record-checks.js';
import { StoreUnavailableError } from '../store.js';

/**
 * A record read from Valkey/Redis failed the checks every record passes (written by hand, by a
 * bug, by another version): the request is answered `503 store_unavailable` (as for a store that
 * cannot be reached) and the key and field are logged, instead of a 500 or a bad answer.
 *
 * @example
 * if (error instanceof StoreRecordError) log(error.message);
 */
export class StoreRecordError extends StoreUnavailableError {}

/** Characters of checked texts remembered, by default: 4 Mi (a few thousand payments). */
export const CHECKED_CHARACTERS = 4 << 20;
/** Distinct refusals logged; past it they are counted, not logged. */
const MAX_LOGGED = 256;

const NO_PARTS: readonly string[] = [];

/**
 * The texts of records known to hold: read and checked, or written by this process. A text seen
 * again is not checked again (a payment listed on every request costs one lookup, not a schema
 * check). A record stored in several strings (a payment: its JSON, its meta, its later steps) is
 * remembered by its main text with the others beside it, compared as they are (no string is built
 * to look it up). Bounded in characters, the oldest forgotten first.
 *
 * @example
 * const known = new CheckedTexts(1 << 20);
 * known.add(json, [meta]); known.has(json, [meta]); // true
 */
export class CheckedTexts {
  private readonly texts = new Map<string, readonly string[]>();
  private characters = 0;

  constructor(private readonly maxCharacters = CHECKED_CHARACTERS) {}

  has(text: string, parts: readonly string[] = NO_PARTS): boolean {
    const known = this.texts.get(text);
    if (known === undefined || known.length !== parts.length) return false;
    for (let index = 0; index < parts.length; index++) {
      if (known[index] !== parts[index]) return false;
    }
    return true;
  }

  /** Remembers a text that holds (one longer than a sixteenth of the budget is not kept). */
  add(text: string, parts: readonly string[] = NO_PARTS): void {
    const size = parts.reduce((sum, part) => sum + part.length, text.length);
    if (size > this.maxCharacters / 16) return;
    const before = this.texts.get(text);
    if (before !== undefined) {
      this.characters -= before.reduce((sum, part) => sum + part.length, text.length);
      this.texts.delete(text);
    }
    this.texts.set(text, parts);
    this.characters += size;
    for (const [oldest, oldParts] of this.texts) {
      if (this.characters <= this.maxCharacters) break;
      this.texts.delete(oldest);
      this.characters -= oldParts.reduce((sum, part) => sum + part.length, oldest.length);
    }
  }
}

/**
 * What every decoder of the Redis store uses: the record checks, the texts known to hold, and the
 * refusal of a record that fails (an error to throw, logged once per key and field).
 *
 * @example
 * const reading = new RecordReading(checks, log);
 * const problem = checks.faults(JSON.parse(text));
 * if (problem !== undefined) throw reading.refuse('psm:a:…', "a key's faults", problem);
 */
export class RecordReading {
  readonly known = new CheckedTexts();
  private readonly logged = new Set<string>();
  /** Refusals not logged (past `MAX_LOGGED` distinct ones). */
  unlogged = 0;

  constructor(
    readonly checks: RecordChecks,
    private readonly log: ((line: string) => void) | undefined,
  ) {}

  /**
   * The error for a record at `key` that fails its checks (`what`: the kind of record, and the
   * hash field when there is one), logged the first time.
   */
  refuse(key: string, what: string, problem: RecordProblem): StoreRecordError {
    const message = `the store's key ${key} holds ${describeProblem(what, problem)}. The sandbox checks what it reads as it checks what the API receives: requests that read it are answered 503 store_unavailable until the value is fixed or the key's sandbox is reset (POST /_sandbox/reset).`;
    const seen = `${key}\u0000${problem.field}`;
    if (this.logged.has(seen)) return new StoreRecordError(message);
    if (this.logged.size < MAX_LOGGED) {
      this.logged.add(seen);
      this.log?.(`store: ${message}`);
    } else {
      this.unlogged++;
    }
    return new StoreRecordError(message);
  }

  /**
   * Checks a record given as its stored `text` unless that text is known to hold: `check` gives
   * the first problem of the parsed value. Throws the refusal; else remembers the text.
   */
  checkText(
    text: string,
    key: string,
    what: string,
    check: (value: unknown) => RecordProblem | undefined,
  ): void {
    if (this.known.has(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.refuse(key, what, { field: 'value', message: 'the value must be JSON' });
    }
    const problem = check(value);
    if (problem !== undefined) throw this.refuse(key, what, problem);
    this.known.add(text);
  }
}
