// After a kill -9 and a restart: every write the model holds survived, and the step in flight was applied whole or not at all.
import { isDeepStrictEqual } from 'node:util';
import { createResponseValidator } from '@payment-service/contract/toolkit';
import { verifyWebhook } from '@payment-service/sdk';
import { type Answer, pool } from '../http.js';
import type { Receiver } from '../receiver.js';
import { flatHeaders } from './data-dir-sandbox.js';
import {
  afterFailure,
  applied,
  isV1,
  type Json,
  type KeyModel,
  type Sent,
  type Step,
  send,
  Unexpected,
} from './mixed-load.js';

/** Compiled once: every answer read after a restart is checked against the spec. */
const validator = createResponseValidator();

/** One key's check: where it runs, what it asks, and the step in flight at the kill. */
interface KeyCheck {
  url: string;
  model: KeyModel;
  /** The key and its step in flight, for messages. */
  where: string;
  /** The step in flight, unless an armed fail_next answered it (then it changed nothing else). */
  live: Step | undefined;
  /** Sends a request and checks its answer against the spec. */
  ask(sent: Sent): Promise<Answer>;
}

/**
 * The faults as last answered, or as the step in flight left them: a `PUT` applied, or one
 * `fail_next` spent. An armed `fail_next` is then cleared, so that it answers none of the checks.
 * Returns the step in flight if it may have changed anything else.
 */
async function checkFaults(check: Omit<KeyCheck, 'live'>, step: Step | undefined) {
  const { model, where } = check;
  const faults = await check.ask({ method: 'GET', path: '/_sandbox/faults' });
  const allowed = [model.faults];
  if (step?.kind === 'faults') allowed.push(step.faults);
  const failed = step !== undefined && isV1(step) && model.faults.fail_next !== undefined;
  if (failed) allowed.push(afterFailure(model.faults));
  if (!allowed.some((faultsNow) => isDeepStrictEqual(faultsNow, faults.json))) {
    throw new Unexpected(
      `${where}: faults ${faults.text}, expected one of ${JSON.stringify(allowed)}`,
    );
  }
  model.faults = faults.json as Json;
  if (model.faults.fail_next !== undefined) {
    await check.ask({ method: 'DELETE', path: '/_sandbox/faults' });
    model.faults = {};
  }
  return failed ? undefined : step;
}

/** The clock offset as last answered, or advanced by the step in flight. */
async function checkClock({ ask, model, where, live }: KeyCheck): Promise<void> {
  const offset = (await ask({ method: 'GET', path: '/_sandbox/clock' })).json?.offset_seconds;
  const allowed = [model.offset, ...(live?.kind === 'clock' ? [model.offset + live.seconds] : [])];
  if (!allowed.includes(offset as number)) {
    throw new Unexpected(
      `${where}: clock offset ${String(offset)}, expected one of ${allowed.join(', ')}`,
    );
  }
  model.offset = offset as number;
}

/** Every payment of the key, page by page. */
async function listAll({ ask }: KeyCheck): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  let after = '';
  for (;;) {
    const path = `/v1/payments?limit=100${after === '' ? '' : `&starting_after=${after}`}`;
    const page = (await ask({ method: 'GET', path })).json as { data: Json[]; has_more: boolean };
    for (const payment of page.data) found.set(payment.id as string, payment);
    if (!page.has_more || page.data.length === 0) return found;
    after = page.data[page.data.length - 1]?.id as string;
  }
}

/**
 * Each payment answered is listed as answered (or as the step in flight leaves it); a payment
 * nobody was answered about only for a create in flight, matching it. Those written since the
 * last check (all with `all`) are retrieved by id too. Returns the payments as answered before,
 * and the ids of the unanswered ones.
 */
async function checkPayments(check: KeyCheck, all: boolean) {
  const { model, where, live } = check;
  const listed = await listAll(check);
  const answered = new Map(model.payments);
  for (const [id, expected] of answered) {
    const found = listed.get(id);
    const allowed = [expected];
    if (live !== undefined && 'paymentId' in live && live.paymentId === id) {
      allowed.push(applied(expected, live));
      model.touched.add(id);
    }
    if (!allowed.some((candidate) => isDeepStrictEqual(candidate, found))) {
      throw new Unexpected(
        `${where}: payment ${id} is ${JSON.stringify(found)} after the restart; answered as ${JSON.stringify(allowed)}`,
      );
    }
    model.payments.set(id, found as Json);
  }
  const extra = [...listed.keys()].filter((id) => !answered.has(id));
  const created = live?.kind === 'create' ? live : undefined;
  if (extra.length > (created === undefined ? 0 : 1)) {
    throw new Unexpected(`${where}: payments nobody was answered about: ${extra.join(', ')}`);
  }
  for (const id of extra) {
    const payment = listed.get(id) as Json;
    if (payment.amount !== created?.amount || payment.capture !== created?.capture) {
      throw new Unexpected(
        `${where}: payment ${id} does not match the create in flight: ${JSON.stringify(payment)}`,
      );
    }
    model.payments.set(id, payment);
    model.touched.add(id);
  }
  for (const [id, expected] of model.payments) {
    if (!all && !model.touched.has(id)) continue;
    const answer = await check.ask({ method: 'GET', path: `/v1/payments/${id}` });
    if (!isDeepStrictEqual(answer.json, expected)) {
      throw new Unexpected(
        `${where}: GET ${id} answers ${answer.text}, the list said ${JSON.stringify(expected)}`,
      );
    }
  }
  model.touched.clear();
  return { answered, extra };
}

/** Each Idempotency-Key answer given since the last check (all with `all`) replays byte for byte. */
async function replayKeyed({ url, model, where }: KeyCheck, all: boolean): Promise<number> {
  const keyed = model.keyed.slice(all ? 0 : model.replayed);
  for (const first of keyed) {
    const answer = await send(url, model.key, first.sent);
    const replayed = answer.headers['idempotent-replayed'];
    if (answer.status !== first.status || replayed !== 'true' || answer.text !== first.text) {
      throw new Unexpected(
        `${where}: ${first.sent.method} ${first.sent.path} with Idempotency-Key ${first.sent.idempotencyKey} answered ${answer.status} (replayed: ${String(replayed)}) ${answer.text.slice(0, 300)}; first answered ${first.status} ${first.text.slice(0, 300)}`,
      );
    }
  }
  return keyed.length;
}

/**
 * A step in flight that carried an Idempotency-Key, sent again: it replays if and only if what
 * it does was stored (its payment created, or changed), else it runs now; never a conflict.
 */
async function resolveKeyedInFlight(
  check: KeyCheck,
  { answered, extra }: { answered: Map<string, Json>; extra: string[] },
): Promise<void> {
  const { model, where, live } = check;
  if (live?.sent.idempotencyKey === undefined || live.kind === 'replay') return;
  const answer = await check.ask(live.sent);
  const replayed = answer.headers['idempotent-replayed'] === 'true';
  const expected = live.kind === 'refund' || live.kind === 'create' ? 201 : 200;
  if (answer.status !== expected) {
    throw new Unexpected(
      `${where}: the ${live.kind} in flight, sent again, answered ${answer.status} ${answer.text.slice(0, 300)}`,
    );
  }
  if (live.kind === 'create') {
    const id = answer.json?.id as string;
    if (replayed ? !isDeepStrictEqual(extra, [id]) : extra.length > 0) {
      throw new Unexpected(
        `${where}: the create in flight ${replayed ? `replays ${id}` : 'runs again'}, but the payments stored without an answer are [${extra.join(', ')}]`,
      );
    }
    model.payments.set(id, answer.json as Json);
    model.touched.add(id);
  } else if ('paymentId' in live) {
    const observed = model.payments.get(live.paymentId) as Json;
    const changed = !isDeepStrictEqual(answered.get(live.paymentId), observed);
    if (replayed !== changed) {
      throw new Unexpected(
        `${where}: the ${live.kind} in flight ${replayed ? 'replays' : 'runs again'}, but the payment was ${changed ? '' : 'not '}changed by it: ${JSON.stringify(observed)}`,
      );
    }
    if (!replayed) {
      const now = live.kind === 'refund' ? applied(observed, live) : (answer.json as Json);
      model.payments.set(live.paymentId, now);
      model.touched.add(live.paymentId);
    }
  }
  model.keyed.push({ sent: live.sent, status: answer.status, text: answer.text });
}

/**
 * The endpoints answered are listed (one more only for a registration in flight, deleted: its
 * secret was never answered); a key with endpoints gets a new payment, whose deliveries are
 * verified afterwards. Returns that payment's id.
 */
async function checkEndpoints({ ask, model, where, live }: KeyCheck): Promise<string | undefined> {
  const endpoints = await ask({ method: 'GET', path: '/v1/webhook_endpoints' });
  const ids = ((endpoints.json?.data ?? []) as Json[]).map((endpoint) => endpoint.id as string);
  const missing = [...model.endpoints.keys()].filter((id) => !ids.includes(id));
  const unknown = ids.filter((id) => !model.endpoints.has(id));
  if (missing.length > 0 || unknown.length > (live?.kind === 'endpoint' ? 1 : 0)) {
    throw new Unexpected(
      `${where}: endpoints ${ids.join(', ')}; answered ${[...model.endpoints.keys()].join(', ')}`,
    );
  }
  for (const id of unknown) await ask({ method: 'DELETE', path: `/v1/webhook_endpoints/${id}` });
  if (model.endpoints.size === 0) return undefined;
  const body = {
    amount: 4242,
    currency: 'KZT',
    capture: true,
    payment_method: { type: 'token', token: 'tok_test_success' },
  };
  const created = await ask({ method: 'POST', path: '/v1/payments', body });
  const id = created.json?.id as string;
  model.payments.set(id, created.json as Json);
  model.touched.add(id);
  return id;
}

/** Each endpoint of the key got the payment's event, signed with the secret it was answered. */
async function verifySignatures(
  receiver: Receiver,
  model: KeyModel,
  paymentId: string,
): Promise<void> {
  const secrets = new Map(
    [...model.endpoints.values()].map(({ token, secret }) => [token, secret]),
  );
  const deliveries = () =>
    receiver.received.filter((delivery) => delivery.data?.object?.id === paymentId);
  await receiver.until(
    () => new Set(deliveries().map((delivery) => delivery.path)).size >= secrets.size,
  );
  for (const delivery of deliveries()) {
    const secret = secrets.get(delivery.path.split('/').pop() as string);
    if (secret === undefined) {
      throw new Unexpected(
        `a delivery of ${paymentId} to ${delivery.path}, not an endpoint of ${model.key}`,
      );
    }
    await verifyWebhook(delivery.raw, delivery.headers, secret as `whsec_${string}`);
  }
}

/**
 * Checks after a restart that every write the model holds survived (faults, clock, each payment
 * as listed, endpoints; payments written and Idempotency-Key answers given since the last check
 * retrieved and replayed one by one, or all of them with `all`), resolves each key's step in
 * flight into the model (applied whole, or not at all), and checks that each key's endpoints
 * still sign with their secrets (`webhooks.verify` on a new payment's deliveries). Every answer
 * read is checked against the spec. Returns how many requests it made.
 *
 * @example
 * await verifyAfterRestart(url, models, receiver, { all: true });
 */
export async function verifyAfterRestart(
  url: string,
  models: KeyModel[],
  receiver: Receiver,
  { all = false } = {},
): Promise<number> {
  let requests = 0;
  const signed: Array<{ model: KeyModel; paymentId: string }> = [];
  await pool(models.length, 6, async (index) => {
    const model = models[index] as KeyModel;
    const step = model.inFlight;
    model.inFlight = undefined;
    const where = `${model.key}${step === undefined ? '' : ` (in flight: ${step.sent.method} ${step.sent.path})`}`;
    const ask = async (sent: Sent): Promise<Answer> => {
      const answer = await send(url, model.key, sent);
      requests++;
      const path = sent.path.split('?')[0] as string;
      const headers = flatHeaders(answer);
      const exchange = {
        method: sent.method,
        path,
        status: answer.status,
        headers,
        body: answer.text,
      };
      const { violations } = validator.check(exchange);
      if (violations.length > 0) {
        throw new Unexpected(
          `${where}: ${sent.method} ${path} ${answer.status} breaks the spec: ${JSON.stringify(violations.slice(0, 3))}`,
        );
      }
      return answer;
    };
    const live = await checkFaults({ url, model, where, ask }, step);
    const check: KeyCheck = { url, model, where, live, ask };
    await checkClock(check);
    const payments = await checkPayments(check, all);
    const replays = await replayKeyed(check, all);
    requests += replays;
    await resolveKeyedInFlight(check, payments);
    model.replayed = model.keyed.length;
    const paymentId = await checkEndpoints(check);
    if (paymentId !== undefined) signed.push({ model, paymentId });
  });
  for (const { model, paymentId } of signed) await verifySignatures(receiver, model, paymentId);
  return requests;
}
