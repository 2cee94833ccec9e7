// The sandbox's state in Valkey/Redis, shared by every instance of a fleet: the SandboxStore of a networked store.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoreLimits } from '../limits.js';
import { NO_CLAIM, ReadSession } from '../read-session.js';
import type { RecordChecks } from '../record-checks.js';
import type { IdempotencyRecord, StoredPayment } from '../records.js';
import type { AccountStore, OpenClaim, SandboxStore, SessionAsk, StoreSession } from '../store.js';
import { withStoreBudget } from './budget.js';
import type { RedisContext } from './context.js';
import { StoreFormatError, StoreReplyError, StoreUnavailableError } from './errors.js';
import { Heartbeat } from './heartbeat.js';
import { accountHash, DEFAULT_PREFIX, STORE_FORMAT, storeKeys } from './keys.js';
import { LeaseKeeper } from './lease-keeper.js';
import { RecordReading } from './reading.js';
import {
  ACCOUNT_STATE_LENGTH,
  type AccountState,
  claimArguments,
  RedisAccount,
} from './redis-account.js';
import { ScriptRunner } from './runner.js';
import { FLEET, SCRIPT_CODES, type ScriptArguments } from './scripts.js';

/** How a Redis store is set up. */
export interface RedisStoreOptions {
  limits: StoreLimits;
  /** The prefix of every key; data under another prefix is never read. Default `psm:`. */
  prefix?: string;
  /**
   * The clock (ms epoch) leases of delivery attempts run on. Default: the store server's TIME,
   * the same for every instance however their clocks drift.
   */
  clock?: () => number;
  /**
   * How long a claimed delivery attempt stays leased to its instance if it stops renewing it
   * (it died): another instance takes the attempt over after this (ms); and how long an instance
   * counts as alive after its last heartbeat (its Idempotency-Keys in flight are taken over
   * after that). Default 5 s.
   */
  leaseMs?: number;
  /** The store's URL with the password masked (`describeRedisUrl`), for errors. */
  where?: string;
  /**
   * Where the store tells what it forgets (idle keys forgotten to make room) and the records it
   * refuses to read.
   */
  log?: (line: string) => void;
  /** The checks every record read back passes (app/record-checks.ts builds them from the spec). */
  checks: RecordChecks;
}

/** How long `health` waits for the store's answer (ms): a load balancer's check is short. */
const HEALTH_TIMEOUT_MS = 1000;

/** Account handles a store keeps (one per key in use); beyond it the oldest is dropped. */
const MAX_HANDLES = 10_000;
/** How long an attempt's lease lasts without renewal, by default (ms). */
export const DEFAULT_LEASE_MS = 5000;
/** How often (ms, server clock) `sweep` asks the store to drop expired idempotency records. */
const SWEEP_INTERVAL_MS = 1000;
/** Records one sweep drops at most. */
const SWEEP_BATCH = 200;

/**
 * Every key's data in Valkey/Redis under one prefix, shared by every instance connected to it.
 * API keys are stored only as their sha256 hash. Each atomic call of the seam is one Lua script.
 * Budgets and caps are counters in the store (`<prefix>totals`, and per account), kept by the
 * same scripts that change the data. Calls fail with `StoreUnavailableError` while the server is
 * unreachable; nothing is half-written, and the client reconnects by itself.
 *
 * @example
 * const client = await createRedisClient('redis://127.0.0.1:6379');
 * const store = await RedisStore.connect(client, { limits });
 * const account = await store.open('sk_test_12345678');
 */
export class RedisStore implements SandboxStore {
  private readonly handles = new Map<string, RedisAccount>();
  private lastSweep = Number.NEGATIVE_INFINITY;
  private readonly keys: ReturnType<typeof storeKeys>;

  private constructor(
    private readonly context: RedisContext,
    private readonly log: ((line: string) => void) | undefined,
    /** Marks this instance alive: its Idempotency-Keys in flight are taken over only once it died. */
    private readonly heartbeat: Heartbeat,
  ) {
    this.keys = storeKeys(context.prefix);
  }

  /**
   * A store on `client` (connected here if it is not yet): loads the scripts and checks the
   * format marker of the prefix, setting it on a fresh one. A prefix holding another format
   * version is refused with a `StoreFormatError`.
   */
  static async connect(client: Redis, options: RedisStoreOptions): Promise<RedisStore> {
    const where = options.where ?? 'the configured Valkey/Redis';
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    const keys = storeKeys(prefix);
    const runner = new ScriptRunner(client, { where, prefix, log: options.log });
    if (client.status === 'wait') {
      let refused: Error | undefined;
      const onError = (error: Error) => {
        refused ??= error;
      };
      client.on('error', onError);
      try {
        await client.connect();
      } catch (error) {
        // "Connection is closed" says less than the server's reason (WRONGPASS, NOAUTH…).
        client.disconnect();
        throw new StoreUnavailableError(
          `cannot connect to the store at ${where}: ${(refused ?? (error as Error)).message}`,
          { cause: refused ?? error },
        );
      } finally {
        client.off('error', onError);
      }
    }
    await runner.load();
    await runner.command(() => client.set(keys.format, STORE_FORMAT, 'NX'));
    const format = await runner.command(() => client.get(keys.format));
    if (format !== STORE_FORMAT) {
      throw new StoreFormatError(
        `the keys under "${prefix}" at ${where} are of store format ${format}, not ${STORE_FORMAT}: use another --redis-prefix, or delete them`,
      );
    }
    const clock = options.clock;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const owner = randomUUID();
    const store = new RedisStore(
      {
        runner,
        prefix,
        limits: options.limits,
        clock,
        leaseMs,
        owner,
        leases: new LeaseKeeper({ leaseMs, owner, clock }),
        reading: new RecordReading(options.checks, options.log),
      },
      options.log,
      new Heartbeat({
        aliveMs: leaseMs,
        clock,
        beat: (now, aliveMs) => runner.script('psm_beat', FLEET, { now, aliveMs, owner }),
      }),
    );
    await store.heartbeat.start();
    return store;
  }

  /**
   * Whether the store serves now: connected, and `<prefix>format` read back within
   * `HEALTH_TIMEOUT_MS` as this format (or not set yet: the next write marks it). Else why not,
   * without the address.
   */
  async health(): Promise<string | undefined> {
    const notConnected = 'its store (Valkey/Redis) is not connected';
    if (this.client.status !== 'ready' || this.client.stream?.writable !== true)
      return notConnected;
    let format: unknown;
    try {
      format = await withStoreBudget(HEALTH_TIMEOUT_MS, () =>
        this.context.runner.command(() => this.client.get(this.keys.format)),
      );
    } catch (error) {
      if (this.client.status !== 'ready') return notConnected;
      if (error instanceof StoreReplyError) return 'its store answers what Valkey/Redis does not';
      return `its store (Valkey/Redis) did not answer within ${HEALTH_TIMEOUT_MS} ms`;
    }
    if (format === null || format === STORE_FORMAT) return undefined;
    if (typeof format !== 'string') return 'its store answers what Valkey/Redis does not';
    return `its store holds data of another format version under its prefix (not ${STORE_FORMAT})`;
  }

  /** The client the store runs on. */
  get client(): Redis {
    return this.context.runner.client;
  }

  /** The runner of its scripts (the writes it holds back, `ScriptRunner.later`). */
  get runner(): ScriptRunner {
    return this.context.runner;
  }

  async find(apiKey: string): Promise<RedisAccount | undefined> {
    return this.findByHash(accountHash(apiKey));
  }

  /** The account stored under a hash (as the fleet-wide due index names them), if it exists. */
  async findByHash(hash: string): Promise<RedisAccount | undefined> {
    const state = await this.context.runner.script('psm_find', this.target(hash), {
      now: this.now(),
      paymentId: '',
    });
    if (state !== null) return this.handle(hash, state as AccountState);
    this.forget(hash);
    return undefined;
  }

  async open(apiKey: string): Promise<RedisAccount> {
    const hash = accountHash(apiKey);
    return (await this.openWith(hash, '', undefined)).account;
  }

  /**
   * Runs `psm_open` (a payment id to read, or ''; a claim, or none): the handle, the claim's
   * answer and the payment's fields; logs the idle keys it forgot.
   */
  private async openWith(
    hash: string,
    paymentId: string,
    claiming: ScriptArguments['psm_open']['claiming'],
  ): Promise<{ account: RedisAccount; answer: unknown; payment: StoredPayment | undefined }> {
    const { limits } = this.context;
    const state = (await this.context.runner.script('psm_open', this.target(hash), {
      now: this.now(),
      format: STORE_FORMAT,
      maxAccounts: limits.maxAccounts,
      idleMs: limits.idleMs,
      paymentId,
      claiming,
    })) as unknown[];
    const fields = Number(state[ACCOUNT_STATE_LENGTH + 1]);
    const forgotten = ACCOUNT_STATE_LENGTH + 2 + fields;
    this.logForgotten(state.slice(forgotten) as number[]);
    const account = this.handle(hash, state as AccountState);
    const payment =
      fields === 0
        ? undefined
        : account.decodePayments(state.slice(0, forgotten), ACCOUNT_STATE_LENGTH + 2)[0];
    return {
      account,
      answer: state[ACCOUNT_STATE_LENGTH],
      payment,
    };
  }

  /** Logs each idle key forgotten to make room (the bytes it held). */
  private logForgotten(bytesEach: readonly number[]): void {
    const minutes = Math.round(this.context.limits.idleMs / 60_000);
    for (const bytes of bytesEach) {
      this.log?.(
        `sandbox: forgot an idle key (unused for over ${minutes} min, ${bytes} bytes) to make room`,
      );
    }
  }

  /**
   * Opens the key's account and, in the same round trip, reads one of its payments
   * (`paymentId`) and claims an Idempotency-Key (`makeRecord`): `makeRecord` is given the key's
   * time by the clock offset this instance last read (0 for a key it has not seen: most keys
   * never move their clock), and the claim is made only if that offset still holds and no fault
   * is armed (the service answers faults before it claims). Otherwise `claim` is `skipped`,
   * nothing is claimed, and the caller claims with `claimIdempotencyKey` after answering the
   * faults.
   *
   * @example
   * const { account, claim } = await store.openAhead(apiKey, serverNow, (accountNow) => record(accountNow), undefined);
   * if (claim.kind === 'held') replayOr409(claim.record);
   */
  async openAhead(
    apiKey: string,
    serverNow: number,
    makeRecord: ((accountNow: number) => IdempotencyRecord) | undefined,
    paymentId: string | undefined,
  ): Promise<{ account: RedisAccount; claim: OpenClaim; payment: StoredPayment | undefined }> {
    const hash = accountHash(apiKey);
    let record: IdempotencyRecord | undefined;
    let claiming: ScriptArguments['psm_open']['claiming'];
    if (makeRecord !== undefined) {
      const cached = this.handles.get(hash);
      const offset = cached === undefined || cached.closed ? 0 : cached.offsetSeconds;
      const accountNow = serverNow + offset * 1000;
      record = makeRecord(accountNow);
      claiming = { ...claimArguments(this.context, record, accountNow), offset: String(offset) };
    }
    const { account, answer, payment } = await this.openWith(hash, paymentId ?? '', claiming);
    let claim: OpenClaim;
    if (record === undefined || answer === SCRIPT_CODES.SKIPPED || answer === SCRIPT_CODES.NONE)
      claim = { kind: 'skipped' };
    else if (answer === null) claim = { kind: 'claimed', record };
    else claim = { kind: 'held', record: account.decodeRecord(answer as string) };
    return { account, claim, payment };
  }

  /**
   * The key's account and one of its payments, in one round trip (a retrieve): `account` is
   * undefined when the key holds nothing, `payment` when it holds no such payment.
   */
  async findWithPayment(
    apiKey: string,
    id: string,
  ): Promise<{ account: RedisAccount | undefined; payment: StoredPayment | undefined }> {
    const hash = accountHash(apiKey);
    const state = (await this.context.runner.script('psm_find', this.target(hash), {
      now: this.now(),
      paymentId: id,
    })) as unknown[] | null;
    if (state === null) {
      this.forget(hash);
      return { account: undefined, payment: undefined };
    }
    const account = this.handle(hash, state as AccountState);
    return { account, payment: account.decodePayments(state, ACCOUNT_STATE_LENGTH)[0] };
  }

  /**
   * A request's session in one round trip: a write opens the account with `openAhead` (claiming
   * the Idempotency-Key, reading the payment) and asks `admit` in the same tick (sent together);
   * a read of a payment is `findWithPayment`; any other read, `find`.
   */
  async session(apiKey: string, ask: SessionAsk): Promise<StoreSession> {
    const { paymentId } = ask;
    if (ask.write) {
      const opening = this.openAhead(apiKey, ask.serverNow, ask.claim, paymentId);
      const admitted = this.admit();
      // Awaited only if the request gets to its capacity check (not on a replay).
      admitted.catch(() => {});
      const { account, claim, payment } = await opening;
      const { settlesNext } = account;
      return new ReadSession({
        account,
        claim,
        paymentId,
        payment,
        settlesNext,
        admit: () => admitted,
      });
    }
    const admit = () => this.admit();
    if (paymentId !== undefined) {
      const { account, payment } = await this.findWithPayment(apiKey, paymentId);
      const settlesNext = account?.settlesNext;
      return new ReadSession({ account, claim: NO_CLAIM, paymentId, payment, settlesNext, admit });
    }
    const account = await this.find(apiKey);
    const settlesNext = account?.settlesNext;
    return new ReadSession({
      account,
      claim: NO_CLAIM,
      paymentId,
      payment: undefined,
      settlesNext,
      admit,
    });
  }

  /** Runs `work` on the request's session once its round trip is back (`session`). */
  withSession<Result>(
    apiKey: string,
    ask: SessionAsk,
    work: (session: StoreSession) => Result | Promise<Result>,
  ): Promise<Result> {
    return this.session(apiKey, ask).then(work);
  }

  /** The one handle of a key, up to date with `state`; a handle of an older generation is closed. */
  private handle(hash: string, state: AccountState): RedisAccount {
    let account = this.handles.get(hash);
    if (account !== undefined && account.generation !== state[0]) {
      account.closed = true;
      account = undefined;
    }
    if (account === undefined) {
      account = new RedisAccount(this.context, hash);
      if (this.handles.size >= MAX_HANDLES) {
        const oldest = this.handles.keys().next().value;
        if (oldest !== undefined) this.handles.delete(oldest);
      }
    } else {
      this.handles.delete(hash);
    }
    this.handles.set(hash, account);
    account.refresh(state);
    return account;
  }

  /** Closes and drops the handle of an account that is gone. */
  private forget(hash: string): void {
    const handle = this.handles.get(hash);
    if (handle === undefined) return;
    handle.closed = true;
    this.handles.delete(hash);
  }

  /** Where an account's scripts run, before its handle is read (no generation yet). */
  private target(hash: string): { key: string; hash: string; generation: string } {
    return { key: this.keys.account(hash), hash, generation: '' };
  }

  /** The injected clock's time, or '' for the store server's own. */
  private now(): number | '' {
    return this.context.clock === undefined ? '' : this.context.clock();
  }

  /**
   * Whether the sandbox has room (global byte budget, total caps), after forgetting idle keys
   * (unused for `idleMs` on any instance), least recently used first, each logged.
   */
  async admit(): Promise<boolean> {
    const { limits } = this.context;
    const answer = (await this.context.runner.script('psm_admit', FLEET, {
      now: this.now(),
      memoryBudget: limits.memoryBudgetBytes,
      maxPayments: limits.maxPaymentsTotal,
      maxRecords: limits.maxIdempotencyRecordsTotal,
      idleMs: limits.idleMs,
    })) as number[];
    this.logForgotten(answer.slice(1));
    return answer[0] === 1;
  }

  async reset(apiKey: string): Promise<number> {
    const hash = accountHash(apiKey);
    const deleted = await this.context.runner.script('psm_reset', this.target(hash));
    this.forget(hash);
    return Number(deleted);
  }

  /**
   * Deletes the key's account if it holds nothing. The handle stays open: a request of the same
   * key in flight on any instance may still write through its handle, which recreates the
   * account as it was (empty) instead of losing the write.
   */
  async release(account: AccountStore): Promise<boolean> {
    // An account that keeps a payment or a logged request is never released: no need to ask.
    if (!(account instanceof RedisAccount) || account.closed || account.kept) return false;
    return (await account.run('psm_release')) === 1;
  }

  /**
   * Drops idempotency records expired on the server's clock in any account, at most once a
   * second and a batch at a time; in the background (a failure is retried at the next sweep).
   */
  sweep(serverNow: number): void {
    if (serverNow - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = serverNow;
    this.sweepNow(serverNow).catch(() => {});
  }

  /** Drops up to one batch of records expired at `serverNow`; how many went. */
  async sweepNow(serverNow: number): Promise<number> {
    const dropped = await this.context.runner.script('psm_sweep', FLEET, {
      serverNow,
      most: SWEEP_BATCH,
    });
    return Number(dropped);
  }

  /**
   * The accounts (of any key, made by any instance) with a settlement, a delivery attempt or an
   * expired lease due at `serverNow`, earliest first: where a dispatcher looks for work.
   */
  async dueAccounts(serverNow: number, limit = 100): Promise<RedisAccount[]> {
    const hashes = await this.context.runner.command(() =>
      this.client.zrangebyscore(`${this.keys.prefix}due`, '-inf', serverNow, 'LIMIT', 0, limit),
    );
    const accounts = await Promise.all(hashes.map((hash) => this.findByHash(hash)));
    return accounts.filter((account): account is RedisAccount => account !== undefined);
  }

  /** What the whole store holds (every instance's data), for tests and diagnostics. */
  async stats(): Promise<{ payments: number; idempotencyRecords: number; bytes: number }> {
    const [bytes, payments, records] = await this.context.runner.command(() =>
      this.client.hmget(`${this.keys.prefix}totals`, 'b', 'p', 'r'),
    );
    return {
      payments: Number(payments ?? 0),
      idempotencyRecords: Number(records ?? 0),
      bytes: Number(bytes ?? 0),
    };
  }

  /** Renews the leases of the attempts this instance is sending (a timer does it every third of a lease). */
  renewLeases(): Promise<number> {
    return this.context.leases.renew();
  }

  /** Marks this instance alive for another `leaseMs` now (a timer does it every third of one). */
  beat(): Promise<unknown> {
    return this.heartbeat.beat();
  }

  /** Sends the writes held back to share a later round trip (the inspector's records) now. */
  flush(): void {
    this.context.runner.flush();
  }

  /** Stops its timers, unmarks the instance (nothing of it is in flight now) and disconnects. */
  async close(): Promise<void> {
    this.context.runner.flush();
    this.context.leases.stop();
    await this.heartbeat.stop();
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
