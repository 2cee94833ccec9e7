// The command line's bad inputs each get a clear usage error (exit 2); good ones parse, with the environment as fallback.
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { parseCommand } from './args.js';

const base = ['check', '--base-url', 'http://127.0.0.1:4010', '--key', 'sk_test_cli_args'];

describe('parseCommand', () => {
  it('parses check, with PAYMENT_SERVICE_BASE_URL and PAYMENT_SERVICE_API_KEY as fallbacks', () => {
    expect(
      parseCommand(['check'], {
        PAYMENT_SERVICE_BASE_URL: 'http://h',
        PAYMENT_SERVICE_API_KEY: 'sk_test_from_env',
      }),
    ).toMatchObject({
      name: 'check',
      baseUrl: 'http://h',
      apiKey: 'sk_test_from_env',
      failOn: 'documented',
      reports: [{ format: 'text' }],
    });
    expect(
      parseCommand([...base, '--rate', '5', '--timeout', '2', '--max-requests', '50'], {}),
    ).toMatchObject({ rate: 5, timeoutMs: 2000, maxRequests: 50 });
  });

  it('pairs each --output with the --format before it, and takes --format FORMAT:FILE', () => {
    const command = parseCommand(
      [
        ...base,
        '--format',
        'junit',
        '--output',
        'report.xml',
        '--format',
        'markdown:summary.md',
        '--format',
        'github',
      ],
      {},
    );
    expect(command).toMatchObject({
      reports: [
        { format: 'junit', output: 'report.xml' },
        { format: 'markdown', output: 'summary.md' },
        { format: 'github' },
      ],
    });
  });

  it('reads --deadline in minutes, and refuses one that is not a positive number', () => {
    expect(parseCommand([...base, '--deadline', '2.5'], {})).toMatchObject({ deadlineMs: 150_000 });
    expect(() => parseCommand([...base, '--deadline', '0'], {})).toThrow(
      /--deadline must be a positive number, not "0"/,
    );
  });

  it('reads help, version and list', () => {
    expect(parseCommand([], {})).toEqual({ name: 'help' });
    expect(parseCommand(['check', '--help'], {})).toEqual({ name: 'help', topic: 'check' });
    expect(parseCommand(['--version'], {})).toEqual({ name: 'version' });
    expect(parseCommand(['list', '--format', 'json'], {})).toEqual({
      name: 'list',
      format: 'json',
      selection: {},
    });
  });

  it.each([
    [['check', '--key', 'sk_test_x'], /no target: pass --base-url/],
    [[...base, '--format', 'pdf'], /--format must be one of text, junit, markdown, json, github/],
    [[...base, '--format', 'json', '--format', 'text'], /only one report can go to stdout/],
    [[...base, '--format', 'junit:a.xml', '--output', 'b.xml'], /already has a file/],
    [
      [...base, '--fail-on', 'sometimes'],
      /--fail-on must be one of documented, inferred, any, none/,
    ],
    [[...base, '--rate', 'fast'], /--rate must be a positive number/],
    [[...base, '--rate', '0'], /--rate must be a positive number/],
    [[...base, '--max-requests', ''], /--max-requests must be a positive number/],
    [[...base, '--bogus'], /Unknown option '--bogus'/],
    [[...base, 'extra'], /unexpected argument "extra"/],
    [['deploy'], /unknown command "deploy"/],
    [[...base, '--against', 'http://m'], /--against belongs to compare/],
    [['compare', '--base-url', 'http://h', '--key', 'sk_test_x'], /compare needs --against/],
    [
      ['compare', '--base-url', 'http://h', '--key', 'sk_test_x', '--against', 'http://m'].concat(
        '--format',
        'junit',
        '--output',
        'd.xml',
      ),
      /compare writes one report: --format text, markdown, json/,
    ],
    [
      ['compare', '--base-url', 'http://h', '--key', 'sk_test_x', '--against', 'http://m'].concat(
        '--format',
        'json:a.json',
        '--format',
        'markdown:b.md',
      ),
      /compare writes one report/,
    ],
    [['list', '--format', 'junit'], /list --format is text or json/],
  ])('refuses %j', (argv, message) => {
    const error = (() => {
      try {
        parseCommand(argv as string[], {});
      } catch (caught) {
        return caught as ConfigurationError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toMatch(message);
  });
});
