// Tests the package's public entries: both spec documents are exported as data, with their types.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type components,
  openapiDocument,
  type paths,
  type SandboxPaths,
  sandboxDocument,
} from '../src/index.js';
import * as sandboxEntry from '../src/sandbox.js';

describe('openapiDocument', () => {
  it('is the OpenAPI 3.1 spec of the provider API', () => {
    expect(openapiDocument.openapi).toMatch(/^3\.1\./);
    expect(openapiDocument.info.title).toBe('Payment Service API');
    expect(Object.keys(openapiDocument.paths)).toContain('/v1/payments');
  });

  it('keeps the provenance annotations for the contract-test report', () => {
    expect(openapiDocument.paths['/v1/payments'].post['x-provenance']).toBe('documented');
  });

  it('only has /v1 paths', () => {
    for (const path of Object.keys(openapiDocument.paths)) expect(path).toMatch(/^\/v1\//);
  });
});

describe('sandboxDocument', () => {
  it('is the OpenAPI 3.1 spec of the sandbox controls, all under /_sandbox', () => {
    expect(sandboxDocument.openapi).toMatch(/^3\.1\./);
    const sandboxPaths = Object.keys(sandboxDocument.paths);
    expect(sandboxPaths.length).toBeGreaterThan(0);
    for (const path of sandboxPaths) expect(path).toMatch(/^\/_sandbox\//);
  });

  it('is also exported by the sandbox subpath', () => {
    expect(sandboxEntry.sandboxDocument).toBe(sandboxDocument);
  });
});

describe('generated types', () => {
  it('describe the create-payment request and response', () => {
    type CreatePayment = paths['/v1/payments']['post'];
    type Body = CreatePayment['requestBody']['content']['application/json'];
    expectTypeOf<Body['amount']>().toEqualTypeOf<number>();
    expectTypeOf<Body['capture']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<components['schemas']['Payment']['object']>().toEqualTypeOf<'payment'>();
  });

  it('describe the sandbox controls under their own names', () => {
    expectTypeOf<SandboxPaths>().toHaveProperty('/_sandbox/reset');
    expectTypeOf<sandboxEntry.paths>().toEqualTypeOf<SandboxPaths>();
  });
});
