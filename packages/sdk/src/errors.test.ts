import { describe, expect, it, vi } from 'vitest';
import * as errors from './errors.js';

const {
  AbortedError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  NotFoundError,
  PaymentServiceError,
  RateLimitError,
  ServerError,
  TimeoutError,
} = errors;

const classes = [
  PaymentServiceError,
  InvalidRequestError,
  AuthenticationError,
  NotFoundError,
  ConflictError,
  IdempotencyError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  AbortedError,
];

describe('error classes', () => {
  it.each(classes.map((type) => [type.kind, type] as const))(
    '%s sets name and fields',
    (kind, type) => {
      const error = new type('message', { status: 400, code: 'some_code', param: 'amount' });
      expect(error.name).toBe(kind);
      expect(kind).toBe(type.name);
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(PaymentServiceError);
      expect(error).toBeInstanceOf(type);
      expect(error.code).toBe('some_code');
      expect(error.param).toBe('amount');
      expect(error.headers).toBeInstanceOf(Headers);
      expect(String(error.stack)).toContain(`${kind}: message`);
    },
  );

  it('does not treat sibling classes as instances of each other', () => {
    const error = new NotFoundError('gone', { status: 404, code: 'not_found' });
    for (const type of classes) {
      const expected = type === NotFoundError || type === PaymentServiceError;
      expect(error instanceof type).toBe(expected);
    }
    expect({} instanceof PaymentServiceError).toBe(false);
    expect((null as unknown) instanceof PaymentServiceError).toBe(false);
    expect(new Error('plain') instanceof PaymentServiceError).toBe(false);
  });

  it('recognises errors from a duplicated copy of the package', async () => {
    vi.resetModules();
    const copy: typeof errors = await import('./errors.js');
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = new copy.NotFoundError('gone', { status: 404, code: 'not_found' });
    expect(Object.getPrototypeOf(foreign)).not.toBe(NotFoundError.prototype);
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(PaymentServiceError);
    expect(foreign).not.toBeInstanceOf(ServerError);
    const local = new ServerError('down', { status: 500, code: 'internal_error' });
    expect(local).toBeInstanceOf(copy.ServerError);
    expect(local).toBeInstanceOf(copy.PaymentServiceError);
  });

  it('falls back to the prototype chain for user subclasses', () => {
    class PaymentGoneError extends NotFoundError {}
    const mine = new PaymentGoneError('gone', { status: 404, code: 'not_found' });
    const other = new NotFoundError('gone', { status: 404, code: 'not_found' });
    expect(mine).toBeInstanceOf(PaymentGoneError);
    expect(mine).toBeInstanceOf(NotFoundError);
    expect(other).not.toBeInstanceOf(PaymentGoneError);
  });

  it('keeps the cause and leaves status undefined for ConnectionError', () => {
    const cause = new TypeError('fetch failed');
    const error = new ConnectionError('connection_error: down', {
      code: 'connection_error',
      cause,
    });
    expect(error.status).toBeUndefined();
    expect(error.cause).toBe(cause);
    expect(error.attempts).toBe(1);
  });

  it('makes a TimeoutError a ConnectionError, and an AbortedError neither', () => {
    const timeout = new TimeoutError('timeout', { code: 'timeout', attempts: 3 });
    expect(timeout).toBeInstanceOf(ConnectionError);
    expect(timeout.attempts).toBe(3);
    const aborted = new AbortedError('aborted', { code: 'aborted' });
    expect(aborted).not.toBeInstanceOf(ConnectionError);
    expect(aborted).toBeInstanceOf(PaymentServiceError);
  });

  it('recognises the timeout and abort errors of a duplicated copy', async () => {
    vi.resetModules();
    const copy: typeof errors = await import('./errors.js');
    const foreign = new copy.TimeoutError('timeout', { code: 'timeout' });
    expect(foreign).toBeInstanceOf(TimeoutError);
    expect(foreign).toBeInstanceOf(ConnectionError);
    expect(foreign).not.toBeInstanceOf(AbortedError);
    expect(new copy.AbortedError('aborted', { code: 'aborted' })).toBeInstanceOf(AbortedError);
  });
});
