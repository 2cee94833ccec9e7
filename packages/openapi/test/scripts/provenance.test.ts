// Tests the provenance check on small inline documents: missing, wrong value, documented without ref, valid.
import { describe, expect, it } from 'vitest';
import { checkProvenance, provenanceProblem } from '../../scripts/provenance.mjs';

const documented = { 'x-provenance': 'documented', 'x-provenance-ref': '4.1' };
const inferred = { 'x-provenance': 'inferred', 'x-provenance-note': 'Not shown; our model.' };

/** A small document in which every element has valid provenance. */
function validDocument() {
  return {
    openapi: '3.1.0',
    info: { title: 'test', version: '1.0.0' },
    paths: {
      '/v1/payments/{id}': {
        parameters: [{ $ref: '#/components/parameters/PaymentId' }],
        post: {
          ...documented,
          requestBody: {
            ...documented,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Payment' } } },
          },
          responses: {
            '2XX': {
              ...documented,
              headers: { 'Request-Id': { $ref: '#/components/headers/Request-Id' } },
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    ...inferred,
                    properties: {
                      data: {
                        type: 'array',
                        ...inferred,
                        items: { type: 'object', ...inferred, properties: { id: { ...inferred } } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    webhooks: {
      'payment.succeeded': { post: { ...inferred, responses: { '2XX': { ...inferred } } } },
    },
    components: {
      schemas: {
        Payment: {
          type: 'object',
          ...documented,
          properties: {
            id: { type: 'string', ...documented },
            status: { $ref: '#/components/schemas/PaymentStatus' },
          },
          allOf: [{ type: 'object', ...inferred, properties: { extra: { ...inferred } } }],
        },
        PaymentStatus: { type: 'string', enum: ['SUCCEEDED'], ...documented },
      },
      parameters: {
        PaymentId: {
          name: 'id',
          in: 'path',
          required: true,
          ...inferred,
          schema: { type: 'string' },
        },
      },
      headers: { 'Request-Id': { ...inferred, schema: { type: 'string' } } },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', ...documented } },
    },
  };
}

describe('provenanceProblem', () => {
  it('accepts documented with a section ref and inferred with a note', () => {
    expect(provenanceProblem(documented)).toBeUndefined();
    expect(
      provenanceProblem({ 'x-provenance': 'documented', 'x-provenance-ref': '5' }),
    ).toBeUndefined();
    expect(provenanceProblem(inferred)).toBeUndefined();
  });

  it('rejects a missing annotation', () => {
    expect(provenanceProblem({})).toMatch(/missing x-provenance/);
  });

  it('rejects a value other than documented or inferred', () => {
    expect(provenanceProblem({ 'x-provenance': 'assumed' })).toMatch(/"assumed"; expected/);
  });

  it('rejects documented without a section ref, or with a ref that is not a section string', () => {
    expect(provenanceProblem({ 'x-provenance': 'documented' })).toMatch(/x-provenance-ref/);
    expect(provenanceProblem({ 'x-provenance': 'documented', 'x-provenance-ref': 2.1 })).toMatch(
      /section number string/,
    );
    expect(
      provenanceProblem({ 'x-provenance': 'documented', 'x-provenance-ref': 'see above' }),
    ).toMatch(/section number string/);
  });

  it('rejects inferred without a note, or with an empty one', () => {
    expect(provenanceProblem({ 'x-provenance': 'inferred' })).toMatch(/x-provenance-note/);
    expect(provenanceProblem({ 'x-provenance': 'inferred', 'x-provenance-note': ' ' })).toMatch(
      /x-provenance-note/,
    );
  });
});

describe('checkProvenance', () => {
  it('passes a document whose every element has provenance, exempting $refs', () => {
    const { checked, problems } = checkProvenance(validDocument());
    expect(problems).toEqual([]);
    // operation, request body, response, 3 inline schemas, webhook operation and response,
    // Payment, id, allOf member, extra, PaymentStatus, PaymentId, Request-Id, bearerAuth
    expect(checked).toBe(17);
  });

  it('names each element that lacks provenance by its JSON pointer', () => {
    const document = validDocument();
    const post = document.paths['/v1/payments/{id}'].post;
    delete (post as Record<string, unknown>)['x-provenance'];
    delete (document.components.schemas.Payment.properties.id as Record<string, unknown>)[
      'x-provenance'
    ];
    delete (document.components.headers['Request-Id'] as Record<string, unknown>)['x-provenance'];
    (document.webhooks['payment.succeeded'].post as Record<string, unknown>)['x-provenance'] =
      'guessed';
    const pointers = checkProvenance(document).problems.map((problem) => problem.pointer);
    // Payment.id lost its own provenance: it inherits Payment's, so it is not reported.
    expect(pointers).toEqual([
      '/paths/~1v1~1payments~1{id}/post',
      '/webhooks/payment.succeeded/post',
      '/components/headers/Request-Id',
    ]);
  });

  it('lets a property inherit from the nearest schema that has provenance, and a named schema never', () => {
    const document = validDocument();
    const payment = document.components.schemas.Payment as Record<string, unknown> & {
      properties: { id: Record<string, unknown> };
    };
    delete payment.properties.id['x-provenance'];
    const before = checkProvenance(document);
    expect(before.problems).toEqual([]);
    delete payment['x-provenance'];
    delete payment['x-provenance-ref'];
    const pointers = checkProvenance(document).problems.map((problem) => problem.pointer);
    expect(pointers).toEqual([
      '/components/schemas/Payment',
      '/components/schemas/Payment/properties/id',
    ]);
  });

  it('checks response headers, parameters, nested items and allOf members', () => {
    const document = validDocument();
    const response = document.paths['/v1/payments/{id}'].post.responses['2XX'];
    (response.headers as Record<string, unknown>)['Retry-After'] = { schema: { type: 'string' } };
    const nested = response.content['application/json'].schema.properties.data.items;
    delete (nested.properties.id as Record<string, unknown>)['x-provenance'];
    delete (document.components.schemas.Payment.allOf[0] as Record<string, unknown>)[
      'x-provenance'
    ];
    (document.components.parameters.PaymentId as Record<string, unknown>)['x-provenance'] =
      undefined;
    const pointers = checkProvenance(document).problems.map((problem) => problem.pointer);
    const responsePointer = '/paths/~1v1~1payments~1{id}/post/responses/2XX';
    // The nested property and the allOf member inherit (from the response, from Payment).
    expect(pointers).toEqual([
      `${responsePointer}/headers/Retry-After`,
      '/components/parameters/PaymentId',
    ]);
  });

  it('does not ask inline schemas without properties for provenance', () => {
    const { problems } = checkProvenance({
      openapi: '3.1.0',
      components: {
        parameters: {
          Limit: { name: 'limit', in: 'query', ...inferred, schema: { type: 'integer' } },
        },
      },
    });
    expect(problems).toEqual([]);
  });
});

describe('checkProvenance: x-provenance-values', () => {
  it('accepts a per-value provenance for a member of the enum, and checks it', () => {
    const document = validDocument();
    const status = document.components.schemas.PaymentStatus as Record<string, unknown>;
    status.enum = ['PENDING', 'SUCCEEDED'];
    status['x-provenance-values'] = { SUCCEEDED: { ...documented } };
    expect(checkProvenance(document).problems).toEqual([]);
    status['x-provenance-values'] = { SUCCEEDED: { 'x-provenance': 'documented' } };
    expect(checkProvenance(document).problems).toEqual([
      {
        pointer: '/components/schemas/PaymentStatus/x-provenance-values/SUCCEEDED',
        message: expect.stringContaining('x-provenance-ref'),
      },
    ]);
  });

  it('rejects a value that is not in the enum, and a map that is not a map', () => {
    const document = validDocument();
    const status = document.components.schemas.PaymentStatus as Record<string, unknown>;
    status['x-provenance-values'] = { COMPLETED: { ...documented } };
    expect(checkProvenance(document).problems).toEqual([
      {
        pointer: '/components/schemas/PaymentStatus/x-provenance-values/COMPLETED',
        message: '"COMPLETED" is not one of the schema\'s enum values',
      },
    ]);
    status['x-provenance-values'] = ['SUCCEEDED'];
    expect(checkProvenance(document).problems.map((problem) => problem.pointer)).toEqual([
      '/components/schemas/PaymentStatus/x-provenance-values',
    ]);
  });
});
