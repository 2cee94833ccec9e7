// Tells where the SDK runs: a browser-like page (refused by default) or a server runtime (named in User-Agent).
import { sdkVersion } from './version.js';

/** The globals read here, all optional: each runtime has only some of them. */
interface RuntimeGlobals {
  window?: unknown;
  document?: unknown;
  Bun?: { version?: string };
  Deno?: { version?: { deno?: string } };
  EdgeRuntime?: unknown;
  process?: { versions?: { node?: string } };
  navigator?: { userAgent?: string };
}

/**
 * Whether this looks like a web page: both `window` and `document` exist. Node, Deno (no
 * `document`), Bun, edge runtimes and web workers are not browser-like.
 *
 * @example
 * isBrowserLike(); // false in Node
 */
export function isBrowserLike(globals: RuntimeGlobals = globalThis as RuntimeGlobals): boolean {
  return typeof globals.window !== 'undefined' && typeof globals.document !== 'undefined';
}

/**
 * The runtime and its version, e.g. `node/20.20.2`, `bun/1.4.5`, `deno/2.1.0`, `edge-runtime`.
 *
 * @example
 * runtimeName(); // 'node/20.20.2'
 */
export function runtimeName(globals: RuntimeGlobals = globalThis as RuntimeGlobals): string {
  if (typeof globals.Bun?.version === 'string') return `bun/${globals.Bun.version}`;
  if (typeof globals.Deno?.version?.deno === 'string') return `deno/${globals.Deno.version.deno}`;
  if (typeof globals.EdgeRuntime === 'string') return 'edge-runtime';
  const node = globals.process?.versions?.node;
  if (typeof node === 'string') return `node/${node}`;
  const agent = globals.navigator?.userAgent;
  return typeof agent === 'string' && agent !== '' ? agent.replace(/[^\x20-\x7e]/g, '') : 'unknown';
}

/**
 * The `User-Agent` the SDK sends: the SDK and the runtime. `undefined` in a browser, which
 * sends its own.
 *
 * @example
 * sdkUserAgent(); // 'payment-service-sdk/0.1.0 node/20.20.2'
 */
export function sdkUserAgent(
  globals: RuntimeGlobals = globalThis as RuntimeGlobals,
): string | undefined {
  if (isBrowserLike(globals)) return undefined;
  return `payment-service-sdk/${sdkVersion} ${runtimeName(globals)}`;
}
