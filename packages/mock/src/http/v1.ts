// The /v1 pipeline: auth → faults → route → body → validation → idempotency → domain → respond.
import * as payments from '../domain/payments.js';
import { checkPaymentToken } from '../domain/tokens.js';
import type { CreatePaymentRequest } from '../domain/types.js';
import { takeDrop, takeFailure } from '../faults.js';
import {
  abandonIdempotentRequest,
  beginIdempotentRequest,
  checkIdempotencyKey,
  completeIdempotentRequest,
  hashBody,
} from '../idempotency.js';
import type { FieldError, ProblemInit } from '../problems.js';
import type { Runtime } from '../runtime.js';
import type { Account, IdempotencyRecord, StoredResponse } from '../store/account.js';
import {
  type CreateWebhookEndpointRequest,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointResult,
  listWebhookEndpoints,
} from '../webhooks/endpoints.js';
import { authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import {
  type HandlerOutcome,
  invalidRequest,
  problemResponse,
  toResponse,
  toStoredJson,
  toStoredProblem,
} from './respond.js';
import { createRouter } from './router.js';

type Operation =
  | 'createPayment'
  | 'listPayments'
  | 'retrievePayment'
  | 'capturePayment'
  | 'cancelPayment'
  | 'createRefund'
  | 'createWebhookEndpoint'
  | 'listWebhookEndpoints'
  | 'deleteWebhookEndpoint';

const routeV1 = createRouter<Operation>({
  '/v1/payments': { GET: 'listPayments', POST: 'createPayment' },
  '/v1/payments/{id}': { GET: 'retrievePayment' },
  '/v1/payments/{id}/capture': { POST: 'capturePayment' },
  '/v1/payments/{id}/cancel': { POST: 'cancelPayment' },
  '/v1/payments/{id}/refunds': { POST: 'createRefund' },
  '/v1/webhook_endpoints': { GET: 'listWebhookEndpoints', POST: 'createWebhookEndpoint' },
  '/v1/webhook_endpoints/{id}': { DELETE: 'deleteWebhookEndpoint' },
});

/**
 * Creates the handler of every /v1 request.
 *
 * @example
 * const handleV1 = createV1Handler(runtime);
 * const { response } = await handleV1(request, '/v1/payments', 'req_1');
 */
export function createV1Handler(
  runtime: Runtime,
): (request: Request, path: string, requestId: string) => Promise<HandlerOutcome> {
  const { store, options } = runtime;

  return async (request, path, requestId) => {
    const auth = authenticate(request.headers.get('authorization'));
    if (!auth.ok) return { response: problemResponse(auth.problem, requestId) };
    const { apiKey } = auth;

    const serverNow = options.clock.now();
    store.sweep(serverNow);
    let account = store.find(apiKey);
    let latencyMs = account?.faults.latency_ms ?? 0;
    const respond = async (response: Response, drop = false): Promise<HandlerOutcome> => {
      if (latencyMs > 0) {
        const wait = latencyMs;
        latencyMs = 0;
        await runtime.sleep(wait);
      }
      return { response, drop };
    };
    const fail = (problem: ProblemInit) => respond(problemResponse(problem, requestId));

    if (account !== undefined) {
      const failure = takeFailure(account.faults);
      if (failure !== undefined) return fail(failure);
    }

    // HEAD is answered as GET (Hono strips the body).
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const route = routeV1(method, path);
    if (!route.ok) return fail(route.problem);
    const { operation } = route;
    const id = route.id ?? '';
    const accountNow = account === undefined ? serverNow : account.now(serverNow);
    account?.settleDue(accountNow, runtime.webhooks.paymentSettled);

    if (operation === 'listPayments') {
      const query = parseListQuery(request.url, runtime.limitBounds);
      if ('errors' in query) return fail(invalidRequest(query.errors));
      return respond(
        render(payments.listPayments(account, query.limit, query.startingAfter), requestId),
      );
    }
    if (operation === 'retrievePayment') {
      return respond(render(payments.retrievePayment(account, id), requestId));
    }
    if (operation === 'listWebhookEndpoints') {
      return respond(render(listWebhookEndpoints(account), requestId));
    }
    if (operation === 'deleteWebhookEndpoint') {
      return respond(render(deleteWebhookEndpoint(account, id), requestId));
    }

    // POST: Idempotency-Key and body, validated together so every problem is listed at once.
    const idempotencyKey = request.headers.get('idempotency-key');
    const keyError = checkIdempotencyKey(idempotencyKey);
    const bodyResult = await readJsonBody(request, options.maxBodyBytes);
    if (!bodyResult.ok) return fail(bodyResult.problem);
    const body = bodyResult.body;
    const errors = validate(runtime, operation, body);
    if (keyError !== undefined) errors.unshift(keyError);
    if (errors.length > 0) return fail(invalidRequest(errors));

    let record: IdempotencyRecord | undefined;
    if (
      idempotencyKey !== null ||
      operation === 'createPayment' ||
      operation === 'createWebhookEndpoint'
    ) {
      account = store.open(apiKey);
    }
    if (idempotencyKey !== null && account !== undefined) {
      const decision = beginIdempotentRequest(
        store,
        account,
        { key: idempotencyKey, method, path, bodyHash: hashBody(body) },
        account.now(serverNow),
        serverNow,
        options.idempotencyTtlSeconds * 1000,
      );
      if (decision.kind === 'problem') return fail(decision.problem);
      if (decision.kind === 'replay') {
        return respond(toResponse(decision.response, requestId, true), takeDrop(account.faults));
      }
      record = decision.record;
    }

    // Injected latency is spent while the request is in flight, before the domain runs.
    if (latencyMs > 0) {
      const wait = latencyMs;
      latencyMs = 0;
      await runtime.sleep(wait);
      if (account?.closed) account = store.open(apiKey); // reset while in flight
    }

    let stored: StoredResponse;
    try {
      const now = account === undefined ? serverNow : account.now(options.clock.now());
      const result = runDomain(runtime, operation, account, now, id, body);
      stored = result.ok
        ? toStoredJson(result.status, result.body)
        : toStoredProblem(result.problem, requestId);
    } catch (error) {
      if (record !== undefined && account !== undefined) {
        abandonIdempotentRequest(store, account, record);
      }
      throw error;
    }
    if (record !== undefined && account !== undefined) {
      // Validation failures found by the domain (400) are not stored; everything else is.
      if (stored.status === 400) abandonIdempotentRequest(store, account, record);
      else completeIdempotentRequest(record, stored);
    }
    const drop = account !== undefined && takeDrop(account.faults);
    if (account !== undefined) store.dropIfEmpty(account);
    return respond(toResponse(stored, requestId), drop);
  };
}

function render(result: payments.DomainResult | EndpointResult, requestId: string): Response {
  return toResponse(
    result.ok
      ? toStoredJson(result.status, result.body)
      : toStoredProblem(result.problem, requestId),
    requestId,
  );
}

function validate(runtime: Runtime, operation: Operation, body: unknown): FieldError[] {
  switch (operation) {
    case 'createPayment': {
      if (body === undefined) {
        return [{ param: '', code: 'required', message: 'a JSON request body is required' }];
      }
      const errors = runtime.validators.CreatePaymentRequest(body);
      const token =
        errors.length === 0 ? (body as CreatePaymentRequest).payment_method.token : tokenOf(body);
      if (
        typeof token === 'string' &&
        token.length > 0 &&
        !errors.some((error) => error.param === 'payment_method.token')
      ) {
        const tokenError = checkPaymentToken(runtime.tokens, token);
        if (tokenError !== undefined) errors.push(tokenError);
      }
      return errors;
    }
    case 'capturePayment':
      return body === undefined ? [] : runtime.validators.CapturePaymentRequest(body);
    case 'createRefund':
      return body === undefined ? [] : runtime.validators.CreateRefundRequest(body);
    case 'cancelPayment':
      return body === undefined ? [] : runtime.validators.CancelPaymentRequest(body);
    case 'createWebhookEndpoint':
      if (body === undefined) {
        return [{ param: '', code: 'required', message: 'a JSON request body is required' }];
      }
      return runtime.validators.CreateWebhookEndpointRequest(body);
    default:
      return [];
  }
}

/** The token of a body that failed validation elsewhere, if it is a string. */
function tokenOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const paymentMethod = (body as { payment_method?: unknown }).payment_method;
  if (typeof paymentMethod !== 'object' || paymentMethod === null) return undefined;
  return (paymentMethod as { token?: unknown }).token;
}

function runDomain(
  runtime: Runtime,
  operation: Operation,
  account: Account | undefined,
  accountNow: number,
  id: string,
  body: unknown,
): payments.DomainResult | EndpointResult {
  if (operation === 'createWebhookEndpoint') {
    return createWebhookEndpoint(
      runtime.webhooks,
      account as Account,
      accountNow,
      body as CreateWebhookEndpointRequest,
    );
  }
  // Every status change sends one event (only when an endpoint listens to the key).
  const statusBefore = account?.payments.get(id)?.payment.status;
  const result = runPaymentOperation(runtime, operation, account, accountNow, id, body);
  if (!result.ok || account === undefined) return result;
  const paymentId = operation === 'createPayment' ? (result.body as { id: string }).id : id;
  const payment = account.payments.get(paymentId)?.payment;
  if (payment !== undefined && payment.status !== statusBefore) {
    runtime.webhooks.paymentChanged(account, payment, accountNow);
  }
  return result;
}

function runPaymentOperation(
  runtime: Runtime,
  operation: Operation,
  account: Account | undefined,
  accountNow: number,
  id: string,
  body: unknown,
): payments.DomainResult {
  const context = {
    store: runtime.store,
    tokens: runtime.tokens,
    settlementDelayMs: runtime.options.settlementDelaySeconds * 1000,
  };
  const fields = (body ?? {}) as { amount?: number };
  switch (operation) {
    case 'createPayment':
      return payments.createPayment(
        context,
        account as Account,
        accountNow,
        body as CreatePaymentRequest,
      );
    case 'capturePayment':
      return payments.capture(account, id, fields);
    case 'cancelPayment':
      return payments.cancel(account, id);
    case 'createRefund':
      return payments.refund(account, accountNow, id, fields);
    default:
      throw new Error(`Operation ${operation} is not a POST.`);
  }
}

/**
 * Reads `limit` and `starting_after` from a list URL, within the spec's bounds.
 *
 * @example
 * parseListQuery('http://x/v1/payments?limit=5', { minimum: 1, maximum: 100, default: 10 }); // { limit: 5 }
 */
export function parseListQuery(
  url: string,
  bounds: { minimum: number; maximum: number; default: number },
): { limit: number; startingAfter?: string } | { errors: FieldError[] } {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return { limit: bounds.default };
  const query = new URLSearchParams(url.slice(queryStart + 1));
  const errors: FieldError[] = [];
  let limit = bounds.default;
  const limitText = query.get('limit');
  if (limitText !== null) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= bounds.minimum && limit <= bounds.maximum)) {
      errors.push({
        param: 'limit',
        code: 'invalid_value',
        message: `limit must be an integer ≥ ${bounds.minimum} and ≤ ${bounds.maximum}`,
      });
    }
  }
  const startingAfter = query.get('starting_after');
  if (startingAfter === '') {
    errors.push({
      param: 'starting_after',
      code: 'invalid_value',
      message: "starting_after must be the id of one of this API key's payments",
    });
  }
  if (errors.length > 0) return { errors };
  return startingAfter === null ? { limit } : { limit, startingAfter };
}
