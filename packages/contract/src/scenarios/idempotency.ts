// Idempotency-Key on the run's own requests: replays, reuse with another request, validation failures not stored, concurrent repeats.
import { defineScenario, type ScenarioContext, statusOf } from '../runner/scenario.js';
import { createPaymentStep, paymentBody, paymentPath } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements } from './spec-refs.js';

/** How many requests with one key are sent at once. */
const CONCURRENT = 5;

/** Pages a key's payments (newest first, 100 a page, at most `pages`) and counts those whose description is `marker`. */
async function countByDescription(
  context: ScenarioContext,
  marker: string,
  pages = 10,
): Promise<{ count: number; ids: string[] } | undefined> {
  const ids: string[] = [];
  let startingAfter: string | undefined;
  for (let page = 0; page < pages; page++) {
    const query = startingAfter ? `&starting_after=${encodeURIComponent(startingAfter)}` : '';
    const answer = await context.send({ path: `/v1/payments?limit=100${query}` });
    if (answer.status !== 200 || !Array.isArray(answer.json?.data)) return undefined;
    const data = answer.json.data as Array<{ id?: string; description?: string }>;
    for (const payment of data)
      if (payment.description === marker && payment.id) ids.push(payment.id);
    if (!answer.json.has_more || data.length === 0) break;
    startingAfter = data.at(-1)?.id;
  }
  return { count: ids.length, ids };
}

/** The idempotency scenario. */
export const idempotency = defineScenario({
  id: 'idempotency',
  title: 'Idempotency-Key: replays, reuse, and repeats sent at once',
  checks: [
    createsPayment,
    {
      id: 'createPayment.idempotent-replay',
      operation: 'createPayment',
      title: 'a repeated Idempotency-Key replays the first response byte for byte',
      element: elements.parameter('IdempotencyKey'),
    },
    {
      id: 'createPayment.replay-marked',
      operation: 'createPayment',
      title:
        'a replay carries Idempotent-Replayed: true and its own Request-Id; the first response does not',
      element: elements.header('Idempotent-Replayed'),
    },
    {
      id: 'createPayment.replay-creates-once',
      operation: 'createPayment',
      title: 'a replayed create leaves exactly one payment (listing finds it once)',
      element: elements.parameter('IdempotencyKey'),
    },
    {
      id: 'createPayment.idempotency-key-reused',
      operation: 'createPayment',
      title: 'the same Idempotency-Key with another body is 422 idempotency_key_reused',
      element: elements.errorCode('idempotency_key_reused'),
    },
    {
      id: 'createRefund.idempotency-key-reused',
      operation: 'createRefund',
      title: 'the same Idempotency-Key on another path is 422 idempotency_key_reused',
      element: elements.errorCode('idempotency_key_reused'),
    },
    {
      id: 'createPayment.validation-not-stored',
      operation: 'createPayment',
      title: 'a refused (400) request is not stored: the fixed request with the same key succeeds',
      element: elements.parameter('IdempotencyKey'),
    },
    {
      id: 'createPayment.concurrent-repeats',
      operation: 'createPayment',
      title: `${CONCURRENT} creates sent at once with one key make one payment; the others replay it or get 409 idempotency_key_in_use`,
      element: elements.parameter('IdempotencyKey'),
    },
  ],
  async run(context) {
    const marker = `payment-service-contract ${context.runId} replay ${context.idempotencyKey()}`;
    const body = paymentBody(context, 'tok_test_success', { amount: 4_200, description: marker });
    const headers = { 'idempotency-key': context.idempotencyKey() };
    const first = await createPaymentStep(context, createsPayment.id, body, headers);
    const second = await context.send({ path: '/v1/payments', body, headers });
    context.check(
      'createPayment.idempotent-replay',
      second.status === first.status && second.text === first.text,
      `${first.status} with the first body`,
      second.status === first.status ? 'another body' : statusOf(second),
      second,
    );
    const replayed = second.headers.get('idempotent-replayed');
    const firstId = first.headers.get('request-id');
    context.check(
      'createPayment.replay-marked',
      first.headers.get('idempotent-replayed') === null &&
        replayed === 'true' &&
        second.headers.get('request-id') !== firstId,
      'Idempotent-Replayed: true on the replay only, and a new Request-Id',
      `first ${JSON.stringify(first.headers.get('idempotent-replayed'))}, replay ${JSON.stringify(replayed)}, Request-Id ${second.headers.get('request-id') === firstId ? 'repeated' : 'new'}`,
      second,
    );
    const found = await countByDescription(context, marker);
    context.check(
      'createPayment.replay-creates-once',
      found?.count === 1 && found.ids[0] === first.id,
      `one payment described ${JSON.stringify(marker)}: ${first.id}`,
      found ? `${found.count}: ${found.ids.join(', ') || 'none'}` : 'the list could not be read',
    );

    const reused = await context.send({
      path: '/v1/payments',
      body: { ...body, amount: 4_201 },
      headers,
    });
    context.expectProblem(
      'createPayment.idempotency-key-reused',
      reused,
      422,
      'idempotency_key_reused',
    );
    const otherPath = await context.send({
      path: paymentPath(first.id, '/refunds'),
      body: {},
      headers,
    });
    context.expectProblem(
      'createRefund.idempotency-key-reused',
      otherPath,
      422,
      'idempotency_key_reused',
    );

    const fresh = { 'idempotency-key': context.idempotencyKey() };
    const invalid = await context.send({
      path: '/v1/payments',
      body: { ...body, amount: -1 },
      headers: fresh,
    });
    const fixed = await context.send({
      path: '/v1/payments',
      body: paymentBody(context),
      headers: fresh,
    });
    context.check(
      'createPayment.validation-not-stored',
      invalid.status === 400 &&
        fixed.status >= 200 &&
        fixed.status < 300 &&
        typeof fixed.json?.id === 'string',
      '400, then a created payment with the same key',
      `${statusOf(invalid)}, then ${statusOf(fixed)}`,
      fixed,
    );

    const together = { 'idempotency-key': context.idempotencyKey() };
    const concurrentMarker = `payment-service-contract ${context.runId} concurrent ${together['idempotency-key']}`;
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        context.send({
          path: '/v1/payments',
          body: paymentBody(context, 'tok_test_success', { description: concurrentMarker }),
          headers: together,
        }),
      ),
    );
    const created = answers.filter((answer) => answer.status >= 200 && answer.status < 300);
    const conflicts = answers.filter((answer) => answer.status === 409);
    const ids = new Set(created.map((answer) => answer.json?.id));
    const listed = await countByDescription(context, concurrentMarker);
    const ok =
      created.length + conflicts.length === CONCURRENT &&
      conflicts.every((answer) => answer.code === 'idempotency_key_in_use') &&
      ids.size === 1 &&
      listed?.count === 1;
    context.check(
      'createPayment.concurrent-repeats',
      ok,
      'one payment; every answer the same payment or 409 idempotency_key_in_use',
      `${answers.map(statusOf).join(', ')}; ${ids.size} id(s); ${listed?.count ?? '?'} listed`,
      answers.find((answer) => answer.status >= 300 && answer.status !== 409) ?? answers[0],
    );
  },
});
