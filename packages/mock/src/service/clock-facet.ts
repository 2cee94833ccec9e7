// The clock of one key: read it, and advance it (due payments settle, retries come due, records expire).
import type { SandboxComponents } from '@payment-service/openapi';
import type { DomainResult } from '../domain/payments.js';
import type { ProblemInit } from '../shared/problems.js';
import { formatTimestamp } from '../shared/time.js';
import type { KeySession } from './key-session.js';
import { settleDuePayments } from './payments-facet.js';
import { type Change, noEvents } from './sandbox-state.js';

type Clock = SandboxComponents['schemas']['Clock'];

/** The most a key's sandbox clock may be ahead of real time: 100 years, in seconds. */
export const MAX_CLOCK_OFFSET_SECONDS = 3_155_760_000;

/**
 * The sandbox clock of one key (spec: getSandboxClock, advanceSandboxClock).
 *
 * @example
 * (await service.clock.advance(3600)).result; // { ok: true, status: 200, body: { object: 'sandbox_clock', offset_seconds: 3600, … } }
 */
export class ClockFacet {
  constructor(private readonly scope: KeySession) {}

  /** The key's clock now (ms epoch): the server's time plus the key's offset. */
  async now(): Promise<number> {
    return this.scope.now(await this.scope.find());
  }

  async get(): Promise<Clock> {
    const account = await this.scope.find();
    return clockBody(this.scope.now(account), account?.offsetSeconds ?? 0, 0);
  }

  /**
   * Moves the key's clock forward: due payments settle, retries come due, records expire. The
   * total offset is at most `MAX_CLOCK_OFFSET_SECONDS` (100 years); beyond it nothing moves.
   */
  async advance(seconds: number): Promise<Change<DomainResult<Clock>>> {
    // One step on the store: advances at once each add their seconds (none is lost).
    const account = await this.scope.open();
    const offset = await account.advanceOffset(seconds, MAX_CLOCK_OFFSET_SECONDS);
    if (offset > MAX_CLOCK_OFFSET_SECONDS) {
      await this.scope.release();
      const message = `seconds would take the sandbox clock's total offset to ${offset} s, beyond the limit of ${MAX_CLOCK_OFFSET_SECONDS} s (100 years); reset the sandbox to start again`;
      const problem: ProblemInit = {
        code: 'invalid_request',
        detail: `${message}.`,
        param: 'seconds',
        errors: [{ param: 'seconds', code: 'maximum', message }],
      };
      return { result: { ok: false, problem }, events: noEvents };
    }
    // The clock as this advance left it (another may move it further while this one settles).
    const accountNow = this.scope.sandbox.clock.now() + offset * 1000;
    const { result: settled, events } = await settleDuePayments(
      this.scope.sandbox,
      account,
      accountNow,
    );
    await account.expireIdempotencyRecords(accountNow);
    await this.scope.release();
    const body = clockBody(accountNow, offset, settled);
    return { result: { ok: true, status: 200, body }, events };
  }
}

/**
 * The clock as the sandbox API answers it.
 *
 * @example
 * clockBody(0, 0, 0); // { object: 'sandbox_clock', now: '1970-01-01T00:00:00Z', offset_seconds: 0, settled_payments: 0 }
 */
export function clockBody(accountNow: number, offsetSeconds: number, settled: number): Clock {
  return {
    object: 'sandbox_clock',
    now: formatTimestamp(accountNow),
    offset_seconds: offsetSeconds,
    settled_payments: settled,
  };
}
