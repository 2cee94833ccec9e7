import { describe, expect, it } from 'vitest';
import { PUBLIC_AND_LOOPBACK, PUBLIC_ONLY } from './webhook-address.js';
import { checkWebhookUrl } from './webhook-url.js';

describe('checkWebhookUrl', () => {
  it('accepts http(s) URLs in any scheme case, localhost included', () => {
    for (const url of [
      'http://127.0.0.1:3000/webhooks',
      'HTTPS://example.com/hook',
      'http://localhost/webhooks',
      'http://[::1]:8080/',
    ]) {
      expect(checkWebhookUrl(url), url).toBeUndefined();
    }
  });

  it('refuses bad ports, credentials, other schemes and non-URLs, naming the field', () => {
    expect(checkWebhookUrl('http://x:99999/')?.message).toMatch(/valid host and port/);
    expect(checkWebhookUrl('http://user:pass@example.com/')?.message).toMatch(/credentials/);
    expect(checkWebhookUrl('ftp://example.com/')?.message).toMatch(/http or https, not ftp/);
    expect(checkWebhookUrl('not a url')?.param).toBe('url');
  });
});

describe('checkWebhookUrl with an address policy', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://[::ffff:10.0.0.1]/',
    'http://0x0a.0.0.1/',
    'http://167772161/',
    'http://0.0.0.0:3000/',
    'http://[fe80::1]/',
  ])('refuses %s, naming the address and the flag', (url) => {
    const error = checkWebhookUrl(url, 'url', PUBLIC_AND_LOOPBACK);
    expect(error?.param).toBe('url');
    expect(error?.message).toMatch(/^url must not point at [0-9a-f.:]+, /);
  });

  it('accepts loopback, public addresses and host names (checked when sent)', () => {
    for (const url of [
      'http://127.0.0.1:3000/h',
      'http://[::1]/',
      'https://93.184.215.14/',
      'https://hooks.example.com/',
    ]) {
      expect(checkWebhookUrl(url, 'url', PUBLIC_AND_LOOPBACK), url).toBeUndefined();
    }
  });

  it('accepts private networks when allowed, and says how to allow them when not', () => {
    expect(checkWebhookUrl('http://10.0.0.1/', 'url', { allowPrivate: true })).toBeUndefined();
    expect(checkWebhookUrl('http://10.0.0.1/', 'url', PUBLIC_AND_LOOPBACK)?.message).toContain(
      '--allow-private-webhook-urls',
    );
  });
});

describe('checkWebhookUrl on a sandbox reachable from the network (no loopback)', () => {
  it.each([
    'http://127.0.0.1:8080/admin',
    'http://[::1]/',
    'http://[::7f00:1]/',
    'http://0x7f.1/',
    'http://localhost:9000/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses %s on url, naming the rule', (url) => {
    const error = checkWebhookUrl(url, 'url', PUBLIC_ONLY);
    expect(error?.param).toBe('url');
    expect(error?.message).toMatch(/^url must not point at \S+, this machine's loopback/);
  });

  it('still accepts public addresses and names', () => {
    expect(checkWebhookUrl('https://hooks.example.com/', 'url', PUBLIC_ONLY)).toBeUndefined();
    expect(checkWebhookUrl('http://93.184.215.14/', 'url', PUBLIC_ONLY)).toBeUndefined();
  });
});
