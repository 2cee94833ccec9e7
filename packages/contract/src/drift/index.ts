// A drifted target: a proxy in front of a sandbox that breaks chosen facts of the contract, to prove a contract gate notices.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The facts a drift proxy can break: documented ones and inferred ones. */
export const DRIFTS = {
  'created-at-milliseconds': {
    provenance: 'documented',
    description:
      'created_at with milliseconds (2026-11-22T04:20:00.123Z): §2.1 says YYYY-MM-DDThh:mm:ssZ',
  },
  'missing-object': {
    provenance: 'documented',
    description: 'payments without their object field: §2.1 says it is always "payment"',
  },
  'completed-instead-of-succeeded': {
    provenance: 'documented',
    description: 'COMPLETED where the payment is SUCCEEDED: §3 documents SUCCEEDED',
  },
  'ok-instead-of-created': {
    provenance: 'inferred',
    description:
      '200 instead of 201 for a created payment: the success code is not shown, the spec infers 201',
  },
  'renamed-error-code': {
    provenance: 'inferred',
    description: 'validation_error instead of invalid_request: error codes are our model',
  },
  'no-request-id': {
    provenance: 'inferred',
    description: 'no Request-Id header: the header is our model',
  },
} as const;

/** One drift's name. */
export type Drift = keyof typeof DRIFTS;

type Json = unknown;

function rewrite(value: Json, drifts: ReadonlySet<Drift>): Json {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, drifts));
  if (value === null || typeof value !== 'object') return value;
  const object: Record<string, Json> = {};
  for (const [key, inner] of Object.entries(value)) object[key] = rewrite(inner, drifts);
  const isPayment = object.object === 'payment';
  if (drifts.has('created-at-milliseconds') && typeof object.created_at === 'string') {
    object.created_at = object.created_at.replace(/Z$/, '.123Z');
  }
  if (isPayment && drifts.has('completed-instead-of-succeeded') && object.status === 'SUCCEEDED') {
    object.status = 'COMPLETED';
  }
  if (isPayment && drifts.has('missing-object')) delete object.object;
  if (drifts.has('renamed-error-code') && object.code === 'invalid_request')
    object.code = 'validation_error';
  return object;
}

/**
 * Wraps a target's fetch so its answers break the given drifts; everything else passes through.
 *
 * @example
 * const mock = createMockServer();
 * const drifted = createDriftProxy((request) => mock.fetch(request), ['missing-object', 'no-request-id']);
 * await runContractCheck({ baseUrl: 'http://mock.local', apiKey: 'sk_test_drift_example', fetch: drifted });
 */
export function createDriftProxy(
  upstream: (request: Request) => Promise<Response>,
  drifts: readonly Drift[],
): (request: Request) => Promise<Response> {
  for (const drift of drifts) {
    if (!(drift in DRIFTS))
      throw new Error(`unknown drift ${drift}; known: ${Object.keys(DRIFTS).join(', ')}`);
  }
  const active = new Set(drifts);
  return async (request) => {
    const response = await upstream(request);
    const headers = new Headers(response.headers);
    if (active.has('no-request-id')) headers.delete('request-id');
    let status = response.status;
    const isCreate =
      request.method === 'POST' && new URL(request.url).pathname.endsWith('/v1/payments');
    if (active.has('ok-instead-of-created') && isCreate && status === 201) status = 200;
    const text = await response.text();
    let body = text;
    if (/json/.test(headers.get('content-type') ?? '') && text) {
      try {
        body = JSON.stringify(rewrite(JSON.parse(text), active));
      } catch {}
    }
    headers.delete('content-length');
    return new Response(status === 204 || status === 304 ? null : body, { status, headers });
  };
}

/** A running drift proxy over HTTP. */
export interface DriftProxyServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a drift proxy on 127.0.0.1 (port 0: a free port) in front of `upstreamUrl`.
 *
 * @example
 * const proxy = await startDriftProxy({ upstreamUrl: 'http://127.0.0.1:4010', drifts: ['created-at-milliseconds'] });
 * // payment-service-contract check --base-url proxy.url … exits 1
 * await proxy.close();
 */
export async function startDriftProxy(options: {
  upstreamUrl: string;
  drifts: readonly Drift[];
  port?: number;
}): Promise<DriftProxyServer> {
  const upstream = new URL(options.upstreamUrl);
  const handle = createDriftProxy((request) => fetch(request), options.drifts);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === 'string' && name !== 'host' && name !== 'connection')
            headers.set(name, value);
        }
        const method = incoming.method ?? 'GET';
        const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
        const target = new URL(incoming.url ?? '/', upstream);
        const response = await handle(
          new Request(target, { method, headers, ...(body ? { body } : {}) }),
        );
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value;
        });
        outgoing.writeHead(response.status, out);
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`drift proxy: ${(error as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
