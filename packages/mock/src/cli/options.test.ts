import { describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS } from '../server/limits.js';
import { HELP, readCli } from './options.js';

function settingsOf(args: string[], env: Record<string, string> = {}) {
  const request = readCli(args, env);
  if (request.kind !== 'serve')
    throw new Error(`expected settings, got ${JSON.stringify(request)}`);
  return request.settings;
}

function errorOf(args: string[], env: Record<string, string> = {}): string {
  const request = readCli(args, env);
  if (request.kind !== 'error') throw new Error(`expected an error, got ${request.kind}`);
  return request.message;
}

describe('readCli --allow-private-webhook-urls', () => {
  it('is off unless given', () => {
    expect(settingsOf([]).allowPrivateWebhookUrls).toBe(false);
    expect(settingsOf(['--allow-private-webhook-urls']).allowPrivateWebhookUrls).toBe(true);
  });
});

describe('readCli --allow-loopback-webhook-urls', () => {
  it('is left to the --host unless given', () => {
    expect(settingsOf([]).allowLoopbackWebhookUrls).toBeUndefined();
    expect(settingsOf(['--allow-loopback-webhook-urls']).allowLoopbackWebhookUrls).toBe(true);
  });
});

describe('readCli --allowed-hosts', () => {
  const allowed = (text: string) => {
    const request = readCli(['--allowed-hosts', text], {});
    return request.kind === 'serve' ? request.settings.allowedHosts : request;
  };
  it('reads names, subdomain entries and any', () => {
    expect(allowed('sandbox.test, .ci.internal')).toEqual(['sandbox.test', '.ci.internal']);
    expect(allowed('ANY')).toBe('any');
  });
  it('leaves the default to the listen address when not given', () => {
    const request = readCli([], {});
    expect(request.kind === 'serve' && request.settings.allowedHosts).toBeUndefined();
  });
});

describe('readCli', () => {
  it('defaults to 127.0.0.1:4010 and the documented HTTP limits', () => {
    expect(settingsOf([])).toMatchObject({
      port: 4010,
      portSource: 'the default',
      host: '127.0.0.1',
      settlementDelaySeconds: 5,
      http: DEFAULT_HTTP_LIMITS,
      quiet: false,
      readyJson: false,
    });
  });

  it('takes --ready-json', () => {
    expect(settingsOf(['--ready-json', '--port', '0'])).toMatchObject({ readyJson: true, port: 0 });
  });

  it('takes the port from --port before $PORT', () => {
    expect(settingsOf([], { PORT: '5000' })).toMatchObject({ port: 5000, portSource: '$PORT' });
    expect(settingsOf(['--port', '0'], { PORT: '5000' })).toMatchObject({
      port: 0,
      portSource: '--port',
    });
  });

  it('blames the variable or the flag that holds a bad port', () => {
    expect(errorOf([], { PORT: 'abc' })).toBe(
      '$PORT must be an integer from 0 to 65535; got "abc"',
    );
    expect(errorOf(['--port', '70000'])).toBe(
      '--port must be an integer from 0 to 65535; got "70000"',
    );
  });

  it('reads every HTTP limit and the memory budgets in MiB', () => {
    const settings = settingsOf([
      '--headers-timeout=1000',
      '--request-timeout=2000',
      '--keep-alive-timeout=3000',
      '--max-connections=50',
      '--max-pipelined=4',
      '--max-header-size=4096',
      '--max-unsent-bytes=65536',
      '--write-timeout=4000',
      '--memory-budget=64',
      '--key-memory-budget=8',
    ]);
    expect(settings.http).toEqual({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 3000,
      maxConnections: 50,
      maxPipelined: 4,
      maxHeaderBytes: 4096,
      maxUnsentBytes: 65_536,
      writeTimeoutMs: 4000,
    });
    expect(settings.memoryBudgetBytes).toBe(64 * 1024 * 1024);
    expect(settings.keyMemoryBudgetBytes).toBe(8 * 1024 * 1024);
  });

  it.each([
    [['--max-connections', '0'], '--max-connections must be an integer from 1'],
    [['--max-pipelined', '1.5'], '--max-pipelined must be an integer'],
    [['--max-header-size', '100'], '--max-header-size must be an integer from 1024'],
    [['--max-unsent-bytes', '100'], '--max-unsent-bytes must be an integer from 16384'],
    [['--allowed-hosts', 'http://x.test'], '--allowed-hosts takes host names without scheme'],
    [['--allowed-hosts', 'x.test:80'], '--allowed-hosts takes host names without scheme'],
    [['--allowed-hosts', ' , '], '--allowed-hosts needs at least one host name'],
    [['--memory-budget=-1'], '--memory-budget must be an integer'],
    [
      ['--headers-timeout', '20000'],
      '--headers-timeout (20000 ms) must not exceed --request-timeout (10000 ms)',
    ],
    [['--settlement-delay', 'soon'], '--settlement-delay must be a number'],
    [['--webhook-url', 'ftp://x'], '--webhook-url must be an absolute http:// or https:// URL'],
    [['--webhook-secret', 'whsec_abc'], '--webhook-secret needs --webhook-url'],
    [
      ['--webhook-url', 'http://127.0.0.1:3000/', '--webhook-secret', 'nope'],
      '--webhook-secret must be whsec_',
    ],
    [['--nope'], "Unknown option '--nope'"],
  ])('rejects %j naming the flag', (args, message) => {
    expect(errorOf(args)).toContain(message);
  });

  it('answers -h, --help, -v and --version', () => {
    expect(readCli(['-h'], {})).toEqual({ kind: 'help' });
    expect(readCli(['--help'], {})).toEqual({ kind: 'help' });
    expect(readCli(['-v'], {})).toEqual({ kind: 'version' });
    expect(readCli(['--version'], {})).toEqual({ kind: 'version' });
    for (const flag of ['-h, --help', '-v, --version', '--memory-budget', '--max-pipelined']) {
      expect(HELP).toContain(flag);
    }
  });
});
