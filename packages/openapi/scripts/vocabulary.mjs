// Renders the vocabulary module: the error codes and the sandbox test tokens, read from the spec's x- extensions.
import { generatedHeader } from './render.mjs';

/**
 * Reads the `x-error-codes` of the `ErrorCode` schema and checks it against the schema's enum.
 *
 * @param {any} document The parsed provider spec.
 * @returns {Record<string, { status: number, title: string, meaning: string }>} code → facts.
 * @example
 * readErrorCodes(document).not_found.status; // => 404
 */
export function readErrorCodes(document) {
  const schema = document?.components?.schemas?.ErrorCode;
  const table = schema?.['x-error-codes'];
  if (!schema || !table)
    throw new Error('spec: components.schemas.ErrorCode with x-error-codes is missing');
  const listed = Object.keys(table);
  /** @type {string[]} */
  const enumerated = schema.enum ?? [];
  const missing = enumerated.filter((code) => !listed.includes(code));
  const extra = listed.filter((code) => !enumerated.includes(code));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `spec: ErrorCode's enum and x-error-codes differ (only in enum: ${missing.join(', ') || 'none'}; only in x-error-codes: ${extra.join(', ') || 'none'})`,
    );
  }
  for (const [code, facts] of Object.entries(/** @type {Record<string, any>} */ (table))) {
    if (!Number.isInteger(facts?.status) || facts.status < 400 || facts.status > 599)
      throw new Error(`spec: x-error-codes.${code}.status must be a 4xx or 5xx status`);
    if (typeof facts.title !== 'string' || typeof facts.meaning !== 'string')
      throw new Error(`spec: x-error-codes.${code} needs a title and a meaning`);
  }
  return table;
}

/**
 * Reads the `x-test-tokens` table of the payment method's `token` property.
 *
 * @param {any} document The parsed provider spec.
 * @returns {Array<{ token: string, description: string, pending?: boolean, failure_code?: string, failure_message?: string }>}
 * @example
 * readTestTokens(document)[0].token; // => 'tok_test_success'
 */
export function readTestTokens(document) {
  const tokens = document?.components?.schemas?.PaymentMethod?.properties?.token?.['x-test-tokens'];
  if (!Array.isArray(tokens) || tokens.length === 0)
    throw new Error('spec: PaymentMethod.token has no x-test-tokens table');
  for (const entry of /** @type {any[]} */ (tokens)) {
    if (!/^tok_test_[a-z0-9_]+$/.test(entry.token ?? ''))
      throw new Error(
        `spec: x-test-tokens: ${JSON.stringify(entry.token)} is not a tok_test_ token`,
      );
    if ((entry.failure_code === undefined) !== (entry.failure_message === undefined))
      throw new Error(
        `spec: x-test-tokens: ${entry.token} needs both failure_code and failure_message, or neither`,
      );
  }
  return tokens;
}

/**
 * Renders `vocabulary.ts`: `errorCodes` and `testTokens` as constant data, and their key types.
 *
 * @param {any} document The parsed provider spec.
 * @param {string} sourceLabel The spec's path for the header.
 * @returns {string} The module text.
 * @example
 * renderVocabularyModule(document, 'spec/openapi.yaml').includes('export const errorCodes'); // => true
 */
export function renderVocabularyModule(document, sourceLabel) {
  const errorCodes = readErrorCodes(document);
  const testTokens = readTestTokens(document);
  return `${generatedHeader(sourceLabel)}
/** Every error code of the API: its HTTP status, title and meaning (\`ErrorCode\`'s \`x-error-codes\`). */
export const errorCodes = ${JSON.stringify(errorCodes, null, 2)} as const;

/** A problem's \`code\`. */
export type ErrorCode = keyof typeof errorCodes;

/** The sandbox test tokens and what each does (the token property's \`x-test-tokens\`). */
export const testTokens = ${JSON.stringify(testTokens, null, 2)} as const;
`;
}
