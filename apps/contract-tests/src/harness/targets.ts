// The servers the scenarios run against: the mock in process and the mock over HTTP (a live sandbox is checked by payment-service-contract).
import { createMockServer } from '@payment-service/mock';
import { startMockServer } from '@payment-service/mock/node';

/** Where the scenarios send their requests. */
export interface Target {
  name: TargetName;
  baseUrl: string;
  /** Sends one request to the target, with no checking. */
  fetch(request: Request): Promise<Response>;
  /** A fresh API key; on the mock every new `sk_test_` key is an empty account. */
  newApiKey(): string;
  /** Resolves once the mock has no webhook attempt in flight or due now. */
  webhooksSettled: () => Promise<void>;
  close(): Promise<void>;
}

export type TargetName = 'in-process' | 'http';

/**
 * The targets of this run: the mock in process and over HTTP.
 *
 * @example
 * describe.each(targetNames())('create payment (%s)', (name) => { … });
 */
export function targetNames(): TargetName[] {
  return ['in-process', 'http'];
}

function randomKey(): string {
  return `sk_test_contract${crypto.randomUUID().replace(/-/g, '')}`;
}

/**
 * Starts the named target.
 *
 * @example
 * const target = await startTarget('http');
 * await target.fetch(new Request(`${target.baseUrl}/v1/payments`));
 * await target.close();
 */
export async function startTarget(name: TargetName): Promise<Target> {
  if (name === 'in-process') {
    const mock = createMockServer();
    return {
      name,
      baseUrl: 'http://mock.local',
      fetch: (request) => mock.fetch(request),
      newApiKey: randomKey,
      webhooksSettled: () => mock.webhooksSettled(),
      close: async () => mock.close(),
    };
  }
  const server = await startMockServer({ port: 0 });
  return {
    name,
    baseUrl: server.url,
    fetch: (request) => fetch(request),
    newApiKey: randomKey,
    webhooksSettled: () => server.webhooksSettled(),
    close: () => server.close(),
  };
}
