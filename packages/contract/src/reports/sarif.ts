// The SARIF 2.1.0 report (`--format sarif`) for code-scanning tabs: one rule per check with its provenance, one result per failed check located on the spec's line (a traffic check with its cause), known failures suppressed.
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import { exitCodeFor } from '../report.js';
import { cleanTargetText } from '../untrusted-text.js';
import { baselineLine, elementLine, evidenceLines, provenanceLine } from './shared.js';

/** Where the tool is documented (SARIF's `tool.driver.informationUri`). */
export const SARIF_INFORMATION_URI =
  'https://github.com/payment-service/payment-service-kit/tree/main/packages/contract#readme';

/** Whether the policy counts a failure of this check (then the result is an error, else a warning). */
function counted(check: CheckResult, report: ContractReport): boolean {
  const kind = check.element.provenance.kind;
  return (
    exitCodeFor(
      {
        failedDocumented: kind === 'documented' ? 1 : 0,
        failedInferred: kind === 'inferred' ? 1 : 0,
      },
      report.policy.failOn,
    ) === 1
  );
}

/** What a traffic check's cause (`proxy`, `replay`) says in a result's message. */
const CAUSE_LINES = {
  request:
    "cause: your request: the app sent what the spec does not allow (not the provider's drift)",
  answer: "cause: the target's answer drifts from the spec",
} as const;

/** Text for SARIF: what the target sent is already cleaned by the ledger; clean and cap it again here. */
const text = (value: string, max = 2000) => cleanTargetText(value, max);

/** MESSAGE_CHARS at most: each line cleaned (a newline the target sent stays escaped), joined by real newlines. */
const MESSAGE_CHARS = 4000;
function messageText(lines: string[]): string {
  const joined = lines.map((line) => text(line)).join('\n');
  if (joined.length <= MESSAGE_CHARS) return joined;
  const kept = [...joined.slice(0, MESSAGE_CHARS)].slice(0, -1).join('');
  return `${kept}… (${joined.length - kept.length} more characters)`;
}

/**
 * Renders a report as a SARIF 2.1.0 log: `runs[0].tool.driver.rules` holds every check that ran
 * (its provenance in `properties`), `results` every failed check on its spec line, known failures
 * with an external suppression and `baselineState: unchanged`.
 *
 * @example
 * writeFileSync('contract.sarif', formatSarif(report));
 */
export function formatSarif(report: ContractReport): string {
  const ruleIds = [...new Set(report.checks.map((check) => check.id))];
  const index = new Map(ruleIds.map((id, position) => [id, position]));
  const first = new Map<string, CheckResult>();
  for (const check of report.checks) if (!first.has(check.id)) first.set(check.id, check);
  const rules = ruleIds.map((id) => {
    const check = first.get(id) as CheckResult;
    const { provenance } = check.element;
    return {
      id: text(id, 200),
      name: text(id, 200),
      shortDescription: { text: text(check.title, 500) },
      fullDescription: {
        text: text(`${check.title}. ${elementLine(check)}; ${provenanceLine(check)}`),
      },
      helpUri: SARIF_INFORMATION_URI,
      defaultConfiguration: { level: counted(check, report) ? 'error' : 'warning' },
      properties: {
        provenance: provenance.kind,
        ...(provenance.section ? { 'provenance.section': provenance.section } : {}),
        ...(provenance.note ? { 'provenance.note': text(provenance.note, 500) } : {}),
        'spec.pointer': text(check.element.pointer, 500),
        ...(check.element.value !== undefined
          ? { 'spec.value': text(check.element.value, 200) }
          : {}),
        kind: check.kind,
        ...(check.cause ? { cause: check.cause } : {}),
        tags: ['contract', provenance.kind, ...(check.cause === 'request' ? ['request'] : [])],
      },
    };
  });
  const results = report.checks
    .filter((check) => check.outcome === 'failed')
    .map((check) => {
      const known = check.baseline?.state === 'known';
      const lines = [
        `${check.title} (${check.operation})`,
        ...(check.cause ? [CAUSE_LINES[check.cause]] : []),
        `provenance: ${provenanceLine(check)}`,
        ...(check.baseline ? [`baseline: ${baselineLine(check)}`] : []),
        ...evidenceLines(check).map(([label, value]) => `${label}: ${value}`),
      ];
      return {
        ruleId: text(check.id, 200),
        ruleIndex: index.get(check.id) ?? 0,
        level: known ? 'note' : counted(check, report) ? 'error' : 'warning',
        message: { text: messageText(lines) },
        locations: [
          {
            ...(check.element.file
              ? {
                  physicalLocation: {
                    artifactLocation: { uri: check.element.file },
                    ...(check.element.line !== undefined
                      ? { region: { startLine: check.element.line } }
                      : {}),
                  },
                }
              : {}),
            logicalLocations: [
              {
                name: text(check.operation, 200),
                fullyQualifiedName: text(`${check.operation}/${check.id}`, 400),
                kind: 'function',
              },
            ],
          },
        ],
        partialFingerprints: {
          'contractCheck/v1': text(`${check.operation}/${check.id}`, 400),
        },
        ...(report.baseline ? { baselineState: check.baseline ? 'unchanged' : 'new' } : {}),
        ...(known
          ? {
              suppressions: [
                {
                  kind: 'external',
                  status: 'accepted',
                  justification: text(check.baseline?.reason ?? '', 500),
                },
              ],
            }
          : {}),
        properties: {
          provenance: check.element.provenance.kind,
          ...(check.cause ? { cause: check.cause } : {}),
          operation: text(check.operation, 200),
          failures: check.failures,
          runs: check.runs,
        },
      };
    });
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'payment-service-contract',
            fullName: text(`${report.tool.name} ${report.tool.version}`, 200),
            version: text(report.tool.version, 100),
            semanticVersion: text(report.tool.version, 100),
            informationUri: SARIF_INFORMATION_URI,
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: report.exitCode <= 1,
            exitCode: report.exitCode,
            startTimeUtc: report.startedAt,
            ...(report.exitCode > 1
              ? {
                  toolExecutionNotifications: [
                    { level: 'error', message: { text: text(report.message) } },
                  ],
                }
              : {}),
          },
        ],
        results,
        properties: {
          seed: report.seed,
          verdict: report.verdict,
          message: text(report.message),
          target: text(report.target.baseUrl, 500),
          summary: report.summary,
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
