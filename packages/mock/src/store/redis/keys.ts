// The key layout of the store under its prefix: one format marker, fleet-wide indexes, and each account's keys under the hash of its API key.
import { createHash } from 'node:crypto';

/*
 * WHAT A DUMP OF THE KEYSPACE REVEALS
 *
 * Not the API keys: an account is named by the sha256 of its key. Everything else a key's
 * sandbox holds is readable: payments (their JSON, test tokens, timelines), Idempotency-Key
 * records (the key, the request's body fingerprint, the stored answer), faults and clock
 * offset, the request log (request and response bodies, up to 4 096 characters each, which
 * include the `whsec_` secret in the answer that created an endpoint), webhook endpoints with
 * their signing keys (they must stay readable to sign), events and the delivery log.
 * Not Redis Cluster: a script touches an account's keys and the prefix's global keys.
 */

/** The version of the layout below; a prefix written by another version is refused. */
export const STORE_FORMAT = '1';

/** The prefix every key starts with, by default. */
export const DEFAULT_PREFIX = 'psm:';

/**
 * The hash an account is stored under: sha256 of its API key, hex. The API key itself is never
 * written to the store.
 *
 * @example
 * accountHash('sk_test_12345678').length; // 64
 */
export function accountHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/**
 * The keys of one prefix. Global: `format` (the layout version), `gen` (account generations),
 * `totals` (bytes, payments, records of every account), `due` (account hashes by the server
 * time of their next settlement, attempt or lease expiry), `rx` (`<hash>:<Idempotency-Key>` by
 * server expiry), `alive` (each running instance's token by the end of its last heartbeat). One account is the hash `a:<hash>` (generation, clock offset, faults,
 * counters, bytes) and the keys `a:<hash>:<part>` (see `ACCOUNT_PARTS`).
 *
 * @example
 * storeKeys('psm:').account(accountHash(apiKey)); // 'psm:a:9f86…'
 */
export function storeKeys(prefix: string) {
  if (!/^[\w:.-]{1,64}$/.test(prefix)) {
    throw new RangeError(
      `the store prefix must be 1-64 letters, digits or _ : . - characters, not ${JSON.stringify(prefix)}`,
    );
  }
  return {
    prefix,
    format: `${prefix}format`,
    account: (hash: string) => `${prefix}a:${hash}`,
  };
}

/**
 * The keys of one account besides its hash, by suffix: payments `p` (a hash: under the id
 * its JSON; under the id, a NUL and `m` its token, settlement and creation, `c` its later
 * timeline steps, `b` its bytes, `s` its sequence), `o` (creation order), `s` (settlement
 * schedule); Idempotency-Key records `i` (JSON), `ib` (bytes), `ie` (expiry on the
 * key's clock), `ic` (the order they were written in), `io` (the instance that took each one in
 * flight); request log `r`; webhooks: endpoints `e` and their order `eo`, events `v` and
 * their order `vo`, delivery log `l`, scheduled attempts `q` (by due time), `qd` (the attempt),
 * `ql` (leased, by lease expiry on the server's clock), `qo` (the instance holding each lease). Not deleted with the account:
 * `reset`, the generation of an account reset or forgotten, for a minute (late writes of that
 * generation change nothing).
 */
export const ACCOUNT_PARTS = [
  'p',
  'o',
  's',
  'i',
  'ib',
  'ie',
  'ic',
  'io',
  'r',
  'e',
  'eo',
  'v',
  'vo',
  'l',
  'q',
  'qd',
  'ql',
  'qo',
] as const;
