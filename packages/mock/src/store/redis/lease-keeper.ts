// Keeps the leases of the delivery attempts this instance is sending: renewed every third of a lease until finished.

import type { ScriptArguments } from './scripts.js';

/** An account handle as the keeper uses it: runs its scripts. */
interface LeaseHolder {
  run(name: 'psm_renew', args: ScriptArguments['psm_renew']): Promise<unknown>;
}

/**
 * The attempts this instance holds, by account: while it sends one (which may take up to the
 * delivery timeout), its lease is renewed every `leaseMs / 3`, so no other instance takes it
 * over; if the instance dies, renewals stop and the lease ends within `leaseMs`. The timer runs
 * only while something is held, and never keeps the process alive.
 *
 * @example
 * keeper.hold(account, member); // after claiming
 * keeper.release(account, member); // after finishing
 */
export class LeaseKeeper {
  private readonly held = new Map<LeaseHolder, Set<string>>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: {
      leaseMs: number;
      /** This instance's token: only its own leases are renewed. */
      owner: string;
      /** The clock leases run on; undefined: the store server's TIME. */
      clock: (() => number) | undefined;
    },
  ) {}

  /** Starts renewing the lease of `member` of `account`. */
  hold(account: LeaseHolder, member: string): void {
    let members = this.held.get(account);
    if (members === undefined) {
      members = new Set();
      this.held.set(account, members);
    }
    members.add(member);
    if (this.timer === undefined) {
      this.timer = setInterval(() => {
        this.renew().catch(() => {});
      }, this.options.leaseMs / 3);
      this.timer.unref?.();
    }
  }

  /** Stops renewing it (the attempt was made). */
  release(account: LeaseHolder, member: string): void {
    const members = this.held.get(account);
    if (members === undefined) return;
    members.delete(member);
    if (members.size === 0) this.held.delete(account);
    if (this.held.size === 0) this.stop();
  }

  /** Renews every lease held now; how many the store still had as ours (failures count none). */
  async renew(): Promise<number> {
    const now = this.options.clock === undefined ? '' : this.options.clock();
    const renewed = await Promise.all(
      [...this.held].map(([account, members]) =>
        account
          .run('psm_renew', {
            now,
            leaseMs: this.options.leaseMs,
            owner: this.options.owner,
            members: [...members],
          })
          .then(Number, () => 0),
      ),
    );
    return renewed.reduce((sum, count) => sum + count, 0);
  }

  /** Stops the timer (the store closes, or nothing is held). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
