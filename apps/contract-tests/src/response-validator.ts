// Checks one recorded HTTP exchange against the spec: declared status, content type, headers and body schema, each check tagged with its provenance.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  declaredStatusKey,
  findOperation,
  indexOperations,
  type OperationEntry,
  type SpecDocument,
  type SpecName,
  specDocuments,
} from './spec-index.js';

/** What the recording fetch captured of one request and its response. */
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

export type Provenance = 'documented' | 'inferred';

/** One failed check of an exchange, with the provenance of the spec element it broke. */
export interface Violation {
  provenance: Provenance;
  /** `x-provenance-ref` of a documented element, `x-provenance-note` of an inferred one. */
  source: string;
  /** What was expected and what came. */
  message: string;
  /**
   * Set when a 2xx other than the declared success code came back. The provider does not show
   * its success codes (they are inferred), so a live run reports this as inferred drift and does
   * not fail on it; a run against the mock still fails.
   */
  successCodeDrift?: true;
}

/** The outcome of checking one exchange. */
export interface ExchangeResult {
  /** `openapi:createPayment`, or `undeclared` for a route the spec does not have. */
  operation: string;
  spec: SpecName | undefined;
  /** The declared response key the status fell under (`2XX`, `400`), if any. */
  statusKey: string | undefined;
  violations: Violation[];
}

type SchemaNode = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function pointerEscape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function provenanceOf(
  node: SchemaNode | undefined,
  fallback: Violation['provenance'] = 'inferred',
) {
  const provenance = node?.['x-provenance'];
  if (provenance === 'documented') {
    return {
      provenance,
      source: `provider document §${String(node?.['x-provenance-ref'])}`,
    } as const;
  }
  if (provenance === 'inferred') {
    return { provenance, source: String(node?.['x-provenance-note']) } as const;
  }
  return { provenance: fallback, source: 'no x-provenance on this element' } as const;
}

const provenanceKeys = ['x-provenance', 'x-provenance-ref', 'x-provenance-note'] as const;

/**
 * A copy of the documents in which every schema without its own `x-provenance` carries the one
 * it inherits (the spec lets a property inherit from the nearest schema that has it), so a
 * violation is tagged with the right provenance.
 *
 * @example
 * withInheritedProvenance(specDocuments).openapi.components.schemas.Payment;
 */
export function withInheritedProvenance(
  specs: Record<SpecName, SpecDocument>,
): Record<SpecName, SpecDocument> {
  const copy = structuredClone(specs) as Record<SpecName, SpecDocument>;
  const visit = (node: unknown, inherited: SchemaNode | undefined): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, inherited);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const schema = node as SchemaNode;
    const isSchema = 'type' in schema || 'properties' in schema || 'items' in schema;
    if (isSchema && schema['x-provenance'] === undefined && inherited && !('$ref' in schema)) {
      for (const key of provenanceKeys)
        if (inherited[key] !== undefined) schema[key] = inherited[key];
    }
    const own = schema['x-provenance'] !== undefined ? schema : inherited;
    for (const [key, value] of Object.entries(schema)) {
      if (key !== 'examples' && key !== 'example') visit(value, own);
    }
  };
  for (const document of Object.values(copy)) visit(document, undefined);
  return copy;
}

/**
 * Builds a validator for exchanges against the given spec documents; ajv compiles each schema once.
 *
 * @example
 * const validator = createResponseValidator();
 * const result = validator.check({ method: 'POST', path: '/v1/payments', status: 201, headers, body });
 * result.violations; // [] when the response honours the spec
 */
export function createResponseValidator(specs: Record<SpecName, SpecDocument> = specDocuments) {
  const documents = withInheritedProvenance(specs);
  const operations = indexOperations(documents);
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv);
  for (const [name, document] of Object.entries(documents)) ajv.addSchema(document, name);
  const compiled = new Map<string, ValidateFunction>();

  function resolve(spec: SpecName, node: SchemaNode | undefined): SchemaNode | undefined {
    let current = node;
    for (let depth = 0; current && typeof current.$ref === 'string' && depth < 10; depth++) {
      const segments = (current.$ref as string).replace(/^#\//, '').split('/');
      let target: unknown = documents[spec];
      for (const segment of segments) {
        target = (target as SchemaNode | undefined)?.[
          segment.replace(/~1/g, '/').replace(/~0/g, '~')
        ];
      }
      current = target as SchemaNode | undefined;
    }
    return current;
  }

  function operationNode(operation: OperationEntry): SchemaNode | undefined {
    const pathItem = documents[operation.spec].paths?.[operation.pathTemplate];
    return pathItem?.[operation.method.toLowerCase()] as SchemaNode | undefined;
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

  function schemaViolations(spec: SpecName, pointer: string, value: unknown, what: string) {
    const validate = validatorFor(spec, pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error: ErrorObject) => {
      let node = error.parentSchema as SchemaNode | undefined;
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      if (error.keyword === 'required' && missing) {
        const properties = node?.properties as Record<string, SchemaNode> | undefined;
        node = resolve(spec, properties?.[missing]) ?? node;
      }
      const at = error.instancePath || '/';
      const extra = missing ? ` '${missing}'` : '';
      return {
        ...provenanceOf(node),
        message: `${what} ${at}: ${error.message}${extra}${error.keyword === 'enum' ? ` (${JSON.stringify(error.params)})` : ''}, got ${JSON.stringify(error.data)?.slice(0, 120)}`,
      };
    });
  }

  function checkUndeclared(exchange: Exchange): Violation[] {
    const violations: Violation[] = [];
    const source =
      'routes outside the spec answer 404 not_found or 405 method_not_allowed (401 first when the key is bad)';
    if (![401, 404, 405].includes(exchange.status)) {
      violations.push({
        provenance: 'inferred',
        source,
        message: `${exchange.method} on a route outside the spec answered ${exchange.status}`,
      });
    }
    if (exchange.status === 405 && !exchange.headers.allow) {
      violations.push({ provenance: 'inferred', source, message: '405 without an Allow header' });
    }
    if (!exchange.headers['request-id']) {
      violations.push({ provenance: 'inferred', source, message: 'missing Request-Id header' });
    }
    if (!exchange.headers['content-type']?.startsWith('application/problem+json')) {
      violations.push({
        provenance: 'inferred',
        source,
        message: `content type ${exchange.headers['content-type'] ?? '(none)'}, expected application/problem+json`,
      });
    }
    return violations;
  }

  function checkDeclared(exchange: Exchange, operation: OperationEntry, statusKey: string) {
    const violations: Violation[] = [];
    const spec = operation.spec;
    const operationPointer = `/paths/${pointerEscape(operation.pathTemplate)}/${operation.method.toLowerCase()}`;
    const rawResponse = resolve(spec, {
      $ref: `#${operationPointer}/responses/${pointerEscape(statusKey)}`,
    });
    const responses = operationNode(operation)?.responses as Record<string, SchemaNode> | undefined;
    const responseRef = responses?.[statusKey]?.$ref as string | undefined;
    const responsePointer = responseRef
      ? responseRef.slice(1)
      : `${operationPointer}/responses/${pointerEscape(statusKey)}`;
    const responseProvenance = provenanceOf(rawResponse);

    const headers = (rawResponse?.headers ?? {}) as Record<string, SchemaNode>;
    for (const [name, declared] of Object.entries(headers)) {
      const header = resolve(spec, declared);
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header?.required) {
          violations.push({ ...provenanceOf(header), message: `missing required header ${name}` });
        }
        continue;
      }
      const headerRef = declared.$ref as string | undefined;
      const pointer = headerRef
        ? `${headerRef.slice(1)}/schema`
        : `${responsePointer}/headers/${pointerEscape(name)}/schema`;
      violations.push(...schemaViolations(spec, pointer, value, `header ${name}`));
    }

    const content = (rawResponse?.content ?? {}) as Record<string, SchemaNode>;
    const declaredTypes = Object.keys(content);
    if (declaredTypes.length === 0) return violations;
    const mediaType = (exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (!mediaType || !declaredTypes.includes(mediaType)) {
      violations.push({
        ...responseProvenance,
        message: `content type ${mediaType || '(none)'}, expected ${declaredTypes.join(' or ')}`,
      });
      return violations;
    }
    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      violations.push({
        ...responseProvenance,
        message: `body is not JSON: ${exchange.body.slice(0, 80)}`,
      });
      return violations;
    }
    const schemaPointer = `${responsePointer}/content/${pointerEscape(mediaType)}/schema`;
    violations.push(...schemaViolations(spec, schemaPointer, body, 'body'));
    return violations;
  }

  return {
    operations,
    /**
     * Checks one exchange: the status is declared, and content type, headers and body match it.
     *
     * @example
     * validator.check(exchange).violations.length === 0;
     */
    check(exchange: Exchange): ExchangeResult {
      const operation = findOperation(operations, exchange.method, exchange.path);
      if (!operation) {
        return {
          operation: 'undeclared',
          spec: undefined,
          statusKey: undefined,
          violations: checkUndeclared(exchange),
        };
      }
      const name = `${operation.spec}:${operation.operationId}`;
      const statusKey = declaredStatusKey(operation.statusKeys, exchange.status);
      const successKey = operation.statusKeys.find((key) => /^2\d\d$/.test(key));
      if (!statusKey && successKey && exchange.status >= 200 && exchange.status < 300) {
        const node = resolve(operation.spec, {
          $ref: `#/paths/${pointerEscape(operation.pathTemplate)}/${operation.method.toLowerCase()}/responses/${successKey}`,
        });
        return {
          operation: name,
          spec: operation.spec,
          statusKey: successKey,
          violations: [
            {
              provenance: 'inferred',
              source: `the provider does not show success codes; the spec infers ${successKey} (${String(node?.['x-provenance-note'] ?? node?.description ?? '')})`,
              message: `status ${exchange.status}, the spec declares ${successKey} for ${operation.operationId}`,
              successCodeDrift: true,
            },
            ...checkDeclared(exchange, operation, successKey),
          ],
        };
      }
      if (!statusKey) {
        const node = operationNode(operation);
        return {
          operation: name,
          spec: operation.spec,
          statusKey,
          violations: [
            {
              ...provenanceOf(node),
              message: `status ${exchange.status} is not declared for ${operation.operationId} (declared: ${operation.statusKeys.join(', ')})`,
            },
          ],
        };
      }
      return {
        operation: name,
        spec: operation.spec,
        statusKey,
        violations: checkDeclared(exchange, operation, statusKey),
      };
    },
  };
}

/** The validator type, for modules that receive one. */
export type ResponseValidator = ReturnType<typeof createResponseValidator>;
