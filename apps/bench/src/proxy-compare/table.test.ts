import { describe, expect, it } from 'vitest';
import { markdownTable, newFailures, prismCell, prismSegments } from './table.js';

describe('prismSegments', () => {
  it('drops colours, timestamps and start-up lines, and starts a segment at each request', () => {
    const log = [
      '[7:56:32 PM] › [CLI] \u001b[32m▶  start\u001b[39m     Prism is listening on http://127.0.0.1:4791',
      '[7:56:38 PM] › [HTTP SERVER] post /v1/payments ℹ  info      Request received',
      '[7:56:38 PM] ›     [VALIDATOR] ✖  error     Violation: request.body.amount',
      '[7:56:38 PM] › [HTTP SERVER] get /v1/payments/pay_1 ℹ  info      Request received',
      '',
    ].join('\n');
    expect(prismSegments(log)).toEqual([
      [
        '[HTTP SERVER] post /v1/payments ℹ info Request received',
        '[VALIDATOR] ✖ error Violation: request.body.amount',
      ],
      ['[HTTP SERVER] get /v1/payments/pay_1 ℹ info Request received'],
    ]);
  });
});

describe('prismCell', () => {
  it('names the status, the sl-violations messages, Prism’s own problem and the log lines past info', () => {
    const violation = [{ severity: 'Error', message: 'status must be one of …' }];
    const cell = prismCell(
      {
        status: 500,
        violations: JSON.stringify(violation),
        body: JSON.stringify({
          type: 'https://stoplight.io/prism/errors#VIOLATIONS',
          validation: violation,
        }),
      },
      ['[HTTP SERVER] get /v1/x ℹ info Request received', '[HTTP SERVER] get /v1/x ✖ error boom'],
    );
    expect(cell).toBe(
      "HTTP 500; sl-violations: Error: status must be one of …; Prism's own problem VIOLATIONS: Error: status must be one of …; log: get /v1/x ✖ error boom",
    );
  });
});

describe('newFailures', () => {
  const check = (operation: string, failures: number) => ({
    id: 'schema.Payment.status',
    operation,
    failures,
    cause: 'answer' as const,
    element: { provenance: { kind: 'inferred' } },
  });

  it('lists only the checks whose failures grew, an id told apart by its operation', () => {
    const before = [check('retrievePayment', 1), check('createPayment', 0)];
    const after = [check('retrievePayment', 1), check('createPayment', 1)];
    expect(newFailures(before, after)).toEqual([
      "createPayment: schema.Payment.status [inferred, the target's answer]",
    ]);
  });
});

describe('markdownTable', () => {
  it('escapes pipes and newlines inside cells', () => {
    expect(markdownTable(['a', 'b'], [['1', 'x|y\nz']])).toBe(
      '| a | b |\n| --- | --- |\n| 1 | x\\|y<br>z |',
    );
  });
});
