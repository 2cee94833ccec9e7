// One sandbox key in Valkey/Redis: the AccountStore whose every call is one script (or one command) on the server.
import type { components, SandboxComponents } from '@payment-service/openapi';
import { takeDrop, takeFailure } from '../../shared/faults.js';
import type { ProblemInit } from '../../shared/problems.js';
import {
  PAYMENT_BYTES,
  paymentBytes,
  recordBytes,
  requestBytes,
  responseBytes,
  stringBytes,
} from '../byte-sizes.js';
import type {
  IdempotencyRecord,
  PaymentRecord,
  StoredPayment,
  StoredResponse,
  TimelineStep,
} from '../records.js';
import { StoredPayment as Stored } from '../records.js';
import type { RecordedEntry } from '../request-records.js';
import type { AccountStore, HeldWrites, IdempotencyCompletion, PaymentPage } from '../store.js';
import {
  decodeEntry,
  decodePayments,
  decodeRecord,
  encodeRecord,
  paymentMeta,
  rememberPayment,
} from './codec.js';
import type { RedisContext } from './context.js';
import { StoreUnavailableError } from './errors.js';
import { RedisWebhooks } from './redis-webhooks.js';
import {
  SCRIPT_CODES,
  type ScriptArguments,
  type ScriptCallArguments,
  type ScriptName,
} from './scripts.js';

type Payment = components['schemas']['Payment'];
type Faults = SandboxComponents['schemas']['Faults'];

/**
 * What `psm_find`/`psm_open` answer: generation, offset, faults, webhooks used, endpoints,
 * whether it keeps data for good (1/0), when its next PENDING payment settles (or '').
 */
export type AccountState = [string, string, string, string, number, number, string];

/**
 * How many elements of a `psm_find`/`psm_open` answer are the account's state: typed as the
 * length of `AccountState` (a change of either fails to compile), and held to the table
 * `state()` answers in lua/include/state.lua by lua-sources.test.ts.
 */
export const ACCOUNT_STATE_LENGTH: AccountState['length'] = 7;

/**
 * The arguments of `psm_claim_key` (also the claim of `psm_open`): the record, its bytes, the
 * key's time, the per-key caps, and the instance taking it with its clock (a record in flight for
 * an instance that stopped beating may be taken over).
 *
 * @example
 * await account.run('psm_claim_key', claimArguments(context, record, accountNow));
 */
export function claimArguments(
  context: Pick<RedisContext, 'limits' | 'owner' | 'clock'>,
  record: IdempotencyRecord,
  accountNow: number,
): ScriptArguments['psm_claim_key'] {
  const { limits, owner, clock } = context;
  return {
    key: record.key,
    json: encodeRecord(record),
    bytes:
      recordBytes(record) + (record.response === undefined ? 0 : responseBytes(record.response)),
    accountNow,
    expiresAt: record.expiresAt,
    serverExpiresAt: record.serverExpiresAt,
    maxRecords: limits.maxIdempotencyRecordsPerKey,
    budget: limits.keyMemoryBudgetBytes,
    owner,
    serverNow: clock === undefined ? '' : clock(),
  };
}

/**
 * The handle of one key's data in Valkey/Redis (one per key and store). Its offset, faults and
 * endpoint count are read with the account (`find`/`open`, one round trip) and kept up to date
 * by its own calls; every other read and every write is one round trip. Once the key is reset
 * or released (by any instance), its writes change nothing and `closed` turns true.
 *
 * @example
 * const account = await store.open('sk_test_12345678');
 * await account.createPayment(record);
 */
export class RedisAccount implements AccountStore {
  closed = false;
  offsetSeconds = 0;
  faults: Faults = {};
  /** The account's generation when this handle read it: writes made under another change nothing. */
  generation = '';
  /** Endpoints the key has (read with the account). */
  endpoints = 0;
  /**
   * Whether the account keeps data while its generation lives (a payment or a logged request:
   * the key's own caps never evict the last one), so releasing it would do nothing.
   */
  kept = false;
  /** When the next PENDING payment settles (key's clock), as last read or made here. */
  settlesNext: number | undefined;
  private hooks: RedisWebhooks | undefined;
  /** The account's hash key. */
  readonly key: string;

  constructor(
    readonly context: RedisContext,
    /** The hash of the API key (sha256, hex). */
    readonly hash: string,
  ) {
    this.key = `${context.prefix}a:${hash}`;
  }

  /** Takes the account's state as just read. */
  refresh([generation, offset, faults, hooks, endpoints, kept, settles]: AccountState): void {
    const { reading } = this.context;
    const seconds = Number(offset);
    const problem = reading.checks.offset(seconds);
    if (problem !== undefined) throw reading.refuse(this.key, "a key's clock offset", problem);
    reading.checkText(faults, this.key, "a key's faults", (value) => reading.checks.faults(value));
    this.generation = generation;
    this.kept = kept === 1;
    this.settlesNext = settles === '' ? undefined : Number(settles);
    this.offsetSeconds = seconds;
    this.faults = JSON.parse(faults) as Faults;
    this.endpoints = Number(endpoints);
    if (hooks === '1') this.hooks ??= new RedisWebhooks(this);
  }

  /** Runs a script on this account (its key, hash and generation) with its named arguments. */
  run<N extends ScriptName>(name: N, ...args: ScriptCallArguments<N>): Promise<unknown> {
    return this.context.runner.script(name, this, ...args);
  }

  /** Runs one plain command. */
  command<T>(run: () => Promise<T>): Promise<T> {
    return this.context.runner.command(run);
  }

  /** Payments of a script's answer from `from`, checked (see `decodePayments`). */
  decodePayments(fields: readonly unknown[], from: number): StoredPayment[] {
    return decodePayments(fields, from, this.context.reading, this.part('p'));
  }

  /** An Idempotency-Key record read back, checked (see `decodeRecord`). */
  decodeRecord(text: string): IdempotencyRecord {
    return decodeRecord(text, this.context.reading, this.part('i'));
  }

  /** The key of one of the account's parts (see keys.ts). */
  part(name: string): string {
    return `${this.key}:${name}`;
  }

  now(serverNow: number): number {
    return serverNow + this.offsetSeconds * 1000;
  }

  async setOffset(seconds: number): Promise<void> {
    this.offsetSeconds = seconds;
    if ((await this.run('psm_set', { field: 'off', value: seconds })) === 0) this.closed = true;
  }

  async advanceOffset(seconds: number, maxSeconds: number): Promise<number> {
    const sum = Number(await this.run('psm_advance', { seconds, max: maxSeconds }));
    if (sum === -1) {
      // Reset since: the reset account's offset is 0, and this handle writes nothing more.
      this.closed = true;
      return this.offsetSeconds + seconds;
    }
    if (sum <= maxSeconds) this.offsetSeconds = sum;
    return sum;
  }

  async setFaults(faults: Faults): Promise<void> {
    this.faults = faults;
    if ((await this.run('psm_set', { field: 'f', value: JSON.stringify(faults) })) === 0)
      this.closed = true;
  }

  async consumeFailure(): Promise<ProblemInit | undefined> {
    // Armed faults are read with the account on every request: nothing armed, nothing to ask.
    if (this.faults.fail_next === undefined) return undefined;
    const taken = await this.consume('fail_next');
    return taken === undefined
      ? undefined
      : takeFailure({ fail_next: taken as Faults['fail_next'] });
  }

  async consumeDrop(): Promise<boolean> {
    if (this.faults.drop_after_commit === undefined) return false;
    const taken = await this.consume('drop_after_commit');
    return (
      taken !== undefined && takeDrop({ drop_after_commit: taken as Faults['drop_after_commit'] })
    );
  }

  private async consume(which: 'fail_next' | 'drop_after_commit'): Promise<unknown> {
    const answer = (await this.run('psm_consume_fault', { which })) as [string, string] | null;
    if (answer === null) {
      delete this.faults[which];
      return undefined;
    }
    const { reading } = this.context;
    const check = (value: unknown) => reading.checks.faults(value);
    reading.checkText(answer[1], this.key, "a key's faults", check);
    // The fault taken is checked as the faults it was part of.
    const taken = `{${JSON.stringify(which)}:${answer[0]}}`;
    reading.checkText(taken, this.key, "a key's faults", check);
    this.faults = JSON.parse(answer[1]) as Faults;
    return JSON.parse(answer[0]) as unknown;
  }

  async payment(id: string): Promise<StoredPayment | undefined> {
    return this.decodePayments((await this.run('psm_payment', { id })) as unknown[], 0)[0];
  }

  async listPayments(limit: number, startingAfter?: string): Promise<PaymentPage | undefined> {
    const answer = (await this.run('psm_list', {
      limit,
      startingAfter: startingAfter ?? '',
    })) as unknown[] | null;
    if (answer === null) return undefined;
    return { data: this.decodePayments(answer, 1), has_more: answer[0] === 1 };
  }

  async storedPayments(): Promise<StoredPayment[]> {
    return this.decodePayments((await this.run('psm_payments')) as unknown[], 0);
  }

  async createPayment(
    record: PaymentRecord,
    idempotency?: IdempotencyCompletion,
  ): Promise<StoredPayment | undefined> {
    const [at, status, amount, changes] = record.timeline;
    const build = (sequence: number) =>
      new Stored(
        record.id,
        record.json,
        sequence,
        record.token,
        record.settlesAt,
        { at, status, amount },
        changes ?? undefined,
      );
    const { limits } = this.context;
    // What this process writes holds: read back, it is not checked again.
    const { reading } = this.context;
    const meta = paymentMeta(record);
    rememberPayment(reading, record, meta);
    const args: ScriptArguments['psm_create'] = {
      id: record.id,
      json: record.json,
      meta,
      settlesAt: record.settlesAt ?? '',
      bytes: paymentBytes(build(0)),
      maxPayments: limits.maxPaymentsPerKey,
      budget: limits.keyMemoryBudgetBytes,
      maxRecords: limits.maxIdempotencyRecordsPerKey,
      changes: changes ?? '',
    };
    if (idempotency !== undefined) {
      const { record: claimed, response } = idempotency;
      const completedJson = encodeRecord({ ...claimed, response });
      reading.known.add(completedJson);
      args.completion = {
        key: claimed.key,
        inFlightJson: encodeRecord({ ...claimed, response: undefined }),
        completedJson,
        responseBytes: responseBytes(response),
      };
    }
    const answer = await this.run('psm_create', args);
    if (answer === SCRIPT_CODES.TAKEN) {
      // Another instance took the key over, this one being presumed dead: it makes the payment.
      throw new StoreUnavailableError(
        'the store gave this Idempotency-Key to another instance while this one did not answer its heartbeat',
      );
    }
    // Made nothing (the texts remembered above hold all the same: they are this process's own).
    if (answer === SCRIPT_CODES.ID_HELD) return undefined;
    if (idempotency !== undefined) idempotency.record.response = idempotency.response;
    if (answer === SCRIPT_CODES.CLOSED) {
      this.closed = true;
      return build(-1);
    }
    this.kept = true;
    const { settlesAt } = record;
    if (
      settlesAt !== undefined &&
      !(this.settlesNext !== undefined && this.settlesNext <= settlesAt)
    ) {
      this.settlesNext = settlesAt;
    }
    return build(Number((answer as [number, number])[0]));
  }

  async transitionPayment(
    id: string,
    expectedJson: string,
    payment: Payment,
    step: TimelineStep,
    idempotency?: IdempotencyCompletion,
  ): Promise<boolean> {
    const json = JSON.stringify(payment);
    const bytes = PAYMENT_BYTES + stringBytes(id) + stringBytes(json);
    const stepJson = JSON.stringify(step);
    const args: ScriptArguments['psm_transition'] = { id, expectedJson, json, stepJson, bytes };
    if (idempotency !== undefined) {
      const { record: claimed, response } = idempotency;
      const { limits } = this.context;
      args.completion = {
        key: claimed.key,
        inFlightJson: encodeRecord({ ...claimed, response: undefined }),
        completedJson: encodeRecord({ ...claimed, response }),
        responseBytes: responseBytes(response),
        maxRecords: limits.maxIdempotencyRecordsPerKey,
        budget: limits.keyMemoryBudgetBytes,
      };
    }
    const answer = await this.run('psm_transition', args);
    if (answer !== 1) return false;
    if (idempotency !== undefined) idempotency.record.response = idempotency.response;
    return true;
  }

  async takeDueSettlements(accountNow: number): Promise<StoredPayment[]> {
    return this.decodePayments((await this.run('psm_settle', { accountNow })) as unknown[], 0);
  }

  async nextSettlementAt(): Promise<number | undefined> {
    return this.firstScore('s');
  }

  /** The lowest score of one of the account's sorted sets. */
  async firstScore(part: string): Promise<number | undefined> {
    const [, score] = await this.command(() =>
      this.context.runner.client.zrange(this.part(part), 0, 0, 'WITHSCORES'),
    );
    return score === undefined ? undefined : Number(score);
  }

  async idempotencyRecord(key: string): Promise<IdempotencyRecord | undefined> {
    const text = await this.command(() => this.context.runner.client.hget(this.part('i'), key));
    return text === null ? undefined : this.decodeRecord(text);
  }

  async claimIdempotencyKey(
    record: IdempotencyRecord,
    accountNow: number,
  ): Promise<IdempotencyRecord | undefined> {
    const answer = await this.run('psm_claim_key', this.claimArgs(record, accountNow));
    if (answer === SCRIPT_CODES.CLOSED) {
      this.closed = true;
      return undefined;
    }
    return answer === null ? undefined : this.decodeRecord(answer as string);
  }

  /** The arguments of a claim. */
  claimArgs(record: IdempotencyRecord, accountNow: number): ScriptArguments['psm_claim_key'] {
    return claimArguments(this.context, record, accountNow);
  }

  async completeIdempotencyRecord(
    record: IdempotencyRecord,
    response: StoredResponse,
  ): Promise<void> {
    const inFlightJson = encodeRecord({ ...record, response: undefined });
    record.response = response;
    const { limits } = this.context;
    const completedJson = encodeRecord(record);
    this.context.reading.known.add(completedJson);
    await this.run('psm_complete_key', {
      key: record.key,
      inFlightJson,
      completedJson,
      responseBytes: responseBytes(response),
      maxRecords: limits.maxIdempotencyRecordsPerKey,
      budget: limits.keyMemoryBudgetBytes,
    });
  }

  async forgetIdempotencyRecord(record: IdempotencyRecord): Promise<void> {
    await this.run('psm_forget_key', { key: record.key, json: encodeRecord(record) });
  }

  async expireIdempotencyRecords(accountNow: number): Promise<void> {
    await this.run('psm_expire_keys', { accountNow });
  }

  async listIdempotencyRecords(): Promise<IdempotencyRecord[]> {
    return ((await this.run('psm_keys')) as string[]).map((text) => this.decodeRecord(text));
  }

  get webhooks(): RedisWebhooks | undefined {
    return this.hooks;
  }

  webhookState(): RedisWebhooks {
    this.hooks ??= new RedisWebhooks(this);
    return this.hooks;
  }

  /**
   * Records a request, held back to go with the next call's round trip (nobody waits on it: the
   * request was answered) and handed to `held`; a store failure is ignored. Resolves once stored.
   */
  recordRequest(entry: RecordedEntry, held?: HeldWrites): Promise<void> {
    const bytes = requestBytes(entry);
    const write = this.context.runner
      .later('psm_request', this, { bytes, entry: JSON.stringify(entry) })
      .then(
        () => undefined,
        () => undefined,
      );
    held?.add(write);
    return write;
  }

  async recentRequests(): Promise<RecordedEntry[]> {
    const stored = await this.command(() =>
      this.context.runner.client.lrange(this.part('r'), 0, -1),
    );
    return stored.reverse().map((text) => decodeEntry(text, this.context.reading, this.part('r')));
  }
}
