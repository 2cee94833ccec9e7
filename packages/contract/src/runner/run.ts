// runContractCheck: checks the options, probes the target, runs every scenario within the limits, cleans up, and returns the report.
import { randomBytes } from 'node:crypto';
import { openapiDocument } from '@payment-service/openapi';
import { CheckLedger } from '../checks/ledger.js';
import { ConfigurationError, ContractCheckError, KeyRefusedError } from '../errors.js';
import { contractVersion } from '../generated/version.js';
import {
  type ContractReport,
  exitCodeFor,
  FAIL_ON_VALUES,
  type FailOn,
  summarize,
  verdictLine,
} from '../report.js';
import { scenarios as allScenarios } from '../scenarios/index.js';
import {
  createResponseValidator,
  type Exchange,
  type ExchangeResult,
} from '../validation/response-validator.js';
import { type Clock, systemClock } from './clock.js';
import { maskSecrets } from './exchange-record.js';
import {
  createScenarioContext,
  freshSandboxKey,
  type Requirement,
  StepFailed,
  type TraceStep,
} from './scenario.js';
import { createTransport, type Transport } from './transport.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Options of `runContractCheck`. */
export interface ContractCheckOptions {
  /** The target's base URL, such as `https://sandbox.example` or `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** An `sk_test_` key; `sk_live_` keys are refused before anything is sent. */
  apiKey: string;
  /** Which failures fail the run (exit 1). Default `documented`. */
  failOn?: FailOn;
  /** Requests in the whole run, at most. Default 1 000. */
  maxRequests?: number;
  /** Requests per second, at most. Default 25. */
  rate?: number;
  /** How long one request may take, in ms. Default 30 000. */
  timeoutMs?: number;
  /** The URL the target delivers webhooks to; the run starts a receiver for it (port 0 on a loopback host: a free port). */
  webhookUrl?: string;
  /** Where the receiver listens, `[host:]port`, when `webhookUrl` is a public URL (a tunnel's local end). */
  webhookListen?: string;
  /** How long to wait for a delivery, in ms. Default 30 000. */
  webhookTimeoutMs?: number;
  /** Only these scenarios (by id); default all. */
  scenarios?: string[];
  /** The fetch to send with (default: global fetch); a mock's in-process `fetch` runs with no port. */
  fetch?: (request: Request) => Promise<Response>;
  /** The clock the rate limit waits on (tests inject one). */
  clock?: Clock;
  /** Called before each scenario, for a progress indicator. */
  onProgress?: (progress: { index: number; total: number; scenario: string }) => void;
  /** Called with every checked exchange. */
  onExchange?: (exchange: Exchange, result: ExchangeResult) => void;
}

/** The defaults of the limits, printed by the CLI's help. */
export const DEFAULTS = {
  failOn: 'documented' as FailOn,
  maxRequests: 1000,
  rate: 25,
  timeoutMs: 30_000,
  webhookTimeoutMs: 30_000,
};

/** What a run did besides its report: the steps each scenario took, for `compare`. */
export interface ContractRun {
  report: ContractReport;
  traces: Map<string, TraceStep[]>;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value > 0)) {
    throw new ConfigurationError(`${name} must be a positive number, not ${String(value)}`);
  }
  return value;
}

/**
 * Checks the options a run needs before anything is sent; throws a ConfigurationError (exit 2).
 *
 * @example
 * validateOptions({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_live_abc' }); // throws: an sk_live_ key …
 */
export function validateOptions(options: ContractCheckOptions) {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ConfigurationError(
      `--base-url must be an http(s) URL, not ${JSON.stringify(options.baseUrl ?? '')}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`--base-url must be an http(s) URL, not ${url.protocol} …`);
  }
  const key = options.apiKey ?? '';
  if (key.startsWith('sk_live_')) {
    throw new ConfigurationError(
      'refusing an sk_live_ key: a check creates payments, so it runs only against a sandbox with an sk_test_ key. Nothing was sent.',
    );
  }
  if (!/^sk_test_\S+$/.test(key)) {
    throw new ConfigurationError(
      key === ''
        ? 'no key: pass --key or set PAYMENT_SERVICE_API_KEY to an sk_test_ key'
        : 'the key must be a sandbox key beginning with sk_test_ (provider document §5)',
    );
  }
  const failOn = options.failOn ?? DEFAULTS.failOn;
  if (!FAIL_ON_VALUES.includes(failOn)) {
    throw new ConfigurationError(
      `--fail-on must be one of ${FAIL_ON_VALUES.join(', ')}, not ${failOn}`,
    );
  }
  const maxRequests = positive('--max-requests', options.maxRequests, DEFAULTS.maxRequests);
  if (!Number.isInteger(maxRequests))
    throw new ConfigurationError('--max-requests must be a whole number');
  const known = new Set(allScenarios.map((scenario) => scenario.id));
  const unknown = (options.scenarios ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `unknown scenario ${unknown.join(', ')}; known: ${[...known].join(', ')}`,
    );
  }
  if (options.webhookUrl !== undefined) {
    try {
      const webhook = new URL(options.webhookUrl);
      if (webhook.protocol !== 'http:' && webhook.protocol !== 'https:') throw new Error();
    } catch {
      throw new ConfigurationError(
        `--webhook-url must be an http(s) URL, not ${JSON.stringify(options.webhookUrl)}`,
      );
    }
  }
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey: key,
    failOn,
    maxRequests,
    rate: positive('--rate', options.rate, DEFAULTS.rate),
    timeoutMs: positive('--timeout', options.timeoutMs, DEFAULTS.timeoutMs),
    webhookTimeoutMs: positive(
      '--webhook-timeout',
      options.webhookTimeoutMs,
      DEFAULTS.webhookTimeoutMs,
    ),
  };
}

/** First request (a probe, not a check): the target answers, and does not refuse the key. */
async function preflight(transport: Transport): Promise<void> {
  const answer = await transport.send({ path: '/v1/payments?limit=1', unchecked: true });
  if (answer.status === 401 || answer.status === 403) {
    throw new KeyRefusedError(
      `the key was refused: the first request (GET /v1/payments) answered ${answer.status}${answer.code ? ` ${answer.code}` : ''}; check the key and that --base-url is the sandbox`,
    );
  }
}

/** Whether the target serves the mock's sandbox controls. */
async function probeSandboxControls(transport: Transport): Promise<boolean> {
  const answer = await transport.send({
    path: '/_sandbox/clock',
    apiKey: freshSandboxKey(),
    unchecked: true,
  });
  return answer.status === 200 && typeof answer.json?.offset_seconds === 'number';
}

/**
 * Runs the contract checks against a target and returns the report (and each scenario's steps).
 *
 * @example
 * const { report } = await runContract({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_ci' });
 */
export async function runContract(options: ContractCheckOptions): Promise<ContractRun> {
  const settings = validateOptions(options);
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const ledger = new CheckLedger();
  const validator = createResponseValidator();
  const transport = createTransport({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    fetch: options.fetch ?? ((request) => fetch(request)),
    clock,
    rate: settings.rate,
    maxRequests: settings.maxRequests,
    timeoutMs: settings.timeoutMs,
    validator,
    ledger,
    userAgent: `payment-service-contract/${contractVersion}`,
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  const selected = options.scenarios?.length
    ? allScenarios.filter((scenario) => options.scenarios?.includes(scenario.id))
    : allScenarios;
  for (const scenario of selected)
    for (const check of scenario.checks) ledger.declare(check, 'scenario');

  const runId = randomBytes(6).toString('hex');
  const traces = new Map<string, TraceStep[]>();
  const errors: ContractReport['errors'] = [];
  const endpoints = new Map<string, Set<string>>();
  let receiver: WebhookReceiver | undefined;
  let sandboxControls = false;
  let stop: ContractCheckError | undefined;

  try {
    if (options.webhookUrl !== undefined) {
      try {
        receiver = await startWebhookReceiver({
          url: options.webhookUrl,
          ...(options.webhookListen ? { listen: options.webhookListen } : {}),
        });
      } catch (error) {
        throw new ConfigurationError(
          `the webhook receiver could not start: ${(error as Error).message}`,
        );
      }
    }
    await preflight(transport);
    sandboxControls = await probeSandboxControls(transport);
    const missing = (requirement: Requirement) =>
      requirement === 'sandbox-controls'
        ? sandboxControls
          ? undefined
          : 'needs the mock’s /_sandbox controls (clock, faults), which this target does not serve'
        : receiver
          ? undefined
          : 'needs a webhook receiver the target can reach: pass --webhook-url';
    for (const [index, scenario] of selected.entries()) {
      options.onProgress?.({ index, total: selected.length, scenario: scenario.id });
      const reason = (scenario.requires ?? []).map(missing).find((text) => text !== undefined);
      if (reason) {
        for (const check of scenario.checks) ledger.skip(check, 'scenario', reason);
        continue;
      }
      const trace: TraceStep[] = [];
      traces.set(scenario.id, trace);
      const apiKey = scenario.requires?.includes('sandbox-controls')
        ? freshSandboxKey()
        : settings.apiKey;
      const created = endpoints.get(apiKey) ?? new Set<string>();
      endpoints.set(apiKey, created);
      const context = createScenarioContext({
        scenario,
        apiKey,
        runId,
        transport,
        ledger,
        webhooks: receiver,
        endpointUrl: receiver?.url ?? 'http://127.0.0.1:9/payment-service-contract',
        requestSpacingMs: Number.isFinite(settings.rate) ? 1000 / settings.rate : 0,
        webhookTimeoutMs: settings.webhookTimeoutMs,
        endpoints: created,
        trace,
      });
      try {
        await scenario.run(context);
      } catch (error) {
        if (error instanceof ContractCheckError) throw error;
        const reason =
          error instanceof StepFailed
            ? `an earlier step failed (${error.message})`
            : `the scenario stopped on an unexpected error: ${(error as Error).message}`;
        if (!(error instanceof StepFailed)) {
          errors.push({
            scenario: scenario.id,
            message: maskSecrets(String((error as Error).stack ?? error), [settings.apiKey]),
          });
        }
        for (const check of scenario.checks) ledger.skip(check, 'scenario', reason);
      }
    }
  } catch (error) {
    if (!(error instanceof ContractCheckError)) throw error;
    if (error instanceof ConfigurationError && transport.sent === 0) throw error;
    stop = error;
    for (const scenario of selected) {
      for (const check of scenario.checks)
        ledger.skip(check, 'scenario', `the run stopped: ${error.message}`);
    }
  } finally {
    if (stop?.exitCode !== 3) {
      for (const [apiKey, ids] of endpoints) {
        for (const id of ids) {
          await transport
            .send({
              method: 'DELETE',
              path: `/v1/webhook_endpoints/${encodeURIComponent(id)}`,
              apiKey,
              unchecked: true,
            })
            .catch(() => undefined);
        }
      }
    }
    await receiver?.close();
  }

  const checks = ledger.results();
  const summary = summarize(checks);
  const verdict = stop
    ? stop.exitCode === 3
      ? 'unreachable'
      : 'incomplete'
    : exitCodeFor(summary, settings.failOn, errors.length) === 1
      ? 'failed'
      : 'passed';
  const exitCode = stop ? stop.exitCode : exitCodeFor(summary, settings.failOn, errors.length);
  const problem =
    stop?.message ??
    (errors.length > 0 ? `${errors.length} scenario(s) stopped on an unexpected error` : undefined);
  const info = (openapiDocument as unknown as { info: { title: string; version: string } }).info;
  const report: ContractReport = {
    schemaVersion: 1,
    tool: { name: '@payment-service/contract', version: contractVersion },
    spec: { title: info.title, version: info.version },
    target: { baseUrl: settings.baseUrl, sandboxControls, webhooks: receiver !== undefined },
    policy: {
      failOn: settings.failOn,
      maxRequests: settings.maxRequests,
      rate: Number.isFinite(settings.rate) ? settings.rate : null,
    },
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(0, clock.now() - started),
    requests: transport.sent,
    verdict,
    exitCode,
    message: maskSecrets(verdictLine(verdict, summary, settings.failOn, problem), [
      settings.apiKey,
    ]),
    summary,
    checks,
    errors,
  };
  return { report, traces };
}

/**
 * Runs every contract check against a target and returns the report: each check with its outcome,
 * the spec element it enforces and that element's provenance, and the exit code under the policy.
 *
 * @example
 * const report = await runContractCheck({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_ci' });
 * if (report.exitCode !== 0) console.error(report.message);
 */
export async function runContractCheck(options: ContractCheckOptions): Promise<ContractReport> {
  return (await runContract(options)).report;
}
