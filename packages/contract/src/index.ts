// Public entry: what a user calls — runContractCheck and compareTargets, the report formats, the gate (selection, baseline, config), the errors and the types. Building blocks for a suite of one's own are in `@payment-service/contract/toolkit`.
export type { CheckFailure, CheckKind, CheckResult } from './checks/ledger.js';
export {
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
export {
  type Baseline,
  type BaselineEntry,
  type BaselineFile,
  type BaselineOutcome,
  baselineSchema,
  parseBaseline,
} from './gate/baseline.js';
export { type ContractConfig, configSchema, parseConfig } from './gate/config.js';
export type { CheckSelection } from './gate/filters.js';
export { applyGate, type GateOptions } from './gate/gate.js';
export { contractVersion } from './generated/version.js';
export {
  type ContractProxy,
  type ContractProxyOptions,
  startContractProxy,
} from './proxy/proxy.js';
export type { Cause } from './proxy/traffic-checker.js';
export {
  formatTrafficReport,
  type TrafficReport,
  type TrafficReportInput,
  trafficReport,
} from './proxy/traffic-report.js';
export { type ReplayOptions, replayRecording } from './replay/replay.js';
export { type ContractReport, FAIL_ON_VALUES, type FailOn, type Verdict } from './report.js';
export { formatGithub } from './reports/github.js';
export {
  formatBounded,
  formatters,
  REPORT_FORMATS,
  REPORT_LIMITS,
  type ReportFormat,
} from './reports/index.js';
export { formatJson, reportJsonSchema } from './reports/json.js';
export { formatJunit } from './reports/junit.js';
export { formatMarkdown } from './reports/markdown.js';
export { formatSarif } from './reports/sarif.js';
export { formatText } from './reports/text.js';
export type { Clock } from './runner/clock.js';
export type { ExchangeRecord } from './runner/exchange-record.js';
export {
  type ContractCheckOptions,
  type ContractRun,
  DEFAULTS,
  runContract,
  runContractCheck,
} from './runner/run.js';
export type { CheckId } from './scenarios/index.js';
export type { Provenance, ProvenanceKind, ResolvedElement } from './spec/elements.js';
