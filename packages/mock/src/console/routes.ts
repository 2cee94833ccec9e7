// The console's routes on the mock's Hono app: GET / for browsers, its pages, scripts, styles and badged specs.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';
import type { Context, Hono } from 'hono';
import type { MockEnv } from '../http/env.js';
import { type ObservedHandler, type Observer, observed } from '../http/exchange.js';
import { inspectorScript } from './inspector-script.js';
import { CONSOLE_PATHS, homePage, referencePage } from './pages.js';
import { withProvenanceBadges } from './provenance-badges.js';
import { referenceScript } from './reference-script.js';
import { consoleCss } from './styles.js';

/** Redoc's standalone bundle: one CommonJS file built into this package by scripts/redoc-module.mjs. */
const REDOC_MODULE = '@payment-service/mock/redoc-standalone';

/**
 * Loads Redoc's bundle through the package's own name (from src, the ESM build and the CLI
 * bundle). The CommonJS build's nearest package.json is dist/cjs's type marker, which has no
 * name: from there the file is found beside it, from `__dirname`. The names are variables so
 * that TypeScript's CommonJS resolution does not try to follow them.
 */
async function loadRedoc(): Promise<string> {
  type RedocModule = { redocStandalone: string };
  try {
    return ((await import(REDOC_MODULE)) as RedocModule).redocStandalone;
  } catch (error) {
    if (typeof __dirname !== 'string') throw error;
    const besideCommonJsBuild = `${__dirname}/../../redoc/redoc-standalone.cjs`;
    return ((await import(besideCommonJsBuild)) as RedocModule).redocStandalone;
  }
}

/**
 * Everything the console loads comes from the sandbox itself: the policy lets a page load and
 * call nothing else (Redoc needs inline styles and a blob worker for its search).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Whether a request prefers HTML (a browser navigating) over the API's JSON. */
function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/i.test(accept);
}

/** The mount prefix of the app: the request path without the route's own path. */
function baseOf(c: Context<MockEnv>, route: string): string {
  const path = c.req.path;
  const trimmed =
    route === '/' ? path.replace(/\/$/, '') : path.slice(0, path.length - route.length);
  return trimmed;
}

/**
 * The console's home when a catch-all route (`*`) meets the mount point itself with a trailing
 * slash (`GET /sandbox/` of `app.route('/sandbox', mock.app)`, which Hono's strict routing does
 * not give to the `/` route); undefined for any other request.
 *
 * @example
 * app.all('*', (c) => consoleHomeAtMountPoint(c) ?? notFound(c));
 */
export function consoleHomeAtMountPoint(c: Context<MockEnv>): Promise<Response> | undefined {
  const base = c.req.routePath.replace(/\/?\*$/, '');
  const atMountPoint = c.req.path === `${base}/`;
  if (!atMountPoint || c.req.method !== 'GET' || !wantsHtml(c.req.header('accept'))) {
    return undefined;
  }
  return page(c, homePage(base));
}

async function page(c: Context<MockEnv>, body: Promise<string> | string): Promise<Response> {
  return c.body(await body, 200, {
    ...SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'request-id': c.get('requestId'),
  });
}

function asset(c: Context<MockEnv>, body: string, type: string): Response {
  return c.body(body, 200, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'cache-control': 'no-cache',
    'request-id': c.get('requestId'),
  });
}

/**
 * Adds the console to the mock's app: `GET /` answers HTML to browsers (an API client still
 * gets the 404 problem), the inspector and the two references, and their assets, all from the
 * sandbox's own origin.
 *
 * @example
 * registerConsole(app);
 */
export function registerConsole(app: Hono<MockEnv>, observer: Observer): void {
  let badged: { api: string; sandbox: string } | undefined;
  const specs = () => {
    badged ??= {
      api: JSON.stringify(withProvenanceBadges(openapiDocument)),
      sandbox: JSON.stringify(withProvenanceBadges(sandboxDocument)),
    };
    return badged;
  };
  // Built on first use: the API's first request needs none of the console.
  let scripts: { inspector: string; reference: string } | undefined;
  const script = (name: 'inspector' | 'reference') => {
    scripts ??= { inspector: inspectorScript(), reference: referenceScript() };
    return scripts[name];
  };

  const get = (path: string, handler: ObservedHandler) =>
    app.get(path, observed(observer, handler));
  get('/', async (c, _exchange, next) => {
    // An API client gets the app's last route: the 404 problem, mounted or not.
    if (!wantsHtml(c.req.header('accept'))) {
      await next();
      return undefined;
    }
    return page(c, homePage(baseOf(c, '/')));
  });
  get(CONSOLE_PATHS.apiReference, (c) =>
    page(c, referencePage(baseOf(c, CONSOLE_PATHS.apiReference), 'api')),
  );
  get(CONSOLE_PATHS.sandboxReference, (c) =>
    page(c, referencePage(baseOf(c, CONSOLE_PATHS.sandboxReference), 'sandbox')),
  );
  get(CONSOLE_PATHS.css, (c) => asset(c, consoleCss, 'text/css; charset=utf-8'));
  get(CONSOLE_PATHS.inspectorJs, (c) =>
    asset(c, script('inspector'), 'text/javascript; charset=utf-8'),
  );
  get(CONSOLE_PATHS.referenceJs, (c) =>
    asset(c, script('reference'), 'text/javascript; charset=utf-8'),
  );
  get(CONSOLE_PATHS.apiSpec, (c) => asset(c, specs().api, 'application/json'));
  get(CONSOLE_PATHS.sandboxSpec, (c) => asset(c, specs().sandbox, 'application/json'));
  get(CONSOLE_PATHS.redocJs, async (c) => {
    // Loaded on first use: a megabyte the API itself never needs.
    const redocStandalone = await loadRedoc();
    return asset(c, redocStandalone, 'text/javascript; charset=utf-8');
  });
}
