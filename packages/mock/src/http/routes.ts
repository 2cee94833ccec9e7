// Registers one Hono route per spec operation (method and path from the spec), plus 405 with Allow.
import type { Hono } from 'hono';
import type { BodyValidator, Checked } from '../shared/validation.js';
import { alwaysAnswers } from './answering-router.js';
import type { MockEnv } from './env.js';
import { answerProblem, observed } from './exchange.js';
import { bindHandler } from './operation-input.js';
import type { BodyCheck, OperationId, PreparedHandler, Route, RouteTable } from './operations.js';
import { type OperationShape, operationPipeline, type PipelineContext } from './pipeline.js';

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

/**
 * Adds one route per operation of a spec document to a Hono app, each its own precomposed
 * pipeline (`operationPipeline`): `{id}` becomes `:id`, and every other method on a known path
 * answers 405 with `Allow`. An operation of the document without a route in `table` throws here
 * (and fails the typecheck of the table first).
 *
 * @example
 * registerRoutes(app, openapiDocument, v1Routes, { api: true, context });
 */
export function registerRoutes<Operations, Paths>(
  app: Hono<MockEnv>,
  document: SpecPaths,
  table: RouteTable<Operations, Paths>,
  options: { api: boolean; context: PipelineContext },
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
      const shape: OperationShape = {
        api: options.api,
        keyless: answersWithoutKey(operation),
        readsBody: route.readsBody,
        hasId: honoPath.includes(':id'),
        idNames: idNames(path),
        paymentId: options.api && path.startsWith('/v1/payments/{id}'),
        post: method === 'post',
        prepare: route.prepare,
      };
      app.on(
        [method.toUpperCase()],
        [honoPath],
        alwaysAnswers(operationPipeline(shape, options.context)),
      );
      allowed.push(method.toUpperCase());
    }
    const allow = allowed.join(', ');
    app.all(
      honoPath,
      observed(options.context.observer, (c, exchange) =>
        answerProblem(exchange, {
          code: 'method_not_allowed',
          detail: `${c.req.method} is not allowed on this path; allowed: ${allow}.`,
          headers: { allow },
        }),
      ),
    );
  }
}

/** Whether an operation's `security` lists no requirement among its options (`- {}`). */
function answersWithoutKey(operation: object): boolean {
  const security: unknown = Reflect.get(operation, 'security');
  return (
    Array.isArray(security) &&
    security.some(
      (option) => typeof option === 'object' && option !== null && Object.keys(option).length === 0,
    )
  );
}

/** What a path's `{id}` names, from the collection before it: `/v1/webhook_endpoints/{id}` → 'webhook endpoint'. */
function idNames(path: string): string {
  const collection = /\/([a-z_]+)\/\{id\}/.exec(path)?.[1] ?? 'object';
  return collection.replace(/_/g, ' ').replace(/s$/, '');
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
      return { ok: true, value: bindHandler(route.handle, checked.value) };
    },
  };
}
