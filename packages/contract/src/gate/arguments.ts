// The gate's flags (--operation, --check, --provenance, --exclude, --baseline, --update-baseline, --seed, --config): their parseArgs table, their values merged over the config file's, and their help.
import { ConfigurationError } from '../errors.js';
import type { ContractConfig } from './config.js';
import type { CheckSelection } from './filters.js';
import { MAX_SEED } from './seed.js';

/** The gate's options, for node:util parseArgs (spread into a command's table). */
export const GATE_OPTIONS = {
  operation: { type: 'string', multiple: true },
  check: { type: 'string', multiple: true },
  provenance: { type: 'string' },
  exclude: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  seed: { type: 'string' },
  config: { type: 'string' },
} as const;

/** The gate's settings from the flags and the config file. */
export interface GateArguments {
  selection: CheckSelection;
  /** The baseline file, relative to the working directory. */
  baseline?: string;
  updateBaseline: boolean;
  seed?: number;
}

/** The values parseArgs gives for GATE_OPTIONS. */
export interface GateValues {
  operation?: string[];
  check?: string[];
  provenance?: string;
  exclude?: string[];
  baseline?: string;
  'update-baseline'?: boolean;
  seed?: string;
}

/**
 * The gate's settings: each flag, else the config file's setting; throws a ConfigurationError
 * (exit 2) naming the flag. Operation ids and globs are checked against the checks by the run.
 *
 * @example
 * gateArguments({ operation: ['createPayment'], seed: '42' }); // { selection: { operations: ['createPayment'] }, seed: 42, updateBaseline: false }
 */
export function gateArguments(values: GateValues, config: ContractConfig = {}): GateArguments {
  const provenance = values.provenance ?? config.provenance;
  if (provenance !== undefined && provenance !== 'documented' && provenance !== 'inferred') {
    throw new ConfigurationError(
      `--provenance must be documented or inferred, not ${JSON.stringify(provenance)}`,
    );
  }
  const operations = values.operation ?? config.operations;
  const checks = values.check ?? config.checks;
  const exclude = values.exclude ?? config.exclude;
  const selection: CheckSelection = {
    ...(operations?.length ? { operations } : {}),
    ...(checks?.length ? { checks } : {}),
    ...(provenance ? { provenance } : {}),
    ...(exclude?.length ? { exclude } : {}),
  };
  let seed = config.seed;
  if (values.seed !== undefined) {
    seed = /^\d+$/.test(values.seed) ? Number(values.seed) : Number.NaN;
    if (!Number.isSafeInteger(seed) || seed > MAX_SEED) {
      throw new ConfigurationError(
        `--seed must be a whole number from 0 to ${MAX_SEED}, not ${JSON.stringify(values.seed)}`,
      );
    }
  }
  const baseline = values.baseline ?? config.baseline;
  const updateBaseline = values['update-baseline'] === true;
  if (updateBaseline && baseline === undefined) {
    throw new ConfigurationError(
      '--update-baseline needs --baseline FILE: the file to write (created when missing)',
    );
  }
  return {
    selection,
    updateBaseline,
    ...(baseline !== undefined ? { baseline } : {}),
    ...(seed !== undefined ? { seed } : {}),
  };
}

/**
 * The help of the gate's flags, for `check --help` and `list --help`.
 *
 * @example
 * process.stdout.write(gateHelp());
 */
export function gateHelp(): string {
  return `  --operation ID         only the checks of this operation (repeatable): createPayment, listPayments, …
                         (and errors, routes, webhooks); only the scenarios they need run
  --check GLOB           only the checks whose id matches (repeatable; * any characters, ? one)
  --provenance KIND      only documented, or only inferred, checks
  --exclude GLOB         not the checks whose id matches (repeatable)
  --baseline FILE        known failures (JSON: check, operation, reason, expires YYYY-MM-DD): reported
                         as known and not failing the run; an expired entry fails it again
  --update-baseline      write the run's failures to the --baseline FILE (keeping the reasons given;
                         a new entry's reason says TODO), then judge the run against it
  --seed N               repeat a run's markers, keys and Idempotency-Keys (0 to ${MAX_SEED});
                         every report prints the seed it ran with
  --config FILE          settings from a file (default ./payment-service-contract.config.json);
                         flags override it
`;
}
