import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isBrowserLike, runtimeName, sdkUserAgent } from './runtime.js';
import { sdkVersion } from './version.js';

describe('runtime detection', () => {
  it('takes a page (window and document) for a browser, and nothing else', () => {
    expect(isBrowserLike({ window: {}, document: {} })).toBe(true);
    expect(isBrowserLike({ window: {} })).toBe(false); // Deno 1 had window but no document
    expect(isBrowserLike({ navigator: { userAgent: 'Cloudflare-Workers' } })).toBe(false);
    expect(isBrowserLike()).toBe(false);
  });

  it('names the runtime', () => {
    expect(runtimeName()).toBe(`node/${process.versions.node}`);
    expect(runtimeName({ Bun: { version: '1.4.5' }, process: { versions: { node: '22' } } })).toBe(
      'bun/1.4.5',
    );
    expect(runtimeName({ Deno: { version: { deno: '2.1.0' } } })).toBe('deno/2.1.0');
    expect(runtimeName({ EdgeRuntime: 'edge-runtime' })).toBe('edge-runtime');
    expect(runtimeName({ navigator: { userAgent: 'Cloudflare-Workers' } })).toBe(
      'Cloudflare-Workers',
    );
    expect(runtimeName({})).toBe('unknown');
  });

  it('omits the User-Agent in a browser', () => {
    expect(sdkUserAgent()).toBe(`payment-service-sdk/${sdkVersion} node/${process.versions.node}`);
    expect(sdkUserAgent({ window: {}, document: {} })).toBeUndefined();
  });

  it('sends the version of package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(sdkVersion).toBe(manifest.version);
  });
});
