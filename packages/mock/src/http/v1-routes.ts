// The /v1 operations of spec/openapi.yaml: one route per operationId, each a body check and a handler.
import type { components, operations, paths } from '@payment-service/openapi';
import type { DomainResult } from '../domain/payments.js';
import { checkPaymentToken, type TokenTable } from '../domain/tokens.js';
import type { EventDelivery } from '../service/account-service.js';
import { isIdForm } from '../shared/id-form.js';
import type { FieldError } from '../shared/problems.js';
import type { ApiValidators } from '../shared/validation.js';
import type { BodyCheck, RouteTable } from './operations.js';
import { invalidRequest } from './respond.js';
import { noBody, optionalBody, requiredBody } from './routes.js';

type Schemas = components['schemas'];

/** The spec's bounds of the `limit` query parameter. */
export interface LimitBounds {
  minimum: number;
  maximum: number;
  default: number;
}

/**
 * The answer of a domain result: its status and body, or its problem; with the events caused. A
 * result given as its JSON already (`text`: a stored payment's) keeps its body unread: the answer
 * sends the text, and the body is parsed only if something asks for it.
 *
 * @example
 * answer(await service.payments.retrieve('pay_1')); // { status: 200, body: { id: 'pay_1', … } }
 */
export function answer<Body>(
  result: DomainResult<Body>,
  events?: readonly EventDelivery[],
): ({ status: number; body: Body; text?: string } | { problem: DomainProblem }) & {
  events?: readonly EventDelivery[];
} {
  let answered: ({ status: number; body: Body; text?: string } | { problem: DomainProblem }) & {
    events?: readonly EventDelivery[];
  };
  if (!result.ok) answered = { problem: result.problem };
  else if (result.text === undefined) answered = { status: result.status, body: result.body };
  else answered = new TextAnswer(result.status, result.text, result);
  if (events !== undefined && events.length > 0) answered.events = events;
  return answered;
}

/** A success answer sent as its JSON text: its body (a getter of the result's) is not read to answer. */
class TextAnswer<Body> {
  events?: readonly EventDelivery[];

  constructor(
    readonly status: number,
    readonly text: string,
    private readonly result: { body: Body },
  ) {}

  get body(): Body {
    return this.result.body;
  }
}

type DomainProblem = Extract<DomainResult<unknown>, { ok: false }>['problem'];

/**
 * Builds the route of every /v1 operation. A spec operation without a route here is a compile
 * error naming it; a handler's success body is checked against the operation's response.
 *
 * @example
 * const routes = createV1Routes(validators, tokens, { minimum: 1, maximum: 100, default: 10 });
 */
export function createV1Routes(
  validators: ApiValidators,
  tokens: TokenTable,
  limitBounds: LimitBounds,
) {
  return {
    createPayment: {
      body: withTokenCheck(requiredBody(validators.validator('CreatePaymentRequest')), tokens),
      handle: async ({ service, body, idempotency }) => {
        const { result, events } = await service.payments.create(body, idempotency);
        return answer(result, events);
      },
    },
    listPayments: {
      body: noBody,
      handle: async ({ service, query }) => {
        const parsed = parseListQuery(query, limitBounds);
        if ('errors' in parsed) return { problem: invalidRequest(parsed.errors) };
        return answer(await service.payments.list(parsed.limit, parsed.startingAfter));
      },
    },
    retrievePayment: {
      body: noBody,
      // As the request's session read it (every retrieve of a payment's path): answered at once.
      handle: ({ service, id }) => {
        const read = service.payments.retrieveAsRead(id);
        return read === undefined ? service.payments.retrieve(id).then(answer) : answer(read);
      },
    },
    capturePayment: {
      body: optionalBody(validators.validator('CapturePaymentRequest')),
      handle: async ({ service, id, body, idempotency }) => {
        const { result, events } = await service.payments.capture(id, body, idempotency);
        return answer(result, events);
      },
    },
    cancelPayment: {
      body: optionalBody(validators.validator('CancelPaymentRequest')),
      handle: async ({ service, id, idempotency }) => {
        const { result, events } = await service.payments.cancel(id, idempotency);
        return answer(result, events);
      },
    },
    createRefund: {
      body: optionalBody(validators.validator('CreateRefundRequest')),
      handle: async ({ service, id, body, idempotency }) => {
        const { result, events } = await service.payments.refund(id, body, idempotency);
        return answer(result, events);
      },
    },
    createWebhookEndpoint: {
      body: requiredBody(validators.validator('CreateWebhookEndpointRequest')),
      handle: async ({ service, body }) => answer(await service.webhooks.createEndpoint(body)),
    },
    listWebhookEndpoints: {
      body: noBody,
      handle: async ({ service }) => answer(await service.webhooks.listEndpoints()),
    },
    deleteWebhookEndpoint: {
      body: noBody,
      handle: async ({ service, id }) => answer(await service.webhooks.deleteEndpoint(id)),
    },
  } satisfies RouteTable<operations, paths>;
}

/** Adds the test-token check to the payment body check, so every problem is listed at once. */
function withTokenCheck(
  check: BodyCheck<Schemas['CreatePaymentRequest']>,
  tokens: TokenTable,
): BodyCheck<Schemas['CreatePaymentRequest']> {
  return {
    readsBody: true,
    check(body) {
      const checked = check.check(body);
      const token = checked.ok ? checked.value.payment_method.token : tokenOf(body);
      if (typeof token !== 'string' || token.length === 0) return checked;
      if (!checked.ok && checked.errors.some((error) => error.param === 'payment_method.token')) {
        return checked;
      }
      const tokenError = checkPaymentToken(tokens, token);
      if (tokenError === undefined) return checked;
      return { ok: false, errors: checked.ok ? [tokenError] : [...checked.errors, tokenError] };
    },
  };
}

/** The token of a body that failed validation elsewhere, if it has one. */
function tokenOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const paymentMethod: unknown = Reflect.get(body, 'payment_method');
  if (typeof paymentMethod !== 'object' || paymentMethod === null) return undefined;
  return Reflect.get(paymentMethod, 'token');
}

/**
 * Reads `limit` and `starting_after` from a list request's query, within the spec's bounds.
 *
 * @example
 * parseListQuery(new URLSearchParams('limit=5'), { minimum: 1, maximum: 100, default: 10 }); // { limit: 5 }
 */
export function parseListQuery(
  query: URLSearchParams,
  bounds: LimitBounds,
): { limit: number; startingAfter?: string } | { errors: FieldError[] } {
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
  // An id of no possible form names no payment, and never reaches the store.
  if (startingAfter !== null && !isIdForm(startingAfter)) {
    errors.push({
      param: 'starting_after',
      code: 'invalid_value',
      message: "starting_after must be the id of one of this API key's payments",
    });
  }
  if (errors.length > 0) return { errors };
  return startingAfter === null ? { limit } : { limit, startingAfter };
}
