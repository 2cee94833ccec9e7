// The raw node:http floor: parses a create body and answers the payment JSON, nothing else.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

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
      const now = `${new Date().toISOString().slice(0, 19)}Z`;
      if (request.method === 'POST') {
        let body: { amount?: number; currency?: string; capture?: boolean; description?: string };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          response.writeHead(400, { 'content-type': 'application/problem+json' });
          response.end('{"code":"invalid_json"}');
          return;
        }
        const payment = {
          id: `${idPrefix}${counter++}`,
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
        response.writeHead(201, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payment));
        return;
      }
      const id = request.url?.split('/')[3] ?? 'pay_unknown';
      const payment = {
        id,
        object: 'payment',
        status: 'SUCCEEDED',
        amount: 150_000,
        currency: 'KZT',
        created_at: now,
        capture: true,
        description: null,
        amount_captured: 150_000,
        amount_refunded: 0,
        failure_code: null,
        failure_message: null,
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payment));
    });
  });
}
