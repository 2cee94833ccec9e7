// A small path router: 404 for unknown paths, 405 with Allow for other methods, the `{id}` param.
import type { ProblemInit } from '../problems.js';

/** Where a request goes: the operation and its path parameter, or the 404/405 problem. */
export type RouteResult<Operation> =
  | { ok: true; operation: Operation; id: string | undefined }
  | { ok: false; problem: ProblemInit };

interface CompiledRoute<Operation> {
  segments: string[];
  operations: Partial<Record<string, Operation>>;
  allow: string;
}

/**
 * Compiles a route table of paths (with at most one `{id}` segment) to operations by method.
 *
 * @example
 * const route = createRouter({ '/v1/payments/{id}': { GET: 'retrievePayment' } });
 * route('GET', '/v1/payments/pay_1'); // { ok: true, operation: 'retrievePayment', id: 'pay_1' }
 * route('PUT', '/v1/payments/pay_1'); // { ok: false, problem: { code: 'method_not_allowed', … } }
 */
export function createRouter<Operation>(
  table: Record<string, Partial<Record<string, Operation>>>,
): (method: string, path: string) => RouteResult<Operation> {
  const routes: CompiledRoute<Operation>[] = Object.entries(table).map(([path, operations]) => ({
    segments: path.split('/'),
    operations,
    allow: Object.keys(operations).join(', '),
  }));
  return (method, path) => {
    const segments = path.split('/');
    for (const route of routes) {
      if (route.segments.length !== segments.length) continue;
      let id: string | undefined;
      let matched = true;
      for (let index = 0; index < segments.length; index++) {
        const expected = route.segments[index] as string;
        const actual = segments[index] as string;
        if (expected === '{id}') {
          const decoded = safeDecode(actual);
          if (decoded === undefined || decoded === '') {
            matched = false;
            break;
          }
          id = decoded;
        } else if (expected !== actual) {
          matched = false;
          break;
        }
      }
      if (!matched) continue;
      const operation = route.operations[method];
      if (operation === undefined) {
        return {
          ok: false,
          problem: {
            code: 'method_not_allowed',
            detail: `${method} is not allowed on this path; allowed: ${route.allow}.`,
            headers: { allow: route.allow },
          },
        };
      }
      return { ok: true, operation, id };
    }
    return {
      ok: false,
      problem: { code: 'not_found', detail: 'No resource exists at this path.' },
    };
  };
}

function safeDecode(segment: string): string | undefined {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
