// Indexes the spec documents' operations so a recorded request can be matched to the operation it exercised.
import { openapiDocument, sandboxDocument } from '@payment-service/openapi';

/** A spec document as parsed from YAML: only the parts the index reads are typed. */
export interface SpecDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
}

/** One operation of one spec document, with the status keys it declares. */
export interface OperationEntry {
  /** Which document declares it: `openapi` (the provider's contract) or `sandbox` (the mock's controls). */
  spec: SpecName;
  operationId: string;
  method: string;
  pathTemplate: string;
  /** Declared response keys as written in the spec: `"400"`, `"2XX"`, `"default"`. */
  statusKeys: string[];
  matches(path: string): boolean;
}

export type SpecName = 'openapi' | 'sandbox';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The two documents the contract tests check against, by name. */
export const specDocuments: Record<SpecName, SpecDocument> = {
  openapi: openapiDocument as unknown as SpecDocument,
  sandbox: sandboxDocument as unknown as SpecDocument,
};

function templateToRegExp(template: string): RegExp {
  const pattern = template
    .split('/')
    .map((segment) =>
      /^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${pattern}$`);
}

function literalSegmentCount(template: string): number {
  return template.split('/').filter((segment) => segment && !segment.startsWith('{')).length;
}

/**
 * Lists every operation declared in the given documents, most specific path first.
 *
 * @example
 * const operations = indexOperations(specDocuments);
 * operations.find((operation) => operation.operationId === 'createPayment')?.statusKeys; // ['201', '400', …]
 */
export function indexOperations(documents: Record<SpecName, SpecDocument>): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const spec of Object.keys(documents) as SpecName[]) {
    for (const [pathTemplate, pathItem] of Object.entries(documents[spec].paths ?? {})) {
      const regExp = templateToRegExp(pathTemplate);
      for (const method of HTTP_METHODS) {
        const operation = pathItem[method] as
          | { operationId?: string; responses?: Record<string, unknown> }
          | undefined;
        if (!operation) continue;
        entries.push({
          spec,
          operationId: operation.operationId ?? `${method} ${pathTemplate}`,
          method: method.toUpperCase(),
          pathTemplate,
          statusKeys: Object.keys(operation.responses ?? {}),
          matches: (path) => regExp.test(path),
        });
      }
    }
  }
  return entries.sort(
    (a, b) => literalSegmentCount(b.pathTemplate) - literalSegmentCount(a.pathTemplate),
  );
}

/**
 * Finds the operation a request exercised, or `undefined` for a path or method the spec does not declare.
 *
 * @example
 * findOperation(operations, 'POST', '/v1/payments')?.operationId; // 'createPayment'
 */
export function findOperation(
  operations: OperationEntry[],
  method: string,
  path: string,
): OperationEntry | undefined {
  const upper = method.toUpperCase();
  return operations.find((operation) => operation.method === upper && operation.matches(path));
}

/**
 * Picks the declared response key that a status falls under: the exact code, then its `NXX` range, then `default`.
 *
 * @example
 * declaredStatusKey(['201', '400', '5XX'], 503); // '5XX'
 */
export function declaredStatusKey(statusKeys: string[], status: number): string | undefined {
  const exact = String(status);
  if (statusKeys.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  if (statusKeys.includes(range)) return range;
  return statusKeys.includes('default') ? 'default' : undefined;
}
