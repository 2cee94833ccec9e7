// The package's scenarios (the same checks `payment-service-contract check` runs) against the mock in process and over HTTP: zero failures, nothing skipped.
import { type ContractReport, runContractCheck } from '@payment-service/contract';
import { describe, expect, inject, it } from 'vitest';
import { startTarget, targetNames } from '../harness/targets.js';
import { appendExercise } from '../recording-fetch.js';

/** A report's failures and skips, one line each, so a failing assertion says what broke. */
function problems(report: ContractReport): string[] {
  return report.checks
    .filter((check) => check.outcome !== 'passed')
    .map(
      (check) =>
        `${check.outcome} ${check.operation} ${check.id}: ${check.example ? `expected ${check.example.expected}, got ${check.example.actual}` : check.skipReason}`,
    );
}

describe.each(targetNames())('payment-service-contract check against the mock (%s)', (name) => {
  it('passes every check, with webhooks delivered to its receiver', async () => {
    const target = await startTarget(name);
    try {
      const report = await runContractCheck({
        baseUrl: target.baseUrl,
        apiKey: target.newApiKey(),
        fetch: (request) => target.fetch(request),
        rate: Number.POSITIVE_INFINITY,
        webhookUrl: 'http://127.0.0.1:0/hooks',
        onExchange: (exchange, result) =>
          appendExercise(inject('recordDir'), name, exchange, result),
      });
      expect(problems(report)).toEqual([]);
      expect(report).toMatchObject({ verdict: 'passed', exitCode: 0, errors: [] });
    } finally {
      await target.close();
    }
    // A whole check (some 300 requests, the webhook scenarios) takes about 5 s alone, 13 s beside
    // the other suites, and passed the suite's 30 s at load 20 (two CI runs side by side): 120 s
    // still turns a hang into a failure.
  }, 120_000);
});
