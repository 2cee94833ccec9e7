// Mixed load on many keys until a kill -9, and the model of every write it was answered about.
import { type Answer, type Call, call, NO_ANSWER } from '../http.js';
import type { Receiver } from '../receiver.js';
import { type SeededRandom, seededRandom } from './data-dir-sandbox.js';

export type Json = Record<string, unknown>;

/** A request as sent (what a replay sends again). */
export interface Sent {
  method: string;
  path: string;
  body?: unknown;
  idempotencyKey?: string;
}

/** An answered request that carried an Idempotency-Key: what its replay must give back. */
export interface KeyedAnswer {
  sent: Sent;
  status: number;
  text: string;
}

/** One step of a client. Those on /v1 may be answered by an armed `fail_next` instead. */
export type Step =
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

export const send = (url: string, key: string, sent: Sent): Promise<Answer> => {
  const init: Call = { method: sent.method, path: sent.path, key };
  if (sent.body !== undefined) init.body = sent.body;
  if (sent.idempotencyKey !== undefined) init.idempotencyKey = sent.idempotencyKey;
  return call(url, init);
};

export const isV1 = (step: Step) => step.sent.path.startsWith('/v1/');

/** The faults after one armed `fail_next` answered a request. */
export function afterFailure(faults: Json): Json {
  const failNext = faults.fail_next as { count: number; status: number } | undefined;
  if (failNext === undefined) return faults;
  const { fail_next: _, ...rest } = faults;
  return failNext.count > 1
    ? { ...rest, fail_next: { ...failNext, count: failNext.count - 1 } }
    : rest;
}

/** A payment as a step on it leaves it, when the step is applied. */
export function applied(payment: Json, step: Step): Json {
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
export class Unexpected extends Error {}

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
