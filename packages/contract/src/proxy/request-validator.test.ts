// Which requests the proxy's checker asks a key of: every operation but one whose security lists an empty requirement (the sandbox's health).
import { describe, expect, it } from 'vitest';
import { specDocuments } from '../spec/spec-index.js';
import { createRequestValidator } from './request-validator.js';

const validator = createRequestValidator(specDocuments);
const get = (path: string, headers: Record<string, string> = {}) =>
  validator.check({ method: 'GET', path, query: [], headers, body: undefined });

describe('the Authorization check', () => {
  it('is not run on an operation that needs no key (GET /_sandbox/health)', () => {
    const health = get('/_sandbox/health');
    expect(health.operation).toBe('getSandboxHealth');
    expect(health.violations).toEqual([]);
  });

  it('still fails a request without a key to an operation that needs one', () => {
    const clock = get('/_sandbox/clock');
    expect(clock.violations.map((violation) => violation.actual)).toContain('absent');
    const payments = get('/v1/payments');
    expect(payments.violations.map((violation) => violation.actual)).toContain('absent');
  });
});
