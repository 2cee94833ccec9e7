// The `chaos` webhook delivery of a test sandbox: events held back and sent twice, chosen by the seed.

import type { EventDelivery } from '../service/account-service.js';
import type { RandomSource } from '../shared/ids.js';

/** The share of events held back, and of events sent twice. */
const HOLD_BACK_RATE = 0.5;
const DUPLICATE_RATE = 0.5;
/** How long a held-back event or a duplicate waits, at most (sandbox ms). */
const MAX_DELAY_MS = 30_000;

/**
 * Plans deliveries the way real providers behave at their worst (at least once, in no
 * guaranteed order): about half of the events are held back 1 to 30 s of sandbox time, so the
 * next change's event can arrive first, and about half are sent a second time (same id, same
 * body) up to 30 s later. Every choice comes from `random`, so a seed repeats it.
 *
 * @example
 * createRuntime(options, { planDeliveries: chaosDeliveryPlan(seededRandom('checkout')) });
 */
export function chaosDeliveryPlan(
  random: RandomSource,
): (events: readonly EventDelivery[]) => EventDelivery[] {
  const delay = (minimum: number) =>
    minimum + Math.floor(random.fraction() * (MAX_DELAY_MS - minimum));
  return (events) =>
    events.flatMap((delivery) => {
      const first =
        random.fraction() < HOLD_BACK_RATE
          ? { ...delivery, dueAt: delivery.dueAt + delay(1000) }
          : delivery;
      if (random.fraction() >= DUPLICATE_RATE) return [first];
      return [first, { ...delivery, dueAt: first.dueAt + delay(0) }];
    });
}
