// runContractCheck: checks the options, probes the target, runs every scenario within the limits and the deadline, cleans up in every case, and returns the report.
import { openapiDocument } from '@payment-service/openapi';
import type { WebhookReceiver } from '@payment-service/sdk/node';
import { CheckLedger } from '../checks/ledger.js';
import {
  ConfigurationError,
  ContractCheckError,
  KeyRefusedError,
  RunStoppedError,
} from '../errors.js';
import {
  type Baseline,
  type BaselineFile,
  baselineNotes,
  updatedBaseline,
  utcDate,
} from '../gate/baseline.js';
import {
  type CheckSelection,
  isEmptySelection,
  isSelected,
  selectScenarios,
  validateSelection,
} from '../gate/filters.js';
import { applyGate } from '../gate/gate.js';
import {
  createRandomSource,
  isSeed,
  MAX_SEED,
  type RandomSource,
  randomSeed,
} from '../gate/seed.js';
import { contractVersion } from '../generated/version.js';
import {
  type ContractReport,
  exitCodeFor,
  FAIL_ON_VALUES,
  type FailOn,
  summarize,
  type Verdict,
  verdictLine,
} from '../report.js';
import { scenarios as allScenarios } from '../scenarios/index.js';
import { cleanTargetText } from '../untrusted-text.js';
import {
  createResponseValidator,
  type Exchange,
  type ExchangeResult,
} from '../validation/response-validator.js';
import { type Clock, systemClock } from './clock.js';
import { maskSecrets } from './exchange-record.js';
import { startRunReceiver } from './run-webhooks.js';
import {
  createScenarioContext,
  freshSandboxKey,
  type Requirement,
  StepFailed,
  type TraceStep,
} from './scenario.js';
import { createTransport, type Transport } from './transport.js';

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
  /** How long the whole run may take, in ms; then it stops with the report of what ran (exit 3). Default 20 minutes. */
  deadlineMs?: number;
  /** How many requests in a row may time out before the run stops (exit 3). Default 3. */
  maxConsecutiveTimeouts?: number;
  /** Keep each scenario's steps (the answers' bodies) for `compare`. Default true; `check` turns it off. */
  keepTraces?: boolean;
  /** Only these scenarios (by id); default all. */
  scenarios?: string[];
  /** Only these checks (and the scenarios they need): by operation, id glob, provenance; default all. */
  selection?: CheckSelection;
  /** Known failures: reported as known, not failing the run, until their entry expires. */
  baseline?: Baseline;
  /** Return the baseline this run's failures make (`--update-baseline`), and judge the run against it. */
  updateBaseline?: boolean;
  /** The seed of the run's markers, keys and Idempotency-Keys (0 to 4294967295); default a random one, printed in the report. */
  seed?: number;
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
  deadlineMs: 20 * 60_000,
  maxConsecutiveTimeouts: 3,
};

/** What a run did besides its report: the steps each scenario took, for `compare`. */
export interface ContractRun {
  report: ContractReport;
  traces: Map<string, TraceStep[]>;
  /** With `updateBaseline`, the baseline to write (absent when the run did not finish). */
  updatedBaseline?: BaselineFile;
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
      `--base-url must be an http(s) URL, not ${JSON.stringify(cleanTargetText(String(options.baseUrl ?? '').replace(/\/\/[^/@]*@/, '//***@'), 200))}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(`--base-url must be an http(s) URL, not ${url.protocol} …`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(
      `--base-url must not carry credentials (${url.protocol}//***:***@${url.host}): the key goes in --key, and nothing else is sent to the target. Nothing was sent.`,
    );
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
  if (options.seed !== undefined && !isSeed(options.seed)) {
    throw new ConfigurationError(
      `--seed must be a whole number from 0 to ${MAX_SEED}, not ${String(options.seed)}`,
    );
  }
  if (options.selection && !isEmptySelection(options.selection))
    validateSelection(options.selection);
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
    deadlineMs: positive('--deadline', options.deadlineMs, DEFAULTS.deadlineMs),
    maxConsecutiveTimeouts: positive(
      'maxConsecutiveTimeouts',
      options.maxConsecutiveTimeouts,
      DEFAULTS.maxConsecutiveTimeouts,
    ),
  };
}

/** First request (a probe, not a check): the target answers, and does not refuse the key. */
async function preflight(transport: Transport): Promise<void> {
  const answer = await transport.send({ path: '/v1/payments?limit=1', unchecked: true });
  if (answer.status === 401 || answer.status === 403) {
    // The target's own explanation, cleaned: its `detail` (or `title`), else the body's start.
    const json = answer.json as { detail?: unknown; title?: unknown } | undefined;
    const said =
      typeof json?.detail === 'string'
        ? json.detail
        : typeof json?.title === 'string'
          ? json.title
          : answer.record.bodyExcerpt;
    throw new KeyRefusedError(
      `the target refused the key: the first request (GET /v1/payments) answered ${answer.status}${answer.code ? ` ${answer.code}` : ''}${said ? `, saying "${cleanTargetText(said, 200)}"` : ''}; check the key and that --base-url is the sandbox`,
    );
  }
}

/** Whether the target serves the mock's sandbox controls. */
async function probeSandboxControls(transport: Transport, random: RandomSource): Promise<boolean> {
  const answer = await transport.send({
    path: '/_sandbox/clock',
    apiKey: freshSandboxKey(random),
    unchecked: true,
  });
  return answer.status === 200 && typeof answer.json?.offset_seconds === 'number';
}

/**
 * Deletes the webhook endpoints a run registered, whatever ended the run; returns the ids it could
 * not delete (it stops trying once the target no longer answers).
 */
async function deleteEndpoints(
  transport: Transport,
  endpoints: Map<string, Set<string>>,
): Promise<string[]> {
  const left: string[] = [];
  let answering = true;
  for (const [apiKey, ids] of endpoints) {
    for (const id of ids) {
      if (!answering) {
        left.push(id);
        continue;
      }
      try {
        const answer = await transport.send({
          method: 'DELETE',
          path: `/v1/webhook_endpoints/${encodeURIComponent(id)}`,
          apiKey,
          unchecked: true,
          cleanup: true,
        });
        if (answer.status >= 300 && answer.status !== 404) left.push(id);
      } catch {
        answering = false;
        left.push(id);
      }
    }
  }
  return left.map((id) => cleanTargetText(id, 60));
}

/**
 * Runs the contract checks against a target and returns the report (and each scenario's steps).
 *
 * @example
 * const { report } = await runContract({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_local_ci_run' });
 */
export async function runContract(options: ContractCheckOptions): Promise<ContractRun> {
  const settings = validateOptions(options);
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const deadline = started + settings.deadlineMs;
  const selection = options.selection ?? {};
  const ledger = new CheckLedger(
    isEmptySelection(selection) ? undefined : (check) => isSelected(check, selection),
  );
  const seed = options.seed ?? randomSeed();
  const random = createRandomSource(seed);
  const validator = createResponseValidator();
  const transport = createTransport({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    fetch: options.fetch ?? ((request) => fetch(request)),
    clock,
    rate: settings.rate,
    maxRequests: settings.maxRequests,
    timeoutMs: settings.timeoutMs,
    deadline,
    maxConsecutiveTimeouts: settings.maxConsecutiveTimeouts,
    validator,
    ledger,
    userAgent: `payment-service-contract/${contractVersion}`,
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  const selected = selectScenarios(
    selection,
    options.scenarios?.length
      ? allScenarios.filter((scenario) => options.scenarios?.includes(scenario.id))
      : allScenarios,
  );
  for (const scenario of selected)
    for (const check of scenario.checks) ledger.declare(check, 'scenario');

  const runId = random.fork('run').hex(6);
  const scenarioDurations: Record<string, number> = {};
  const traces = new Map<string, TraceStep[]>();
  const keepTraces = options.keepTraces ?? true;
  const errors: ContractReport['errors'] = [];
  const endpoints = new Map<string, Set<string>>();
  const mask = (text: string) => maskSecrets(text, [settings.apiKey]);
  let receiver: WebhookReceiver | undefined;
  let sandboxControls = false;
  let stop: { exitCode: 2 | 3 | 4; verdict: Verdict; message: string } | undefined;
  let leftBehind: string[] = [];

  try {
    if (options.webhookUrl !== undefined) {
      try {
        receiver = await startRunReceiver({
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
    sandboxControls = await probeSandboxControls(transport, random.fork('probe'));
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
      if (keepTraces) traces.set(scenario.id, trace);
      // Each scenario draws from its own seeded source: filtering others out changes none of its values.
      const scenarioRandom = random.fork(scenario.id);
      const apiKey = scenario.requires?.includes('sandbox-controls')
        ? freshSandboxKey(scenarioRandom, settings.apiKey)
        : settings.apiKey;
      const evaluated = new Set<string>();
      const scenarioStarted = clock.now();
      const created = endpoints.get(apiKey) ?? new Set<string>();
      endpoints.set(apiKey, created);
      const context = createScenarioContext({
        scenario,
        apiKey,
        keyOwner: settings.apiKey,
        runId,
        transport,
        ledger,
        webhooks: receiver,
        endpointUrl: receiver?.url ?? 'http://127.0.0.1:9/payment-service-contract',
        requestSpacingMs: Number.isFinite(settings.rate) ? 1000 / settings.rate : 0,
        webhookTimeoutMs: settings.webhookTimeoutMs,
        timeLeft: () => deadline - clock.now(),
        endpoints: created,
        trace,
        keepTrace: keepTraces,
        random: scenarioRandom,
        selected: (definition) => ledger.includes(definition),
        evaluated,
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
            message: cleanTargetText(mask(String((error as Error).stack ?? error)), 4000),
          });
        }
        for (const check of scenario.checks) ledger.skip(check, 'scenario', reason);
      } finally {
        // A scenario check's time is its scenario's, read on the run's clock.
        const spent = Math.max(0, clock.now() - scenarioStarted);
        scenarioDurations[scenario.id] = spent;
        for (const check of scenario.checks)
          if (evaluated.has(check.id)) ledger.addScenarioTime(check, scenario.id, spent);
      }
    }
  } catch (error) {
    if (error instanceof ConfigurationError && transport.sent === 0) throw error;
    if (error instanceof ContractCheckError) {
      stop = {
        exitCode: error.exitCode,
        verdict:
          error.exitCode === 2
            ? 'incomplete'
            : error instanceof KeyRefusedError
              ? 'key-refused'
              : error instanceof RunStoppedError
                ? 'stopped'
                : 'unreachable',
        message: error.message,
      };
    } else {
      // A bug here, or an answer nothing foresaw: no verdict, but the report of what ran.
      const message = `an internal error stopped the run: ${(error as Error)?.message ?? String(error)}`;
      errors.push({
        scenario: 'run',
        message: cleanTargetText(mask(String((error as Error)?.stack ?? error)), 4000),
      });
      stop = { exitCode: 4, verdict: 'no-verdict', message };
    }
    for (const scenario of selected) {
      for (const check of scenario.checks)
        ledger.skip(check, 'scenario', `the run stopped: ${stop.message}`, stop.exitCode !== 2);
    }
  } finally {
    leftBehind = await deleteEndpoints(transport, endpoints);
    await receiver?.close();
  }

  const today = utcDate(clock.now());
  const finished = stop === undefined;
  const next =
    options.updateBaseline && finished
      ? updatedBaseline(
          ledger.results(),
          options.baseline ?? { file: 'baseline', entries: [] },
          today,
        )
      : undefined;
  const baseline: Baseline | undefined = next
    ? { file: options.baseline?.file ?? 'baseline', entries: next.known }
    : options.baseline;
  const gated = applyGate(ledger.results(), {
    selection,
    ...(baseline ? { baseline } : {}),
    today,
  });
  const checks = gated.checks;
  const summary = summarize(checks);
  const counted = exitCodeFor(summary, settings.failOn, errors.length);
  const verdict: Verdict = stop
    ? stop.verdict
    : counted === 1
      ? 'failed'
      : counted === 4
        ? 'no-verdict'
        : 'passed';
  const exitCode = stop ? stop.exitCode : counted;
  const problems = [
    stop?.message ??
      (errors.length > 0
        ? `${errors.length} scenario(s) stopped on an unexpected error`
        : undefined),
    ...(gated.baseline ? baselineNotes(gated.baseline) : []),
    options.updateBaseline && !finished
      ? 'the baseline was not updated: the run did not finish'
      : undefined,
    leftBehind.length > 0
      ? `${leftBehind.length} webhook endpoint(s) the run registered could not be deleted: ${leftBehind.join(', ')}`
      : undefined,
  ].filter((text): text is string => text !== undefined);
  const problem = problems.length > 0 ? cleanTargetText(problems.join('; '), 2000) : undefined;
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
    seed,
    ...(isEmptySelection(selection) ? {} : { selection }),
    ...(gated.baseline ? { baseline: gated.baseline } : {}),
    scenarioDurations,
    startedAt: new Date(started).toISOString(),
    durationMs: Math.max(0, clock.now() - started),
    requests: transport.sent,
    verdict,
    exitCode,
    message: mask(verdictLine(verdict, summary, settings.failOn, problem)),
    summary,
    checks,
    errors,
  };
  return { report, traces, ...(next ? { updatedBaseline: next } : {}) };
}

/**
 * Runs every contract check against a target and returns the report: each check with its outcome,
 * the spec element it enforces and that element's provenance, and the exit code under the policy.
 *
 * @example
 * const report = await runContractCheck({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk_test_local_ci_run' });
 * if (report.exitCode !== 0) console.error(report.message);
 */
export async function runContractCheck(options: ContractCheckOptions): Promise<ContractReport> {
  return (await runContract(options)).report;
}
