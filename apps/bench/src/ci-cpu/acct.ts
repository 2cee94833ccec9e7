// Reads Linux process accounting files (acct v3 records, as `accton FILE` writes them): one record per exited process.

/** One exited process: who started it, when, for how long, and the CPU it used. */
export interface AcctRecord {
  pid: number;
  /** The parent when it exited (an orphan's is the reaper's). */
  ppid: number;
  /** When it started, in seconds since the epoch (whole seconds). */
  startSeconds: number;
  /** How long it lived, in seconds. */
  elapsedSeconds: number;
  /** User and system CPU, in seconds. */
  cpuSeconds: number;
  /** The command name the kernel kept (at most 15 bytes: `node`, `npm install /tm`, …). */
  command: string;
}

/** The size of one `struct acct_v3` record. */
export const ACCT_V3_RECORD_BYTES = 64;
/** The kernel's accounting clock: `AHZ` ticks per second. */
const TICKS_PER_SECOND = 100;

/**
 * Decodes a `comp_t`: a 13-bit mantissa and a 3-bit base-8 exponent.
 *
 * @example
 * decodeCompT(0x2001); // 8
 */
export function decodeCompT(value: number): number {
  return (value & 0x1fff) * 8 ** (value >> 13);
}

/**
 * The records of an acct v3 file; refuses a file that is not one (wrong size or version), naming
 * the offset.
 *
 * @example
 * const records = readAcctV3(readFileSync('/tmp/pacct'));
 */
export function readAcctV3(file: Buffer): AcctRecord[] {
  if (file.length % ACCT_V3_RECORD_BYTES !== 0) {
    throw new Error(
      `not an acct v3 file: ${file.length} bytes is not a whole number of ${ACCT_V3_RECORD_BYTES}-byte records`,
    );
  }
  const records: AcctRecord[] = [];
  for (let offset = 0; offset < file.length; offset += ACCT_V3_RECORD_BYTES) {
    const version = file.readUInt8(offset + 1) & 0x0f;
    if (version !== 3) {
      throw new Error(`not an acct v3 record at offset ${offset}: version ${version}`);
    }
    const ticks =
      decodeCompT(file.readUInt16LE(offset + 32)) + decodeCompT(file.readUInt16LE(offset + 34));
    records.push({
      pid: file.readUInt32LE(offset + 16),
      ppid: file.readUInt32LE(offset + 20),
      startSeconds: file.readUInt32LE(offset + 24),
      elapsedSeconds: file.readFloatLE(offset + 28) / TICKS_PER_SECOND,
      cpuSeconds: ticks / TICKS_PER_SECOND,
      command: file.toString('latin1', offset + 48, offset + 64).replace(/\0[\s\S]*$/, ''),
    });
  }
  return records;
}
