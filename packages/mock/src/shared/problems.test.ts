import { describe, expect, it } from 'vitest';
import { invalidRequest } from '../http/respond.js';
import { MAX_LISTED_ERRORS, MAX_PROBLEM_BYTES, renderProblem } from './problems.js';

const fieldError = (index: number, text = `field ${index}`) => ({
  param: `f${index}`,
  code: 'unknown_field',
  message: `${text} is not a known field`,
});
const bytesOf = (text: string) => new TextEncoder().encode(text).length;

describe('renderProblem', () => {
  it('lists the first field problems and counts the rest, in errors and in the detail', () => {
    const errors = Array.from({ length: 25 }, (_, index) => fieldError(index));
    const body = JSON.parse(renderProblem(invalidRequest(errors), 'req_1').body);
    expect(MAX_LISTED_ERRORS).toBe(10);
    expect(body.errors).toHaveLength(10);
    expect(body.errors_omitted).toBe(15);
    expect(body.detail).toMatch(
      /^The request has 25 problems: field 0 is not a known field; .*; and 15 more\.$/,
    );
    expect(body.detail).not.toContain('field 10 ');
    expect(body.param).toBe('f0');
    expect(Object.keys(body).at(-1)).toBe('request_id');
  });

  it('says nothing of omitted problems when every one is listed', () => {
    const body = JSON.parse(
      renderProblem(invalidRequest([fieldError(1), fieldError(2)]), 'req_1').body,
    );
    expect(body.errors).toHaveLength(2);
    expect(body).not.toHaveProperty('errors_omitted');
  });

  it.each([
    ['multi-byte text', '€'.repeat(5000)],
    ['escaped control characters', '\u0001'.repeat(5000)],
    ['astral characters', '😀'.repeat(5000)],
  ])('stays within MAX_PROBLEM_BYTES when every member repeats %s', (_name, text) => {
    const errors = Array.from({ length: 40 }, (_, index) => ({
      param: text,
      code: 'unknown_field',
      message: `${text} ${index}`,
    }));
    const problem = { ...invalidRequest(errors), param: text, detail: text };
    const rendered = renderProblem(problem, 'req_1');
    expect(bytesOf(rendered.body)).toBeLessThanOrEqual(MAX_PROBLEM_BYTES);
    const body = JSON.parse(rendered.body);
    expect(body.errors.length + body.errors_omitted).toBe(40);
    expect(body.code).toBe('invalid_request');
  });

  it('masks secret keys in every text member', () => {
    const rendered = renderProblem(
      {
        code: 'invalid_request',
        detail: 'key sk_test_abcdefgh123 leaked',
        param: 'sk_test_abcdefgh123',
        errors: [
          { param: 'sk_live_abcdefgh', code: 'type', message: 'sk_test_zzzzzzzz9 is wrong' },
        ],
      },
      'req_1',
    );
    expect(rendered.body).not.toMatch(/sk_(test|live)_[a-z0-9]{3}/);
  });
});
