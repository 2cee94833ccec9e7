// The proxy and replay command lines: defaults, --report as check's --format, and every mistake an exit 2 naming the option before anything starts.
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import { parseTrafficCommand } from './args.js';

async function run(argv: string[]) {
  let stderr = '';
  let stdout = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: '/',
  });
  return { code, stderr, stdout };
}

describe('proxy and replay arguments', () => {
  it('parses proxy with its defaults and check-style reports', () => {
    expect(
      parseTrafficCommand(
        [
          'proxy',
          '--target',
          'http://127.0.0.1:4010/',
          '--report',
          'junit:out.xml',
          '--report',
          'text',
        ],
        {},
      ),
    ).toEqual({
      name: 'proxy',
      target: 'http://127.0.0.1:4010',
      host: '127.0.0.1',
      port: 4020,
      failOn: 'documented',
      reports: [{ format: 'junit', output: 'out.xml' }, { format: 'text' }],
      gate: { selection: {}, updateBaseline: false },
      recordMaxEntries: 10_000,
      maxBodyBytes: 1024 * 1024,
      upstreamTimeoutMs: 30_000,
      parentWatch: 'auto',
    });
  });

  it("takes check's gate flags (not --seed), the config file under them", () => {
    expect(
      parseTrafficCommand(
        ['replay', 'traffic.har', '--operation', 'createPayment', '--baseline', 'known.json'],
        {},
        { failOn: 'any', provenance: 'documented', baseline: 'other.json' },
      ),
    ).toMatchObject({
      failOn: 'any',
      gate: {
        selection: { operations: ['createPayment'], provenance: 'documented' },
        baseline: 'known.json',
        updateBaseline: false,
      },
    });
    expect(() => parseTrafficCommand(['replay', 'traffic.har', '--seed', '1'], {})).toThrow(
      /Unknown option '--seed'/,
    );
    expect(() => parseTrafficCommand(['replay', 'traffic.har', '--update-baseline'], {})).toThrow(
      /--update-baseline needs --baseline FILE/,
    );
  });

  it('parses replay with --spec', () => {
    expect(
      parseTrafficCommand(['replay', 'traffic.har', '--spec', 'next.yaml', '--fail-on', 'any'], {}),
    ).toEqual({
      name: 'replay',
      file: 'traffic.har',
      spec: 'next.yaml',
      failOn: 'any',
      reports: [{ format: 'text' }],
      gate: { selection: {}, updateBaseline: false },
    });
  });

  it.each([
    [['proxy'], /proxy needs --target URL/],
    [['proxy', '--target', 'ftp://x'], /--target must be an http\(s\) URL, not ftp:/],
    [['proxy', '--target', 'https://user:pw@sandbox.example'], /must carry no credentials/],
    [
      ['proxy', '--target', 'https://sandbox.example/x%5Fsk%5Ftest%5Fabcdefghij'],
      /must carry no credentials and no key/,
    ],
    [
      ['proxy', '--target', 'http://127.0.0.1:4010', '--port', '70000'],
      /--port must be a whole number from 0 to 65535/,
    ],
    [
      ['proxy', '--target', 'http://127.0.0.1:4010', '--spec', 'x.yaml'],
      /--spec belongs to replay, not proxy/,
    ],
    [['proxy', '--target', 'http://127.0.0.1:4010', '--report', 'pdf'], /--format must be one of/],
    [
      ['proxy', '--target', 'http://127.0.0.1:4010', '--report', 'text', '--report', 'json'],
      /only one report can go to stdout/,
    ],
    [
      ['proxy', '--target', 'http://127.0.0.1:4010', '--upstream-timeout', '0'],
      /--upstream-timeout must be a whole number from 1 to 3600000, not "0"/,
    ],
    [['replay'], /replay needs the recording/],
    [['replay', 'a.har', '--target', 'http://x'], /--target belongs to proxy, not replay/],
    [['replay', 'a.har', '--fail-on', 'sometimes'], /--fail-on must be one of/],
  ])('%j is exit 2 with a clear message', async (argv, message) => {
    const { code, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('pw');
  });

  it('prints help for each command', async () => {
    expect((await run(['proxy', '--help'])).stdout).toContain(
      'payment-service-contract proxy --target URL',
    );
    expect((await run(['help', 'replay'])).stdout).toContain(
      'payment-service-contract replay FILE.har',
    );
    expect((await run(['--help'])).stdout).toContain('SIGUSR2');
  });
});
