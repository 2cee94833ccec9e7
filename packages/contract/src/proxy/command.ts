// The `proxy` and `replay` commands: run them, write their reports (proxy: at SIGINT/SIGTERM and on demand at SIGUSR2), return the exit code.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ReportDestination } from '../cli/args.js';
import { helpText } from '../cli/help.js';
import type { CliIo } from '../cli/main.js';
import { writeBaselineFile } from '../gate/baseline.js';
import { loadConfig } from '../gate/config.js';
import { contractVersion } from '../generated/version.js';
import { replayRecording } from '../replay/replay.js';
import { maskSecrets } from '../runner/exchange-record.js';
import {
  type ProxyCommand,
  parseTrafficCommand,
  type ReplayCommand,
  trafficConfigFile,
} from './args.js';
import { maskDecodedSecrets } from './decoded-secrets.js';
import { type ParentWatch, watchParent } from './parent-watch.js';
import { startContractProxy } from './proxy.js';
import { trafficGate, validateTrafficSelection } from './traffic-gate.js';
import { formatTrafficReport, type TrafficGate, type TrafficReport } from './traffic-report.js';

/** The signals the proxy listens to: the process's, or a test's. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
}

/** What `proxy` needs besides the CLI's streams. */
export interface TrafficIo extends CliIo {
  /** Default: the process. */
  signals?: SignalSource;
  /** Called once the proxy listens, with its URL (tests learn the port from it). */
  onListening?: (url: string) => void;
  /**
   * Stops the proxy as SIGTERM does once the process that started it ends (under `npx`, npm's
   * shell dies on SIGTERM without passing it on), when `--parent-watch` says so. Default: this
   * process's parent.
   */
  parent?: ParentWatch;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The signal that writes the reports (and the recording) on demand, without stopping the proxy. */
export const REPORT_SIGNAL: NodeJS.Signals = 'SIGUSR2';

async function writeReports(
  io: CliIo,
  destinations: ReportDestination[],
  report: TrafficReport,
  verdictToStdout: boolean,
) {
  for (const destination of destinations) {
    // Keys however the traffic carried them (percent-encoded, JSON-escaped, base64): the recording's masker.
    const text = maskSecrets(maskDecodedSecrets(formatTrafficReport(destination.format, report)));
    if (destination.output === undefined) {
      io.stdout.write(text);
      continue;
    }
    const path = resolve(io.cwd, destination.output);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    io.stderr.write(`wrote the ${destination.format} report to ${destination.output}\n`);
  }
  if (verdictToStdout && destinations.every((destination) => destination.output !== undefined))
    io.stdout.write(`${maskSecrets(maskDecodedSecrets(report.message))}\n`);
}

/**
 * The gate of a command, its baseline read; `final` adds `--update-baseline`'s writing (the proxy's
 * reports on demand judge against the baseline as it is, and write none).
 */
async function gateOf(command: ProxyCommand | ReplayCommand, io: CliIo) {
  const gate: TrafficGate = await trafficGate(command.gate, io.cwd);
  let next: Parameters<typeof writeBaselineFile>[2] | undefined;
  const final: TrafficGate = command.gate.updateBaseline
    ? {
        ...gate,
        updateBaseline: (baseline) => {
          next = baseline;
        },
      }
    : gate;
  const writeBaseline = async () => {
    if (next && command.gate.baseline !== undefined)
      io.stderr.write(await writeBaselineFile(io.cwd, command.gate.baseline, next));
  };
  return { gate, final, writeBaseline };
}

/**
 * Whether the proxy stops once the process that started it ends: under npx or `npm exec` (npm's
 * shell dies on SIGTERM without passing it on) unless `--parent-watch off`; elsewhere (the bin
 * itself, `nohup`, a subshell, a CI step whose shell ends before the next step uses the proxy)
 * only with `--parent-watch on`.
 */
function watchesParent(command: ProxyCommand, io: TrafficIo): boolean {
  if (command.parentWatch !== 'auto') return command.parentWatch === 'on';
  return io.env.npm_command === 'exec';
}

async function runProxy(command: ProxyCommand, io: TrafficIo): Promise<number> {
  const signals = io.signals ?? process;
  // An unknown operation or a glob that matches no check is said before anything listens.
  validateTrafficSelection(command.gate.selection);
  const { gate, final, writeBaseline } = await gateOf(command, io);
  const proxy = await startContractProxy({
    target: command.target,
    host: command.host,
    port: command.port,
    failOn: command.failOn,
    maxBodyBytes: command.maxBodyBytes,
    upstreamTimeoutMs: command.upstreamTimeoutMs,
    ...(command.record !== undefined ? { record: { maxEntries: command.recordMaxEntries } } : {}),
  });
  const recordPath = command.record === undefined ? undefined : resolve(io.cwd, command.record);
  const writeRecording = async () => {
    if (!proxy.recording || !recordPath) return;
    await proxy.recording.write(recordPath);
    io.stderr.write(
      `wrote the recording to ${command.record} (${plural(proxy.recording.document().log.entries.length, 'exchange')}${proxy.recording.dropped > 0 ? `, ${proxy.recording.dropped} past its cap not recorded` : ''})\n`,
    );
  };
  io.stderr.write(
    `payment-service-contract ${contractVersion}: proxy ${proxy.url} → ${command.target}; every exchange is checked against the spec. Reports at SIGINT or SIGTERM, and on demand with kill -USR2 ${process.pid}\n`,
  );
  if (command.host !== '127.0.0.1' && command.host !== '::1' && command.host !== 'localhost')
    io.stderr.write(
      `payment-service-contract: listening on ${command.host}, not loopback: anyone who reaches it can send requests through it to the target\n`,
    );
  io.onListening?.(proxy.url);
  let writing = Promise.resolve();
  const onDemand = () => {
    writing = writing.then(async () => {
      try {
        const report = await proxy.report(gate);
        await writeReports(io, command.reports, report, false);
        await writeRecording();
      } catch (error) {
        io.stderr.write(
          `payment-service-contract: could not write the reports: ${maskSecrets(String((error as Error).message))}\n`,
        );
      }
    });
  };
  await new Promise<void>((done) => {
    let unwatch: () => void = () => {};
    const stop = () => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      signals.off(REPORT_SIGNAL, onDemand);
      unwatch();
      done();
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
    signals.on(REPORT_SIGNAL, onDemand);
    if (watchesParent(command, io)) {
      io.stderr.write(
        'payment-service-contract: started by npx (npm exec): stops once npx ends, reports written (--parent-watch off keeps it running)\n',
      );
      unwatch = (io.parent ?? watchParent()).onGone(() => {
        io.stderr.write(
          'payment-service-contract: the process that started the proxy ended (npx passes no SIGTERM on): stopping as at SIGTERM (--parent-watch off keeps it running)\n',
        );
        stop();
      });
    }
  });
  await writing;
  await proxy.close();
  const report = await proxy.report(final);
  await writeBaseline();
  await writeReports(io, command.reports, report, true);
  await writeRecording();
  return report.exitCode;
}

/**
 * Runs `proxy` or `replay` from the command line; returns the exit code (0 passed, 1 failures
 * under `--fail-on`, 2 usage or an unusable recording, 4 no verdict). Throws ConfigurationError for
 * usage mistakes (the CLI prints it and exits 2).
 *
 * @example
 * process.exitCode = await runTrafficCommand(['replay', 'traffic.har', '--spec', 'next.yaml'], io);
 */
export async function runTrafficCommand(argv: string[], io: TrafficIo): Promise<number> {
  const help = argv.some((arg) => arg === '--help' || arg === '-h');
  const config = help ? undefined : await loadConfig(io.cwd, trafficConfigFile(argv));
  const command = parseTrafficCommand(argv, io.env, config);
  if (command.name === 'help') {
    io.stdout.write(helpText(command.topic));
    return 0;
  }
  if (command.name === 'proxy') return runProxy(command, io);
  const { final, writeBaseline } = await gateOf(command, io);
  const report = await replayRecording({
    file: resolve(io.cwd, command.file),
    ...(command.spec !== undefined ? { specFile: resolve(io.cwd, command.spec), cwd: io.cwd } : {}),
    failOn: command.failOn,
    gate: final,
  });
  await writeBaseline();
  await writeReports(io, command.reports, report, true);
  return report.exitCode;
}
