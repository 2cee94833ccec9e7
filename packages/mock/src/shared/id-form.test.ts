import { describe, expect, it } from 'vitest';
import { isIdForm, MAX_ID_LENGTH } from './id-form.js';

describe('isIdForm', () => {
  it('accepts the sandbox own ids and the ids restore() may bring', () => {
    for (const id of [
      'pay_7GfQ2xAbCdEfGhIjKlMnOpQr',
      'we_1',
      'evt_x',
      'pay_é',
      'x'.repeat(MAX_ID_LENGTH),
    ])
      expect(isIdForm(id), id).toBe(true);
  });

  it('refuses empty, overlong ids and ids holding a control character', () => {
    for (const id of [
      '',
      'x'.repeat(MAX_ID_LENGTH + 1),
      'pay_1\u0000m',
      'pay_1\n',
      'pay_\u007f',
      'pay_\u0085',
    ])
      expect(isIdForm(id), JSON.stringify(id)).toBe(false);
  });
});
