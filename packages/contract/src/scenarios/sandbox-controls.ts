// Checks that need the mock's controls (faults, latency, the clock) and an empty account: run on a fresh key, skipped on a live sandbox.
import type { ScenarioContext } from '../runner/scenario.js';
import { defineScenario, statusOf } from '../runner/scenario.js';
import { createPaymentStep, paymentBody, paymentPath } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements, type OperationRow, operations } from './spec-refs.js';

const SERVER_ERRORS = [500, 502, 503, 504] as const;

/** A valid body for each operation that takes one, so only the armed fault can refuse it. */
function bodyFor(context: ScenarioContext, operation: OperationRow): unknown {
  if (!operation.body) return undefined;
  if (operation.operationId === 'createPayment') return paymentBody(context);
  if (operation.operationId === 'createWebhookEndpoint') return { url: context.endpointUrl };
  return {};
}

/** The path of an operation on an object of the key's own (a fresh AUTHORIZED payment, or a fresh endpoint). */
async function preparedPath(context: ScenarioContext, operation: OperationRow): Promise<string> {
  if (!operation.path.includes('{id}')) return operation.path;
  if (operation.path.startsWith('/v1/webhook_endpoints/')) {
    const endpoint = await context.send({
      path: '/v1/webhook_endpoints',
      body: { url: context.endpointUrl },
    });
    if (typeof endpoint.json?.id === 'string') context.trackEndpoint(endpoint.json.id);
    return operation.path.replace('{id}', String(endpoint.json?.id));
  }
  const payment = await createPaymentStep(
    context,
    createsPayment.id,
    paymentBody(context, 'tok_test_success', { capture: false }),
  );
  return operation.path.replace('{id}', payment.id);
}

/** The sandbox-controls scenario. */
export const sandboxControls = defineScenario({
  id: 'sandbox-controls',
  title: 'Faults, latency and the sandbox clock (the mock only)',
  requires: ['sandbox-controls'],
  checks: [
    createsPayment,
    ...operations.flatMap((operation) => [
      {
        id: `${operation.operationId}.rate-limited` as const,
        operation: operation.operationId,
        title: 'an injected 429 is rate_limited with Retry-After',
        element: elements.errorCode('rate_limited'),
      },
      {
        id: `${operation.operationId}.server-error-changes-nothing` as const,
        operation: operation.operationId,
        title: 'an injected 500, 502, 503 or 504 answers that status and changes nothing',
        element: elements.response('ServerError'),
      },
    ]),
    {
      id: 'createPayment.idempotency-key-in-use',
      operation: 'createPayment',
      title: 'a repeat sent while the first request is in flight is 409 idempotency_key_in_use',
      element: elements.errorCode('idempotency_key_in_use'),
    },
    {
      id: 'createPayment.idempotency-expires',
      operation: 'createPayment',
      title: 'an Idempotency-Key is replayed for 24 hours of sandbox time, then forgotten',
      element: elements.parameter('IdempotencyKey'),
    },
    {
      id: 'createPayment.pending-settles',
      operation: 'createPayment',
      title:
        'a PENDING payment settles when the clock moves on (SUCCEEDED, AUTHORIZED or FAILED by token and capture)',
      element: elements.status('PENDING'),
    },
    {
      id: 'listPayments.empty-account',
      operation: 'listPayments',
      title: 'a new key lists no payment',
      element: elements.operation('/v1/payments', 'get'),
    },
    {
      id: 'listPayments.default-ten',
      operation: 'listPayments',
      title: 'without limit a page holds 10 payments, and has_more says there are more',
      element: elements.parameter('Limit'),
    },
    {
      id: 'retrievePayment.isolated-by-key',
      operation: 'retrievePayment',
      title: "another key cannot see or act on a key's payment (404)",
      element: elements.errorCode('not_found'),
    },
  ],
  async run(context) {
    // Under a selection (--operation, --check …), a step no selected check reads is not sent.
    if (context.selected('listPayments.empty-account')) {
      const empty = await context.send({ path: '/v1/payments' });
      context.check(
        'listPayments.empty-account',
        JSON.stringify(empty.json) ===
          JSON.stringify({ object: 'list', data: [], has_more: false }),
        '{"object":"list","data":[],"has_more":false}',
        empty.text.slice(0, 120),
        empty,
      );
    }

    for (const operation of operations) {
      if (
        !context.selected(`${operation.operationId}.rate-limited`) &&
        !context.selected(`${operation.operationId}.server-error-changes-nothing`)
      )
        continue;
      const path = await preparedPath(context, operation);
      const body = bodyFor(context, operation);
      const request = { method: operation.method, path, ...(body === undefined ? {} : { body }) };
      await context.control('PUT', '/faults', {
        fail_next: { count: 1, status: 429, retry_after: 7 },
      });
      const limited = await context.send(request);
      context.check(
        `${operation.operationId}.rate-limited`,
        limited.status === 429 &&
          limited.code === 'rate_limited' &&
          limited.headers.get('retry-after') === '7',
        '429 rate_limited with Retry-After: 7',
        `${statusOf(limited)}, Retry-After ${JSON.stringify(limited.headers.get('retry-after'))}`,
        limited,
      );
      const before = await context.send({ path: '/v1/payments?limit=100' });
      for (const status of SERVER_ERRORS) {
        await context.control('PUT', '/faults', { fail_next: { count: 1, status } });
        const failed = await context.send(request);
        context.check(
          `${operation.operationId}.server-error-changes-nothing`,
          failed.status === status,
          `status ${status}`,
          statusOf(failed),
          failed,
        );
      }
      const after = await context.send({ path: '/v1/payments?limit=100' });
      context.check(
        `${operation.operationId}.server-error-changes-nothing`,
        before.text === after.text,
        'the payments unchanged by the failed requests',
        'the list changed',
        after,
      );
    }

    if (context.selected('createPayment.idempotency-key-in-use')) {
      const spacing = context.requestSpacingMs;
      await context.control('PUT', '/faults', { latency_ms: Math.ceil(300 + 2 * spacing) });
      const inFlight = { 'idempotency-key': context.idempotencyKey() };
      const both = await Promise.all([
        context.send({ path: '/v1/payments', body: paymentBody(context), headers: inFlight }),
        context.send({ path: '/v1/payments', body: paymentBody(context), headers: inFlight }),
      ]);
      await context.control('DELETE', '/faults');
      const conflict = both.find((answer) => answer.status === 409);
      context.check(
        'createPayment.idempotency-key-in-use',
        both.some((answer) => answer.status >= 200 && answer.status < 300) &&
          conflict?.code === 'idempotency_key_in_use',
        'one created payment and one 409 idempotency_key_in_use',
        both.map(statusOf).join(', '),
        conflict ?? both[1],
      );
    }

    let first: { id: string } | undefined;
    if (context.selected('createPayment.idempotency-expires')) {
      const headers = { 'idempotency-key': context.idempotencyKey() };
      const created = await createPaymentStep(
        context,
        createsPayment.id,
        paymentBody(context),
        headers,
      );
      first = created;
      await context.control('POST', '/clock/advance', { seconds: 23 * 3600 });
      const stored = await context.send({
        path: '/v1/payments',
        body: paymentBody(context),
        headers,
      });
      await context.control('POST', '/clock/advance', { seconds: 3601 });
      const forgotten = await context.send({
        path: '/v1/payments',
        body: paymentBody(context, 'tok_test_success', { amount: 1 }),
        headers,
      });
      context.check(
        'createPayment.idempotency-expires',
        stored.json?.id === created.id &&
          forgotten.status >= 200 &&
          forgotten.status < 300 &&
          forgotten.json?.id !== created.id,
        'the same payment after 23 h, a new one after 24 h',
        `${stored.json?.id === created.id ? 'same' : 'another'} after 23 h; ${statusOf(forgotten)} ${forgotten.json?.id === created.id ? 'same' : 'new'} after 24 h`,
        forgotten,
      );
    }

    if (context.selected('createPayment.pending-settles')) {
      for (const [token, capture, settled] of [
        ['tok_test_pending', true, 'SUCCEEDED'],
        ['tok_test_pending', false, 'AUTHORIZED'],
        ['tok_test_pending_declined', true, 'FAILED'],
      ] as const) {
        const pending = await createPaymentStep(
          context,
          createsPayment.id,
          paymentBody(context, token, { capture }),
        );
        await context.control('POST', '/clock/advance', { seconds: 3600 });
        const after = await context.send({ path: paymentPath(pending.id) });
        context.check(
          'createPayment.pending-settles',
          pending.json.status === 'PENDING' && after.json?.status === settled,
          `${token} (capture ${capture}): PENDING, then ${settled}`,
          `${pending.json.status}, then ${after.json?.status}`,
          after,
        );
      }
    }

    if (context.selected('listPayments.default-ten')) {
      const all = await context.send({ path: '/v1/payments?limit=100' });
      const held = Array.isArray(all.json?.data) ? all.json.data.length : 0;
      for (let index = held; index < 11; index++) {
        await createPaymentStep(
          context,
          createsPayment.id,
          paymentBody(context, 'tok_test_success', { amount: 100 + index }),
        );
      }
      const page = await context.send({ path: '/v1/payments' });
      context.check(
        'listPayments.default-ten',
        page.json?.data?.length === 10 && page.json?.has_more === true,
        '10 payments and has_more true',
        `${page.json?.data?.length} payments, has_more ${JSON.stringify(page.json?.has_more)}`,
        page,
      );
    }

    if (context.selected('retrievePayment.isolated-by-key')) {
      first ??= await createPaymentStep(context, createsPayment.id, paymentBody(context));
      const other = context.freshSandboxKey();
      const seen = await context.send({ path: paymentPath(first.id), apiKey: other });
      const captured = await context.send({
        path: paymentPath(first.id, '/capture'),
        body: {},
        apiKey: other,
      });
      const listed = await context.send({ path: '/v1/payments', apiKey: other });
      context.check(
        'retrievePayment.isolated-by-key',
        seen.status === 404 && captured.status === 404 && listed.json?.data?.length === 0,
        '404 on retrieve and capture, and an empty list, for another key',
        `${statusOf(seen)}, ${statusOf(captured)}, ${listed.json?.data?.length} listed`,
        seen,
      );
    }
  },
});
