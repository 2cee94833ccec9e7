// The gate of `proxy` and `replay`: every check their traffic can report (the answers' and the requests'), so a selection is checked as `check`'s is, and the baseline read and written as `check`'s is.
import { resolve } from 'node:path';
import type { CheckDefinition } from '../checks/ledger.js';
import type { GateArguments } from '../gate/arguments.js';
import { type Baseline, readBaseline } from '../gate/baseline.js';
import {
  type CheckSelection,
  isEmptySelection,
  type KnownCheck,
  validateSelection,
} from '../gate/filters.js';
import type { GateOptions } from '../gate/gate.js';
import { resolveElement } from '../spec/elements.js';
import { type SpecDocument, type SpecName, specDocuments } from '../spec/spec-index.js';
import { createResponseValidator } from '../validation/response-validator.js';
import { createRequestValidator } from './request-validator.js';
import { createPaymentFacts } from './traffic-facts.js';

/** A success-token capture answered as sent: makes `createPaymentFacts` declare its checks. */
const FACTS_REQUEST = {
  amount: 1,
  currency: 'KZT',
  payment_method: { type: 'token', token: 'tok_test_success' },
};

/**
 * Every check a proxy's or a replay's traffic can report against these documents: each operation's
 * answer checks (as `check`'s spec checks), the create-payment facts, and the request checks
 * (`request.*`, on the operation the request addressed; `routes` for an undeclared route).
 *
 * @example
 * trafficChecks().filter((check) => check.id.startsWith('request.')).length > 0; // true
 */
export function trafficChecks(
  documents: Record<SpecName, SpecDocument> = specDocuments,
): KnownCheck[] {
  const seen = new Map<string, KnownCheck>();
  const add = (definition: CheckDefinition) => {
    const key = `${definition.operation}\u0000${definition.id}`;
    if (seen.has(key)) return;
    seen.set(key, {
      id: definition.id,
      operation: definition.operation,
      provenance: resolveElement(definition.element, documents).provenance.kind,
      kind: 'schema',
      title: definition.title,
    });
  };
  for (const check of createResponseValidator(documents).declaredChecks()) add(check);
  for (const check of createPaymentFacts(FACTS_REQUEST, { ...FACTS_REQUEST, status: 'SUCCEEDED' })
    .checks)
    add({ ...check, operation: 'createPayment' });
  for (const check of createRequestValidator(documents).declaredChecks()) add(check);
  return [...seen.values()];
}

/**
 * Checks a traffic command's selection against the checks its traffic can report; throws a
 * ConfigurationError (exit 2) naming the flag, as `check` does.
 *
 * @example
 * validateTrafficSelection({ operations: ['createPaymnt'] }); // throws: --operation "createPaymnt" is not an operation; …
 */
export function validateTrafficSelection(
  selection: CheckSelection,
  documents: Record<SpecName, SpecDocument> = specDocuments,
): void {
  if (!isEmptySelection(selection)) validateSelection(selection, trafficChecks(documents));
}

/**
 * The gate a traffic command runs under, from its settings: the selection and the baseline file
 * read (a missing one is empty with `--update-baseline`).
 *
 * @example
 * const gate = await trafficGate(command.gate, io.cwd);
 */
export async function trafficGate(
  settings: GateArguments,
  cwd: string,
): Promise<Omit<GateOptions, 'today'>> {
  const baseline: Baseline | undefined =
    settings.baseline === undefined
      ? undefined
      : await readBaseline(
          resolve(cwd, settings.baseline),
          settings.baseline,
          settings.updateBaseline,
        );
  return {
    ...(isEmptySelection(settings.selection) ? {} : { selection: settings.selection }),
    ...(baseline ? { baseline } : {}),
  };
}
