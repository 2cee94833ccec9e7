import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccountService } from '../service/account-service.js';
import type { MockEnv } from './env.js';
import { bindHandler, OperationInput } from './operation-input.js';
import type { HandlerInput } from './operations.js';

const service = {} as unknown as AccountService;

/** Runs `use` on the Hono context of one request to `path`, with `env` as the server's bindings. */
async function onRequest<T>(
  path: string,
  env: unknown,
  use: (c: Context<MockEnv>) => T,
): Promise<T> {
  const app = new Hono<MockEnv>();
  let result: { value: T } | undefined;
  app.get('*', (c) => {
    result = { value: use(c) };
    return c.body(null, 204);
  });
  await app.request(path, {}, env);
  if (result === undefined) throw new Error('no request');
  return result.value;
}

describe('OperationInput', () => {
  it('parses the query only when read, from the URL as sent', async () => {
    const query = await onRequest(
      '/v1/payments?limit=5&starting_after=pay_%31',
      undefined,
      (c) => new OperationInput(service, undefined, '', undefined, c).query,
    );
    expect(query.get('limit')).toBe('5');
    expect(query.get('starting_after')).toBe('pay_1');
  });

  it('has an empty query without a `?`, and a malformed one yields what it can', async () => {
    const empty = await onRequest('/v1/payments', undefined, (c) => [
      ...new OperationInput(service, undefined, '', undefined, c).query.keys(),
    ]);
    expect(empty).toEqual([]);
    const odd = await onRequest('/v1/payments?limit&=x&%zz=1', undefined, (c) =>
      new OperationInput(service, undefined, '', undefined, c).query.get('limit'),
    );
    expect(odd).toBe('');
  });

  it('says whether the caller is on this machine: in process or loopback, not a remote address', async () => {
    const caller = (env: unknown) =>
      onRequest(
        '/x',
        env,
        (c) => new OperationInput(service, undefined, '', undefined, c).callerOnThisMachine,
      );
    expect(await caller({ inProcess: true })).toBe(true);
    expect(await caller({ incoming: { socket: { remoteAddress: '127.0.0.1' } } })).toBe(true);
    expect(await caller({ incoming: { socket: { remoteAddress: '192.0.2.7' } } })).toBe(false);
    expect(await caller({ incoming: {} })).toBe(false);
  });
});

describe('bindHandler', () => {
  it('gives the handler the checked body with the request’s account, claim and id', async () => {
    let seen: HandlerInput<{ amount: number }> | undefined;
    const prepared = bindHandler(
      (input: HandlerInput<{ amount: number }>) => {
        seen = input;
        return { status: 200, body: input.body };
      },
      { amount: 7 },
    );
    const answer = await onRequest('/v1/payments/pay_1', undefined, (c) =>
      prepared(service, undefined, 'pay_1', c),
    );
    expect(answer).toEqual({ status: 200, body: { amount: 7 } });
    expect(seen?.service).toBe(service);
    expect(seen?.id).toBe('pay_1');
    expect(seen?.idempotency).toBeUndefined();
  });
});
