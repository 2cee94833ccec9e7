// Registers one Hono route per spec operation (method and path from the spec), plus 405 with Allow.
import type { Hono, MiddlewareHandler } from 'hono';
import type { BodyValidator, Checked } from '../shared/validation.js';
import type { MockEnv } from './env.js';
import type { BodyCheck, OperationId, PreparedHandler, Route, RouteTable } from './operations.js';
import { problem } from './respond.js';

/** A spec document's `paths`, as the generated document holds them. */
export interface SpecPaths {
  paths: Readonly<Record<string, object>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const bodyRequired = {
  ok: false,
  errors: [{ param: '', code: 'required', message: 'a JSON request body is required' }],
} as const;

/**
 * The body check of an operation whose request body is required.
 *
 * @example
 * const body = requiredBody(validators.validator('CreatePaymentRequest'));
 */
export function requiredBody<Body>(validate: BodyValidator<Body>): BodyCheck<Body> {
  return {
    readsBody: true,
    check: (body) =>
      body === undefined ? { ...bodyRequired, errors: [...bodyRequired.errors] } : validate(body),
  };
}

/**
 * The body check of an operation whose request body may be left out.
 *
 * @example
 * const body = optionalBody(validators.validator('CapturePaymentRequest'));
 */
export function optionalBody<Body>(validate: BodyValidator<Body>): BodyCheck<Body | undefined> {
  return {
    readsBody: true,
    check: (body): Checked<Body | undefined> =>
      body === undefined ? { ok: true, value: undefined } : validate(body),
  };
}

/** The body check of an operation that takes no body (a body sent is not read). */
export const noBody: BodyCheck<undefined> = {
  readsBody: false,
  check: () => ({ ok: true, value: undefined }),
};

/** The middleware of the steps between the router and the handler, per operation. */
export interface RouteSteps {
  /** Before the body is read (the key's faults). */
  before: MiddlewareHandler<MockEnv>[];
  /** Reads the body: size limit, media type, JSON. */
  readBody: MiddlewareHandler<MockEnv>;
  /** Checks the parsed body (and headers) and prepares the handler. */
  validate: MiddlewareHandler<MockEnv>;
  /** For POSTs: Idempotency-Key replay, and the stored answer. */
  idempotency: MiddlewareHandler<MockEnv> | undefined;
  /** Runs the prepared handler and answers. */
  run: MiddlewareHandler<MockEnv>;
}

/**
 * Adds a route for every operation of a spec document to a Hono app: `{id}` becomes `:id`, and
 * every other method on a known path answers 405 with `Allow`.
 *
 * @example
 * registerRoutes(app, openapiDocument, v1Routes, steps);
 */
export function registerRoutes<Operations, Paths>(
  app: Hono<MockEnv>,
  document: SpecPaths,
  table: RouteTable<Operations, Paths>,
  steps: RouteSteps,
): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const honoPath = path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
    const allowed: string[] = [];
    for (const method of METHODS) {
      const operation: unknown = Reflect.get(item, method);
      if (typeof operation !== 'object' || operation === null) continue;
      const id: unknown = Reflect.get(operation, 'operationId');
      if (!isOperationId(table, id)) {
        throw new Error(`No route handles operation ${String(id)} (${method} ${path}).`);
      }
      const route = erase(pick(table, id));
      const chain: MiddlewareHandler<MockEnv>[] = [...steps.before];
      if (route.readsBody) chain.push(steps.readBody);
      chain.push(prepare(route));
      // A route that reads no body and takes no Idempotency-Key has nothing left to validate.
      if (route.readsBody || method === 'post') chain.push(steps.validate);
      if (method === 'post' && steps.idempotency !== undefined) chain.push(steps.idempotency);
      chain.push(steps.run);
      app.on([method.toUpperCase()], [honoPath], ...chain);
      allowed.push(method.toUpperCase());
    }
    const allow = allowed.join(', ');
    const methodNotAllowed: MiddlewareHandler<MockEnv> = async (c) =>
      problem(c, {
        code: 'method_not_allowed',
        detail: `${c.req.method} is not allowed on this path; allowed: ${allow}.`,
        headers: { allow },
      });
    app.all(honoPath, methodNotAllowed);
  }
}

function isOperationId<Operations, Paths>(
  table: RouteTable<Operations, Paths>,
  id: unknown,
): id is OperationId<Operations, Paths> {
  return typeof id === 'string' && Object.hasOwn(table, id);
}

function pick<Operations, Paths, Id extends OperationId<Operations, Paths>>(
  table: RouteTable<Operations, Paths>,
  id: Id,
): Route<Operations[Id]> {
  return table[id];
}

/** A route whose body and answer types are settled: the checked body waits in a closure. */
interface ErasedRoute {
  readsBody: boolean;
  prepare(body: unknown): Checked<PreparedHandler>;
}

function erase<Operation>(route: Route<Operation>): ErasedRoute {
  return {
    readsBody: route.body.readsBody,
    prepare(raw) {
      const checked = route.body.check(raw);
      if (!checked.ok) return checked;
      const body = checked.value;
      // Not `{ ...input, body }`: spreading would call the `query` getter, parsing every query.
      return {
        ok: true,
        value: (input) =>
          route.handle({
            service: input.service,
            id: input.id,
            body,
            get query() {
              return input.query;
            },
          }),
      };
    },
  };
}

/** Checks the body against the operation's schema and leaves the prepared handler for `run`. */
function prepare(route: ErasedRoute): MiddlewareHandler<MockEnv> {
  return async (c, next) => {
    c.set('prepared', route.prepare(c.get('json')));
    await next();
  };
}
