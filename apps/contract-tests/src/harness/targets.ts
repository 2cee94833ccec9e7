// The servers the scenarios run against: the mock in process, the mock over HTTP, or a live sandbox named by the environment.
import { createMockServer } from '@payment-service/mock';
import { startMockServer } from '@payment-service/mock/node';

/** Where the scenarios send their requests. */
export interface Target {
  name: TargetName;
  baseUrl: string;
  /** Sends one request to the target, with no checking. */
  fetch(request: Request): Promise<Response>;
  /** Whether the target serves the mock's `/_sandbox` controls. */
  hasSandboxControls: boolean;
  /** A fresh API key; on the mock every new `sk_test_` key is an empty account. */
  newApiKey(): string;
  /** Resolves once the mock has no webhook attempt in flight or due now; undefined on a live sandbox. */
  webhooksSettled: (() => Promise<void>) | undefined;
  close(): Promise<void>;
}

export type TargetName = 'in-process' | 'http' | 'live';

/** The live sandbox's address and key, when the run is pointed at one. */
export const liveSandbox = {
  baseUrl: process.env.CONTRACT_BASE_URL,
  apiKey: process.env.CONTRACT_API_KEY,
};

/** Whether this run checks a live sandbox (no sandbox controls, one fixed key). */
export const isLive = Boolean(liveSandbox.baseUrl);

/**
 * The targets of this run: the mock in process and over HTTP, or only `live` when `CONTRACT_BASE_URL` is set.
 *
 * @example
 * describe.each(targetNames())('create payment (%s)', (name) => { … });
 */
export function targetNames(): TargetName[] {
  return liveSandbox.baseUrl ? ['live'] : ['in-process', 'http'];
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
      hasSandboxControls: true,
      newApiKey: randomKey,
      webhooksSettled: () => mock.webhooksSettled(),
      close: async () => mock.close(),
    };
  }
  if (name === 'http') {
    const server = await startMockServer({ port: 0 });
    return {
      name,
      baseUrl: server.url,
      fetch: (request) => fetch(request),
      hasSandboxControls: true,
      newApiKey: randomKey,
      webhooksSettled: () => server.webhooksSettled(),
      close: () => server.close(),
    };
  }
  const { baseUrl, apiKey } = liveSandbox;
  if (!baseUrl || !apiKey) {
    throw new Error(
      'CONTRACT_BASE_URL and CONTRACT_API_KEY (an sk_test_ key) must both be set for a live run',
    );
  }
  return {
    name,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    fetch: (request) => fetch(request),
    hasSandboxControls: false,
    newApiKey: () => apiKey,
    webhooksSettled: undefined,
    close: async () => {},
  };
}
