// Public entry: runContractCheck and compareTargets, the report formats, the check ledger's types and the spec helpers.
export {
  type CheckDefinition,
  type CheckFailure,
  type CheckKind,
  CheckLedger,
  type CheckResult,
} from './checks/ledger.js';
export {
  type Change,
  type CompareOptions,
  type Comparison,
  compareTargets,
  type Difference,
} from './compare/compare.js';
export { formatComparison } from './compare/format.js';
export {
  ConfigurationError,
  ContractCheckError,
  KeyRefusedError,
  RunStoppedError,
  TargetUnreachableError,
} from './errors.js';
export { contractVersion } from './generated/version.js';
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
  type ContractProxy,
  type ContractProxyOptions,
  startContractProxy,
} from './proxy/proxy.js';
export {
  createRequestValidator,
  type RequestFacts,
  type RequestResult,
  type RequestValidator,
} from './proxy/request-validator.js';
export {
  type Cause,
  createTrafficChecker,
  type TrafficCheckerOptions,
  type TrafficCheckResult,
  type TrafficExchange,
  type TrafficNotes,
} from './proxy/traffic-checker.js';
export {
  formatTrafficReport,
  type TrafficReport,
  type TrafficReportInput,
  trafficReport,
} from './proxy/traffic-report.js';
export { harSchema, MAX_HAR_BYTES, readHar } from './replay/har-reader.js';
export { type ReplayOptions, replayRecording } from './replay/replay.js';
export { type LoadedSpec, loadSpecFile } from './replay/spec-file.js';
export {
  type ContractReport,
  exitCodeFor,
  FAIL_ON_VALUES,
  type FailOn,
  type Verdict,
} from './report.js';
export { curlCommand } from './reports/curl.js';
export { formatGithub } from './reports/github.js';
export {
  formatBounded,
  formatters,
  REPORT_FORMATS,
  REPORT_LIMITS,
  type ReportFormat,
} from './reports/index.js';
export { formatJson, reportJsonSchema } from './reports/json.js';
export { escapeXml, formatJunit } from './reports/junit.js';
export { formatMarkdown } from './reports/markdown.js';
export { formatText } from './reports/text.js';
export { type Clock, systemClock } from './runner/clock.js';
export type { ExchangeRecord } from './runner/exchange-record.js';
export {
  type ContractCheckOptions,
  type ContractRun,
  DEFAULTS,
  runContract,
  runContractCheck,
} from './runner/run.js';
export type { Requirement, Scenario, ScenarioContext, TraceStep } from './runner/scenario.js';
export type { Answer, ScenarioRequest } from './runner/transport.js';
export { scenarios } from './scenarios/index.js';
export { forbiddenActions } from './scenarios/lifecycle.js';
export {
  describeProvenance,
  type ElementRef,
  type Provenance,
  type ProvenanceKind,
  type ResolvedElement,
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
