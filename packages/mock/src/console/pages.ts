// The console's server-rendered pages: the inspector with the token and error tables, and the two API references.
import { errorCodes, testTokens } from '@payment-service/openapi';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Where the console's pages live, relative to the sandbox's base URL. */
export const CONSOLE_PATHS = {
  home: '/',
  apiReference: '/_console/reference',
  sandboxReference: '/_console/reference/sandbox',
  css: '/_console/console.css',
  inspectorJs: '/_console/inspector.js',
  referenceJs: '/_console/reference.js',
  redocJs: '/_console/redoc.standalone.js',
  apiSpec: '/_console/openapi.json',
  sandboxSpec: '/_console/sandbox.json',
} as const;

type Page = 'home' | 'apiReference' | 'sandboxReference';

/** Text with `backtick` spans shown as code, everything escaped. */
function markdownCode(text: string): Html[] {
  return text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

function layout(
  base: string,
  current: Page,
  title: string,
  content: Html,
  scripts: string[],
): Html {
  const link = (page: Page, label: string) =>
    html`<li><a href="${base}${CONSOLE_PATHS[page]}"${current === page ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} · Payment Service sandbox</title>
<link rel="stylesheet" href="${base}${CONSOLE_PATHS.css}">
</head>
<body data-base="${base}">
<header>
<h1>Payment Service sandbox</h1>
<nav aria-label="Console"><ul>
${link('home', 'Inspector')}
${link('apiReference', 'API reference')}
${link('sandboxReference', 'Sandbox controls reference')}
<li><a href="${base}/#tokens">Test tokens</a></li>
<li><a href="${base}/#errors">Error codes</a></li>
</ul></nav>
</header>
${content}
${scripts.map((src) => html`<script src="${base}${src}"></script>`)}
</body>
</html>`;
}

/**
 * The console's home: the inspector (empty until a key is pasted), then the test tokens and the
 * error codes from the spec.
 *
 * @example
 * const page = await homePage(''); // an HTML string
 */
export function homePage(base: string): Html {
  const tokens = testTokens.map(
    (token) =>
      html`<tr><td><code>${token.token}</code></td><td>${markdownCode(token.description)}</td></tr>`,
  );
  const errors = Object.entries(errorCodes).map(
    ([code, entry]) =>
      html`<tr><td><code>${code}</code></td><td>${entry.status}</td><td>${markdownCode(entry.meaning)}</td></tr>`,
  );
  const content = html`<main>
<section aria-labelledby="inspector-title">
<h2 id="inspector-title">Inspector</h2>
<p class="muted">Paste a test key to follow its requests, payments and webhooks live. The key stays in this tab (session storage) and is sent only in the <code>Authorization</code> header. You see only that key's data.</p>
<form id="key-form" method="post" action="#" autocomplete="off">
<label for="key">Test secret key<input id="key" name="key" type="password" spellcheck="false" placeholder="sk_test_…" required></label>
<button class="primary" type="submit">Inspect</button>
<button id="forget-key" type="button">Forget key</button>
</form>
<p id="inspector-status" role="status" aria-live="polite" class="muted">No key yet.</p>
<div id="inspector-live" hidden>
<div class="controls">
<div class="panel"><h3>Sandbox clock</h3><p id="clock-now" class="muted"></p>
<form id="advance-form"><label for="advance-seconds">Seconds<input id="advance-seconds" type="number" min="1" max="31536000" value="60" required></label><button type="submit">Advance the clock</button></form></div>
<div class="panel"><h3>Faults</h3><p class="muted">Armed: <span id="faults-now"></span></p>
<form id="faults-form"><label for="fault-latency">Latency ms<input id="fault-latency" type="number" min="0" max="60000" value="0"></label>
<label for="fault-count">Fail next<input id="fault-count" type="number" min="0" max="1000" value="0"></label>
<label for="fault-status">with<select id="fault-status"><option>503</option><option>500</option><option>502</option><option>504</option><option>429</option></select></label>
<button type="submit">Set faults</button><button id="clear-faults" type="button">Clear faults</button></form></div>
<div class="panel"><h3>Reset</h3><p class="muted">Deletes this key's payments, events, endpoints and records.</p><button id="reset-key" type="button">Reset this key</button></div>
</div>
<div id="inspector-panels"></div>
</div>
</section>
<section aria-labelledby="tokens-title" id="tokens">
<h2 id="tokens-title">Test tokens</h2>
<div class="scroll"><table><thead><tr><th scope="col">Token</th><th scope="col">Outcome</th></tr></thead><tbody>${tokens}</tbody></table></div>
</section>
<section aria-labelledby="errors-title" id="errors">
<h2 id="errors-title">Error codes</h2>
<div class="scroll"><table><thead><tr><th scope="col">Code</th><th scope="col">Status</th><th scope="col">Meaning</th></tr></thead><tbody>${errors}</tbody></table></div>
</section>
</main>`;
  return layout(base, 'home', 'Console', content, [CONSOLE_PATHS.inspectorJs]);
}

/**
 * A reference page: Redoc (served by the mock) renders the badged spec, the API's or the sandbox
 * controls'.
 *
 * @example
 * const page = await referencePage('', 'api');
 */
export function referencePage(base: string, which: 'api' | 'sandbox'): Html {
  const isApi = which === 'api';
  const note = isApi
    ? html`The provider's API as this kit models it. Badges: <span class="provenance provenance-documented">documented</span> what the provider's document states (with its section), <span class="provenance provenance-inferred">inferred</span> our model where it is silent (with the reason).`
    : html`The sandbox's own controls under <code>/_sandbox</code>: not part of the provider's API, so every element is <span class="provenance provenance-inferred">inferred</span>.`;
  const spec = `${base}${isApi ? CONSOLE_PATHS.apiSpec : CONSOLE_PATHS.sandboxSpec}`;
  const content = html`<main class="reference"><p class="reference-note">${note}</p><div id="redoc" data-spec="${spec}"></div></main>`;
  return layout(
    base,
    isApi ? 'apiReference' : 'sandboxReference',
    isApi ? 'API reference' : 'Sandbox controls reference',
    content,
    [CONSOLE_PATHS.redocJs, CONSOLE_PATHS.referenceJs],
  );
}
