import { describe, expect, it } from 'vitest';
import { MAX_EVENTS_PER_KEY, MAX_LOG_ENTRIES_PER_KEY, MAX_QUEUED_PER_KEY } from '../limits.js';
import type { EndpointRecord, WebhookDelivery } from '../webhook-records.js';
import { AccountWebhooks } from './webhook-state.js';

const target = { endpoint: { id: 'we_1' }, key: Buffer.alloc(32) } as unknown as EndpointRecord;

describe('AccountWebhooks bounds', () => {
  it('keeps the last 1 000 events and the last 500 log entries', () => {
    const state = new AccountWebhooks();
    for (let index = 0; index <= MAX_EVENTS_PER_KEY; index++) {
      state.rememberEvent({ id: `evt_${index}`, type: 'payment.succeeded', body: '{}' });
    }
    expect(state.events.size).toBe(MAX_EVENTS_PER_KEY);
    expect(state.events.has('evt_0')).toBe(false);
    for (let index = 0; index <= MAX_LOG_ENTRIES_PER_KEY; index++) {
      state.record({ attempt: index } as WebhookDelivery);
    }
    expect(state.log).toHaveLength(MAX_LOG_ENTRIES_PER_KEY);
    expect(state.log[0]?.attempt).toBe(1);
  });

  it('refuses to queue beyond 10 000 waiting attempts, and pops the earliest due first', () => {
    const state = new AccountWebhooks();
    const event = { id: 'evt_1', type: 'payment.succeeded' as const, body: '{}' };
    for (let index = 0; index < MAX_QUEUED_PER_KEY; index++) {
      expect(state.enqueue({ event, target, attempt: 1, dueAt: MAX_QUEUED_PER_KEY - index })).toBe(
        true,
      );
    }
    expect(state.enqueue({ event, target, attempt: 1, dueAt: 0 })).toBe(false);
    expect(state.queue.pop()?.dueAt).toBe(1);
  });

  it('tells of an attempt made and its retry before it returns (one journal step with --data-dir)', () => {
    const lines: string[] = [];
    const told = (name: string) => () => lines.push(name);
    const state = new AccountWebhooks(undefined, {
      endpointSaved: told('endpoint'),
      endpointDeleted: told('endpoint deleted'),
      eventRemembered: told('event'),
      attemptQueued: told('queued'),
      attemptFinished: told('finished'),
      deliveryLogged: told('logged'),
    });
    const event = { id: 'evt_1', type: 'payment.succeeded' as const, body: '{}' };
    state.enqueue({ event, target, attempt: 1, dueAt: 5 });
    const claimed = state.claimDueAttempt(5) as NonNullable<
      ReturnType<typeof state.claimDueAttempt>
    >;
    lines.length = 0;
    expect(state.finishAttempt(claimed, { event, target, attempt: 2, dueAt: 50 })).toBe(true);
    // Both changes are told before the call returns: the journal takes them as one step.
    expect(lines).toEqual(['finished', 'queued']);
    expect(state.nextAttemptAt()).toBe(50);
    expect(state.finishAttempt(state.claimDueAttempt(50) as typeof claimed)).toBe(false);
    expect(state.nextAttemptAt()).toBeUndefined();
  });
});
