import type { IncomingMessage, ServerResponse } from 'node:http';
import { webhooks } from '@payment-service/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { fromNodeHandler } from './node-handler.js';
import { createTestSandbox } from './sandbox.js';
import type { TestSandbox } from './types.js';

let sandbox: TestSandbox | undefined;
afterEach(() => sandbox?.close());

describe('fromNodeHandler', () => {
  it('delivers to a node:http listener with no socket: raw body, headers, and its answer counted', async () => {
    sandbox = createTestSandbox({ seed: 'node-handler' });
    let secret = '';
    const paid: string[] = [];
    let answers = [503, 200];
    const listener = (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const event = await webhooks.verify(Buffer.concat(chunks), request.headers, secret);
        const status = answers.shift() ?? 200;
        if (status === 200 && event.type === 'payment.succeeded') paid.push(event.data.object.id);
        response
          .writeHead(status, { 'content-type': 'text/plain' })
          .end(`${request.url} ${status}`);
      });
    };
    ({ secret } = await sandbox.webhooks.deliverTo(fromNodeHandler(listener), {
      url: 'http://shop.test/hooks/payments?source=sandbox',
    }));
    const payment = await sandbox.trigger('payment.succeeded');
    await sandbox.clock.advance(10_000);
    expect(paid).toEqual([payment.id]);
    const attempts = await sandbox.webhooks.deliveries();
    expect(attempts.map((attempt) => [attempt.status, attempt.response_body])).toEqual([
      [503, '/hooks/payments?source=sandbox 503'],
      [200, '/hooks/payments?source=sandbox 200'],
    ]);
    answers = [];
  });

  it('refuses what is not a listener', () => {
    expect(() => fromNodeHandler('app' as never)).toThrow(
      'listener must be a (request, response) function',
    );
  });
});
