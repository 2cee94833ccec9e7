// What a scenario is (data: its checks and what it needs, plus the steps the runner executes) and the context its steps use.
import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookReceiver } from '@payment-service/sdk/node';
import type { CheckDefinition, CheckLedger } from '../checks/ledger.js';
import type { Clock } from './clock.js';
import type { Answer, ScenarioRequest, Transport } from './transport.js';

/** What a scenario needs from the target or the run. */
export type Requirement =
  /** The mock's `/_sandbox` controls (clock, faults); a live sandbox has none. */
  | 'sandbox-controls'
  /** A webhook receiver the target can reach (`--webhook-url`). */
  | 'webhooks';

/** A scenario: named checks, what they need, and the steps that evaluate them. */
export interface Scenario {
  id: string;
  title: string;
  requires?: Requirement[];
  /** Every check the steps may evaluate; each is reported, run or skipped. */
  checks: CheckDefinition[];
  run(context: ScenarioContext): Promise<void>;
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
  /** Which of the headers that matter the response carried. */
  headers?: string[];
  /** Requests sent while another of the scenario's was in flight share a batch: their order is a race's. */
  batch?: number;
}

/** Stops a scenario when a step that later steps need failed; its check already recorded the failure. */
export class StepFailed extends Error {
  override readonly name = 'StepFailed';
}

/** The context a scenario's steps run in. */
export interface ScenarioContext {
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
  check(id: string, passed: boolean, expected: string, actual: string, answer?: Answer): boolean;
  /** Like `check`, and stops the scenario when it fails (later steps need it). */
  require(id: string, passed: boolean, expected: string, actual: string, answer?: Answer): void;
  /** Checks a problem answer: its status, `code` and, when given, `param`. */
  expectProblem(id: string, answer: Answer, status: number, code: string, param?: string): boolean;
  /** A fresh Idempotency-Key. */
  idempotencyKey(): string;
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
 * A fresh `sk_test_` key: on the mock, an empty account of its own.
 *
 * @example
 * freshSandboxKey(); // 'sk_test_contract4f9c…'
 */
export function freshSandboxKey(): string {
  return `sk_test_contract${randomBytes(12).toString('hex')}`;
}

/** Options of `createScenarioContext`. */
export interface ScenarioContextOptions {
  scenario: Scenario;
  apiKey: string;
  runId: string;
  transport: Transport;
  ledger: CheckLedger;
  webhooks: WebhookReceiver | undefined;
  endpointUrl: string;
  requestSpacingMs: number;
  webhookTimeoutMs: number;
  /** The time left before the run's deadline, in ms: no wait for a delivery goes past it. */
  timeLeft?: () => number;
  /** The run's clock: each check's time is read on it. */
  clock?: Clock;
  endpoints: Set<string>;
  trace: TraceStep[];
  /** Whether to keep the steps (with the answers' bodies) for `compare`. Default true. */
  keepTrace?: boolean;
}

/**
 * Builds the context a scenario's steps run in.
 *
 * @example
 * const context = createScenarioContext({ scenario, apiKey, runId, transport, ledger, webhooks: undefined, endpointUrl, requestSpacingMs: 40, webhookTimeoutMs: 30_000, endpoints: new Set(), trace: [] });
 * await scenario.run(context);
 */
export function createScenarioContext(options: ScenarioContextOptions): ScenarioContext {
  const definitions = new Map(options.scenario.checks.map((check) => [check.id, check]));
  const definition = (id: string) => {
    const found = definitions.get(id);
    if (!found) throw new Error(`scenario ${options.scenario.id} has no check ${id}`);
    return found;
  };

  const now = () => options.clock?.now() ?? Date.now();
  const keepTrace = options.keepTrace ?? true;
  // Each check's time is the time since the scenario's previous check: the scenario's time, shared.
  let lastCheck = now();
  const elapsed = () => {
    const at = now();
    const spent = at - lastCheck;
    lastCheck = at;
    return spent;
  };

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
      headers,
      batch: sentIn,
    });
    return answer;
  };

  const context: ScenarioContext = {
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
        elapsed(),
      );
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
    idempotencyKey: () => randomUUID(),
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
