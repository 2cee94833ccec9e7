// Building blocks for a suite of one's own (our apps/contract-tests uses them): the response validator, the spec index and element resolver, the check ledger, the lifecycle table.
export { type CheckDefinition, CheckLedger } from './checks/ledger.js';
export { forbiddenActions } from './scenarios/lifecycle.js';
export {
  describeProvenance,
  type ElementRef,
  resolveElement,
} from './spec/elements.js';
export {
  declaredStatusKey,
  findOperation,
  indexOperations,
  type OperationEntry,
  type SpecDocument,
  type SpecName,
  specDocuments,
} from './spec/spec-index.js';
export { cleanTargetText, MAX_TARGET_TEXT_CHARS } from './untrusted-text.js';
export {
  createResponseValidator,
  type Exchange,
  type ExchangeResult,
  type ResponseValidator,
  type SchemaCheck,
  type SchemaViolation,
} from './validation/response-validator.js';
