// Journal lines whose checksums hold but whose records do not: every kind of record read back passes the checks of the API and restore(), or the start is refused naming the file, the byte offset and the field.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../../test-support/temporary-directory.js';
import { createHarness, type Harness, TEST_KEY } from '../../test-support/harness.js';
import { DataDirectoryError } from './data-directory.js';
import { keyIdOf } from './journal.js';
import { encodeLine } from './journal-file.js';

type Line = unknown[];

const open: Harness[] = [];
const newDirectory = () => temporaryDirectory('psm-records-');
const start = (dataDir: string) => {
  const logs: string[] = [];
  const webhookFetch = async () => new Response(null, { status: 500 });
  const harness = createHarness({ dataDir, logger: (line) => logs.push(line), webhookFetch });
  open.push(harness);
  return harness;
};

afterEach(() => {
  for (const harness of open.splice(0)) harness.mock.close();
});

/** The journal a sandbox wrote with one record of every kind, and its changes (groups opened). */
let written: { text: string; changes: Line[] };
const keyId = keyIdOf(TEST_KEY);

beforeAll(async () => {
  const dataDir = newDirectory();
  const harness = start(dataDir);
  await harness.json('POST', '/v1/webhook_endpoints', { body: { url: 'http://shop.test/hooks' } });
  await harness.json('PUT', '/_sandbox/faults', { body: { latency_ms: 5 } });
  await harness.json('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
  const body = {
    amount: 1500,
    currency: 'KZT',
    capture: false,
    payment_method: { type: 'token', token: 'tok_test_success' },
  };
  const payment = await harness.json('POST', '/v1/payments', {
    body,
    headers: { 'idempotency-key': 'order-1' },
  });
  expect(payment.status).toBe(201);
  // Answers of the kinds the sandbox stores for replay (a 400 is not stored): a decline, a payment
  // that settles later, refusals by state (409) and by id (404), a refund, an endpoint.
  const answers: [string, string, unknown][] = [
    [
      'POST',
      '/v1/payments',
      { ...body, payment_method: { type: 'token', token: 'tok_test_declined' } },
    ],
    [
      'POST',
      '/v1/payments',
      { ...body, payment_method: { type: 'token', token: 'tok_test_pending' } },
    ],
    ['POST', `/v1/payments/${payment.body.id}/refunds`, { amount: 100 }],
    ['POST', `/v1/payments/${payment.body.id}/capture`, { amount: 99999 }],
    ['POST', `/v1/payments/${payment.body.id}/capture`, { amount: 1000 }],
    ['POST', `/v1/payments/${payment.body.id}/refunds`, { amount: 5000 }],
    ['POST', `/v1/payments/${payment.body.id}/refunds`, { amount: 100 }],
    ['POST', `/v1/payments/${payment.body.id}/cancel`, {}],
    ['POST', '/v1/payments/pay_absent0000/capture', {}],
    ['POST', '/v1/webhook_endpoints', { url: 'http://shop.test/other' }],
  ];
  const statuses: number[] = [];
  for (const [index, [method, path, sent]] of answers.entries()) {
    const answered = await harness.json(method, path, {
      body: sent,
      headers: { 'idempotency-key': `answer-${index}` },
    });
    statuses.push(answered.status);
  }
  expect(statuses).toEqual([201, 201, 409, 400, 200, 400, 201, 409, 404, 201]);
  // The endpoint answers 500: the attempt is logged and a retry queued.
  await harness.mock.webhooksSettled();
  harness.mock.close();
  const text = readFileSync(join(dataDir, 'journal.1.log'), 'utf8');
  const changes = text
    .split('\n')
    .slice(1, -1)
    .flatMap((line) => {
      const value = JSON.parse(line.slice(9)) as Line;
      return value[0] === 'g' ? (value[1] as Line[]) : [value];
    });
  written = { text, changes };
});

/** A deep copy of the sandbox's first change of `type` (every kind is in its journal). */
function change(type: string): Line {
  const found = written.changes.find((line) => line[0] === type);
  if (found === undefined) throw new Error(`the journal holds no ${type} change`);
  return structuredClone(found);
}

/** A directory whose journal is the sandbox's, then `line` (a valid checksum): where it starts. */
function withLine(line: Line): { dataDir: string; journal: string; offset: number } {
  const dataDir = newDirectory();
  const journal = join(dataDir, 'journal.1.log');
  writeFileSync(journal, written.text + encodeLine(line as never));
  return { dataDir, journal, offset: Buffer.byteLength(written.text) };
}

/** The sandbox's first change of `type` with element `index` replaced. */
function changed(type: string, index: number, value: unknown): Line {
  const line = change(type);
  line[index] = value;
  return line;
}

/** The payment change with its JSON changed by `edit`. */
function payment(edit: (value: Record<string, unknown>) => void): Line {
  const line = change('p');
  const value = JSON.parse(line[3] as string);
  edit(value);
  line[3] = JSON.stringify(value);
  return line;
}

/** The Idempotency-Key change with its answer changed by `edit`. */
function answer(edit: (response: Record<string, unknown>) => void): Line {
  const line = change('i');
  edit((line[2] as { response: Record<string, unknown> }).response);
  return line;
}

const cases: [name: string, line: () => Line, field: string][] = [
  ['a payment whose JSON is not JSON', () => changed('p', 3, '{"id":"pay_'), 'payment'],
  [
    'a payment of an impossible status',
    () => payment((p) => (p.status = 'BOGUS')),
    'payment.status',
  ],
  [
    'a payment with a negative amount captured',
    () => payment((p) => (p.amount_captured = -5)),
    'payment.amount_captured',
  ],
  [
    'a payment stored under another id than its own',
    () => changed('p', 2, 'pay_dupA'),
    'payment.id',
  ],
  [
    'a payment whose timeline starts out of the clock range',
    () => {
      const line = change('p');
      (line[6] as unknown[])[0] = 1e15;
      return line;
    },
    'timeline[0].at',
  ],
  // The API sends a payment's and a stored answer's JSON as it is: only the sandbox's own form.
  [
    'a payment whose amount is written 15e2',
    () => changed('p', 3, (change('p')[3] as string).replace('"amount":1500,', '"amount":15e2,')),
    'payment',
  ],
  [
    'a payment naming its amount twice',
    () =>
      changed(
        'p',
        3,
        (change('p')[3] as string).replace('"amount":1500,', '"amount":1,"amount":1500,'),
      ),
    'payment',
  ],
  [
    'a payment written with spaces',
    () => changed('p', 3, JSON.stringify(JSON.parse(change('p')[3] as string), null, 1)),
    'payment',
  ],
  [
    'a payment written with escapes of its own',
    () => changed('p', 3, (change('p')[3] as string).replace('"payment"', '"\\u0070ayment"')),
    'payment',
  ],
  [
    'a stored answer written with spaces',
    () => {
      const line = written.changes.find(
        (entry) =>
          entry[0] === 'i' &&
          String((entry[2] as { response?: { body?: unknown } }).response?.body).startsWith('{'),
      );
      if (line === undefined) throw new Error('the journal holds no answer with a body');
      const copy = structuredClone(line);
      const response = (copy[2] as { response: { body: string } }).response;
      response.body = JSON.stringify(JSON.parse(response.body), null, 1);
      return copy;
    },
    'response.body',
  ],
  [
    'an event whose body is written with spaces',
    () => {
      const line = change('v');
      const event = line[2] as { body: string };
      event.body = JSON.stringify(JSON.parse(event.body), null, 1);
      return line;
    },
    'body',
  ],
  ['a clock offset of 1e300', () => ['o', keyId, 1e300], 'clock_offset_seconds'],
  ['a clock offset of 1e12 s (year 33715)', () => ['o', keyId, 1e12], 'clock_offset_seconds'],
  ['a negative clock offset', () => ['o', keyId, -1e12], 'clock_offset_seconds'],
  [
    'faults holding a request for 11 days',
    () => ['f', keyId, { latency_ms: 999999999 }],
    'latency_ms',
  ],
  [
    'faults failing requests with 200',
    () => ['f', keyId, { fail_next: { count: 1, status: 200 } }],
    'fail_next.status',
  ],
  [
    'a stored answer with a header that splits the response',
    () =>
      answer((r) => {
        r.headers = { 'content-type': 'application/json', 'x-a': 'a\r\nSet-Cookie: s=1' };
      }),
    'response.headers["x-a"]',
  ],
  ['a stored answer of status 1000', () => answer((r) => (r.status = 1000)), 'response.status'],
  [
    'an endpoint at the cloud metadata address',
    () => {
      const line = change('e');
      (line[2] as { url: string }).url = 'http://169.254.169.254/latest/meta-data';
      return line;
    },
    'endpoint.url',
  ],
  ['an endpoint without a signing key', () => changed('e', 3, ''), 'signing_key_base64'],
  [
    'an event whose body is not the event it names',
    () => {
      const line = change('v');
      (line[2] as { id: string }).id = 'evt_other';
      return line;
    },
    'id',
  ],
  [
    'an event whose body is not an Event',
    () => {
      const line = change('v');
      (line[2] as { body: string }).body = '{"id":"evt_1"}';
      return line;
    },
    'body.object',
  ],
  [
    'a delivery log entry of attempt 0',
    () => {
      const line = change('l');
      (line[2] as { attempt: number }).attempt = 0;
      return line;
    },
    'attempt',
  ],
  [
    'a queued attempt due out of the clock range',
    () => {
      const line = change('q');
      (line[2] as { dueAt: number }).dueAt = 1e300;
      return line;
    },
    'due_at',
  ],
  [
    'a queued attempt of number 99',
    () => {
      const line = change('q');
      (line[2] as { attempt: number }).attempt = 99;
      return line;
    },
    'attempt',
  ],
  ['a payment removed by an id that is no string', () => ['p-', keyId, null], 'payment id'],
  ['a change for a key id of no known form', () => ['o', 'short', 60], 'key id'],
  ['a change with an element too many', () => ['o', keyId, 60, 1], 'change'],
];

describe('a journal line whose checksum holds and whose record does not', () => {
  it.each(cases)(
    'refuses the start for %s, naming the file, the offset and the field',
    (_, make, field) => {
      const { dataDir, journal, offset } = withLine(make());
      let refusal: unknown;
      try {
        start(dataDir);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DataDirectoryError);
      const message = (refusal as Error).message;
      expect(message).toContain(`the journal ${journal} holds`);
      expect(message).toContain(`whose ${field} is wrong`);
      expect(message).toContain(`at byte ${offset}`);
      expect(message).toContain('Restore the directory from a backup');
    },
  );

  it('starts from the journal as the sandbox wrote it (every kind of record passes)', async () => {
    const dataDir = newDirectory();
    writeFileSync(join(dataDir, 'journal.1.log'), written.text);
    const harness = start(dataDir);
    const list = await harness.json('GET', '/v1/payments');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    // Every stored answer replays as it was given.
    const replayed = await harness.json('POST', '/v1/payments/pay_absent0000/capture', {
      body: {},
      headers: { 'idempotency-key': 'answer-8' },
    });
    expect(replayed.status).toBe(404);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const kinds = new Set(written.changes.map((line) => line[0]));
    expect([...kinds].sort()).toEqual(['e', 'f', 'i', 'l', 'o', 'p', 'q', 'q-', 'v']);
  });

  it('refuses an answer naming a payment the journal does not hold before it', () => {
    const line = change('i');
    line[3] = 'pay_absent';
    const { dataDir, offset } = withLine(line);
    expect(() => start(dataDir)).toThrowError(`at byte ${offset}`);
    expect(() => start(dataDir)).toThrowError(/payment id is wrong: .*pay_absent/);
  });

  it('never shows an endpoint signing key in a refusal', () => {
    const line = change('e');
    const key = line[3] as string;
    (line[2] as { url: string }).url = 'http://169.254.169.254/';
    const { dataDir } = withLine(line);
    expect(() => start(dataDir)).toThrowError(DataDirectoryError);
    try {
      start(dataDir);
    } catch (error) {
      expect((error as Error).message).not.toContain(key);
    }
  });
});
