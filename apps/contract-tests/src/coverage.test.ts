// Unit tests of the coverage table: declared pairs matched to exercised ones, and the NEVER rows.

import { indexOperations } from '@payment-service/contract/toolkit';
import { describe, expect, it } from 'vitest';
import { computeCoverage, formatCoverage } from './coverage.js';
import type { ExerciseRecord } from './recording-fetch.js';

const operations = indexOperations({
  openapi: {
    paths: {
      '/v1/payments': {
        post: { operationId: 'createPayment', responses: { '2XX': {}, '400': {} } },
      },
    },
  },
  sandbox: { paths: {} },
});

const record = (statusKey: string, target: string): ExerciseRecord => ({
  target,
  operation: 'openapi:createPayment',
  statusKey,
  status: statusKey === '2XX' ? 201 : 400,
  method: 'POST',
  path: '/v1/payments',
  violations: [],
});

describe('computeCoverage', () => {
  it('lists a declared pair that was never exercised as missing', () => {
    const coverage = computeCoverage(operations, [
      record('2XX', 'http'),
      record('2XX', 'in-process'),
    ]);
    expect(coverage.missing.map((row) => row.statusKey)).toEqual(['400']);
    const table = formatCoverage(coverage);
    expect(table).toMatch(/createPayment\s+2XX\s+http, in-process/);
    expect(table).toMatch(/createPayment\s+400\s+NEVER/);
    expect(table).toContain('1 of 2 declared (operation, status) pairs exercised');
  });

  it('has nothing missing once every pair is exercised', () => {
    expect(
      computeCoverage(operations, [record('2XX', 'http'), record('400', 'http')]).missing,
    ).toEqual([]);
  });
});
