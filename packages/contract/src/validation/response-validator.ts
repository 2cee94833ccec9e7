// Checks one HTTP exchange against the spec: declared status, content type, headers and body, each as a named check on the spec element it enforces.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../runner/json-depth.js';
import { type ElementRef, locateElement, nodeAt, pointerToken } from '../spec/elements.js';
import {
  declaredStatusKey,
  findOperation,
  indexOperations,
  type OperationEntry,
  type SpecDocument,
  type SpecName,
  specDocuments,
} from '../spec/spec-index.js';

/** One request and its response, as the checks see them. */
export interface Exchange {
  method: string;
  /** The URL's path, without query. */
  path: string;
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** The response body as text. */
  body: string;
}

/** A check an exchange exercised: its id and the spec element it enforces. */
export interface SchemaCheck {
  /** `status.success`, `status.error`, `content-type`, `header.Request-Id`, `schema.Payment.created_at`, `route.undeclared`. */
  id: string;
  title: string;
  element: ElementRef;
}

/** A schema check an exchange broke: what the spec expects and what came back. */
export interface SchemaViolation extends SchemaCheck {
  expected: string;
  actual: string;
}

/** The outcome of checking one exchange. */
export interface ExchangeResult {
  /** The spec's operationId, or `undeclared` for a route the spec does not have. */
  operation: string;
  spec: SpecName | undefined;
  /** The declared response key the status fell under (`201`, `2XX`, `400`), if any. */
  statusKey: string | undefined;
  /** Every schema check this exchange exercised, broken or not. */
  checks: SchemaCheck[];
  violations: SchemaViolation[];
}

/** What the caller already knows of the body: `tooDeep` when it nests past MAX_JSON_DEPTH (then it is not read again). */
export interface BodyFacts {
  tooDeep?: boolean;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** How deep the body's elements are listed as checks (a payment inside a list inside a page is depth 3). */
const MAX_DEPTH = 4;

const ERROR_MODEL: ElementRef = { pointer: '/components/schemas/Problem' };
const UNDECLARED_ROUTE: ElementRef = { pointer: '/components/responses/NotFound' };

/** Shortens a value for a message. */
function excerpt(value: unknown, limit = 120): string {
  const text =
    value === undefined
      ? '(absent)'
      : typeof value === 'string' && value.length > limit
        ? JSON.stringify(value.slice(0, limit))
        : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function expectationOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `required field ${String(params.missingProperty)}`;
    case 'enum':
      return `one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `exactly ${JSON.stringify(params.allowedValue)}`;
    case 'pattern':
      return `a string matching ${String(params.pattern)}`;
    case 'format':
      return `a ${String(params.format)} string`;
    case 'type':
      return `a value of type ${String(params.type)}`;
    default:
      return error.message ?? error.keyword;
  }
}

/** The validator of the kit's own spec documents, built by the first call that asks for it. */
let specValidator: ResponseValidator | undefined;

/**
 * A validator of exchanges against the spec documents; Ajv compiles each schema once. The kit's
 * own documents (the default) get one validator per process, shared by every run (it holds only
 * what it compiled and listed: compiling the schemas was about 0.4 of a contract check's 0.9
 * CPU-s); other documents get a validator of their own.
 *
 * @example
 * const validator = createResponseValidator();
 * const result = validator.check({ method: 'POST', path: '/v1/payments', status: 201, headers, body });
 * result.violations; // [] when the response honours the spec
 */
export function createResponseValidator(
  documents: Record<SpecName, SpecDocument> = specDocuments,
): ResponseValidator {
  if (documents !== specDocuments) return buildResponseValidator(documents);
  specValidator ??= buildResponseValidator(specDocuments);
  return specValidator;
}

function buildResponseValidator(documents: Record<SpecName, SpecDocument>) {
  const operations = indexOperations(documents);
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv);
  for (const [name, document] of Object.entries(documents)) ajv.addSchema(document, name);
  const compiled = new Map<string, ValidateFunction>();
  const listed = new Map<string, SchemaCheck[]>();

  function resolvePointer(spec: SpecName, pointer: string): string {
    let current = pointer;
    for (let depth = 0; depth < 10; depth++) {
      const ref = nodeAt(documents[spec], current)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#')) break;
      current = ref.slice(1);
    }
    return current;
  }

  function validatorFor(spec: SpecName, pointer: string): ValidateFunction {
    const key = `${spec}#${pointer}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: key });
      compiled.set(key, validate);
    }
    return validate;
  }

  /** Every element of a body schema, as `schema.<name>` checks, down to MAX_DEPTH. */
  function bodyChecks(spec: SpecName, schemaPointer: string): SchemaCheck[] {
    const checks: SchemaCheck[] = [];
    const seen = new Set<string>();
    const visit = (pointer: string, path: string[]) => {
      const { pointer: at, name } = locateElement(documents[spec], schemaPointer, path);
      const id = `schema.${name}`;
      if (seen.has(id) || path.length > MAX_DEPTH) return;
      seen.add(id);
      checks.push({ id, title: `${name} as the spec declares it`, element: { spec, pointer: at } });
      const node = nodeAt(documents[spec], resolvePointer(spec, pointer));
      const properties = node?.properties as Record<string, unknown> | undefined;
      for (const key of Object.keys(properties ?? {})) {
        visit(`${resolvePointer(spec, pointer)}/properties/${pointerToken(key)}`, [...path, key]);
      }
      if (node?.items && typeof node.items === 'object') {
        visit(`${resolvePointer(spec, pointer)}/items`, [...path, '0']);
      }
    };
    visit(schemaPointer, []);
    return checks;
  }

  /** The response element of an operation's status key, and its declared headers and media types. */
  function responseOf(operation: OperationEntry, statusKey: string) {
    const spec = operation.spec;
    const declared = `/paths/${pointerToken(operation.pathTemplate)}/${operation.method.toLowerCase()}/responses/${pointerToken(statusKey)}`;
    const resolved = resolvePointer(spec, declared);
    const node = nodeAt(documents[spec], resolved) ?? {};
    return { declared, resolved, node };
  }

  function checksFor(operation: OperationEntry, statusKey: string): SchemaCheck[] {
    const key = `${operation.spec}:${operation.operationId}:${statusKey}`;
    const cached = listed.get(key);
    if (cached) return cached;
    const spec = operation.spec;
    const { declared, resolved, node } = responseOf(operation, statusKey);
    const checks: SchemaCheck[] = [statusCheck(operation, statusKey)];
    const content = (node.content ?? {}) as Record<string, unknown>;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length > 0) {
      checks.push({
        id: 'content-type',
        title: `answers ${mediaTypes.join(' or ')} with a body that parses`,
        element: { spec, pointer: declared },
      });
      for (const mediaType of mediaTypes) {
        checks.push(...bodyChecks(spec, `${resolved}/content/${pointerToken(mediaType)}/schema`));
      }
    }
    for (const name of Object.keys((node.headers ?? {}) as Record<string, unknown>)) {
      const pointer = resolvePointer(spec, `${resolved}/headers/${pointerToken(name)}`);
      const header = nodeAt(documents[spec], pointer);
      checks.push({
        id: `header.${name}`,
        title: header?.required
          ? `sends the ${name} header`
          : `a ${name} header, when sent, is valid`,
        element: { spec, pointer },
      });
    }
    listed.set(key, checks);
    return checks;
  }

  function statusCheck(operation: OperationEntry, statusKey: string): SchemaCheck {
    const success = /^2/.test(statusKey);
    if (!success) {
      return {
        id: 'status.error',
        title: `answers an error status the spec declares (${operation.statusKeys.filter((key) => !key.startsWith('2')).join(', ')})`,
        element: { ...ERROR_MODEL, spec: 'openapi' },
      };
    }
    return {
      id: 'status.success',
      title: `answers success with ${statusKey}`,
      element: {
        spec: operation.spec,
        pointer: responseOf(operation, statusKey).declared,
        facet: 'status',
      },
    };
  }

  function schemaViolations(
    spec: SpecName,
    schemaPointer: string,
    value: unknown,
  ): SchemaViolation[] {
    const validate = validatorFor(spec, schemaPointer);
    if (validate(value)) return [];
    const violations: SchemaViolation[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      // A failed oneOf/anyOf also reports each branch: keep the branch errors, which say what broke.
      if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if')
        continue;
      const path = error.instancePath
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      if (error.keyword === 'required' && missing) path.push(missing);
      const { pointer, name } = locateElement(documents[spec], schemaPointer, path);
      const actual = error.keyword === 'required' ? `${missing} is absent` : excerpt(error.data);
      const dedupe = `${name}|${error.keyword}|${actual}`;
      if (seen.has(dedupe)) continue;
      seen.add(dedupe);
      violations.push({
        id: `schema.${name}`,
        title: `${name} as the spec declares it`,
        element: { spec, pointer },
        expected: `${error.instancePath || 'the body'}: ${expectationOf(error)}`,
        actual,
      });
    }
    return violations;
  }

  function checkUndeclared(exchange: Exchange): ExchangeResult {
    const check: SchemaCheck = {
      id: 'route.undeclared',
      title:
        'a route outside the spec answers 404 not_found or 405 (with Allow), as problem+json with a Request-Id',
      element: UNDECLARED_ROUTE,
    };
    const problems: string[] = [];
    if (![401, 404, 405].includes(exchange.status)) problems.push(`status ${exchange.status}`);
    if (exchange.status === 405 && !exchange.headers.allow) problems.push('405 without Allow');
    if (!exchange.headers['request-id']) problems.push('no Request-Id header');
    const type = exchange.headers['content-type'] ?? '(none)';
    if (!type.startsWith('application/problem+json')) problems.push(`content type ${type}`);
    return {
      operation: 'undeclared',
      spec: undefined,
      statusKey: undefined,
      checks: [check],
      violations:
        problems.length === 0
          ? []
          : [
              {
                ...check,
                expected: '401, 404 or 405 problem+json with Request-Id',
                actual: problems.join(', '),
              },
            ],
    };
  }

  function checkDeclared(
    exchange: Exchange,
    operation: OperationEntry,
    statusKey: string,
    body: BodyFacts,
  ) {
    const spec = operation.spec;
    const violations: SchemaViolation[] = [];
    const checks = checksFor(operation, statusKey);
    const { resolved, node } = responseOf(operation, statusKey);
    for (const check of checks.filter((item) => item.id.startsWith('header.'))) {
      const name = check.id.slice('header.'.length);
      const header = nodeAt(documents[spec], check.element.pointer);
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header?.required)
          violations.push({ ...check, expected: `a ${name} header`, actual: 'absent' });
        continue;
      }
      const schema = validatorFor(spec, `${check.element.pointer}/schema`);
      if (!schema(value)) {
        violations.push({
          ...check,
          expected: `${name}: ${expectationOf(schema.errors?.[0] as ErrorObject)}`,
          actual: excerpt(value),
        });
      }
    }
    const content = (node.content ?? {}) as Record<string, unknown>;
    const declaredTypes = Object.keys(content);
    if (declaredTypes.length === 0) return { checks, violations };
    const contentCheck = checks.find((check) => check.id === 'content-type') as SchemaCheck;
    const mediaType = (exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (!mediaType || !declaredTypes.includes(mediaType)) {
      violations.push({
        ...contentCheck,
        expected: declaredTypes.join(' or '),
        actual: mediaType || '(no Content-Type)',
      });
      return { checks, violations };
    }
    if (body.tooDeep) {
      violations.push({
        ...contentCheck,
        expected: `a JSON body nested at most ${MAX_JSON_DEPTH} levels deep`,
        actual: `a body nested deeper than ${MAX_JSON_DEPTH} levels (not read further)`,
      });
      return { checks, violations };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(exchange.body);
    } catch {
      violations.push({
        ...contentCheck,
        expected: 'a JSON body',
        actual: excerpt(exchange.body.slice(0, 80)),
      });
      return { checks, violations };
    }
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
      violations.push({
        ...contentCheck,
        expected: `a JSON body nested at most ${MAX_JSON_DEPTH} levels deep`,
        actual: `a body nested deeper than ${MAX_JSON_DEPTH} levels (not read further)`,
      });
      return { checks, violations };
    }
    violations.push(
      ...schemaViolations(spec, `${resolved}/content/${pointerToken(mediaType)}/schema`, parsed),
    );
    return { checks, violations };
  }

  return {
    operations,
    /**
     * Every schema check an exchange can exercise, by operation: each declared response's status,
     * content type, headers and body elements (and `route.undeclared` under `routes`).
     *
     * @example
     * validator.declaredChecks().filter((check) => check.operation === 'createPayment').length; // 60
     */
    declaredChecks(): Array<SchemaCheck & { operation: string }> {
      const all = new Map<string, SchemaCheck & { operation: string }>();
      for (const operation of operations) {
        for (const statusKey of operation.statusKeys) {
          for (const check of checksFor(operation, statusKey)) {
            const key = `${operation.operationId}\u0000${check.id}`;
            if (!all.has(key)) all.set(key, { ...check, operation: operation.operationId });
          }
        }
      }
      const undeclared = checkUndeclared({
        method: 'GET',
        path: '/',
        status: 404,
        headers: {},
        body: '',
      });
      for (const check of undeclared.checks)
        all.set(`routes\u0000${check.id}`, { ...check, operation: 'routes' });
      return [...all.values()];
    },
    /**
     * The spec element that governs a field of an operation's response body, such as
     * `['data', '0', 'status']` of a `listPayments` 200; the response's status element for `[]`.
     *
     * @example
     * validator.elementAt('createPayment', 201, ['created_at']); // { spec: 'openapi', pointer: '/components/schemas/Payment/properties/created_at' }
     */
    elementAt(operationId: string, status: number, path: string[]): ElementRef | undefined {
      const operation = operations.find((entry) => entry.operationId === operationId);
      if (!operation) return undefined;
      const statusKey =
        declaredStatusKey(operation.statusKeys, status) ??
        operation.statusKeys.find((key) => key.startsWith('2'));
      if (!statusKey) return undefined;
      if (path.length === 0) return statusCheck(operation, statusKey).element;
      const { resolved, node } = responseOf(operation, statusKey);
      const mediaType = Object.keys((node.content ?? {}) as Record<string, unknown>)[0];
      if (!mediaType) return undefined;
      const schemaPointer = `${resolved}/content/${pointerToken(mediaType)}/schema`;
      return {
        spec: operation.spec,
        pointer: locateElement(documents[operation.spec], schemaPointer, path).pointer,
      };
    },
    /**
     * Checks one exchange: the status is declared, and content type, headers and body match it.
     *
     * @example
     * validator.check(exchange).violations.length === 0;
     */
    check(exchange: Exchange, body: BodyFacts = {}): ExchangeResult {
      const operation = findOperation(operations, exchange.method, exchange.path);
      if (!operation) return checkUndeclared(exchange);
      const base = { operation: operation.operationId, spec: operation.spec };
      const statusKey = declaredStatusKey(operation.statusKeys, exchange.status);
      const success = exchange.status >= 200 && exchange.status < 300;
      const successKey = operation.statusKeys.find((key) => /^2/.test(key));
      if (statusKey) {
        return { ...base, statusKey, ...checkDeclared(exchange, operation, statusKey, body) };
      }
      if (success && successKey) {
        // Another 2xx than the declared one: the status check fails, the body is still checked.
        const declared = checkDeclared(exchange, operation, successKey, body);
        const check = statusCheck(operation, successKey);
        return {
          ...base,
          statusKey: successKey,
          checks: declared.checks,
          violations: [
            { ...check, expected: `status ${successKey}`, actual: `status ${exchange.status}` },
            ...declared.violations,
          ],
        };
      }
      const check = statusCheck(operation, success ? '2XX' : String(exchange.status));
      return {
        ...base,
        statusKey: undefined,
        checks: [check],
        violations: [
          {
            ...check,
            expected: `one of ${operation.statusKeys.join(', ')}`,
            actual: `status ${exchange.status}`,
          },
        ],
      };
    },
  };
}

/** The validator type, for modules that receive one. */
export type ResponseValidator = ReturnType<typeof buildResponseValidator>;
