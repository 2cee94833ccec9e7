// A config file is refused for a key it holds, never for a word that only looks like a glued one.
import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('parseConfig and keys', () => {
  it.each([
    [{ baseline: 'baselines/desk_live_dashboard.json' }],
    [{ baseline: 'risk_test_baseline.json' }],
    [{ reports: [{ format: 'junit', output: 'reports/task_test_overnight.xml' }] }],
    [{ webhookUrl: 'http://127.0.0.1:4000/hooks/kiosk_live_terminal1' }],
  ])('accepts a word that ends in sk before _test_ or _live_: %j', (config) => {
    expect(() => parseConfig(config)).not.toThrow();
  });

  it.each([
    [{ baseline: 'sk_live_abcdefghijklmnopqrstu.json' }, 'config.baseline'],
    [{ baseline: 'keys/x_sk_test_abcdefghijklmnopqrstu' }, 'config.baseline'],
    [{ baseline: 'keys/1sk_live_abcdefghijklmnopqrstu' }, 'config.baseline'],
    [{ webhookUrl: 'http://127.0.0.1:4000/?k=sk%5Flive%5Fabcdefghijkl' }, 'config.webhookUrl'],
  ])('refuses a key standing alone, or glued after _ or a digit: %j', (config, field) => {
    expect(() => parseConfig(config)).toThrow(`${field}: holds a secret key (sk_…)`);
  });
});
