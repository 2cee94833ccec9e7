// GitHub Actions workflow commands: one annotation per failed check on the spec line of the element it enforces.
import type { CheckResult } from '../checks/ledger.js';
import type { ContractReport } from '../report.js';
import { exitCodeFor } from '../report.js';
import { evidenceLines, provenanceLine } from './shared.js';

/** Escapes a workflow command's message (GitHub's rules: %, CR, LF). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value (also : and ,). */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Whether the policy counts a failure of this check (then it is an error, else a warning). */
function counts(check: CheckResult, report: ContractReport): boolean {
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

/**
 * Renders a report as GitHub Actions annotations, written to the job's stdout (`--format github`).
 *
 * @example
 * process.stdout.write(formatGithub(report));
 * // ::error file=spec/openapi.yaml,line=1381,title=[documented] createPayment.captured-is-succeeded::expected status SUCCEEDED%0Agot …
 */
export function formatGithub(report: ContractReport): string {
  const lines: string[] = [];
  for (const check of report.checks.filter((item) => item.outcome === 'failed')) {
    const command =
      check.baseline?.state === 'known' ? 'notice' : counts(check, report) ? 'error' : 'warning';
    const location: Record<string, string> = {};
    if (check.element.file && check.element.line !== undefined) {
      location.file = check.element.file;
      location.line = String(check.element.line);
    }
    location.title = `[${check.baseline?.state === 'known' ? 'known ' : ''}${check.element.provenance.kind}] ${check.id}`;
    const properties = Object.entries(location)
      .map(([name, value]) => `${name}=${escapeProperty(value)}`)
      .join(',');
    const message = [
      `${check.title} (${check.operation})`,
      `provenance: ${provenanceLine(check)}`,
      ...evidenceLines(check).map(([label, value]) => `${label}: ${value}`),
    ].join('\n');
    lines.push(`::${command} ${properties}::${escapeData(message)}`);
  }
  const level = report.exitCode === 0 ? 'notice' : 'error';
  lines.push(
    `::${level} title=${escapeProperty('payment-service-contract')}::${escapeData(`${report.message} (seed ${report.seed})`)}`,
  );
  return `${lines.join('\n')}\n`;
}
