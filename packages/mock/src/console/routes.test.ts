import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../app/mock-server.js';
import { inspectorScript } from './inspector-script.js';
import { referenceScript } from './reference-script.js';
import { CONSOLE_CSP } from './routes.js';
import { consoleCss } from './styles.js';

const mock = createMockServer();
const get = (path: string, accept?: string) =>
  mock.fetch(`http://localhost${path}`, { headers: accept === undefined ? {} : { accept } });

describe('the console', () => {
  it('answers a browser at / with the console, and an API client with the 404 problem', async () => {
    const browser = await get('/', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(browser.status).toBe(200);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(browser.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(browser.headers.get('request-id')).toMatch(/^req_/);
    const page = await browser.text();
    expect(page).toContain('<h2 id="inspector-title">Inspector</h2>');
    expect(page).toContain('<code>tok_test_pending</code>');
    expect(page).toContain('<code>sandbox_full</code>');
    for (const api of [undefined, 'application/json', '*/*']) {
      const answer = await get('/', api);
      expect(answer.status, String(api)).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/problem+json');
      expect((await answer.json()).code).toBe('not_found');
    }
  });

  it('serves every asset the pages name, from its own origin only', async () => {
    const pages = ['/', '/_console/reference', '/_console/reference/sandbox'];
    for (const path of pages) {
      const html = await (await get(path, 'text/html')).text();
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
      for (const url of urls) {
        expect(url.startsWith('/'), `${path} → ${url}`).toBe(true);
        if (url.includes('#')) continue;
        const asset = await get(url, 'text/html,*/*');
        expect(asset.status, url).toBe(200);
      }
      expect(html).not.toMatch(/https?:\/\/(?!localhost)/);
    }
  });

  it('serves the specs with provenance badges, and Redoc without any remote font or script', async () => {
    const api = await (await get('/_console/openapi.json')).json();
    expect(api.paths['/v1/payments'].post.description).toContain('documented · §4.1');
    const sandbox = await (await get('/_console/sandbox.json')).json();
    expect(sandbox.paths['/_sandbox/inspector'].get.description).toContain('provenance-inferred');
    const redoc = await get('/_console/redoc.standalone.js');
    expect(redoc.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await redoc.text()).length).toBeGreaterThan(500_000);
  });

  it('works mounted under a prefix in another Hono app: links carry the prefix', async () => {
    const host = new Hono();
    host.route('/sandbox', createMockServer().app);
    const page = await (
      await host.request('/sandbox', { headers: { accept: 'text/html' } })
    ).text();
    expect(page).toContain('data-base="/sandbox"');
    expect(page).toContain('src="/sandbox/_console/inspector.js"');
    const reference = await host.request('/sandbox/_console/reference', {
      headers: { accept: 'text/html' },
    });
    expect(await reference.text()).toContain('data-spec="/sandbox/_console/openapi.json"');
    expect((await host.request('/sandbox/_console/console.css')).status).toBe(200);
  });

  it("keeps the console's own script and styles within their size budget (12 KiB gzipped)", () => {
    const own = [inspectorScript(), referenceScript(), consoleCss].join('');
    const gzipped = gzipSync(own).byteLength;
    expect(gzipped).toBeLessThan(12 * 1024);
    expect(own.length).toBeLessThan(48 * 1024);
  });

  it('ships a script that parses on its own (no reference to module scope)', () => {
    expect(() => new Function(inspectorScript())).not.toThrow();
    expect(() => new Function(referenceScript())).not.toThrow();
    expect(inspectorScript()).not.toMatch(/\brequire\(|\bimport\b|__name/);
  });
});
