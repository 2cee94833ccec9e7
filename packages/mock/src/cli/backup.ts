// `payment-service-mock backup`: a consistent copy of a data directory, taken while its sandbox runs, that a sandbox starts from.
import { parseArgs } from 'node:util';
import { backupDataDirectory } from '../store/data-dir/backup.js';
import { DataDirectoryError } from '../store/data-dir/lock.js';
import type { CliOutput } from './run.js';

/** The help of `payment-service-mock backup`. */
export const BACKUP_HELP = `payment-service-mock backup — a consistent copy of a data directory, even while its sandbox runs

Usage: payment-service-mock backup --data-dir <dir> --to <new dir>

  --data-dir <dir>   The sandbox's data directory (default: $PAYMENT_SERVICE_MOCK_DATA_DIR)
  --to <dir>         Where to write the copy: a new or empty directory

The copy holds every change answered before it began, none half-written, and no LOCK: start a
sandbox from it with payment-service-mock --data-dir <new dir> (with the flags of the original).
`;

/**
 * Runs `payment-service-mock backup` with the arguments after `backup`. Returns the exit code:
 * 0 once the copy is written and checked, 1 when it cannot be made, 2 for a wrong option.
 *
 * @example
 * const code = runBackup(['--data-dir', './sandbox-data', '--to', './backup-1'], process.env, process);
 */
export function runBackup(
  args: string[],
  env: Record<string, string | undefined>,
  output: CliOutput,
): number {
  let values: { 'data-dir'?: string | undefined; to?: string | undefined; help?: boolean };
  try {
    values = parseArgs({
      args,
      options: {
        'data-dir': { type: 'string' },
        to: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    output.stderr.write(
      `payment-service-mock backup: ${(error as Error).message}\n\n${BACKUP_HELP}`,
    );
    return 2;
  }
  if (values.help === true) {
    output.stdout.write(BACKUP_HELP);
    return 0;
  }
  const source = values['data-dir'] ?? env.PAYMENT_SERVICE_MOCK_DATA_DIR;
  const target = values.to;
  if (source === undefined || source === '' || target === undefined || target === '') {
    output.stderr.write(
      `payment-service-mock backup: --data-dir (or $PAYMENT_SERVICE_MOCK_DATA_DIR) and --to are both needed\n\n${BACKUP_HELP}`,
    );
    return 2;
  }
  try {
    const { file, bytes, changes } = backupDataDirectory(source, target);
    output.stdout.write(
      `Backed up ${source} to ${file} (${bytes} bytes, ${changes} changes). Start from it with: payment-service-mock --data-dir ${target}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof DataDirectoryError)) throw error;
    output.stderr.write(`payment-service-mock backup: ${error.message}\n`);
    return 1;
  }
}
