// The one-line verdict says only what is true: "holds" never of a fact a baseline accepts as failing.
import { describe, expect, it } from 'vitest';
import { type ContractReport, verdictLine } from './report.js';

const summary = (counts: Partial<ContractReport['summary']>): ContractReport['summary'] => ({
  checks: 403,
  passed: 395,
  failed: 0,
  skipped: 0,
  failedDocumented: 0,
  failedInferred: 0,
  known: 0,
  knownDocumented: 0,
  ...counts,
});

describe('verdictLine', () => {
  it('says every fact holds only when no check failed', () => {
    expect(verdictLine('passed', summary({}), 'documented')).toBe(
      'PASSED: every documented fact holds; every inferred check holds (395 passed, 0 skipped)',
    );
  });

  it('with every failure known: no new failure, and how many of them are documented', () => {
    const line = verdictLine(
      'passed',
      summary({ passed: 387, failed: 8, known: 8, knownDocumented: 1 }),
      'documented',
      '8 known failures accepted by contract-baseline.json, 1 documented',
    );
    expect(line).toBe(
      'PASSED: no new failure; 8 known failures accepted by contract-baseline.json, 1 documented (387 passed, 0 skipped)',
    );
  });

  it('with a known documented failure and new inferred ones: neither side "holds"', () => {
    const line = verdictLine(
      'passed',
      summary({ passed: 390, failed: 3, known: 1, knownDocumented: 1, failedInferred: 2 }),
      'documented',
    );
    expect(line).toMatch(
      /^PASSED: no new documented failure; 2 inferred checks failed \(.*\); not failing under --fail-on documented/,
    );
  });

  it('with a known inferred failure and a new documented one', () => {
    const line = verdictLine(
      'failed',
      summary({ failed: 2, known: 1, knownDocumented: 0, failedDocumented: 1 }),
      'documented',
    );
    expect(line).toMatch(/^FAILED: 1 documented check failed \(.*\); no new inferred failure \(/);
  });
});
