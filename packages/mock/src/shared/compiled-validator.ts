// The shape of a request-body validator compiled by Ajv's standalone code at build time.
import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * A validator compiled by Ajv's standalone code (src/generated/request-validators.ts): true for a
 * valid value; otherwise its problems are in `errors` (with each keyword's schema: `verbose`).
 */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * The two compiled validators of one request-body schema: `check` tests the body's bounds
 * (`maxProperties`, `maxItems`, `maxLength`) and then the schema, stopping at the first error;
 * `explain` lists every error, and runs only on a body `check` refused within its bounds, so its
 * work (and the error list) stays bounded whatever a hostile client sends.
 */
export interface RequestValidator {
  check: CompiledValidator;
  explain: CompiledValidator;
}
