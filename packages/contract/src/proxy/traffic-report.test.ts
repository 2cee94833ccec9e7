// The traffic report's own sections: the app's mistakes a baseline accepts are listed as known, never as broken nor annotated as errors.
import { describe, expect, it } from 'vitest';
import { type SpecDocument, specDocuments } from '../spec/spec-index.js';
import { createTrafficChecker } from './traffic-checker.js';
import { formatTrafficReport, trafficReport } from './traffic-report.js';

const AMOUNT = 'request.schema.CreatePaymentRequest.amount';

/** One create with a negative amount, answered 400 as the mock answers it. */
function negativeAmount() {
  const checker = createTrafficChecker();
  checker.check({
    method: 'POST',
    url: 'http://127.0.0.1:4010/v1/payments',
    path: '/v1/payments',
    requestHeaders: {
      authorization: 'Bearer sk_test_report_key_1',
      'content-type': 'application/json',
    },
    requestBody:
      '{"amount":-100,"currency":"KZT","payment_method":{"type":"token","token":"tok_test_success"}}',
    status: 400,
    responseHeaders: { 'content-type': 'application/problem+json', 'request-id': 'req_1' },
    responseBody: JSON.stringify({
      type: 'about:blank',
      title: 'Invalid request',
      status: 400,
      detail: 'amount must be a whole number of at least 1',
      code: 'invalid_request',
      request_id: 'req_1',
    }),
  });
  return checker;
}

function report(known: boolean) {
  const checker = negativeAmount();
  return trafficReport({
    mode: 'replay',
    target: 'recording traffic.har',
    failOn: 'any',
    checks: checker.results(),
    notes: checker.notes,
    spec: specDocuments.openapi as SpecDocument,
    startedAt: Date.parse('2026-11-25T11:59:59Z'),
    now: Date.parse('2026-11-25T12:00:00Z'),
    ...(known
      ? {
          gate: {
            baseline: {
              file: 'baseline.json',
              entries: [{ check: AMOUNT, reason: 'the app fixes it in PAY-2' }],
            },
          },
        }
      : {}),
  });
}

describe("the traffic report's requests section", () => {
  it('lists the failure under "Your requests broke the contract" without a baseline', () => {
    const text = formatTrafficReport('text', report(false));
    expect(text).toContain('Your requests broke the contract (1)');
    expect(formatTrafficReport('github', report(false))).toContain(
      `[your request] [inferred] ${AMOUNT}`,
    );
  });

  it('lists a known one as known, passes, and annotates nothing', () => {
    const known = report(true);
    expect(known.exitCode).toBe(0);
    for (const format of ['text', 'markdown'] as const) {
      const text = formatTrafficReport(format, known);
      expect(text).not.toMatch(/broke the contract \(/);
      expect(text).toContain(
        `Your requests' known failures (1), accepted by baseline.json: ${AMOUNT}`,
      );
    }
    expect(formatTrafficReport('github', known)).not.toContain(AMOUNT);
  });
});

describe("the traffic report's text", () => {
  it('closes once, with the counts and the verdict of the whole run (both causes)', () => {
    for (const known of [false, true]) {
      const whole = report(known);
      const text = formatTrafficReport('text', whole);
      expect(text.split(whole.message)).toHaveLength(2);
      expect(text.trimEnd().endsWith(whole.message)).toBe(true);
      const counts = text
        .split('\n')
        .filter((line) => /^\d+ check × operation results: /.test(line));
      expect(counts).toEqual([
        expect.stringContaining(`${whole.summary.checks} check × operation results: `),
      ]);
      if (known) expect(counts[0]).toContain(`${whole.summary.known} known`);
    }
  });
});
