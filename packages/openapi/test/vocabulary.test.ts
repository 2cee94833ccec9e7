// The spec's vocabulary (error codes, test tokens) and every hand-written copy of it: the READMEs' tables must match.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readErrorCodes, readTestTokens } from '../scripts/vocabulary.mjs';
import { errorCodes, openapiDocument, testTokens } from '../src/index.js';

const root = resolve(import.meta.dirname, '../../..');
const readme = (path: string) => readFileSync(resolve(root, path), 'utf8');

/** The rows of every Markdown table in `text` whose first cell matches `firstCell`. */
function tableRows(text: string, firstCell: RegExp): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
    .filter((cells) => firstCell.test(cells[0] ?? ''));
}

describe('the test-token table', () => {
  const expected = testTokens.map((entry) => [`\`${entry.token}\``, entry.description]);

  it.each(['README.md', 'packages/mock/README.md'])('%s shows exactly the spec’s table', (path) => {
    const rows = tableRows(readme(path), /^`tok_test_/).map((cells) => cells.slice(0, 2));
    expect(rows).toEqual(expected);
  });

  it('the spec’s own overview table matches x-test-tokens', () => {
    const rows = tableRows(String(openapiDocument.info.description), /^`tok_test_/).map((cells) =>
      cells.slice(0, 2),
    );
    expect(rows).toEqual(expected);
  });
});

describe('the error-code table', () => {
  it('the root README lists every code under its status, and nothing else', () => {
    const listed = tableRows(readme('README.md'), /^(\d{3}|5xx)$/).flatMap(([status, codes]) =>
      [...(codes ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => `${match[1]} ${status}`),
    );
    const expected = Object.entries(errorCodes).map(
      ([code, { status }]) => `${code} ${status >= 500 ? '5xx' : status}`,
    );
    expect(listed.sort()).toEqual(expected.sort());
  });
});

describe('reading the vocabulary from a spec', () => {
  const spec = (errorCode: object, token: object = {}) => ({
    components: {
      schemas: {
        ErrorCode: errorCode,
        PaymentMethod: { properties: { token: { 'x-test-tokens': [token] } } },
      },
    },
  });

  it('refuses an enum and an x-error-codes table that differ, naming the codes', () => {
    expect(() =>
      readErrorCodes(
        spec({
          enum: ['not_found', 'gone'],
          'x-error-codes': { not_found: { status: 404, title: 'Not found', meaning: 'x' } },
        }),
      ),
    ).toThrow(/only in enum: gone/);
  });

  it('refuses a code without a 4xx/5xx status', () => {
    expect(() =>
      readErrorCodes(
        spec({ enum: ['ok'], 'x-error-codes': { ok: { status: 200, title: 'OK', meaning: 'x' } } }),
      ),
    ).toThrow(/x-error-codes.ok.status/);
  });

  it('refuses a token that is not tok_test_ and a half-given failure', () => {
    expect(() => readTestTokens(spec({}, { token: 'tok_live_x', description: 'x' }))).toThrow(
      /not a tok_test_ token/,
    );
    expect(() =>
      readTestTokens(
        spec({}, { token: 'tok_test_x', description: 'x', failure_code: 'card_declined' }),
      ),
    ).toThrow(/both failure_code and failure_message/);
  });
});
