// The command's stdout and stderr as log sinks that never fail: a write that cannot be made is dropped and counted, never the end of the sandbox.
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { LineSink } from '../shared/line-writer.js';
import type { CliOutput } from './run.js';

/** What the log lost since the start: lines dropped because their write failed, and why. */
export interface LogDrops {
  droppedLines: number;
  /** The error code (or message) of the last failed write; undefined if none failed. */
  lastError: string | undefined;
}

/** An output the sandbox may be writing to: `process.stdout`, `process.stderr`, or a fake. */
export interface OutputStream {
  write(chunk: string, callback?: (error?: Error | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Bytes the stream holds and has not written yet (a slow pipe's reader). */
  readonly writableLength?: number;
  /** Its file descriptor, when it has one. */
  readonly fd?: number;
}

/** More than this waiting in a stream (a pipe whose reader does not read) and new lines are dropped. */
export const MAX_PENDING_LOG_BYTES = 1 << 20;

/** How a safe output reports. */
export interface SafeOutputOptions {
  /** The name shown in reports: `stdout` or `stderr`. */
  name: string;
  /** Counts shared by the outputs of one process. */
  drops: LogDrops;
  /** Tells the operator, once, that lines are being dropped (best effort: it may fail too). */
  report(message: string): void;
}

/**
 * Wraps an output so that writing to it never throws nor emits an unhandled error: a write to a
 * regular file (a redirected log) or a device is made with `write(2)` directly, so that after a full disk
 * the next lines go through as soon as there is room; a pipe or a terminal is written as a
 * stream, with its errors caught. A line that cannot be written (full disk, closed pipe, a
 * reader more than 1 MiB behind) is dropped and counted in `drops`; the first drop of a run is
 * reported once, and the log says how many were dropped when it writes again.
 *
 * @example
 * const drops = { droppedLines: 0, lastError: undefined };
 * const stdout = safeOutput(process.stdout, { name: 'stdout', drops, report: (m) => stderr.write(m) });
 * stdout.write('POST /v1/payments 201\n'); // never throws
 */
export function safeOutput(stream: OutputStream, options: SafeOutputOptions): LineSink {
  const { drops, name } = options;
  let reported = false;
  /** Lines dropped and not yet told in the log itself (told by the next write that goes out). */
  let untold = 0;
  /** A write stopped in the middle of a line: the next write starts a line of its own. */
  let midLine = false;
  const dropped = (text: string, error: unknown) => {
    const lines = countLines(text);
    drops.droppedLines += lines;
    untold += lines;
    const code =
      (error as NodeJS.ErrnoException | undefined)?.code ?? (error as Error | undefined)?.message;
    drops.lastError = code ?? 'write failed';
    if (!reported) {
      reported = true;
      options.report(
        `payment-service-mock: cannot write the log to ${name} (${drops.lastError}); its lines are dropped and counted (see /_sandbox/health) until it can. The sandbox keeps serving.\n`,
      );
    }
  };
  /** What to write before the next chunk: a newline after a cut line, then how many were lost. */
  const preamble = (told: number): string =>
    `${midLine ? '\n' : ''}${
      told === 0
        ? ''
        : `payment-service-mock: ${told} log line${told === 1 ? '' : 's'} dropped (${drops.lastError}) before this one\n`
    }`;
  // Errors a stream emits (a pipe closed by its reader) are counted where the write failed.
  stream.on('error', () => {});
  if (writtenInPlace(stream.fd)) {
    const fd = stream.fd as number;
    return {
      write(chunk: string) {
        const told = untold;
        const before = Buffer.from(preamble(told), 'utf8');
        const buffer =
          before.length === 0
            ? Buffer.from(chunk, 'utf8')
            : Buffer.concat([before, Buffer.from(chunk, 'utf8')]);
        let written = 0;
        try {
          while (written < buffer.length) written += writeSync(fd, buffer, written);
        } catch (error) {
          // Whatever went out last decides whether the next write starts a line of its own.
          if (written > 0) midLine = buffer[written - 1] !== 10;
          if (written >= before.length) {
            untold -= told;
            dropped(buffer.subarray(written).toString('utf8'), error);
          } else {
            dropped(chunk, error);
          }
          return true;
        }
        untold -= told;
        midLine = false;
        return true;
      },
    };
  }
  return {
    write(chunk: string) {
      if ((stream.writableLength ?? 0) > MAX_PENDING_LOG_BYTES) {
        dropped(chunk, new Error('its reader is more than 1 MiB behind'));
        return false;
      }
      const told = untold;
      const text = preamble(told) + chunk;
      midLine = false;
      try {
        stream.write(text, (error) => {
          if (error) dropped(chunk, error);
          else untold -= told;
        });
      } catch (error) {
        dropped(chunk, error);
      }
      return true;
    },
  };
}

/** Lines in a chunk of log text (a last line without its newline counts). */
function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    lines++;
  }
  return text.endsWith('\n') ? lines : lines + 1;
}

/**
 * Whether `fd` is written in place with write(2): a regular file or a device (`/dev/full`),
 * never a pipe, a socket or a terminal, which are written as streams.
 */
function writtenInPlace(fd: number | undefined): boolean {
  if (typeof fd !== 'number') return false;
  try {
    // bigint: on Node 20 a plain fstatSync of a pipe leaves state that breaks the next module
    // resolution (import('ioredis') then failed: "Cannot find module '@ioredis/commands'").
    const stat = fstatSync(fd, { bigint: true });
    return stat.isFile() || (stat.isCharacterDevice() && !isatty(fd));
  } catch {
    return false;
  }
}

/**
 * The process's stdout and stderr as safe outputs sharing `drops`; the first drop is reported
 * on stderr (written directly, and not counted if that fails too).
 *
 * @example
 * const output = safeProcessOutput({ droppedLines: 0, lastError: undefined });
 * output.stdout.write('GET /v1/payments 200\n');
 */
export function safeProcessOutput(drops: LogDrops): CliOutput {
  const report = (message: string) => {
    try {
      writeSync(2, message);
    } catch {
      // stderr cannot be written either: the count in /_sandbox/health is all there is.
    }
  };
  return {
    stdout: safeOutput(process.stdout, { name: 'stdout', drops, report }),
    stderr: safeOutput(process.stderr, { name: 'stderr', drops, report }),
  };
}
