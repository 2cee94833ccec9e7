// Mixed load on many keys until a kill -9, a model of every answered write, and the check after the restart that each one survived.
import { isDeepStrictEqual } from 'node:util';
import { createResponseValidator } from '@payment-service/contract';
import { verifyWebhook } from '@payment-service/sdk';
import { type Answer, type Call, call, NO_ANSWER, pool } from '../http.js';
import type { Receiver } from '../receiver.js';
import { flatHeaders, type SeededRandom, seededRandom } from './data-dir-sandbox.js';

type Json = Record<string, unknown>;

/** A request as sent (what a replay sends again). */
interface Sent {
  method: string;
  path: string;
  body?: unknown;
  idempotencyKey?: string;
}

/** An answered request that carried an Idempotency-Key: what its replay must give back. */
interface KeyedAnswer {
  sent: Sent;
  status: number;
  text: string;
}

/** One step of a client. Those on /v1 may be answered by an armed `fail_next` instead. */
type Step =
  | { kind: 'create'; sent: Sent; amount: number; capture: boolean }
  | { kind: 'capture'; sent: Sent; paymentId: string; amount: number | undefined }
  | { kind: 'cancel'; sent: Sent; paymentId: string }
  | { kind: 'refund'; sent: Sent; paymentId: string; amount: number }
  | { kind: 'endpoint'; sent: Sent; token: string }
  | { kind: 'replay'; sent: Sent; of: KeyedAnswer }
  | { kind: 'faults'; sent: Sent; faults: Json }
  | { kind: 'clock'; sent: Sent; seconds: number };

/** What the test knows of one key: every write answered, and the step in flight at the kill. */
export interface KeyModel {
  key: string;
  /** Payments as their answers (and the refunds answered since) say they are, by id. */
  payments: Map<string, Json>;
  keyed: KeyedAnswer[];
  /** Endpoint ids by the token in their URL's path, and each token's signing secret. */
  endpoints: Map<string, { token: string; secret: string }>;
  faults: Json;
  offset: number;
  /** The step that was sent and never answered when the process was killed. */
  inFlight: Step | undefined;
  /** Payments written since the last check: each is retrieved by id at the next one. */
  touched: Set<string>;
  /** How many of `keyed` a check after a restart already replayed. */
  replayed: number;
}

/** The statuses of an armed `fail_next` and their problem codes. */
const INJECTED: Record<number, string> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const FAULT_CHOICES: Json[] = [
  { latency_ms: 2 },
  { fail_next: { count: 1, status: 503 } },
  { fail_next: { count: 2, status: 500 } },
  { latency_ms: 1, fail_next: { count: 1, status: 502 } },
  {},
];

/**
 * Keys named for the seed, so two runs never share a key's journal entries by accident.
 *
 * @example
 * newModels(42, 24)[0].key; // 'sk_test_crash42_k00_…'
 */
export function newModels(seed: number, count: number): KeyModel[] {
  return Array.from({ length: count }, (_, index) => ({
    key: `sk_test_crash${seed}_k${String(index).padStart(2, '0')}_abcdefgh`,
    payments: new Map(),
    keyed: [],
    endpoints: new Map(),
    faults: {},
    offset: 0,
    inFlight: undefined,
    touched: new Set(),
    replayed: 0,
  }));
}

const send = (url: string, key: string, sent: Sent): Promise<Answer> => {
  const init: Call = { method: sent.method, path: sent.path, key };
  if (sent.body !== undefined) init.body = sent.body;
  if (sent.idempotencyKey !== undefined) init.idempotencyKey = sent.idempotencyKey;
  return call(url, init);
};

const isV1 = (step: Step) => step.sent.path.startsWith('/v1/');

/** The faults after one armed `fail_next` answered a request. */
function afterFailure(faults: Json): Json {
  const failNext = faults.fail_next as { count: number; status: number } | undefined;
  if (failNext === undefined) return faults;
  const { fail_next: _, ...rest } = faults;
  return failNext.count > 1
    ? { ...rest, fail_next: { ...failNext, count: failNext.count - 1 } }
    : rest;
}

/** A payment as a step on it leaves it, when the step is applied. */
function applied(payment: Json, step: Step): Json {
  if (step.kind === 'capture') {
    return { ...payment, status: 'SUCCEEDED', amount_captured: step.amount ?? payment.amount };
  }
  if (step.kind === 'cancel') return { ...payment, status: 'CANCELED' };
  if (step.kind === 'refund') {
    const refunded = (payment.amount_refunded as number) + step.amount;
    const status = refunded === payment.amount_captured ? 'REFUNDED' : payment.status;
    return { ...payment, amount_refunded: refunded, status };
  }
  return payment;
}

/** The next step for a key, drawn from what its model allows. */
function nextStep(model: KeyModel, random: SeededRandom, label: string, receiver: Receiver): Step {
  const payments = [...model.payments.values()];
  const authorized = payments.filter((p) => p.status === 'AUTHORIZED');
  const refundable = payments.filter(
    (p) =>
      p.status === 'SUCCEEDED' && (p.amount_captured as number) > (p.amount_refunded as number),
  );
  const keyed = random.chance(0.5) ? `idem-${label}` : undefined;
  const roll = random.next();
  if (roll < 0.08 && model.endpoints.size < 3) {
    const token = `ep-${label}`;
    return {
      kind: 'endpoint',
      token,
      sent: {
        method: 'POST',
        path: '/v1/webhook_endpoints',
        body: { url: `${receiver.url}/${token}` },
      },
    };
  }
  if (roll < 0.16) {
    const faults = random.pick(FAULT_CHOICES);
    const sent: Sent =
      Object.keys(faults).length === 0
        ? { method: 'DELETE', path: '/_sandbox/faults' }
        : { method: 'PUT', path: '/_sandbox/faults', body: faults };
    return { kind: 'faults', faults, sent };
  }
  if (roll < 0.23) {
    const seconds = random.int(1, 120);
    return {
      kind: 'clock',
      seconds,
      sent: { method: 'POST', path: '/_sandbox/clock/advance', body: { seconds } },
    };
  }
  if (roll < 0.28 && model.keyed.length > 0) {
    const of = random.pick(model.keyed);
    return { kind: 'replay', of, sent: of.sent };
  }
  const withKey = (sent: Sent): Sent =>
    keyed === undefined ? sent : { ...sent, idempotencyKey: keyed };
  if (roll < 0.45 && authorized.length > 0) {
    const payment = random.pick(authorized);
    const paymentId = payment.id as string;
    if (random.chance(0.2)) {
      return {
        kind: 'cancel',
        paymentId,
        sent: withKey({ method: 'POST', path: `/v1/payments/${paymentId}/cancel` }),
      };
    }
    const amount = random.chance(0.5) ? undefined : random.int(1, payment.amount as number);
    const body = amount === undefined ? {} : { amount };
    return {
      kind: 'capture',
      paymentId,
      amount,
      sent: withKey({ method: 'POST', path: `/v1/payments/${paymentId}/capture`, body }),
    };
  }
  if (roll < 0.6 && refundable.length > 0) {
    const payment = random.pick(refundable);
    const paymentId = payment.id as string;
    const left = (payment.amount_captured as number) - (payment.amount_refunded as number);
    const amount = random.int(1, left);
    return {
      kind: 'refund',
      paymentId,
      amount,
      sent: withKey({
        method: 'POST',
        path: `/v1/payments/${paymentId}/refunds`,
        body: { amount },
      }),
    };
  }
  const amount = random.int(100, 100_000);
  const capture = random.chance(0.5);
  const body = {
    amount,
    currency: 'KZT',
    capture,
    payment_method: { type: 'token', token: 'tok_test_success' },
  };
  return {
    kind: 'create',
    amount,
    capture,
    sent: withKey({ method: 'POST', path: '/v1/payments', body }),
  };
}

/** Why an answer does not fit the model: a failure of the sandbox, not of the plan. */
class Unexpected extends Error {}

/** Takes an answered step into the model. */
function record(model: KeyModel, step: Step, answer: Answer): void {
  const where = `${step.sent.method} ${step.sent.path} on ${model.key}`;
  if (isV1(step) && model.faults.fail_next !== undefined) {
    const status = (model.faults.fail_next as { status: number }).status;
    if (answer.status !== status || answer.json?.code !== INJECTED[status]) {
      throw new Unexpected(
        `${where}: an armed fail_next ${status} answered ${answer.status} ${answer.text.slice(0, 200)}`,
      );
    }
    model.faults = afterFailure(model.faults);
    return;
  }
  const expected = {
    create: 201,
    capture: 200,
    cancel: 200,
    refund: 201,
    endpoint: 201,
    faults: 200,
    clock: 200,
    replay: step.kind === 'replay' ? step.of.status : 0,
  }[step.kind];
  if (answer.status !== expected) {
    throw new Unexpected(
      `${where}: expected ${expected}, answered ${answer.status} ${answer.text.slice(0, 300)}`,
    );
  }
  const body = answer.json as Json;
  if ('paymentId' in step) model.touched.add(step.paymentId);
  if (step.kind === 'create') model.touched.add(body.id as string);
  switch (step.kind) {
    case 'create':
      model.payments.set(body.id as string, body);
      break;
    case 'capture':
    case 'cancel':
      model.payments.set(step.paymentId, body);
      break;
    case 'refund':
      model.payments.set(step.paymentId, applied(model.payments.get(step.paymentId) as Json, step));
      break;
    case 'endpoint':
      model.endpoints.set(body.id as string, { token: step.token, secret: body.secret as string });
      break;
    case 'faults':
      model.faults = body;
      break;
    case 'clock':
      model.offset = body.offset_seconds as number;
      break;
    case 'replay':
      if (answer.headers['idempotent-replayed'] !== 'true' || answer.text !== step.of.text) {
        throw new Unexpected(`${where}: a replay during the load differs from the first answer`);
      }
      return;
  }
  if (step.sent.idempotencyKey !== undefined)
    model.keyed.push({ sent: step.sent, status: answer.status, text: answer.text });
}

/** What one round of load did. */
export interface LoadRound {
  answered: number;
  inFlight: number;
}

/**
 * Runs `clients` clients, each owning a share of `models`' keys and sending one step at a time
 * on a random key of its own (so each key's steps have one order), until the process dies. After
 * `killAfter` answers, `kill()` is called from the answer's callback: other clients' requests
 * are then anywhere between sent and answered. Each client stops at its first request without
 * an answer, and leaves it as its key's `inFlight`.
 *
 * @example
 * await runUntilKilled(url, models, random, { clients: 6, killAfter: 120, round: 1, receiver, kill: () => sandbox.kill9() });
 */
export async function runUntilKilled(
  url: string,
  models: KeyModel[],
  random: SeededRandom,
  options: {
    clients: number;
    killAfter: number;
    round: number;
    receiver: Receiver;
    kill: () => Promise<void>;
  },
): Promise<LoadRound> {
  let answered = 0;
  let inFlight = 0;
  let killed: Promise<void> | undefined;
  // Each client draws from its own generator, so a client's plan does not depend on timing.
  const seeds = Array.from({ length: options.clients }, () => random.int(1, 2 ** 31));
  const client = async (index: number) => {
    const own = models.filter((_, keyIndex) => keyIndex % options.clients === index);
    const mine = seededRandom(seeds[index] as number);
    for (let n = 0; ; n++) {
      const model = mine.pick(own);
      const step = nextStep(model, mine, `r${options.round}-c${index}-${n}`, options.receiver);
      const answer = await send(url, model.key, step.sent);
      if (answer.status === NO_ANSWER) {
        model.inFlight = step;
        inFlight++;
        return;
      }
      answered++;
      record(model, step, answer);
      if (answered === options.killAfter) killed = options.kill();
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  await killed;
  return { answered, inFlight };
}

/** Compiled once: every answer read after a restart is checked against the spec. */
const validator = createResponseValidator();

/** Lists every payment of a key, page by page, each page checked against the spec. */
async function listAll(
  url: string,
  key: string,
  check: (sent: Sent, answer: Answer) => void,
): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  let after: string | undefined;
  for (;;) {
    const path = `/v1/payments?limit=100${after === undefined ? '' : `&starting_after=${after}`}`;
    const answer = await call(url, { path, key });
    check({ method: 'GET', path: '/v1/payments' }, answer);
    const page = answer.json as { data: Json[]; has_more: boolean };
    for (const payment of page.data) found.set(payment.id as string, payment);
    if (!page.has_more || page.data.length === 0) return found;
    after = page.data[page.data.length - 1]?.id as string;
  }
}

/**
 * Checks after a restart that every write the model holds survived (each payment as listed,
 * faults, clock, endpoints; payments written and Idempotency-Key answers given since the last
 * check retrieved and replayed one by one, or all of them with `all`), resolves each key's step
 * in flight (applied whole, or not at all) into the model, and checks that each key's endpoints
 * still sign with their secrets: one new payment per key with endpoints, its deliveries verified
 * with `webhooks.verify`. Returns how many requests it made.
 *
 * @example
 * await verifyAfterRestart(url, models, receiver);
 */
export async function verifyAfterRestart(
  url: string,
  models: KeyModel[],
  receiver: Receiver,
  { all = false } = {},
): Promise<number> {
  let requests = 0;
  const check = (sent: Sent, answer: Answer, where: string) => {
    requests++;
    const path = sent.path.split('?')[0] as string;
    const result = validator.check({
      method: sent.method,
      path,
      status: answer.status,
      headers: flatHeaders(answer),
      body: answer.text,
    });
    if (result.violations.length > 0) {
      throw new Unexpected(
        `${where}: ${sent.method} ${path} ${answer.status} breaks the spec: ${JSON.stringify(result.violations.slice(0, 3))}`,
      );
    }
  };
  const signed: Array<{ model: KeyModel; paymentId: string }> = [];
  await pool(models.length, 6, async (index) => {
    const model = models[index] as KeyModel;
    const where = `${model.key}${model.inFlight === undefined ? '' : ` (in flight: ${model.inFlight.sent.method} ${model.inFlight.sent.path})`}`;
    const step = model.inFlight;
    model.inFlight = undefined;

    // Faults first: an armed fail_next would answer the checks below.
    const faults = await call(url, { path: '/_sandbox/faults', key: model.key });
    check({ method: 'GET', path: '/_sandbox/faults' }, faults, where);
    const allowedFaults = [model.faults];
    if (step?.kind === 'faults') allowedFaults.push(step.faults);
    const consumed = step !== undefined && isV1(step) && model.faults.fail_next !== undefined;
    if (consumed) allowedFaults.push(afterFailure(model.faults));
    if (!allowedFaults.some((allowed) => isDeepStrictEqual(allowed, faults.json))) {
      throw new Unexpected(
        `${where}: faults ${faults.text}, expected one of ${JSON.stringify(allowedFaults)}`,
      );
    }
    // A step that an armed fail_next answered (or would have) changed nothing else.
    const live = consumed ? undefined : step;
    model.faults = faults.json as Json;
    if (model.faults.fail_next !== undefined) {
      const cleared = await call(url, {
        method: 'DELETE',
        path: '/_sandbox/faults',
        key: model.key,
      });
      check({ method: 'DELETE', path: '/_sandbox/faults' }, cleared, where);
      model.faults = {};
    }

    const clock = await call(url, { path: '/_sandbox/clock', key: model.key });
    check({ method: 'GET', path: '/_sandbox/clock' }, clock, where);
    const offset = clock.json?.offset_seconds;
    const allowedOffsets = [
      model.offset,
      ...(live?.kind === 'clock' ? [model.offset + live.seconds] : []),
    ];
    if (!allowedOffsets.includes(offset as number)) {
      throw new Unexpected(
        `${where}: clock offset ${String(offset)}, expected one of ${allowedOffsets.join(', ')}`,
      );
    }
    model.offset = offset as number;

    const listed = await listAll(url, model.key, (sent, answer) => check(sent, answer, where));
    const answeredBefore = new Map(model.payments);
    for (const [id, expected] of model.payments) {
      const found = listed.get(id);
      const allowed = [expected];
      if (live !== undefined && 'paymentId' in live && live.paymentId === id)
        allowed.push(applied(expected, live));
      if (!allowed.some((candidate) => isDeepStrictEqual(candidate, found))) {
        throw new Unexpected(
          `${where}: payment ${id} is ${JSON.stringify(found)} after the restart; answered as ${JSON.stringify(allowed)}`,
        );
      }
      model.payments.set(id, found as Json);
    }
    const extra = [...listed.keys()].filter((id) => !model.payments.has(id));
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
    }
    // Every payment is in the list above; those written since the last check are also retrieved.
    for (const id of extra) model.touched.add(id);
    if (live !== undefined && 'paymentId' in live) model.touched.add(live.paymentId);
    for (const [id, expected] of model.payments) {
      if (!all && !model.touched.has(id)) continue;
      const answer = await call(url, { path: `/v1/payments/${id}`, key: model.key });
      check({ method: 'GET', path: `/v1/payments/${id}` }, answer, where);
      if (!isDeepStrictEqual(answer.json, expected)) {
        throw new Unexpected(
          `${where}: GET ${id} answers ${answer.text}, the list said ${JSON.stringify(expected)}`,
        );
      }
    }

    model.touched.clear();
    // Each answer with an Idempotency-Key is replayed after the restart that follows it (and all of them when `all`).
    for (const keyed of model.keyed.slice(all ? 0 : model.replayed)) {
      const answer = await send(url, model.key, keyed.sent);
      requests++;
      if (
        answer.status !== keyed.status ||
        answer.headers['idempotent-replayed'] !== 'true' ||
        answer.text !== keyed.text
      ) {
        throw new Unexpected(
          `${where}: ${keyed.sent.method} ${keyed.sent.path} with Idempotency-Key ${keyed.sent.idempotencyKey} answered ${answer.status} (replayed: ${String(answer.headers['idempotent-replayed'])}) ${answer.text.slice(0, 300)}; first answered ${keyed.status} ${keyed.text.slice(0, 300)}`,
        );
      }
    }
    // A keyed step in flight: sent again, it replays what was applied, or runs now; never a conflict.
    if (live?.sent.idempotencyKey !== undefined && live.kind !== 'replay') {
      const answer = await send(url, model.key, live.sent);
      check(live.sent, answer, where);
      const replayed = answer.headers['idempotent-replayed'] === 'true';
      const expected = live.kind === 'refund' || live.kind === 'create' ? 201 : 200;
      if (answer.status !== expected) {
        throw new Unexpected(
          `${where}: the ${live.kind} in flight, sent again, answered ${answer.status} ${answer.text.slice(0, 300)}`,
        );
      }
      if (live.kind === 'create') {
        // Its payment was stored if and only if its Idempotency-Key record was.
        const id = answer.json?.id as string;
        if (replayed ? !isDeepStrictEqual(extra, [id]) : extra.length > 0) {
          throw new Unexpected(
            `${where}: the create in flight ${replayed ? `replays ${id}` : 'runs again'}, but the payments stored without an answer are [${extra.join(', ')}]`,
          );
        }
        model.payments.set(id, answer.json as Json);
      } else if ('paymentId' in live) {
        const before = answeredBefore.get(live.paymentId) as Json;
        const observed = model.payments.get(live.paymentId) as Json;
        const wasApplied = !isDeepStrictEqual(before, observed);
        if (replayed !== wasApplied) {
          throw new Unexpected(
            `${where}: the ${live.kind} in flight ${replayed ? 'replays' : 'runs again'}, but the payment was ${wasApplied ? '' : 'not '}changed by it: ${JSON.stringify(observed)}`,
          );
        }
        if (!replayed) {
          model.payments.set(
            live.paymentId,
            live.kind === 'refund' ? applied(observed, live) : (answer.json as Json),
          );
        }
      }
      model.keyed.push({ sent: live.sent, status: answer.status, text: answer.text });
    }
    model.replayed = model.keyed.length;

    const endpoints = await call(url, { path: '/v1/webhook_endpoints', key: model.key });
    check({ method: 'GET', path: '/v1/webhook_endpoints' }, endpoints, where);
    const ids = ((endpoints.json?.data ?? []) as Json[]).map((endpoint) => endpoint.id as string);
    const missing = [...model.endpoints.keys()].filter((id) => !ids.includes(id));
    const unknown = ids.filter((id) => !model.endpoints.has(id));
    if (missing.length > 0 || unknown.length > (live?.kind === 'endpoint' ? 1 : 0)) {
      throw new Unexpected(
        `${where}: endpoints ${ids.join(', ')}; answered ${[...model.endpoints.keys()].join(', ')}`,
      );
    }
    if (unknown.length > 0) {
      // Registered, but its secret was never answered: no test can verify it; delete it.
      const deleted = await call(url, {
        method: 'DELETE',
        path: `/v1/webhook_endpoints/${unknown[0]}`,
        key: model.key,
      });
      check({ method: 'DELETE', path: `/v1/webhook_endpoints/${unknown[0]}` }, deleted, where);
    }
    if (model.endpoints.size > 0) {
      const body = {
        amount: 4242,
        currency: 'KZT',
        capture: true,
        payment_method: { type: 'token', token: 'tok_test_success' },
      };
      const answer = await call(url, {
        method: 'POST',
        path: '/v1/payments',
        key: model.key,
        body,
      });
      check({ method: 'POST', path: '/v1/payments' }, answer, where);
      model.payments.set(answer.json?.id as string, answer.json as Json);
      model.touched.add(answer.json?.id as string);
      signed.push({ model, paymentId: answer.json?.id as string });
    }
  });

  // Each endpoint of the key gets the new payment's event, signed with the secret it was given.
  for (const { model, paymentId } of signed) {
    const tokens = new Map(
      [...model.endpoints.values()].map(({ token, secret }) => [token, secret]),
    );
    const deliveries = () =>
      receiver.received.filter((delivery) => delivery.data?.object?.id === paymentId);
    await receiver.until(
      () => new Set(deliveries().map((delivery) => delivery.path)).size >= tokens.size,
    );
    for (const delivery of deliveries()) {
      const secret = tokens.get(delivery.path.split('/').pop() as string);
      if (secret === undefined)
        throw new Unexpected(
          `a delivery of ${paymentId} to ${delivery.path}, not an endpoint of ${model.key}`,
        );
      await verifyWebhook(delivery.raw, delivery.headers, secret as `whsec_${string}`);
    }
  }
  return requests;
}
