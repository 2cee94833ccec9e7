// Building blocks for a suite or a tool of one's own (our apps use them): the response validator, the spec index and element resolver, the check ledger, the lifecycle table, the proxy's forwarder, recorder and checkers.
export { type CheckDefinition, CheckLedger } from './checks/ledger.js';
export {
  type CapturedExchange,
  carriesLiveKey,
  type ForwardingOptions,
  type ForwardingProxy,
  startForwardingProxy,
} from './proxy/forward.js';
export { createHarRecorder, type HarDocument, type HarEntry, type HarLimits } from './proxy/har.js';
export {
  measureProxyOverhead,
  type OverheadRequest,
  type ProxyOverhead,
  quantile,
} from './proxy/overhead.js';
export {
  createRequestValidator,
  type RequestFacts,
  type RequestResult,
  type RequestValidator,
} from './proxy/request-validator.js';
export {
  createTrafficChecker,
  type TrafficCheckerOptions,
  type TrafficCheckResult,
  type TrafficExchange,
  type TrafficNotes,
} from './proxy/traffic-checker.js';
export {
  harExchanges,
  harSchema,
  MAX_HAR_BYTES,
  MAX_HAR_ENTRY_BYTES,
  readHar,
} from './replay/har-reader.js';
export { type LoadedSpec, loadSpecFile } from './replay/spec-file.js';
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
