// How a webhook attempt reaches its receiver: over the network (addresses checked when resolved) or through an injected fetch.
import {
  isLoopbackAddress,
  refusedAddress,
  type WebhookAddressPolicy,
} from '../domain/webhook-address.js';

/** One POST of a signed event to a receiver. */
export interface WebhookAttempt {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** Whether the address policy applies (a key's endpoint), or not (the operator's `webhookUrl`). */
  restricted: boolean;
}

/** What the receiver answered: its status, and the start of its body when that may be kept. */
export interface WebhookAnswer {
  status: number;
  /** The first characters of the answer, kept only from this machine (loopback or in process). */
  excerpt: string | null;
}

/** Sends webhook attempts; `close` ends its connections. */
export interface WebhookTransport {
  send(attempt: WebhookAttempt): Promise<WebhookAnswer>;
  close(): void;
}

/** Characters of a receiver's answer kept in the log. */
const EXCERPT_CHARACTERS = 256;
/** Bytes of a receiver's answer read for the excerpt; the rest is never read. */
const EXCERPT_BYTES = 1024;

/**
 * A transport over an injected `fetch` (a test double, a merchant's in-process handler): nothing
 * crosses a network, so no address is checked and the answer's start is kept.
 *
 * @example
 * const transport = fetchTransport((request) => app.fetch(request));
 */
export function fetchTransport(fetch: typeof globalThis.fetch): WebhookTransport {
  return {
    async send({ url, headers, body, signal }) {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      return { status: response.status, excerpt: await readExcerpt(response.body) };
    },
    close() {},
  };
}

/** The `code` of a connection refused by the address policy (never sent). */
export const ADDRESS_REFUSED = 'EADDRREFUSED';

/** A refusal of the address policy, as a connection error the delivery log shows. */
class AddressRefusedError extends Error {
  readonly code = ADDRESS_REFUSED;
}

/**
 * The transport of the sandbox's own deliveries: Node's HTTP client, with every address a
 * receiver's name resolves to checked against the policy before connecting (an IP literal is
 * checked as is), so a name that rebinds to a private or metadata address is never reached.
 * A receiver's answer is kept in the log only when it came from loopback. Redirects are not
 * followed. Node's modules load on the first attempt.
 *
 * @example
 * const transport = networkTransport({ allowPrivate: false });
 * await transport.send({ url, headers, body, signal, restricted: true }); // { status: 200, excerpt: 'ok' }
 */
export function networkTransport(
  policy: WebhookAddressPolicy,
  options: { resolve?: DnsLookup } = {},
): WebhookTransport {
  let loaded: Promise<NetworkModules> | undefined;
  let closed = false;
  return {
    async send(attempt) {
      loaded ??= loadNetworkModules(policy, options.resolve);
      const modules = await loaded;
      if (closed) throw new Error('the webhook dispatcher is closed');
      return sendOverNetwork(modules, attempt, policy);
    },
    close() {
      closed = true;
      void loaded?.then((modules) => {
        modules.httpAgent.destroy();
        modules.httpsAgent.destroy();
      });
    },
  };
}

/** Resolves a host name to all its addresses, as `dns.lookup` with `all: true` does. */
export type DnsLookup = (
  hostname: string,
  options: { all: true; family?: number | 'IPv4' | 'IPv6'; hints?: number },
  callback: (
    error: NodeJS.ErrnoException | null,
    addresses: { address: string; family: number }[],
  ) => void,
) => void;

interface NetworkModules {
  http: typeof import('node:http');
  https: typeof import('node:https');
  isIP: (input: string) => number;
  guardedLookup: import('node:net').LookupFunction;
  httpAgent: import('node:http').Agent;
  httpsAgent: import('node:https').Agent;
}

async function loadNetworkModules(
  policy: WebhookAddressPolicy,
  resolve: DnsLookup | undefined,
): Promise<NetworkModules> {
  const [http, https, dns, net] = await Promise.all([
    import('node:http'),
    import('node:https'),
    import('node:dns'),
    import('node:net'),
  ]);
  const lookup: DnsLookup =
    resolve ?? ((hostname, options, callback) => dns.lookup(hostname, options, callback));
  const guardedLookup: import('node:net').LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      for (const { address } of addresses) {
        const refused = refusedAddress(address, policy);
        if (refused !== undefined) {
          callback(
            new AddressRefusedError(`${hostname} resolves to ${address}, ${refused}`),
            '',
            0,
          );
          return;
        }
      }
      const first = addresses[0];
      if (options.all === true) callback(null, addresses);
      else if (first === undefined) callback(new Error(`${hostname} has no address`), '', 0);
      else callback(null, first.address, first.family);
    });
  };
  return {
    http,
    https,
    isIP: net.isIP,
    guardedLookup,
    httpAgent: new http.Agent({ keepAlive: true, maxSockets: 64 }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };
}

function sendOverNetwork(
  modules: NetworkModules,
  { url, headers, body, signal, restricted }: WebhookAttempt,
  policy: WebhookAddressPolicy,
): Promise<WebhookAnswer> {
  const target = new URL(url);
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (restricted && modules.isIP(literal) !== 0) {
    const refused = refusedAddress(literal, policy);
    if (refused !== undefined)
      return Promise.reject(new AddressRefusedError(`${literal} is ${refused}`));
  }
  const secure = target.protocol === 'https:';
  const send = secure ? modules.https.request : modules.http.request;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        signal,
        agent: secure ? modules.httpsAgent : modules.httpAgent,
        ...(restricted ? { lookup: modules.guardedLookup } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (!isLoopbackAddress(response.socket.remoteAddress ?? '')) {
          // Nothing from beyond this machine is shown back to the key.
          response.destroy();
          resolve({ status, excerpt: null });
          return;
        }
        readNodeExcerpt(response).then((excerpt) => resolve({ status, excerpt }), reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The first characters of a Node response's body, reading at most `EXCERPT_BYTES` of it. */
function readNodeExcerpt(response: import('node:http').IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      response.removeAllListeners('data');
      const text = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARACTERS);
      resolve(text === '' ? null : text);
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) {
        response.destroy();
        finish();
      }
    });
    response.once('end', finish);
    response.once('error', finish);
    response.once('close', finish);
  });
}

/** The first characters of a web body, reading at most `EXCERPT_BYTES` of it. */
async function readExcerpt(body: ReadableStream<Uint8Array> | null): Promise<string | null> {
  if (body === null) return null;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // The answer's status counts; a body cut short is only logged shorter.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  const text = new TextDecoder().decode(bytes).slice(0, EXCERPT_CHARACTERS);
  return text === '' ? null : text;
}
