// Checks a team's own traffic, exchange by exchange: the request against what the contract allows (cause: your request) and the answer against the spec (the provider's drift), grouped with counts and one example each.
import { CheckLedger, type CheckResult } from '../checks/ledger.js';
import { type ExchangeRecord, KEY_VARIABLE, recordExchange } from '../runner/exchange-record.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../runner/json-depth.js';
import { type ResolvedElement, resolveElement } from '../spec/elements.js';
import { type SpecDocument, type SpecName, specDocuments } from '../spec/spec-index.js';
import { cleanTargetText } from '../untrusted-text.js';
import {
  createResponseValidator,
  type SchemaCheck,
  type SchemaViolation,
} from '../validation/response-validator.js';
import { createRequestValidator } from './request-validator.js';
import { createPaymentFacts } from './traffic-facts.js';

/** One exchange as the proxy saw it, or a recording holds it. */
export interface TrafficExchange {
  method: string;
  /** Where the request went: the target's origin, path and query. */
  url: string;
  /** The path the app asked for (without the target's base path), and its query. */
  path: string;
  /** Request headers, names lower-cased (repeated ones joined with `, `). */
  requestHeaders: Record<string, string>;
  /** The request body as text; undefined without one. */
  requestBody?: string;
  /** Why the request body was not kept whole (`body over 1048576 bytes`): then it is not checked. */
  requestBodyUnread?: string;
  /** 0 when the target gave no answer. */
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** Why the answer's body was not kept whole: then what needs it is not checked. */
  responseBodyUnread?: string;
  /** Why the target gave no answer, when it did not. */
  noAnswer?: string;
}

/** Which side of an exchange broke the contract. */
export type Cause = NonNullable<CheckResult['cause']>;

/** A check result of traffic: `cause` says whose mistake a failure is. */
export interface TrafficCheckResult extends CheckResult {
  /** `request`: the app sent what the contract does not allow; `answer`: the target's answer drifts from the spec. */
  cause: Cause;
}

/** What the traffic held besides check outcomes: counts, and what was not checked and why. */
export interface TrafficNotes {
  exchanges: number;
  /** Exchanges whose request or answer (or part of it) was not checked, by reason. */
  notChecked: Record<string, number>;
  /** Requests refused before forwarding because they carried an `sk_live_` key. */
  liveKeysRefused: number;
  /** Requests to a method and path the spec does not declare. */
  undeclaredRoutes: number;
}

/** Schema checks one exchange can fail, at most (as `check`). */
const MAX_VIOLATIONS_PER_EXCHANGE = 20;
/** Checks remembered as already holding an example (the ledger's own bound on entries, twice over). */
const MAX_EXAMPLED = 4000;
/** Distinct reasons kept in `notChecked`; more are counted under one. */
const MAX_REASONS = 50;
/** How much of a request body an example keeps. */
const EXAMPLE_REQUEST_BODY_CHARS = 2000;
/** Request headers an example shows (the key only as `$PAYMENT_SERVICE_API_KEY`). */
const SHOWN_REQUEST_HEADERS = ['authorization', 'content-type', 'idempotency-key'];

/** Options of `createTrafficChecker`. */
export interface TrafficCheckerOptions {
  /** The spec documents to check against; default the kit's own. */
  documents?: Record<SpecName, SpecDocument>;
  /** Where a runtime spec's elements sit (file and line), for reports; default the kit's spec. */
  locate?: (element: ResolvedElement) => Pick<ResolvedElement, 'file' | 'line'>;
}

/** A body parsed as JSON, or undefined (a body nested too deep is not read). */
function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return nestsDeeperThan(value, MAX_JSON_DEPTH) ? undefined : value;
  } catch {
    return undefined;
  }
}

function headersOf(values: Record<string, string>, names?: string[]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(values)) {
    if (names && !names.includes(name)) continue;
    try {
      headers.set(name, value);
    } catch {
      // A name or value no HTTP message can carry (a hostile recording): left out.
    }
  }
  return headers;
}

/**
 * Creates the checker of a proxy's (or a replay's) traffic: `check` each exchange, then `results`.
 *
 * @example
 * const checker = createTrafficChecker();
 * checker.check(exchange);
 * checker.results().filter((check) => check.cause === 'request' && check.outcome === 'failed');
 */
export function createTrafficChecker(options: TrafficCheckerOptions = {}) {
  const documents = options.documents ?? specDocuments;
  const answers = createResponseValidator(documents);
  const requests = createRequestValidator(documents);
  const ledgers: Record<Cause, CheckLedger> = {
    request: new CheckLedger(),
    answer: new CheckLedger(),
  };
  /** The checks that already hold an example: later failures are counted without building one. */
  const exampled = new Set<string>();
  const notes: TrafficNotes = {
    exchanges: 0,
    notChecked: {},
    liveKeysRefused: 0,
    undeclaredRoutes: 0,
  };

  function notChecked(reason: string) {
    const known = reason in notes.notChecked;
    const key =
      known || Object.keys(notes.notChecked).length < MAX_REASONS ? reason : 'other reasons';
    notes.notChecked[key] = (notes.notChecked[key] ?? 0) + 1;
  }

  function exampleOf(exchange: TrafficExchange): ExchangeRecord {
    const shown = headersOf(
      exchange.requestHeaders,
      SHOWN_REQUEST_HEADERS.filter((name) => name !== 'authorization'),
    );
    const authorization = exchange.requestHeaders.authorization;
    // Never the key (or its masked form): a reproduction reads it from the environment.
    if (authorization !== undefined)
      shown.set(
        'authorization',
        /^Bearer\s/i.test(authorization) ? `Bearer $${KEY_VARIABLE}` : '(not shown)',
      );
    const body =
      exchange.requestBody === undefined
        ? undefined
        : cleanTargetText(exchange.requestBody, EXAMPLE_REQUEST_BODY_CHARS);
    return recordExchange(
      { method: exchange.method, url: exchange.url, headers: shown },
      body,
      { status: exchange.status, headers: headersOf(exchange.responseHeaders) },
      exchange.noAnswer
        ? `(no answer: ${exchange.noAnswer})`
        : exchange.responseBody.slice(0, 4096),
      '',
    );
  }

  /** Records one side's checks: one evaluation per check, its first violation the failure. */
  function record(
    cause: Cause,
    operation: string,
    checks: SchemaCheck[],
    violations: SchemaViolation[],
    example: () => ExchangeRecord,
    rewrite: (violation: SchemaViolation) => SchemaViolation = (violation) => violation,
  ) {
    const first = new Map<string, SchemaViolation>();
    for (const violation of violations) {
      if (first.size >= MAX_VIOLATIONS_PER_EXCHANGE) break;
      if (!first.has(violation.id)) first.set(violation.id, rewrite(violation));
    }
    const all = [
      ...checks,
      ...[...first.values()].filter((item) => !checks.some((check) => check.id === item.id)),
    ];
    const seen = new Set<string>();
    let shown: ExchangeRecord | undefined;
    for (const check of all) {
      if (seen.has(check.id)) continue;
      seen.add(check.id);
      const violation = first.get(check.id);
      const key = `${cause}\u0000${operation}\u0000${check.id}`;
      const needsExample = violation !== undefined && !exampled.has(key);
      if (needsExample) {
        shown ??= example();
        if (exampled.size < MAX_EXAMPLED) exampled.add(key);
      }
      ledgers[cause].record(
        { id: check.id, title: check.title, element: check.element, operation },
        'schema',
        violation
          ? {
              expected: violation.expected,
              actual: violation.actual,
              ...(needsExample && shown ? { exchange: shown } : {}),
            }
          : undefined,
      );
    }
  }

  function checkRequest(
    exchange: TrafficExchange,
    pathname: string,
    query: Array<[string, string]>,
  ) {
    const result = requests.check({
      method: exchange.method,
      path: pathname,
      query,
      headers: exchange.requestHeaders,
      body: exchange.requestBody,
      ...(exchange.requestBodyUnread !== undefined ? { bodyUnread: true } : {}),
    });
    if (result.operation === 'undeclared') notes.undeclaredRoutes += 1;
    if (exchange.requestBodyUnread !== undefined)
      notChecked(`request body not checked: ${exchange.requestBodyUnread}`);
    const operation = result.operation === 'undeclared' ? 'routes' : result.operation;
    record('request', operation, result.checks, result.violations, () => exampleOf(exchange));
    return operation;
  }

  function checkAnswer(exchange: TrafficExchange, pathname: string) {
    if (exchange.noAnswer !== undefined) {
      notChecked('answer not checked: the target gave no answer');
      return;
    }
    const over = exchange.responseBodyUnread !== undefined;
    const result = answers.check({
      method: exchange.method,
      path: pathname,
      status: exchange.status,
      headers: exchange.responseHeaders,
      body: over ? '' : exchange.responseBody,
    });
    let { checks, violations } = result;
    if (over) {
      // Status and headers are still checked; what needs the body is not.
      notChecked(`answer body not checked: ${exchange.responseBodyUnread}`);
      checks = checks.filter((check) => !check.id.startsWith('schema.'));
      violations = violations.filter(
        (violation) =>
          !violation.id.startsWith('schema.') &&
          !(violation.id === 'content-type' && violation.expected === 'a JSON body'),
      );
    }
    if (
      !over &&
      result.operation === 'createPayment' &&
      exchange.status >= 200 &&
      exchange.status < 300
    ) {
      const facts = createPaymentFacts(
        parseJson(exchange.requestBody),
        parseJson(exchange.responseBody),
      );
      checks = [...checks, ...facts.checks];
      violations = [...violations, ...facts.violations];
    }
    const redirect = exchange.status >= 300 && exchange.status < 400;
    record(
      'answer',
      result.operation === 'undeclared' ? 'routes' : result.operation,
      checks,
      violations,
      () => exampleOf(exchange),
      (violation) =>
        redirect && violation.id.startsWith('status.')
          ? { ...violation, actual: `${violation.actual}: a redirect, passed to the app as is` }
          : violation,
    );
  }

  return {
    notes,
    /** Counts a reason an exchange (or part of it) was not checked. */
    notChecked,
    /** Counts a request refused for carrying an `sk_live_` key (it was never forwarded). */
    refusedLiveKey() {
      notes.exchanges += 1;
      notes.liveKeysRefused += 1;
    },
    /**
     * Checks one exchange in both directions.
     *
     * @example
     * checker.check({ method: 'POST', url, path: '/v1/payments', requestHeaders, requestBody, status: 201, responseHeaders, responseBody });
     */
    check(exchange: TrafficExchange): void {
      notes.exchanges += 1;
      const [pathname = '/', search = ''] = exchange.path.split('?', 2);
      const query = [...new URLSearchParams(search)];
      checkRequest(exchange, pathname, query);
      checkAnswer(exchange, pathname);
    },
    /**
     * Every check, each with its cause; elements resolved against the documents checked against.
     *
     * @example
     * checker.results().find((check) => check.id === 'schema.Payment.status');
     */
    results(): TrafficCheckResult[] {
      const resolve = (check: CheckResult): ResolvedElement => {
        if (!options.documents) return check.element;
        const element = resolveElement(
          {
            spec: check.element.spec,
            pointer: check.element.pointer,
            ...(check.element.value !== undefined ? { value: check.element.value } : {}),
            ...(check.element.facet !== undefined ? { facet: check.element.facet } : {}),
          },
          documents,
        );
        delete element.file;
        delete element.line;
        return { ...element, ...(options.locate?.(element) ?? {}) };
      };
      return (['answer', 'request'] as const).flatMap((cause) =>
        ledgers[cause].results().map((check) => ({ ...check, element: resolve(check), cause })),
      );
    },
  };
}

/** The checker type, for modules that receive one. */
export type TrafficChecker = ReturnType<typeof createTrafficChecker>;
