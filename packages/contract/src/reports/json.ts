// The machine-readable report (`--format json`) and the JSON Schema it follows, which tests check every report against.
import type { ContractReport } from '../report.js';

const provenance = {
  type: 'object',
  required: ['kind'],
  properties: {
    kind: { enum: ['documented', 'inferred'] },
    section: {
      type: 'string',
      description: 'documented: the section of the provider document that states it',
    },
    note: { type: 'string', description: 'inferred: why the spec models it this way' },
  },
};

const exchange = {
  type: 'object',
  required: ['method', 'url', 'requestHeaders', 'status', 'headers', 'bodyExcerpt'],
  properties: {
    method: { type: 'string' },
    url: { type: 'string' },
    requestHeaders: { type: 'object', additionalProperties: { type: 'string' } },
    requestBody: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    bodyExcerpt: { type: 'string' },
  },
};

/** The JSON Schema (2020-12) of `--format json`: stable within a `schemaVersion`. */
export const reportJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://github.com/payment-service/payment-service-kit/packages/contract/report.schema.json',
  title: 'payment-service-contract report',
  type: 'object',
  required: [
    'schemaVersion',
    'tool',
    'spec',
    'target',
    'policy',
    'seed',
    'startedAt',
    'durationMs',
    'requests',
    'verdict',
    'exitCode',
    'message',
    'summary',
    'checks',
    'errors',
  ],
  properties: {
    schemaVersion: { const: 1 },
    tool: {
      type: 'object',
      required: ['name', 'version'],
      properties: { name: { type: 'string' }, version: { type: 'string' } },
    },
    spec: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' } },
    },
    target: {
      type: 'object',
      required: ['baseUrl', 'sandboxControls', 'webhooks'],
      properties: {
        baseUrl: { type: 'string' },
        sandboxControls: { type: 'boolean' },
        webhooks: { type: 'boolean' },
      },
    },
    policy: {
      type: 'object',
      required: ['failOn', 'maxRequests', 'rate'],
      properties: {
        failOn: { enum: ['documented', 'inferred', 'any', 'none'] },
        maxRequests: { type: 'integer' },
        rate: { type: ['number', 'null'] },
      },
    },
    seed: {
      type: 'integer',
      minimum: 0,
      description: 'the seed of the run’s markers and keys: --seed repeats them',
    },
    selection: {
      type: 'object',
      properties: {
        operations: { type: 'array', items: { type: 'string' } },
        checks: { type: 'array', items: { type: 'string' } },
        provenance: { enum: ['documented', 'inferred'] },
        exclude: { type: 'array', items: { type: 'string' } },
      },
    },
    baseline: {
      type: 'object',
      required: ['file', 'known', 'expired', 'fixed'],
      properties: {
        file: { type: 'string' },
        known: { type: 'integer', minimum: 0 },
        knownDocumented: { type: 'integer', minimum: 0 },
        expired: { type: 'array', items: { type: 'object', required: ['check', 'expires'] } },
        fixed: { type: 'array', items: { type: 'object', required: ['check', 'reason'] } },
      },
    },
    scenarioDurations: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
    startedAt: { type: 'string', format: 'date-time' },
    durationMs: { type: 'number', minimum: 0 },
    requests: { type: 'integer', minimum: 0 },
    verdict: {
      enum: [
        'passed',
        'failed',
        'unreachable',
        'key-refused',
        'stopped',
        'incomplete',
        'no-verdict',
      ],
    },
    exitCode: { enum: [0, 1, 2, 3, 4] },
    message: { type: 'string' },
    summary: {
      type: 'object',
      required: ['checks', 'passed', 'failed', 'skipped', 'failedDocumented', 'failedInferred'],
      additionalProperties: { type: 'integer', minimum: 0 },
    },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'operation', 'title', 'kind', 'element', 'outcome', 'runs', 'failures'],
        properties: {
          id: { type: 'string' },
          operation: { type: 'string' },
          title: { type: 'string' },
          kind: { enum: ['scenario', 'schema'] },
          element: {
            type: 'object',
            required: ['spec', 'pointer', 'provenance'],
            properties: {
              spec: { enum: ['openapi', 'sandbox'] },
              pointer: { type: 'string' },
              value: { type: 'string' },
              facet: { const: 'status' },
              provenance,
              file: { type: 'string' },
              line: { type: 'integer' },
            },
          },
          outcome: { enum: ['passed', 'failed', 'skipped'] },
          runs: { type: 'integer', minimum: 0 },
          failures: { type: 'integer', minimum: 0 },
          skipReason: { type: 'string' },
          stopped: {
            const: true,
            description: 'skipped because the run stopped (exit 3 or 4), not for want of a feature',
          },
          durationMs: { type: 'number', minimum: 0 },
          scenarios: { type: 'array', items: { type: 'string' } },
          baseline: {
            type: 'object',
            required: ['state', 'reason'],
            properties: {
              state: { enum: ['known', 'expired', 'fixed'] },
              reason: { type: 'string' },
              expires: { type: 'string' },
            },
          },
          example: {
            type: 'object',
            required: ['expected', 'actual'],
            properties: { expected: { type: 'string' }, actual: { type: 'string' }, exchange },
          },
          distinctFailures: { type: 'integer', minimum: 1 },
        },
      },
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['scenario', 'message'],
        properties: { scenario: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

/**
 * Renders a report as JSON (`--format json`), following `reportJsonSchema`.
 *
 * @example
 * writeFileSync('report.json', formatJson(report));
 */
export function formatJson(report: ContractReport): string {
  // A request body is ours, but can be megabytes (a too-large body is a check): its start is enough here.
  const cut = (body: string) =>
    body.length > MAX_REQUEST_BODY_CHARS
      ? `${body.slice(0, MAX_REQUEST_BODY_CHARS)}… (${body.length - MAX_REQUEST_BODY_CHARS} more characters)`
      : body;
  return `${JSON.stringify(
    report,
    (name, value) => (name === 'requestBody' && typeof value === 'string' ? cut(value) : value),
    2,
  )}\n`;
}

/** How much of a request body the JSON report keeps. */
const MAX_REQUEST_BODY_CHARS = 2000;
