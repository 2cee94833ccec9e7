// What a scenario is (data: its checks and what it needs, plus the steps the runner executes) and the context its steps use.
import { createHash } from 'node:crypto';
import type { WebhookReceiver } from '@payment-service/sdk/node';
import type { CheckDefinition, CheckLedger } from '../checks/ledger.js';
import type { RandomSource } from '../gate/seed.js';
import type { Answer, ScenarioRequest, Transport } from './transport.js';

/** What a scenario needs from the target or the run. */
export type Requirement =
  /** The mock's `/_sandbox` controls (clock, faults); a live sandbox has none. */
  | 'sandbox-controls'
  /** A webhook receiver the target can reach (`--webhook-url`). */
  | 'webhooks';

/**
 * A scenario: named checks, what they need, and the steps that evaluate them. `Id` is the union of
 * its checks' ids: its steps can name only those (a wrong id fails the typecheck).
 */
export interface Scenario<Id extends string = string> {
  id: string;
  title: string;
  requires?: Requirement[];
  /** Every check the steps may evaluate; each is reported, run or skipped. */
  checks: readonly CheckDefinition<Id>[];
  run(context: ScenarioContext<Id>): Promise<void>;
}

/** The check ids of a scenario. */
export type CheckIdOf<S> = S extends Scenario<infer Id> ? Id : never;

/**
 * Declares a scenario, inferring the literal ids of its checks, so each step's `context.check(id)`
 * is checked against them by the compiler.
 *
 * @example
 * export const listing = defineScenario({ id: 'listing', title: '…', checks: [limitCheck], async run(context) { context.check('listPayments.limit', …); } });
 */
export function defineScenario<const Id extends string>(scenario: Scenario<Id>): Scenario<Id> {
  return scenario;
}

/** One step of a scenario as `compare` sees it: what the request was and what the target answered. */
export interface TraceStep {
  /** `POST /v1/payments` or `events`: the step's place in the scenario. */
  label: string;
  /** The operation, when the request matched one. */
  operation: string;
  status?: number;
  code?: string;
  /** The response body, or for `events` the event types received in order. */
  body?: unknown;
  /** The body nested too deep to be read (`body` is then absent). */
  tooDeep?: boolean;
  /** Which of the headers that matter the response carried. */
  headers?: string[];
  /** Requests sent while another of the scenario's was in flight share a batch: their order is a race's. */
  batch?: number;
}

/** Stops a scenario when a step that later steps need failed; its check already recorded the failure. */
export class StepFailed extends Error {
  override readonly name = 'StepFailed';
}

/** The context a scenario's steps run in; `Id` is the union of the ids of the checks it may evaluate. */
export interface ScenarioContext<Id extends string = string> {
  /** The key this scenario sends: the run's, or a fresh sandbox account when it needs the controls. */
  readonly apiKey: string;
  /** A marker unique to this run, put in descriptions so list checks find their own objects. */
  readonly runId: string;
  /** The receiver, when the run has one (`--webhook-url`). */
  readonly webhooks: WebhookReceiver | undefined;
  /** A URL for webhook endpoints that only need registering: the receiver's when there is one. */
  readonly endpointUrl: string;
  /** The time between two requests under the run's rate limit, in ms (0 without a limit). */
  readonly requestSpacingMs: number;
  /** Sends a request with this scenario's key (unless the request names another). */
  send(request: ScenarioRequest): Promise<Answer>;
  /** Sends a request to the mock's sandbox controls with this scenario's key; throws unless it succeeds. */
  control(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Evaluates the check `id`: records a pass, or a failure with what was expected and what came. */
  check(id: Id, passed: boolean, expected: string, actual: string, answer?: Answer): boolean;
  /** Like `check`, and stops the scenario when it fails (later steps need it). */
  require(id: Id, passed: boolean, expected: string, actual: string, answer?: Answer): void;
  /** Checks a problem answer: its status, `code` and, when given, `param`. */
  expectProblem(id: Id, answer: Answer, status: number, code: string, param?: string): boolean;
  /** Whether the run's selection (`--operation`, `--check`, …) includes the check: steps that evaluate only unselected checks are not sent. */
  selected(id: Id): boolean;
  /** A fresh Idempotency-Key (from the run's seeded random source). */
  idempotencyKey(): string;
  /** A fresh `sk_test_` key: on the mock, an empty account (from the run's seeded random source). */
  freshSandboxKey(): string;
  /** Remembers a webhook endpoint this run created, so the run deletes it at the end. */
  trackEndpoint(id: string): void;
  /** Waits until `predicate` holds for the receiver's deliveries, up to the webhook time-out; false when it never did. */
  waitForDeliveries(predicate: () => boolean): Promise<boolean>;
  /** Records a step for `compare` that is not a request (the events a scenario received). */
  trace(step: TraceStep): void;
}

/**
 * Describes an answer in a few words: `201`, `409 invalid_state`, or why no answer came.
 *
 * @example
 * statusOf(answer); // '409 invalid_state'
 */
export function statusOf(answer: Answer): string {
  if (answer.status === 0) return answer.record.bodyExcerpt;
  return answer.code ? `${answer.status} ${answer.code}` : String(answer.status);
}

/**
 * A fresh `sk_test_` key from a random source: on the mock, an empty account of its own. With
 * `owner` (the run's own key), the key is also bound to it: two runs with one seed and two keys
 * (`compare` of a target with itself) get two accounts, and one never sees the other's payments.
 * It draws the same bytes either way, so the run's other values (markers, Idempotency-Keys) stay
 * those of the seed.
 *
 * @example
 * freshSandboxKey(createRandomSource(42)); // 'sk_test_contract4f9c…'
 * freshSandboxKey(createRandomSource(42), 'sk_test_my_key_1234'); // another key, for that owner
 */
export function freshSandboxKey(random: RandomSource, owner?: string): string {
  const drawn = random.hex(12);
  if (owner === undefined) return `sk_test_contract${drawn}`;
  return `sk_test_contract${createHash('sha256').update(`${drawn}:${owner}`).digest('hex').slice(0, 24)}`;
}

/** Options of `createScenarioContext`. */
export interface ScenarioContextOptions<Id extends string = string> {
  scenario: Scenario<Id>;
  apiKey: string;
  /** The run's own key: fresh keys are bound to it (see `freshSandboxKey`). */
  keyOwner?: string;
  runId: string;
  transport: Transport;
  ledger: CheckLedger;
  webhooks: WebhookReceiver | undefined;
  endpointUrl: string;
  requestSpacingMs: number;
  webhookTimeoutMs: number;
  /** The time left before the run's deadline, in ms: no wait for a delivery goes past it. */
  timeLeft?: () => number;
  endpoints: Set<string>;
  trace: TraceStep[];
  /** Whether to keep the steps (with the answers' bodies) for `compare`. Default true. */
  keepTrace?: boolean;
  /** The scenario's random source (markers, keys, Idempotency-Keys); seeded by the run. */
  random: RandomSource;
  /** Whether the run's selection includes a check (default: every check). */
  selected?: (definition: CheckDefinition) => boolean;
  /** Collects the ids of the checks the scenario evaluated (the runner gives them its scenario's time). */
  evaluated?: Set<string>;
}

/**
 * Builds the context a scenario's steps run in.
 *
 * @example
 * const context = createScenarioContext({ scenario, apiKey, runId, transport, ledger, webhooks: undefined, endpointUrl, requestSpacingMs: 40, webhookTimeoutMs: 30_000, endpoints: new Set(), trace: [] });
 * await scenario.run(context);
 */
export function createScenarioContext<Id extends string>(
  options: ScenarioContextOptions<Id>,
): ScenarioContext<Id> {
  const definitions = new Map<string, CheckDefinition<Id>>(
    options.scenario.checks.map((check) => [check.id, check]),
  );
  const definition = (id: Id) => {
    const found = definitions.get(id);
    if (!found) throw new Error(`scenario ${options.scenario.id} has no check ${id}`);
    return found;
  };

  const keepTrace = options.keepTrace ?? true;

  // Requests sent while others are in flight share a batch (compare reads them as sent at once).
  let inFlight = 0;
  let batch = 0;
  const send = async (request: ScenarioRequest) => {
    if (inFlight === 0) batch += 1;
    const sentIn = batch;
    inFlight += 1;
    const answer = await options.transport
      .send({ apiKey: options.apiKey, ...request })
      .finally(() => {
        inFlight -= 1;
      });
    if (!keepTrace) return answer;
    const headers = ['request-id', 'idempotent-replayed', 'retry-after', 'allow'].filter((name) =>
      answer.headers.has(name),
    );
    options.trace.push({
      label: `${request.method ?? (request.body === undefined ? 'GET' : 'POST')} ${answer.result.operation}`,
      operation: answer.result.operation,
      status: answer.status,
      ...(answer.code ? { code: answer.code } : {}),
      body: answer.json,
      ...(answer.tooDeep ? { tooDeep: true } : {}),
      headers,
      batch: sentIn,
    });
    return answer;
  };

  const context: ScenarioContext<Id> = {
    apiKey: options.apiKey,
    runId: options.runId,
    webhooks: options.webhooks,
    endpointUrl: options.endpointUrl,
    requestSpacingMs: options.requestSpacingMs,
    send,
    async control(method, path, body) {
      const answer = await send({
        method,
        path: `/_sandbox${path}`,
        ...(body === undefined ? {} : { body }),
      });
      if (answer.status >= 300)
        throw new Error(
          `the sandbox control ${method} /_sandbox${path} answered ${statusOf(answer)}`,
        );
      return answer;
    },
    check(id, passed, expected, actual, answer) {
      options.ledger.record(
        definition(id),
        'scenario',
        passed ? undefined : { expected, actual, ...(answer ? { exchange: answer.record } : {}) },
      );
      options.evaluated?.add(id);
      return passed;
    },
    require(id, passed, expected, actual, answer) {
      if (!context.check(id, passed, expected, actual, answer)) {
        throw new StepFailed(`${id}: expected ${expected}, got ${actual}`);
      }
    },
    expectProblem(id, answer, status, code, param) {
      const problems: string[] = [];
      if (answer.status !== status) problems.push(`status ${answer.status}`);
      if (answer.code !== code) problems.push(`code ${answer.code ?? '(none)'}`);
      if (param !== undefined && answer.json?.param !== param) {
        problems.push(`param ${JSON.stringify(answer.json?.param)}`);
      }
      return context.check(
        id,
        problems.length === 0,
        `${status} ${code}${param === undefined ? '' : ` on ${param}`}`,
        problems.length === 0 ? 'as expected' : problems.join(', '),
        answer,
      );
    },
    selected: (id) => options.selected?.(definition(id)) ?? true,
    idempotencyKey: () => options.random.uuid(),
    freshSandboxKey: () => freshSandboxKey(options.random, options.keyOwner),
    trackEndpoint: (id) => options.endpoints.add(id),
    async waitForDeliveries(predicate) {
      if (!options.webhooks) return false;
      const left = options.timeLeft?.() ?? Number.POSITIVE_INFINITY;
      return options.webhooks.waitUntil(
        predicate,
        Math.max(0, Math.min(options.webhookTimeoutMs, left)),
      );
    },
    trace: (step) => {
      if (keepTrace) options.trace.push(step);
    },
  };
  return context;
}
