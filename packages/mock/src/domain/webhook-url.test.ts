import { describe, expect, it } from 'vitest';
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
