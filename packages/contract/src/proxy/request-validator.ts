// Checks one request an app sent against the spec: a declared route, the key's form, the declared parameters and the body's schema, each failure tied to the spec element the app broke.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../runner/json-depth.js';
import { type ElementRef, locateElement, nodeAt, pointerToken } from '../spec/elements.js';
import {
  findOperation,
  indexOperations,
  type OperationEntry,
  type SpecDocument,
  type SpecName,
} from '../spec/spec-index.js';
import type { SchemaCheck, SchemaViolation } from '../validation/response-validator.js';

/** A request as the proxy saw it (or a recording holds it). */
export interface RequestFacts {
  method: string;
  /** The path, without the query. */
  path: string;
  /** The query string's parameters, in order. */
  query: Array<[string, string]>;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
  /** The body as text; undefined when the request had none. */
  body: string | undefined;
  /** The body was not kept whole (over the cap): its checks are not run. */
  bodyUnread?: boolean;
}

/** The outcome of checking one request: the operation it exercised, every check it ran and what it broke. */
export interface RequestResult {
  /** The spec's operationId, or `undeclared`. */
  operation: string;
  checks: SchemaCheck[];
  violations: SchemaViolation[];
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The element every `Authorization` check enforces: the bearer scheme (documented, §5). */
const BEARER: ElementRef = { pointer: '/components/securitySchemes/bearerAuth' };
const UNDECLARED: ElementRef = { pointer: '/components/responses/NotFound' };
const AUTHORIZATION_CHECK: SchemaCheck = {
  id: 'request.header.Authorization',
  title: 'your request: Authorization: Bearer with a secret key (sk_…)',
  element: BEARER,
};
const UNDECLARED_CHECK: SchemaCheck = {
  id: 'request.route.undeclared',
  title: 'your request: a method and path the spec declares',
  element: UNDECLARED,
};

type Node = Record<string, unknown>;

/** What an Ajv error expected, in words. */
function expectation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `required field ${String(params.missingProperty)}`;
  if (error.keyword === 'enum')
    return `one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
  if (error.keyword === 'additionalProperties')
    return `no field ${String(params.additionalProperty)} (the spec allows no other fields)`;
  return error.message ?? error.keyword;
}

/** A value quoted for a message, short. */
function quote(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * Builds a checker of requests against the spec documents (the same ones the answers are checked
 * against); Ajv compiles each schema once, on first use.
 *
 * @example
 * const validator = createRequestValidator(specDocuments);
 * validator.check({ method: 'POST', path: '/v1/payments', query: [], headers, body: '{"amount":-1}' }).violations;
 * // [{ id: 'request.schema.CreatePaymentRequest.amount', … }]
 */
export function createRequestValidator(documents: Record<SpecName, SpecDocument>) {
  const operations = indexOperations(documents);
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  const coercing = new Ajv2020({ strict: false, coerceTypes: true });
  for (const instance of [ajv, coercing]) {
    addFormats(instance);
    for (const [name, document] of Object.entries(documents)) instance.addSchema(document, name);
  }
  const compiled = new Map<string, ValidateFunction>();
  const listed = new Map<string, SchemaCheck[]>();

  function resolve(spec: SpecName, pointer: string): string {
    let current = pointer;
    for (let depth = 0; depth < 10; depth++) {
      const ref = nodeAt(documents[spec], current)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) break;
      current = ref.slice(1);
    }
    return current;
  }

  function compile(instance: Ajv2020, key: string, schema: object): ValidateFunction {
    let validate = compiled.get(key);
    if (!validate) {
      validate = instance.compile(schema);
      compiled.set(key, validate);
    }
    return validate;
  }

  /** Every element of a request body's schema, as `request.schema.<name>` checks, down to four levels. */
  function bodyElements(spec: SpecName, schemaPointer: string): SchemaCheck[] {
    const key = `${spec}#${schemaPointer}`;
    const cached = listed.get(key);
    if (cached) return cached;
    const checks: SchemaCheck[] = [];
    const seen = new Set<string>();
    const visit = (path: string[]) => {
      const located = locateElement(documents[spec], schemaPointer, path);
      const id = `request.schema.${located.name}`;
      if (seen.has(id) || path.length > 4) return;
      seen.add(id);
      checks.push({
        id,
        title: `your request: ${located.name} as the spec declares it`,
        element: { spec, pointer: located.pointer },
      });
      const node = nodeAt(documents[spec], resolve(spec, located.pointer));
      for (const name of Object.keys((node?.properties ?? {}) as Node)) visit([...path, name]);
    };
    visit([]);
    listed.set(key, checks);
    return checks;
  }

  const operationPointer = (operation: OperationEntry) =>
    `/paths/${pointerToken(operation.pathTemplate)}/${operation.method.toLowerCase()}`;

  /** The declared parameters of an operation (its own and its path's), as pointers to their resolved nodes. */
  function parametersOf(operation: OperationEntry): Array<{ pointer: string; node: Node }> {
    const spec = operation.spec;
    const lists = [operationPointer(operation), `/paths/${pointerToken(operation.pathTemplate)}`];
    const seen = new Set<string>();
    const parameters: Array<{ pointer: string; node: Node }> = [];
    for (const owner of lists) {
      const list = nodeAt(documents[spec], owner)?.parameters;
      if (!Array.isArray(list)) continue;
      for (const index of list.keys()) {
        const pointer = resolve(spec, `${owner}/parameters/${index}`);
        const node = nodeAt(documents[spec], pointer);
        const name = `${String(node?.in)}:${String(node?.name).toLowerCase()}`;
        if (!node || seen.has(name)) continue;
        seen.add(name);
        parameters.push({ pointer, node });
      }
    }
    return parameters;
  }

  function needsKey(operation: OperationEntry): boolean {
    const own = nodeAt(documents[operation.spec], operationPointer(operation))?.security;
    const global = (documents[operation.spec] as Node).security;
    const security = Array.isArray(own) ? own : global;
    // An empty requirement among the options (`- {}`) makes the key optional.
    return (
      Array.isArray(security) &&
      security.length > 0 &&
      !security.some(
        (option) =>
          typeof option === 'object' && option !== null && Object.keys(option).length === 0,
      )
    );
  }

  const parameterCheck = (
    spec: SpecName,
    pointer: string,
    where: 'query' | 'header',
    name: string,
  ): SchemaCheck => ({
    id: `request.${where}.${name}`,
    title: `your request: the ${where} parameter ${name}, when sent, is valid`,
    element: { spec, pointer },
  });

  /** An operation's declared request body: its pointer, node and the `request.body` check; undefined without one. */
  function bodyOf(operation: OperationEntry) {
    const spec = operation.spec;
    const declared = `${operationPointer(operation)}/requestBody`;
    const pointer = resolve(spec, declared);
    const node = nodeAt(documents[spec], pointer);
    if (!node) return undefined;
    const mediaTypes = Object.keys((node.content ?? {}) as Node);
    const check: SchemaCheck = {
      id: 'request.body',
      title: `your request: a body of ${mediaTypes.join(' or ')} that parses${node.required === true ? ' (required)' : ''}`,
      element: { spec, pointer: declared },
    };
    return { pointer, node, mediaTypes, check };
  }

  function checkParameters(
    operation: OperationEntry,
    request: RequestFacts,
    checks: SchemaCheck[],
    violations: SchemaViolation[],
  ) {
    const spec = operation.spec;
    for (const { pointer, node } of parametersOf(operation)) {
      const where = node.in;
      if (where !== 'query' && where !== 'header') continue;
      const name = String(node.name);
      const check = parameterCheck(spec, pointer, where, name);
      checks.push(check);
      const value =
        where === 'query'
          ? request.query.find(([key]) => key === name)?.[1]
          : request.headers[name.toLowerCase()];
      if (value === undefined) {
        if (node.required === true)
          violations.push({
            ...check,
            expected: `the ${where} parameter ${name}`,
            actual: 'absent',
          });
        continue;
      }
      if (!node.schema) continue;
      const validate = compile(coercing, `param:${spec}#${pointer}`, {
        type: 'object',
        properties: { value: { $ref: `${spec}#${pointer}/schema` } },
      });
      if (!validate({ value })) {
        const error = validate.errors?.[0] as ErrorObject;
        violations.push({
          ...check,
          expected: `${name}: ${expectation(error)}`,
          actual: quote(value),
        });
      }
    }
  }

  function checkBody(
    operation: OperationEntry,
    request: RequestFacts,
    checks: SchemaCheck[],
    violations: SchemaViolation[],
  ) {
    const spec = operation.spec;
    const body = bodyOf(operation);
    if (!body) return;
    const { pointer, node, mediaTypes, check: bodyCheck } = body;
    if (request.bodyUnread) return;
    checks.push(bodyCheck);
    const text = request.body;
    if (text === undefined || text === '') {
      if (node.required === true)
        violations.push({
          ...bodyCheck,
          expected: `a ${mediaTypes.join(' or ')} body`,
          actual: 'no body',
        });
      return;
    }
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (!mediaType || !mediaTypes.includes(mediaType)) {
      violations.push({
        ...bodyCheck,
        expected: `Content-Type ${mediaTypes.join(' or ')}`,
        actual: mediaType ? `Content-Type ${quote(mediaType)}` : 'no Content-Type',
      });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      violations.push({ ...bodyCheck, expected: 'a JSON body', actual: quote(text.slice(0, 80)) });
      return;
    }
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
      violations.push({
        ...bodyCheck,
        expected: `a JSON body nested at most ${MAX_JSON_DEPTH} levels deep`,
        actual: `a body nested deeper than ${MAX_JSON_DEPTH} levels (not read further)`,
      });
      return;
    }
    const schemaPointer = `${pointer}/content/${pointerToken(mediaType)}/schema`;
    const validate = compile(ajv, `body:${spec}#${schemaPointer}`, {
      $ref: `${spec}#${schemaPointer}`,
    });
    checks.push(...bodyElements(spec, schemaPointer));
    if (validate(parsed)) return;
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      if (['oneOf', 'anyOf', 'if'].includes(error.keyword)) continue;
      const path = error.instancePath
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      if (error.keyword === 'required' && missing) path.push(missing);
      const located = locateElement(documents[spec], schemaPointer, path);
      const actual =
        error.keyword === 'required'
          ? `${missing} is absent`
          : error.keyword === 'additionalProperties'
            ? `a field ${quote((error.params as { additionalProperty?: string }).additionalProperty)}`
            : quote(error.data);
      const key = `${located.name}|${error.keyword}|${actual}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const check: SchemaCheck = {
        id: `request.schema.${located.name}`,
        title: `your request: ${located.name} as the spec declares it`,
        element: { spec, pointer: located.pointer },
      };
      violations.push({
        ...check,
        expected: `${error.instancePath || 'the body'}: ${expectation(error)}`,
        actual,
      });
    }
  }

  return {
    operations,
    /**
     * Every check a request can be held to, by operation: the key, the declared query and header
     * parameters, the body and its elements (and `request.route.undeclared` under `routes`); what
     * `--operation`, `--check` and `--exclude` of `proxy` and `replay` are checked against.
     *
     * @example
     * validator.declaredChecks().some((check) => check.id === 'request.schema.CreatePaymentRequest.amount'); // true
     */
    declaredChecks(): Array<SchemaCheck & { operation: string }> {
      const all: Array<SchemaCheck & { operation: string }> = [];
      for (const operation of operations) {
        const spec = operation.spec;
        const checks: SchemaCheck[] = needsKey(operation) ? [AUTHORIZATION_CHECK] : [];
        for (const { pointer, node } of parametersOf(operation))
          if (node.in === 'query' || node.in === 'header')
            checks.push(parameterCheck(spec, pointer, node.in, String(node.name)));
        const body = bodyOf(operation);
        if (body) {
          checks.push(body.check);
          for (const mediaType of body.mediaTypes)
            checks.push(
              ...bodyElements(spec, `${body.pointer}/content/${pointerToken(mediaType)}/schema`),
            );
        }
        for (const check of checks) all.push({ ...check, operation: operation.operationId });
      }
      all.push({ ...UNDECLARED_CHECK, operation: 'routes' });
      return all;
    },
    /**
     * Checks one request: the route is declared, the key is a bearer secret key, the declared
     * query and header parameters are valid, and the body matches the operation's schema.
     *
     * @example
     * validator.check(request).violations.length === 0;
     */
    check(request: RequestFacts): RequestResult {
      const operation = findOperation(operations, request.method, request.path);
      if (!operation) {
        return {
          operation: 'undeclared',
          checks: [UNDECLARED_CHECK],
          violations: [
            {
              ...UNDECLARED_CHECK,
              expected: 'a route of the spec',
              actual: `${request.method} ${request.path} is not in the spec`,
            },
          ],
        };
      }
      const checks: SchemaCheck[] = [];
      const violations: SchemaViolation[] = [];
      if (needsKey(operation)) {
        const check = AUTHORIZATION_CHECK;
        checks.push(check);
        const value = request.headers.authorization;
        if (value === undefined || !/^Bearer sk_\S+$/.test(value)) {
          violations.push({
            ...check,
            expected: 'Authorization: Bearer sk_…',
            // Never the value itself: it may be a key.
            actual: value === undefined ? 'absent' : 'not a Bearer secret key (value not shown)',
          });
        }
      }
      checkParameters(operation, request, checks, violations);
      checkBody(operation, request, checks, violations);
      return { operation: operation.operationId, checks, violations };
    },
  };
}

/** The validator type, for modules that receive one. */
export type RequestValidator = ReturnType<typeof createRequestValidator>;
