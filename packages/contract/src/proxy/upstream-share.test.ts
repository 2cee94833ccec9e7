// The target's connections shared fairly: one client at most its share, the rest waiting in its own queue, turns taken across clients, bounded.
import { describe, expect, it } from 'vitest';
import { createUpstreamShare } from './upstream-share.js';

describe('createUpstreamShare', () => {
  it('keeps one client to its share and lets another through at once', () => {
    const share = createUpstreamShare({ maxInFlight: 4, maxPerClient: 2 });
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const take = (client: string, name: string) =>
      share.take(client, (release) => {
        started.push(name);
        releases.push(release);
      });
    for (const name of ['a1', 'a2', 'a3', 'a4']) take('A', name);
    expect(started).toEqual(['a1', 'a2']);
    take('B', 'b1');
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(share.inFlight).toBe(3);
    expect(share.waiting).toBe(2);
    // A's slot freed: A's next waiting request takes it, in order.
    releases[0]?.();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('serves waiting clients in turn when the pool is full', () => {
    const share = createUpstreamShare({ maxInFlight: 2, maxPerClient: 2 });
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const take = (client: string, name: string) =>
      share.take(client, (release) => {
        started.push(name);
        releases.push(release);
      });
    take('A', 'a1');
    take('A', 'a2');
    take('A', 'a3');
    take('B', 'b1');
    take('A', 'a4');
    releases[0]?.();
    releases[1]?.();
    // A was served last: B's turn comes first, then A's.
    expect(started).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it('answers full past the waiting bound, and forgets a cancelled place', () => {
    const share = createUpstreamShare({ maxInFlight: 1, maxWaitingPerClient: 1 });
    const started: string[] = [];
    let release = () => {};
    share.take('A', (granted) => {
      started.push('a1');
      release = granted;
    });
    const waiting = share.take('A', () => started.push('a2'));
    expect(share.take('A', () => started.push('a3'))).toBe('full');
    expect(waiting).not.toBe('full');
    if (waiting !== 'full') waiting.cancel();
    expect(share.waiting).toBe(0);
    release();
    release();
    expect(started).toEqual(['a1']);
    expect(share.inFlight).toBe(0);
  });
});
