// Listing on a shared key: the run's own payments come back newest first, each once, page by page; nothing else on the key is assumed.
import { defineScenario, statusOf } from '../runner/scenario.js';
import { createPaymentStep, paymentBody } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements } from './spec-refs.js';

/** Pages read at most while looking for the run's own payments (other runs may add theirs on top). */
const MAX_PAGES = 50;

/** The listing scenario. */
export const listing = defineScenario({
  id: 'listing',
  title: 'List payments: newest first, cursor pagination, page size',
  checks: [
    createsPayment,
    {
      id: 'listPayments.newest-first',
      operation: 'listPayments',
      title:
        "paging with limit and starting_after returns the run's payments newest first, each exactly once",
      element: elements.operation('/v1/payments', 'get'),
    },
    {
      id: 'listPayments.limit',
      operation: 'listPayments',
      title: 'a page holds at most limit payments, and at most 10 without one',
      element: elements.parameter('Limit'),
    },
  ],
  async run(context) {
    const marker = `payment-service-contract ${context.runId} listing ${context.idempotencyKey()}`;
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) {
      const created = await createPaymentStep(
        context,
        createsPayment.id,
        paymentBody(context, 'tok_test_success', { amount: 100 + index, description: marker }),
      );
      ids.push(created.id);
    }
    const seen: string[] = [];
    const problems: string[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES && seen.length < ids.length; page++) {
      const query = startingAfter ? `&starting_after=${encodeURIComponent(startingAfter)}` : '';
      const answer = await context.send({ path: `/v1/payments?limit=2${query}` });
      const data = Array.isArray(answer.json?.data)
        ? (answer.json.data as Array<{ id?: string; description?: string }>)
        : undefined;
      if (answer.status !== 200 || !data) {
        problems.push(`page ${page + 1}: ${statusOf(answer)}`);
        break;
      }
      context.check(
        'listPayments.limit',
        data.length <= 2,
        'at most 2 payments with limit=2',
        `${data.length}`,
        answer,
      );
      seen.push(
        ...data
          .filter((payment) => payment.description === marker)
          .map((payment) => String(payment.id)),
      );
      if (!answer.json.has_more || data.length === 0) break;
      startingAfter = data.at(-1)?.id;
    }
    const expected = [...ids].reverse();
    context.check(
      'listPayments.newest-first',
      problems.length === 0 && JSON.stringify(seen) === JSON.stringify(expected),
      expected.join(', '),
      problems.join('; ') || seen.join(', ') || 'none of them',
    );
    const unbounded = await context.send({ path: '/v1/payments' });
    const count = Array.isArray(unbounded.json?.data) ? unbounded.json.data.length : undefined;
    context.check(
      'listPayments.limit',
      count !== undefined && count <= 10 && count >= 1,
      'between 1 and 10 payments without limit',
      String(count ?? statusOf(unbounded)),
      unbounded,
    );
  },
});
