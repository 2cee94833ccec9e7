import { describe, expect, it } from 'vitest';
import {
  checkPaymentToken,
  createTokenTable,
  formatTokenTable,
  TEST_TOKEN_BEHAVIOURS,
  TEST_TOKENS,
} from './tokens.js';

describe('test tokens', () => {
  it('documents every built-in token', () => {
    expect(Object.keys(TEST_TOKENS)).toEqual([
      'tok_test_success',
      'tok_test_declined',
      'tok_test_insufficient_funds',
      'tok_test_expired_card',
      'tok_test_processing_error',
      'tok_test_pending',
      'tok_test_pending_declined',
    ]);
    expect(TEST_TOKENS.tok_test_declined).toContain('card_declined');
    expect(Object.isFrozen(TEST_TOKENS)).toBe(true);
  });

  it('declines with readable failure messages', () => {
    for (const behaviour of Object.values(TEST_TOKEN_BEHAVIOURS)) {
      if (behaviour.outcome === 'success') continue;
      expect(behaviour.outcome.failure_code).toMatch(/^[a-z_]+$/);
      expect(behaviour.outcome.failure_message.length).toBeGreaterThan(10);
    }
  });

  it('accepts known tokens and explains unknown ones', () => {
    const table = createTokenTable();
    expect(checkPaymentToken(table, 'tok_test_success')).toBeUndefined();
    const notTest = checkPaymentToken(table, 'tok_4242');
    expect(notTest?.param).toBe('payment_method.token');
    expect(notTest?.message).toContain('only test tokens');
    const unknown = checkPaymentToken(table, 'tok_test_unknown');
    for (const token of Object.keys(TEST_TOKENS)) expect(unknown?.message).toContain(token);
  });

  it('adds extra tokens that begin with tok_test_ and refuses others', () => {
    const table = createTokenTable({
      tok_test_slow: { description: 'PENDING, then SUCCEEDED', outcome: 'success', pending: true },
    });
    expect(table.behaviourOf('tok_test_slow')?.pending).toBe(true);
    expect(table.describe()).toContain('tok_test_slow');
    expect(() => createTokenTable({ tok_visa: { description: '', outcome: 'success' } })).toThrow(
      /tok_test_/,
    );
  });

  it('formats an aligned table for the CLI', () => {
    const lines = formatTokenTable().split('\n');
    expect(lines).toHaveLength(7);
    const column = lines[0]?.indexOf('SUCCEEDED');
    expect(lines.every((line) => line.indexOf(' ', 2) < (column ?? 0))).toBe(true);
  });
});
