// The raw node:http floor: parses a create body and answers the payment JSON, nothing else.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** The fields of a create body that the floors echo back. */
export interface FloorCreateBody {
  amount?: number;
  currency?: string;
  capture?: boolean;
  description?: string;
}

/**
 * The payment a floor answers to a create: the body's fields, status SUCCEEDED, the given id.
 *
 * @example
 * createdPayment({ amount: 100, currency: 'KZT' }, 'pay_1', '2026-01-01T00:00:00Z').status; // 'SUCCEEDED'
 */
export function createdPayment(body: FloorCreateBody, id: string, now: string) {
  return {
    id,
    object: 'payment',
    status: 'SUCCEEDED',
    amount: body.amount,
    currency: body.currency,
    created_at: now,
    capture: body.capture ?? true,
    description: body.description ?? null,
    amount_captured: body.amount,
    amount_refunded: 0,
    failure_code: null,
    failure_message: null,
  };
}

/**
 * The payment a floor answers to a retrieve: a fixed succeeded payment with the asked id.
 *
 * @example
 * retrievedPayment('pay_1', '2026-01-01T00:00:00Z').id; // 'pay_1'
 */
export function retrievedPayment(id: string, now: string) {
  return createdPayment({ amount: 150_000, currency: 'KZT', capture: true }, id, now);
}

/**
 * The current second as the API writes timestamps.
 *
 * @example
 * floorNow(); // '2026-11-24T07:30:00Z'
 */
export function floorNow(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

/**
 * Creates the floor server: `POST /v1/payments` parses the JSON body and answers 201 with a
 * payment; `GET /v1/payments/{id}` answers 200 with a payment. No auth, store or validation:
 * the cheapest server that speaks the same wire format, as the baseline of every ratio.
 *
 * @example
 * const server = createFloorServer();
 * server.listen(0, '127.0.0.1');
 */
export function createFloorServer(): Server {
  const idPrefix = `pay_${randomBytes(6).toString('hex')}`;
  let counter = 0;
  return createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = floorNow();
      if (request.method === 'POST') {
        let body: FloorCreateBody;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          response.writeHead(400, { 'content-type': 'application/problem+json' });
          response.end('{"code":"invalid_json"}');
          return;
        }
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify(createdPayment(body, `${idPrefix}${counter++}`, now)));
        return;
      }
      const id = request.url?.split('/')[3] ?? 'pay_unknown';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(retrievedPayment(id, now)));
    });
  });
}
