// The mock's Hono router: Hono's own, with a match ending at the first route that always answers (an operation's pipeline).
import type { ParamIndexMap, ParamStash, Params, Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** The handlers that always answer (never call `next`): an operation's pipeline. */
const answering = new WeakSet<object>();

/**
 * Marks a route handler as one that always answers, never calling `next`: a match whose first
 * route it is ends there (see `AnsweringRouter`).
 *
 * @example
 * app.get('/v1/payments/:id', alwaysAnswers(operationPipeline(shape, context)));
 */
export function alwaysAnswers<Handler extends object>(handler: Handler): Handler {
  answering.add(handler);
  return handler;
}

/**
 * Hono's default router (`SmartRouter` over `RegExpRouter` and `TrieRouter`), whose match ends at
 * its first route when that route always answers (`alwaysAnswers`): the routes after it (the
 * path's 405, the catch-all 404) would never run, and a match of one route is served by Hono's
 * single-handler path, without composing the routes anew for every request (`compose`, with a
 * promise per route and an extra one around them). A match whose first route may call `next` (a
 * middleware, the console) is left whole.
 *
 * @example
 * const app = new Hono<MockEnv>({ router: new AnsweringRouter() });
 */
export class AnsweringRouter<T extends readonly [unknown, ...unknown[]]> implements Router<T> {
  readonly name = 'AnsweringRouter';

  constructor(
    private readonly inner: Router<T> = new SmartRouter<T>({
      routers: [new RegExpRouter<T>(), new TrieRouter<T>()],
    }),
  ) {}

  add(method: string, path: string, handler: T): void {
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const result = this.inner.match(method, path);
    const routes: readonly (readonly [T, ParamIndexMap | Params])[] = result[0];
    const first = routes[0];
    if (routes.length < 2 || first === undefined || !isAnswering(first[0][0])) return result;
    return result.length === 1
      ? [[first as [T, Params]]]
      : [[first as [T, ParamIndexMap]], result[1] as ParamStash];
  }
}

function isAnswering(handler: unknown): boolean {
  return typeof handler === 'function' && answering.has(handler);
}
