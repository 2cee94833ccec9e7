import { describe, expect, it } from 'vitest';
import { retrievePayment } from '../domain/payments.js';
import type { StoredPayment } from '../store/records.js';
import { answer } from './v1-routes.js';

const json = '{"id":"pay_1","object":"payment","status":"SUCCEEDED","amount":1000}';

describe('answer', () => {
  it('sends a stored payment as its JSON text, never parsing it to answer', () => {
    let reads = 0;
    const result = {
      ok: true as const,
      status: 200,
      get body() {
        reads++;
        return JSON.parse(json) as unknown;
      },
      text: json,
    };
    const answered = answer(result);
    expect(reads).toBe(0);
    expect(answered).toMatchObject({ status: 200, text: json });
    expect('problem' in answered).toBe(false);
    expect(reads).toBe(0);
    // Still there for a reader that asks (parsed then, once per read).
    expect('body' in answered && answered.body).toEqual({
      id: 'pay_1',
      object: 'payment',
      status: 'SUCCEEDED',
      amount: 1000,
    });
    expect(reads).toBe(1);
  });

  it('answers a retrieve with the stored text as it is', () => {
    const stored = { id: 'pay_1', json } as unknown as StoredPayment;
    const answered = answer(retrievePayment(stored, 'pay_1'));
    expect(answered).toMatchObject({ status: 200, text: json });
    expect(answered.events).toBeUndefined();
  });

  it('keeps a body without text, a problem, and the events caused', () => {
    const events = [{ apiKey: 'sk_test_1' }] as never[];
    expect(answer({ ok: true, status: 201, body: { id: 'pay_2' } }, events)).toEqual({
      status: 201,
      body: { id: 'pay_2' },
      events,
    });
    expect(answer({ ok: false, problem: { code: 'not_found', detail: 'No.' } }, [])).toEqual({
      problem: { code: 'not_found', detail: 'No.' },
    });
    const withText = answer({ ok: true, status: 200, body: {}, text: '{}' }, events);
    expect(withText.events).toBe(events);
  });
});
