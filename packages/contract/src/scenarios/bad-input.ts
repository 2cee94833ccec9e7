// Bad requests as data: each case names the check it evaluates and the problem it expects (status, code, field), never a 5xx.
import { testTokens } from '@payment-service/openapi';
import type { CheckDefinition } from '../checks/ledger.js';
import { defineScenario } from '../runner/scenario.js';
import type { ScenarioRequest } from '../runner/transport.js';
import { problemRequestId } from './shared-checks.js';
import { elements, type OperationRow, operations } from './spec-refs.js';

const validBody = {
  amount: 1000,
  currency: 'KZT',
  capture: true,
  description: 'payment-service-contract bad input',
  payment_method: { type: 'token', token: 'tok_test_success' },
};
const withBody = (changes: Record<string, unknown>) => ({ ...validBody, ...changes });
const without = (field: string) =>
  Object.fromEntries(Object.entries(validBody).filter(([name]) => name !== field));

/** The id of a bad-input check: an operation (or `routes`) and the kind of problem, such as `createPayment.invalid-json`. */
export type BadInputCheckId = `${OperationRow['operationId'] | 'routes'}.${keyof typeof TITLES}`;

/** One bad request and the problem it must get. */
export interface BadInputCase {
  /** The check it evaluates. */
  check: BadInputCheckId;
  name: string;
  request: ScenarioRequest;
  status: number;
  code: string;
  /** The field the problem names in `param`. */
  param?: string;
  /** Fields that must all appear in `errors`. */
  errorParams?: string[];
  /** The test tokens the problem's detail must list. */
  listsTokens?: boolean;
  /** The methods `Allow` must list. */
  allow?: string[];
}

const create = (name: string, body: unknown, param?: string): BadInputCase => ({
  check: 'createPayment.invalid-request',
  name,
  request: { path: '/v1/payments', body },
  status: 400,
  code: 'invalid_request',
  ...(param ? { param } : {}),
});

/** Every bad request the scenario sends (a table: add a row to add a case). */
export const badInputCases: BadInputCase[] = [
  create('amount as a string', withBody({ amount: '1000' }), 'amount'),
  create('amount as a float', withBody({ amount: 10.5 }), 'amount'),
  create('amount zero', withBody({ amount: 0 }), 'amount'),
  create('amount negative', withBody({ amount: -100 }), 'amount'),
  create('amount above the bound', withBody({ amount: 10 ** 13 }), 'amount'),
  create('amount null', withBody({ amount: null }), 'amount'),
  create('amount missing', without('amount'), 'amount'),
  create('currency lower-case', withBody({ currency: 'kzt' }), 'currency'),
  create('currency of four letters', withBody({ currency: 'KZTT' }), 'currency'),
  create('currency as a number', withBody({ currency: 398 }), 'currency'),
  create('currency missing', without('currency'), 'currency'),
  create('capture as a string', withBody({ capture: 'yes' }), 'capture'),
  create('description as a number', withBody({ description: 42 }), 'description'),
  create('payment_method missing', without('payment_method'), 'payment_method'),
  create(
    'payment_method as a string',
    withBody({ payment_method: 'tok_test_success' }),
    'payment_method',
  ),
  create(
    'payment_method.type card',
    withBody({ payment_method: { type: 'card', token: 'tok_test_success' } }),
    'payment_method.type',
  ),
  create(
    'payment_method.token missing',
    withBody({ payment_method: { type: 'token' } }),
    'payment_method.token',
  ),
  create('an extra top-level field', withBody({ amount_in_dollars: 10 }), 'amount_in_dollars'),
  create(
    'an extra payment_method field',
    withBody({ payment_method: { type: 'token', token: 'tok_test_success', cvc: '123' } }),
    'payment_method.cvc',
  ),
  create('a JSON array', '[]'),
  create('JSON null', 'null'),
  create('a JSON string', '"pay me"'),
  create('an empty body', ''),
  create('deeply nested JSON', `${'['.repeat(5000)}${']'.repeat(5000)}`),
  {
    check: 'createPayment.lists-every-problem',
    name: 'several wrong fields at once',
    request: { path: '/v1/payments', body: { amount: 'x', currency: 1, payment_method: {} } },
    status: 400,
    code: 'invalid_request',
    errorParams: ['amount', 'currency', 'payment_method.type', 'payment_method.token'],
  },
  {
    check: 'createPayment.unknown-test-token',
    name: 'an unknown test token',
    request: {
      path: '/v1/payments',
      body: withBody({ payment_method: { type: 'token', token: 'tok_test_nope' } }),
    },
    status: 400,
    code: 'invalid_request',
    param: 'payment_method.token',
    listsTokens: true,
  },
  {
    check: 'createPayment.invalid-json',
    name: 'truncated JSON',
    request: { path: '/v1/payments', body: '{"amount": 1000, "currency": ' },
    status: 400,
    code: 'invalid_json',
  },
  {
    check: 'createPayment.invalid-json',
    name: 'JSON with a trailing comma',
    request: { path: '/v1/payments', body: '{"amount": 1000,}' },
    status: 400,
    code: 'invalid_json',
  },
  {
    check: 'createPayment.idempotency-key-too-long',
    name: 'an Idempotency-Key over 255 characters',
    request: {
      path: '/v1/payments',
      body: validBody,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    },
    status: 400,
    code: 'invalid_request',
    param: 'Idempotency-Key',
  },
  {
    check: 'createPayment.unsupported-media-type',
    name: 'a form-encoded body',
    request: {
      path: '/v1/payments',
      body: 'amount=1000&currency=KZT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    check: 'createPayment.body-too-large',
    name: 'a 2 MB body',
    request: { path: '/v1/payments', body: `{"description":"${'y'.repeat(2_000_000)}"}` },
    status: 413,
    code: 'body_too_large',
  },
  ...(
    [
      ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['Bearer with no key', { authorization: 'Bearer ' }],
      ['a key without the sk_ prefix', { authorization: 'Bearer pk_test_abcdefghijklmnop' }],
      ['a truncated test key', { authorization: 'Bearer sk_test_' }],
      ['a key with a space', { authorization: 'Bearer sk_test_abc defghijkl' }],
    ] as const
  ).map(
    ([name, headers]): BadInputCase => ({
      check: 'createPayment.invalid-key',
      name,
      request: { path: '/v1/payments', body: validBody, apiKey: null, headers },
      status: 401,
      code: 'invalid_api_key',
    }),
  ),
  {
    check: 'createPayment.live-key-refused',
    name: 'an sk_live_ key in the sandbox',
    request: { path: '/v1/payments', body: validBody, apiKey: 'sk_live_abcdefghijklmnop' },
    status: 401,
    code: 'live_key_in_sandbox',
  },
  {
    check: 'routes.unknown-path',
    name: 'an unknown path',
    request: { path: '/v1/charges' },
    status: 404,
    code: 'not_found',
  },
  {
    check: 'routes.unknown-path',
    name: 'a path without the version',
    request: { path: '/payments', body: validBody },
    status: 404,
    code: 'not_found',
  },
  {
    check: 'routes.method-not-allowed',
    name: 'DELETE on payments',
    request: { path: '/v1/payments', method: 'DELETE' },
    status: 405,
    code: 'method_not_allowed',
    allow: ['GET', 'POST'],
  },
  {
    check: 'routes.method-not-allowed',
    name: 'PUT on a payment',
    request: { path: '/v1/payments/pay_abc', method: 'PUT', body: validBody },
    status: 405,
    code: 'method_not_allowed',
  },
  ...(
    [
      ['limit zero', '?limit=0', 'limit'],
      ['limit above 100', '?limit=101', 'limit'],
      ['limit not a number', '?limit=ten', 'limit'],
      ['starting_after an unknown payment', '?starting_after=pay_unknown', 'starting_after'],
    ] as const
  ).map(
    ([name, query, param]): BadInputCase => ({
      check: 'listPayments.invalid-query',
      name,
      request: { path: `/v1/payments${query}` },
      status: 400,
      code: 'invalid_request',
      param,
    }),
  ),
  {
    check: 'capturePayment.invalid-request',
    name: 'a capture amount of zero',
    request: { path: '/v1/payments/pay_abc/capture', body: { amount: 0 } },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    check: 'createRefund.invalid-request',
    name: 'a refund amount as a string',
    request: { path: '/v1/payments/pay_abc/refunds', body: { amount: '5' } },
    status: 400,
    code: 'invalid_request',
    param: 'amount',
  },
  {
    check: 'createRefund.invalid-request',
    name: 'a refund with an unknown field',
    request: { path: '/v1/payments/pay_abc/refunds', body: { reason: 'fraud' } },
    status: 400,
    code: 'invalid_request',
    param: 'reason',
  },
  {
    check: 'cancelPayment.invalid-request',
    name: 'a cancel with an option',
    request: { path: '/v1/payments/pay_abc/cancel', body: { reason: 'duplicate' } },
    status: 400,
    code: 'invalid_request',
    param: 'reason',
  },
  {
    check: 'createWebhookEndpoint.invalid-request',
    name: 'an endpoint whose url is not http(s) and whose event is unknown',
    request: {
      path: '/v1/webhook_endpoints',
      body: { url: 'mailto:ops@shop.test', events: ['payment.teleported'] },
    },
    status: 400,
    code: 'invalid_request',
    errorParams: ['url', 'events.0'],
  },
  // Every operation: no key, an oversized body, a body that is not JSON, an unknown id.
  ...operations.map(
    (operation): BadInputCase => ({
      check: `${operation.operationId}.missing-key` as const,
      name: `${operation.operationId} without a key`,
      request: {
        path: operation.path.replace('{id}', 'pay_x'),
        method: operation.method,
        apiKey: null,
        ...(operation.body ? { body: {} } : {}),
      },
      status: 401,
      code: 'missing_api_key',
    }),
  ),
  ...operations
    .filter((operation) => operation.body)
    .flatMap((operation): BadInputCase[] => [
      {
        check: `${operation.operationId}.body-too-large` as const,
        name: `${operation.operationId} with a body over 64 KiB`,
        request: {
          path: operation.path.replace('{id}', 'pay_x'),
          method: operation.method,
          body: { padding: 'p'.repeat(80_000) },
        },
        status: 413,
        code: 'body_too_large',
      },
      {
        check: `${operation.operationId}.unsupported-media-type` as const,
        name: `${operation.operationId} with an XML body`,
        request: {
          path: operation.path.replace('{id}', 'pay_x'),
          method: operation.method,
          body: '<payment/>',
          headers: { 'content-type': 'application/xml' },
        },
        status: 415,
        code: 'unsupported_media_type',
      },
    ]),
  ...operations
    .filter((operation) => operation.path.includes('{id}'))
    .map(
      (operation): BadInputCase => ({
        check: `${operation.operationId}.not-found` as const,
        name: `${operation.operationId} on an unknown id`,
        request: {
          path: operation.path.replace(
            '{id}',
            operation.path.startsWith('/v1/webhook_endpoints')
              ? 'we_unknown12345678901234'
              : 'pay_unknown12345678901234',
          ),
          method: operation.method,
          ...(operation.body ? { body: {} } : {}),
        },
        status: 404,
        code: 'not_found',
      }),
    ),
];

const TITLES = {
  'invalid-request': [
    'a field that is missing, of the wrong type, out of range or unknown is 400 invalid_request naming it in param',
    elements.errorCode('invalid_request'),
  ],
  'invalid-json': [
    'a body that is not valid JSON is 400 invalid_json',
    elements.errorCode('invalid_json'),
  ],
  'lists-every-problem': [
    'every field problem is listed in errors, not only the first',
    elements.property('Problem', 'errors'),
  ],
  'unknown-test-token': [
    'an unknown tok_test_ token is 400 on payment_method.token, listing the test tokens',
    elements.errorCode('invalid_request'),
  ],
  'idempotency-key-too-long': [
    'an Idempotency-Key over 255 characters is 400 on Idempotency-Key',
    elements.parameter('IdempotencyKey'),
  ],
  'unsupported-media-type': [
    'a body that is not application/json is 415 unsupported_media_type',
    elements.errorCode('unsupported_media_type'),
  ],
  'body-too-large': [
    'a body over 64 KiB is 413 body_too_large',
    elements.errorCode('body_too_large'),
  ],
  'invalid-key': [
    'a malformed key or another scheme is 401 invalid_api_key',
    elements.errorCode('invalid_api_key'),
  ],
  'live-key-refused': [
    'an sk_live_ key is refused by the sandbox with 401 live_key_in_sandbox',
    elements.errorCode('live_key_in_sandbox'),
  ],
  'unknown-path': ['a path outside the spec is 404 not_found', elements.errorCode('not_found')],
  'method-not-allowed': [
    'a known path with another method is 405 with Allow listing the methods',
    elements.errorCode('method_not_allowed'),
  ],
  'invalid-query': [
    'a bad limit or an unknown starting_after is 400 naming the parameter',
    elements.parameter('Limit'),
  ],
  'missing-key': [
    'a request without a key is 401 missing_api_key',
    elements.errorCode('missing_api_key'),
  ],
  'not-found': ['an unknown id is 404 not_found', elements.errorCode('not_found')],
} satisfies Record<string, [string, CheckDefinition['element']]>;

/** The check a case evaluates, from its id: `createPayment.invalid-request`. */
function definitionOf(id: BadInputCheckId): CheckDefinition<BadInputCheckId> {
  const [operation = '', kind = ''] = id.split('.');
  const [title, element] = TITLES[kind as keyof typeof TITLES];
  return { id, operation, title, element };
}

const ALL_TOKENS = testTokens.map((entry) => entry.token);

/** The bad-input scenario: every case of the table. */
export const badInput = defineScenario({
  id: 'bad-input',
  title: 'Bad requests get a problem with the right status, code and field',
  checks: [
    ...[...new Set(badInputCases.map((item) => item.check))].map(definitionOf),
    problemRequestId,
  ],
  async run(context) {
    for (const item of badInputCases) {
      // Under a selection (--operation, --check …), a case no selected check reads is not sent.
      if (!context.selected(item.check) && !context.selected(problemRequestId.id)) continue;
      const answer = await context.send(item.request);
      const wrong: string[] = [];
      if (answer.status !== item.status) wrong.push(`status ${answer.status}`);
      if (answer.code !== item.code) wrong.push(`code ${answer.code ?? '(none)'}`);
      if (item.param !== undefined && answer.json?.param !== item.param) {
        wrong.push(`param ${JSON.stringify(answer.json?.param)}`);
      }
      if (item.errorParams) {
        const listed = Array.isArray(answer.json?.errors)
          ? (answer.json.errors as Array<{ param?: unknown }>).map((error) => error.param)
          : [];
        const missing = item.errorParams.filter((param) => !listed.includes(param));
        if (missing.length > 0) wrong.push(`errors without ${missing.join(', ')}`);
      }
      if (item.listsTokens) {
        const detail = String(answer.json?.detail ?? '');
        const missing = ALL_TOKENS.filter((token) => !detail.includes(token));
        if (missing.length > 0) wrong.push(`detail does not list ${missing.join(', ')}`);
      }
      if (item.allow) {
        const allow = (answer.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean).sort();
        if (allow.join(',') !== [...item.allow].sort().join(','))
          wrong.push(`Allow ${JSON.stringify(answer.headers.get('allow'))}`);
      } else if (item.status === 405 && !answer.headers.get('allow')) wrong.push('no Allow header');
      const expected = `${item.status} ${item.code}${item.param ? ` on ${item.param}` : ''}`;
      context.check(
        item.check,
        wrong.length === 0,
        `${item.name}: ${expected}`,
        wrong.join(', '),
        answer,
      );
      if (answer.status >= 400 && answer.json && typeof answer.json === 'object') {
        const header = answer.headers.get('request-id');
        context.check(
          problemRequestId.id,
          answer.json.request_id === header,
          `request_id equal to the Request-Id header ${JSON.stringify(header)}`,
          `request_id ${JSON.stringify(answer.json.request_id)}`,
          answer,
        );
      }
    }
  },
});
