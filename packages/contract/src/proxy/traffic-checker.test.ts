// The traffic checker without a network: causes kept apart, bodies over the cap said to be unchecked, and memory bounded whatever the traffic (groups, examples, reasons).
import { describe, expect, it } from 'vitest';
import { createTrafficChecker, type TrafficExchange } from './traffic-checker.js';
import { formatTrafficReport, trafficReport } from './traffic-report.js';

const payment = {
  id: 'pay_tJ6POPcHKPJKHISI6JMvJtFZ',
  object: 'payment',
  status: 'SUCCEEDED',
  amount: 1000,
  currency: 'KZT',
  created_at: '2026-11-22T04:20:00Z',
  capture: true,
  amount_refunded: 0,
  payment_method: { type: 'token', token: 'tok_test_success' },
};

const exchange = (patch: Partial<TrafficExchange> = {}): TrafficExchange => ({
  method: 'POST',
  url: 'http://127.0.0.1:4010/v1/payments',
  path: '/v1/payments',
  requestHeaders: {
    authorization: 'Bearer sk_test_checker_key_1',
    'content-type': 'application/json',
  },
  requestBody: JSON.stringify({
    amount: 1000,
    currency: 'KZT',
    payment_method: { type: 'token', token: 'tok_test_success' },
  }),
  status: 201,
  responseHeaders: { 'content-type': 'application/json', 'request-id': 'req_1234567890abcdef' },
  responseBody: JSON.stringify(payment),
  ...patch,
});

describe('the traffic checker', () => {
  it('files a wrong request under cause request and a drifted answer under cause answer', () => {
    const checker = createTrafficChecker();
    checker.check(exchange());
    checker.check(
      exchange({
        requestBody:
          '{"amount":"ten","currency":"kzt","payment_method":{"type":"token","token":"tok_test_success"}}',
        status: 400,
        responseHeaders: { 'content-type': 'application/problem+json', 'request-id': 'req_1' },
        responseBody: JSON.stringify({
          type: 'about:blank',
          title: 'Bad',
          status: 400,
          code: 'invalid_request',
          request_id: 'req_1',
        }),
      }),
    );
    checker.check(
      exchange({
        responseBody: JSON.stringify({ ...payment, created_at: '2026-11-22T04:20:00.123Z' }),
      }),
    );
    const failed = checker.results().filter((check) => check.outcome === 'failed');
    const byId = Object.fromEntries(failed.map((check) => [check.id, check]));
    expect(byId['request.schema.CreatePaymentRequest.amount']?.cause).toBe('request');
    expect(byId['request.schema.CreatePaymentRequest.currency']).toMatchObject({
      cause: 'request',
      element: { provenance: { kind: 'documented', section: '2.2' } },
    });
    expect(byId['schema.Payment.created_at']).toMatchObject({
      cause: 'answer',
      element: { provenance: { kind: 'documented' } },
      failures: 1,
    });
    // The key never reaches an example: the curl line reads it from the environment.
    expect(JSON.stringify(failed)).not.toContain('sk_test_checker_key_1');
  });

  it('says a body over the cap was not checked, and still checks the status and headers', () => {
    const checker = createTrafficChecker();
    checker.check(
      exchange({
        responseBody: '{"id":',
        responseBodyUnread: 'body over 1024 bytes',
        responseHeaders: { 'content-type': 'application/json' },
      }),
    );
    expect(checker.notes.notChecked).toEqual({
      'answer body not checked: body over 1024 bytes': 1,
    });
    const results = checker.results();
    expect(results.find((check) => check.id === 'header.Request-Id')?.outcome).toBe('failed');
    expect(results.some((check) => check.id.startsWith('schema.') && check.runs > 0)).toBe(false);
    const report = trafficReport({
      mode: 'proxy',
      target: 'http://127.0.0.1:4010',
      failOn: 'documented',
      checks: results,
      notes: checker.notes,
      spec: { paths: {} },
      startedAt: 0,
      now: 1,
    });
    expect(formatTrafficReport('text', report)).toContain(
      'answer body not checked: body over 1024 bytes: 1',
    );
  });

  it('stays bounded over a flood of distinct routes and hostile answers', () => {
    const checker = createTrafficChecker();
    for (let index = 0; index < 5000; index++) {
      checker.check(
        exchange({
          method: 'GET',
          path: `/v1/payments/pay_${index}/x${index}`,
          url: `http://127.0.0.1:4010/v1/payments/pay_${index}/x${index}`,
          requestBody: undefined,
          status: 200,
          responseBody: JSON.stringify({ [`field_${index}`]: 'x'.repeat(10_000) }),
        }),
      );
    }
    const results = checker.results();
    expect(checker.notes.undeclaredRoutes).toBe(5000);
    expect(results.length).toBeLessThan(50);
    const route = results.find((check) => check.id === 'request.route.undeclared');
    expect(route).toMatchObject({ failures: 5000, distinctFailures: 100 });
    expect(JSON.stringify(results).length).toBeLessThan(200_000);
  });
});
