// Minimal node:http client calls for probes and cold start: one request, status and parsed body.
import { type Agent, request } from 'node:http';

/** A finished request: status code and body text. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * Sends one request to 127.0.0.1 and reads the whole answer.
 *
 * @example
 * const answer = await sendRequest('http://127.0.0.1:4010/v1/payments/pay_1', { method: 'GET', headers: {} });
 * answer.status; // 200
 */
export function sendRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; agent?: Agent | false },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: init.method, headers: init.headers, agent: init.agent ?? false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/**
 * Parses JSON, or returns undefined for anything else.
 *
 * @example
 * parseJson('{"a":1}'); // { a: 1 }
 * parseJson('nope'); // undefined
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
