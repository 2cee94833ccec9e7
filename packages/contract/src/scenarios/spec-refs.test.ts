// The scenarios' table of operations is typed by hand (its literals type the scenarios); this keeps it the spec's.
import { describe, expect, it } from 'vitest';
import { indexOperations, specDocuments } from '../spec/spec-index.js';
import { operations } from './spec-refs.js';

describe('the operations table', () => {
  it("lists exactly the provider spec's operations, each with its method, path and whether it takes a body", () => {
    const paths = specDocuments.openapi.paths ?? {};
    const fromSpec = indexOperations({ openapi: specDocuments.openapi } as Parameters<
      typeof indexOperations
    >[0]).map((entry) => {
      const operation = (paths[entry.pathTemplate] as Record<string, { requestBody?: unknown }>)[
        entry.method.toLowerCase()
      ];
      return {
        operationId: entry.operationId,
        method: entry.method,
        path: entry.pathTemplate,
        body: operation?.requestBody !== undefined,
      };
    });
    const byId = (a: { operationId: string }, b: { operationId: string }) =>
      a.operationId.localeCompare(b.operationId);
    expect([...operations].sort(byId)).toEqual(fromSpec.sort(byId));
  });
});
