// Test support: a real node:http webhook receiver on an ephemeral 127.0.0.1 port that records deliveries.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as received. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary event fields
  event: any;
}

/** Decides the answer to each delivery: a status, or 'hang' to never answer. */
export type ReceiverAnswer = (delivery: ReceivedDelivery, index: number) => number | 'hang';

export interface TestReceiver {
  url: string;
  received: ReceivedDelivery[];
  answer: ReceiverAnswer;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startTestReceiver(answer: ReceiverAnswer = () => 204): Promise<TestReceiver> {
  const received: ReceivedDelivery[] = [];
  /** Checks of pending `waitFor` calls, run after each delivery. */
  const waiters = new Set<() => void>();
  const receiver: TestReceiver = {
    url: '',
    received,
    answer,
    waitFor(count, timeoutMs = 5000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} deliveries, got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery: ReceivedDelivery = {
        headers: request.headers,
        body,
        event: JSON.parse(body),
      };
      const status = receiver.answer(delivery, received.length);
      received.push(delivery);
      for (const check of waiters) check();
      if (status === 'hang') return;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
