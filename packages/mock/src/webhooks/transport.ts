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
    send({ url, headers, body, signal }) {
      // The injected fetch may ignore the signal (an in-process receiver that never answers):
      // the attempt ends when the signal aborts all the same, so its slot is given back.
      const sending = (async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          signal,
          redirect: 'manual',
        });
        return { status: response.status, excerpt: await readExcerpt(response.body) };
      })();
      return untilAborted(sending, signal);
    },
    close() {},
  };
}

/** `work`, or a rejection with the signal's reason as soon as it aborts (whichever comes first). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
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
 * A key's attempts and the operator's never share a connection, and a pooled connection's peer
 * is checked again before a key's attempt is written on it. A receiver's answer is kept in the
 * log only when it came from loopback. Redirects are not followed. Node's modules load on the
 * first attempt.
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
        for (const agent of Object.values(modules.agents)) agent.destroy();
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

/**
 * The keep-alive agents, one per scheme and per kind of attempt: a key's (restricted) attempt
 * never reuses a socket that the operator's unrestricted `webhookUrl` opened, since a reused
 * socket is never looked up again (issue 31: a key's endpoint on the operator's host name reached
 * a private address over the operator's connection).
 */
interface Agents {
  restrictedHttp: import('node:http').Agent;
  restrictedHttps: import('node:https').Agent;
  unrestrictedHttp: import('node:http').Agent;
  unrestrictedHttps: import('node:https').Agent;
}

interface NetworkModules {
  http: typeof import('node:http');
  https: typeof import('node:https');
  isIP: (input: string) => number;
  /** Resolves a name and refuses it when any of its addresses is refused by the policy. */
  guardedLookup: import('node:net').LookupFunction;
  /** Resolves a name as it is (the operator's own URL). */
  plainLookup: import('node:net').LookupFunction;
  agents: Agents;
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
  const lookupWith =
    (guarded: boolean): import('node:net').LookupFunction =>
    (hostname, options, callback) => {
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error !== null) {
          callback(error, '', 0);
          return;
        }
        const refused = guarded ? firstRefused(addresses, policy) : undefined;
        if (refused !== undefined) {
          callback(
            new AddressRefusedError(`${hostname} resolves to ${refused.address}, ${refused.words}`),
            '',
            0,
          );
          return;
        }
        const first = addresses[0];
        if (options.all === true) callback(null, addresses);
        else if (first === undefined) callback(new Error(`${hostname} has no address`), '', 0);
        else callback(null, first.address, first.family);
      });
    };
  const agent = { keepAlive: true, maxSockets: 64 };
  return {
    http,
    https,
    isIP: net.isIP,
    guardedLookup: lookupWith(true),
    plainLookup: lookupWith(false),
    agents: {
      restrictedHttp: new http.Agent(agent),
      restrictedHttps: new https.Agent(agent),
      unrestrictedHttp: new http.Agent(agent),
      unrestrictedHttps: new https.Agent(agent),
    },
  };
}

/** The first address the policy refuses, with why, or undefined when every one may be reached. */
function firstRefused(
  addresses: readonly { address: string }[],
  policy: WebhookAddressPolicy,
): { address: string; words: string } | undefined {
  for (const { address } of addresses) {
    const words = refusedAddress(address, policy);
    if (words !== undefined) return { address, words };
  }
  return undefined;
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
        agent: agentFor(modules.agents, secure, restricted),
        lookup: restricted ? modules.guardedLookup : modules.plainLookup,
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
    if (restricted) {
      // A pooled socket is not looked up again: its peer is checked before anything is written.
      request.once('socket', (socket) => {
        const peer = socket.remoteAddress;
        const refused = peer === undefined ? undefined : refusedAddress(peer, policy);
        if (refused !== undefined)
          request.destroy(
            new AddressRefusedError(`${target.hostname} is connected to ${peer}, ${refused}`),
          );
      });
    }
    request.on('error', reject);
    request.end(body);
  });
}

/** The keep-alive agent of an attempt: its scheme's, restricted or not. */
function agentFor(agents: Agents, secure: boolean, restricted: boolean) {
  if (restricted) return secure ? agents.restrictedHttps : agents.restrictedHttp;
  return secure ? agents.unrestrictedHttps : agents.unrestrictedHttp;
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
