// Conformance: ids of no possible form are answered 404 (400 as a list cursor) the same way by every store, never reaching it, never a 500.
import { describe, expect, it } from 'vitest';
import { call, createPayment, line, newKey } from './client.js';
import { type SuiteCommon, withSandbox } from './common.js';
import { openSandbox, type Sandbox } from './sandbox.js';

/** The bad forms of one real id: what a store must never be asked about. */
function badIds(real: string): string[] {
  return [
    `${real}%00m`,
    `${real}%00b`,
    `${real}%00s`,
    `${real}%00c`,
    `${real}%0A`,
    `${real}%7F`,
    '%00',
    'x'.repeat(256),
  ];
}

/** Every request of the bad ids, as lines with the real id masked; the real id still reads after. */
async function answersOf(sandbox: Sandbox): Promise<string[]> {
  const key = newKey('bad_ids');
  const { id } = await createPayment(sandbox, key, { capture: false });
  const answers: string[] = [];
  for (const bad of badIds(id)) {
    for (const [method, path, body] of [
      ['GET', `/v1/payments/${bad}`],
      ['POST', `/v1/payments/${bad}/capture`, {}],
      ['POST', `/v1/payments/${bad}/cancel`, {}],
      ['POST', `/v1/payments/${bad}/refunds`, { amount: 1 }],
      ['DELETE', `/v1/webhook_endpoints/${bad}`],
      ['POST', `/_sandbox/events/${bad.replace(id, 'evt_1')}/redeliver`],
      ['GET', `/v1/payments?starting_after=${bad}`],
    ] as const) {
      const answer = await call(sandbox, key, method, path, body === undefined ? {} : { body });
      answers.push(line(`${method} ${path}`, answer).replaceAll(id, '<id>'));
    }
  }
  // The real id is still there, untouched.
  const read = await call(sandbox, key, 'GET', `/v1/payments/${id}`);
  expect(read.status).toBe(200);
  expect(read.body.status).toBe('AUTHORIZED');
  return answers;
}

/**
 * Bad ids on the store, against the memory store's answers.
 *
 * @example
 * badIdTests({ factory: redisStores(), manifest: REDIS_MANIFEST });
 */
export function badIdTests(common: SuiteCommon): void {
  describe('an id of no possible form', () => {
    it('is answered 404 (400 as a list cursor) as the memory store answers it, never 500', () =>
      withSandbox(common, {}, async (sandbox) => {
        const reference = await openSandbox({});
        try {
          const expected = await answersOf(reference);
          const answers = await answersOf(sandbox);
          for (const answer of answers) {
            expect(answer).toMatch(
              / → (404 \{.*"code":"not_found"|400 \{.*"code":"invalid_request")/,
            );
          }
          expect(answers).toEqual(expected);
        } finally {
          await reference.close();
        }
      }));
  });
}
