// Webhook endpoints (register, list without the secret, replay, delete) and, with a receiver, signed deliveries of each status change.
import type { WebhookEvent } from '@payment-service/sdk';
import type { ReceivedWebhook } from '@payment-service/sdk/node';
import type { CheckDefinition } from '../checks/ledger.js';
import { malformedEvent } from '../runner/run-webhooks.js';
import type { ScenarioContext } from '../runner/scenario.js';
import { defineScenario, statusOf } from '../runner/scenario.js';
import { cleanTargetText } from '../untrusted-text.js';
import { createPaymentStep, paymentBody, paymentPath } from './payments.js';
import { createsPayment } from './shared-checks.js';
import { elements } from './spec-refs.js';

const endpointCheck: CheckDefinition<'createWebhookEndpoint.registers'> = {
  id: 'createWebhookEndpoint.registers',
  operation: 'createWebhookEndpoint',
  title: 'registering an endpoint returns we_… with its url and a whsec_ secret shown once',
  element: elements.schema('WebhookEndpointWithSecret'),
};

/** Registers an endpoint for `url`; the check fails (and the scenario stops) unless it has an id and a secret. */
async function registerEndpoint(
  context: ScenarioContext<typeof endpointCheck.id>,
  url: string,
  headers: Record<string, string> = {},
) {
  const answer = await context.send({ path: '/v1/webhook_endpoints', body: { url }, headers });
  const { id, secret } = answer.json ?? {};
  if (typeof id === 'string') context.trackEndpoint(id);
  context.require(
    endpointCheck.id,
    answer.status >= 200 &&
      answer.status < 300 &&
      /^we_/.test(String(id)) &&
      /^whsec_/.test(String(secret)) &&
      answer.json?.url === url,
    'an endpoint we_… with the url sent and a whsec_ secret',
    answer.status >= 300
      ? statusOf(answer)
      : `id ${JSON.stringify(id)}, url ${JSON.stringify(answer.json?.url)}, secret ${secret ? 'present' : 'absent'}`,
    answer,
  );
  return { answer, id: id as string, secret: secret as string };
}

/** The webhook-endpoints scenario: management only, no delivery. */
export const webhookEndpoints = defineScenario({
  id: 'webhook-endpoints',
  title: 'Register, list, replay and delete webhook endpoints',
  checks: [
    endpointCheck,
    {
      id: 'listWebhookEndpoints.lists-without-secret',
      operation: 'listWebhookEndpoints',
      title: 'the list holds the registered endpoint, and no secret',
      element: elements.schema('WebhookEndpointList'),
    },
    {
      id: 'createWebhookEndpoint.idempotent-replay',
      operation: 'createWebhookEndpoint',
      title: 'a repeated Idempotency-Key replays the registration (Idempotent-Replayed: true)',
      element: elements.parameter('IdempotencyKey'),
    },
    {
      id: 'deleteWebhookEndpoint.deletes',
      operation: 'deleteWebhookEndpoint',
      title: 'deleting an endpoint answers deleted: true and the list no longer holds it',
      element: elements.schema('DeletedWebhookEndpoint'),
    },
  ],
  async run(context) {
    const url = `${context.endpointUrl.replace(/\/+$/, '')}/endpoints-${context.runId}`;
    const headers = { 'idempotency-key': context.idempotencyKey() };
    const created = await registerEndpoint(context, url, headers);
    const replay = await context.send({ path: '/v1/webhook_endpoints', body: { url }, headers });
    context.check(
      'createWebhookEndpoint.idempotent-replay',
      replay.text === created.answer.text && replay.headers.get('idempotent-replayed') === 'true',
      'the first answer, marked Idempotent-Replayed: true',
      `${statusOf(replay)}, ${replay.text === created.answer.text ? 'same body' : 'another body'}, Idempotent-Replayed ${JSON.stringify(replay.headers.get('idempotent-replayed'))}`,
      replay,
    );
    const listed = await context.send({ path: '/v1/webhook_endpoints' });
    const data = Array.isArray(listed.json?.data)
      ? (listed.json.data as Array<{ id?: string }>)
      : [];
    context.check(
      'listWebhookEndpoints.lists-without-secret',
      data.some((endpoint) => endpoint.id === created.id) && !listed.text.includes(created.secret),
      `the list holds ${created.id}, without its secret`,
      `${data.some((endpoint) => endpoint.id === created.id) ? 'listed' : 'not listed'}, secret ${listed.text.includes(created.secret) ? 'shown' : 'hidden'}`,
      listed,
    );
    const deleted = await context.send({
      method: 'DELETE',
      path: `/v1/webhook_endpoints/${created.id}`,
    });
    const after = await context.send({ path: '/v1/webhook_endpoints' });
    const stillListed =
      Array.isArray(after.json?.data) &&
      (after.json.data as Array<{ id?: string }>).some((endpoint) => endpoint.id === created.id);
    context.check(
      'deleteWebhookEndpoint.deletes',
      deleted.json?.deleted === true && deleted.json?.id === created.id && !stillListed,
      'deleted: true, and gone from the list',
      `${statusOf(deleted)} deleted ${JSON.stringify(deleted.json?.deleted)}, ${stillListed ? 'still listed' : 'gone'}`,
      deleted,
    );
  },
});

/** Why each verified delivery's event cannot be read by the checks (undefined: it can), worked out once. */
const malformedReasons = new WeakMap<ReceivedWebhook, string | undefined>();

/** The delivery's event when the checks can read it (see `malformedEvent`), else undefined. */
function readableEvent(delivery: ReceivedWebhook): WebhookEvent | undefined {
  return malformationOf(delivery) === undefined ? delivery.event : undefined;
}

function malformationOf(delivery: ReceivedWebhook): string | undefined {
  if (!malformedReasons.has(delivery)) {
    malformedReasons.set(delivery, malformedEvent(delivery.event));
  }
  return malformedReasons.get(delivery);
}

/** The verified events of one payment, deduplicated on webhook-id, in arrival order. */
function eventsOf(context: ScenarioContext, paymentId: string): WebhookEvent[] {
  const seen = new Set<string>();
  const events: WebhookEvent[] = [];
  for (const delivery of context.webhooks?.received ?? []) {
    const event = readableEvent(delivery);
    if (!event || event.data.object.id !== paymentId || seen.has(delivery.webhookId)) continue;
    seen.add(delivery.webhookId);
    events.push(event);
  }
  return events;
}

/** The webhooks scenario: deliveries to the run's receiver, verified with the endpoint's secret. */
export const webhookDeliveries = defineScenario({
  id: 'webhooks',
  title: 'Signed webhook deliveries for each status change',
  requires: ['webhooks'],
  checks: [
    createsPayment,
    endpointCheck,
    {
      id: 'webhooks.notifies-status-change',
      operation: 'webhooks',
      title:
        'a payment created SUCCEEDED is notified to the registered endpoint (payment.succeeded)',
      element: elements.webhook('payment.succeeded'),
    },
    {
      id: 'webhooks.signature-verifies',
      operation: 'webhooks',
      title: "every delivery verifies with the endpoint's secret (Standard Webhooks signature)",
      element: elements.parameter('WebhookSignature'),
    },
    {
      id: 'webhooks.webhook-id-is-event-id',
      operation: 'webhooks',
      title: 'the webhook-id header is the event id',
      element: elements.parameter('WebhookId'),
    },
    {
      id: 'webhooks.event-carries-payment',
      operation: 'webhooks',
      title: "the last event's data.object is the payment as a retrieve shows it",
      element: elements.schema('Event'),
    },
    {
      id: 'webhooks.one-event-per-change',
      operation: 'webhooks',
      title:
        'authorize, capture and refund are notified as payment.authorized, payment.succeeded and payment.refunded',
      element: elements.schema('EventType'),
    },
  ],
  async run(context) {
    const receiver = context.webhooks;
    if (!receiver) throw new Error('the webhooks scenario runs only with a receiver');
    const endpoint = await registerEndpoint(context, receiver.url);
    receiver.secret = endpoint.secret;

    const payment = await createPaymentStep(context, createsPayment.id, paymentBody(context));
    const arrived = await context.waitForDeliveries(() =>
      eventsOf(context, payment.id).some((event) => event.type === 'payment.succeeded'),
    );
    const received = eventsOf(context, payment.id).map((event) => event.type);
    context.check(
      'webhooks.notifies-status-change',
      arrived,
      'payment.succeeded for the new payment',
      received.join(', ') || 'no verified delivery in time',
    );

    const flow = await createPaymentStep(
      context,
      createsPayment.id,
      paymentBody(context, 'tok_test_success', { capture: false }),
    );
    await context.waitForDeliveries(() => eventsOf(context, flow.id).length >= 1);
    await context.send({ path: paymentPath(flow.id, '/capture'), body: {} });
    await context.waitForDeliveries(() => eventsOf(context, flow.id).length >= 2);
    await context.send({ path: paymentPath(flow.id, '/refunds'), body: {} });
    const expected = ['payment.authorized', 'payment.succeeded', 'payment.refunded'];
    await context.waitForDeliveries(() => eventsOf(context, flow.id).length >= expected.length);
    const types = eventsOf(context, flow.id).map((event) => event.type);
    context.check(
      'webhooks.one-event-per-change',
      [...types].sort().join() === [...expected].sort().join(),
      expected.join(', '),
      types.join(', ') || 'none',
    );
    context.trace({ label: 'events', operation: 'webhooks', body: types });

    const retrieved = await context.send({ path: paymentPath(flow.id) });
    const last = eventsOf(context, flow.id).find((event) => event.type === 'payment.refunded');
    // A verified event the checks cannot read (no data.object, nested past the limit) is a failure, never a crash.
    const malformed = (context.webhooks?.received ?? []).filter(
      (delivery) => malformationOf(delivery) !== undefined,
    );
    context.check(
      'webhooks.event-carries-payment',
      malformed.length === 0 &&
        last !== undefined &&
        JSON.stringify(last.data.object) === JSON.stringify(retrieved.json),
      'payment.refunded carrying the payment as retrieved, and every event with a data.object',
      malformed.length > 0
        ? `${malformed.length} verified event(s) without a readable payment: ${cleanTargetText(`${malformed[0]?.webhookId} ${malformed[0] && malformationOf(malformed[0])}`, 200)}`
        : last
          ? 'another payment body'
          : 'no payment.refunded',
      retrieved,
    );

    // Only verified deliveries are kept: the run's payments' events must have arrived verified.
    const ours = (context.webhooks?.received ?? []).filter((delivery) => {
      const id = readableEvent(delivery)?.data.object.id;
      return id === payment.id || id === flow.id;
    });
    const refused = context.webhooks?.refused ?? { count: 0, firstReason: undefined };
    context.check(
      'webhooks.signature-verifies',
      ours.length > 0,
      `the deliveries of the run's payments verify`,
      refused.count > 0
        ? `no verified delivery; ${refused.count} refused (${cleanTargetText(refused.firstReason ?? '', 200)})`
        : 'no delivery',
    );
    const mismatched = ours.filter((delivery) => delivery.event.id !== delivery.webhookId);
    context.check(
      'webhooks.webhook-id-is-event-id',
      ours.length > 0 && mismatched.length === 0,
      'webhook-id equal to the event id',
      ours.length === 0 ? 'no delivery' : `${mismatched.length} of ${ours.length} differ`,
    );
    await context.send({ method: 'DELETE', path: `/v1/webhook_endpoints/${endpoint.id}` });
  },
});
