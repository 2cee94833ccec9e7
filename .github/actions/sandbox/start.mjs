// The sandbox action: starts `payment-service-mock --port 0 --ready-json` in the background, waits
// for its ready line and gives its base URL, key and webhook secret (masked) as step outputs. The
// sandbox keeps running for the job's later steps; its process id is an output to stop it.
// Plain Node (no dependencies), so that it runs on any runner and its test runs it as it is.
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanTargetText } from '../shared/untrusted-text.mjs';
import {
  checkoutVersion,
  errorCommand,
  input,
  mask,
  notOnNpm,
  quoteInput,
  saysNotFound,
  setOutput,
  splitCommand,
} from '../shared/workflow-commands.mjs';

/**
 * Reads the action's inputs into the command to start and where its output goes; throws on a
 * wrong input, naming it.
 *
 * @example
 * planSandbox({ INPUT_VERSION: '0.2.0', RUNNER_TEMP: '/tmp' });
 */
export function planSandbox(env) {
  const version = input(env, 'version') || checkoutVersion('mock');
  const own = input(env, 'command');
  const command = splitCommand(own || `npx --yes @payment-service/mock@${version}`);
  const timeoutText = input(env, 'timeout-seconds') || '120';
  const timeoutSeconds = Number(timeoutText);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(timeoutText) || timeoutSeconds <= 0) {
    throw new Error(`timeout-seconds must be a positive number; got ${quoteInput(timeoutText)}`);
  }
  const dir = env.RUNNER_TEMP || tmpdir();
  const logFile = resolve(
    input(env, 'log-file') || join(dir, `payment-service-mock-${process.pid}.log`),
  );
  return {
    command: command[0],
    args: [...command.slice(1), '--port', '0', '--ready-json', ...splitCommand(input(env, 'args'))],
    timeoutMs: timeoutSeconds * 1000,
    readyFile: join(dir, `payment-service-mock-${process.pid}.ready.json`),
    logFile,
    // Said when npx finds no such package (before the kit's first release).
    npmPackage: own === '' ? { name: '@payment-service/mock', version } : undefined,
  };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The last lines of the sandbox's log, for an error message. */
function logTail(logFile) {
  try {
    return readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .slice(-20)
      .map((line) => cleanTargetText(line, 300))
      .join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Overwrites every occurrence of each secret in a file, from byte `from` on, with a mask of the
 * same length (its `sk_test_` or `whsec_` prefix kept, `*` for the rest), in place: the sandbox
 * keeps appending to the file while this runs, and nothing it wrote moves. A file that is not a
 * regular one (a pipe, /dev/null) is left alone. Returns how many occurrences were masked.
 *
 * @example
 * maskSecretsInFile('/tmp/mock.log', 0, ['sk_test_abc12345']); // 2
 */
export function maskSecretsInFile(file, from, secrets) {
  const wanted = secrets.filter((secret) => typeof secret === 'string' && secret.length > 0);
  if (wanted.length === 0) return 0;
  const fd = openSync(file, 'r+');
  try {
    const { size } = fstatSync(fd);
    if (!fstatSync(fd).isFile() || size <= from) return 0;
    const text = Buffer.alloc(size - from);
    let read = 0;
    while (read < text.length) {
      const got = readSync(fd, text, read, text.length - read, from + read);
      if (got === 0) break;
      read += got;
    }
    let masked = 0;
    for (const secret of wanted) {
      const needle = Buffer.from(secret);
      const prefix = /^(sk_test_|sk_live_|whsec_)/.exec(secret)?.[1] ?? '';
      const mask = Buffer.from(prefix + '*'.repeat(needle.length - prefix.length));
      for (
        let at = text.indexOf(needle);
        at !== -1 && at < read;
        at = text.indexOf(needle, at + 1)
      ) {
        writeSync(fd, mask, 0, mask.length, from + at);
        masked += 1;
      }
    }
    return masked;
  } finally {
    closeSync(fd);
  }
}

/**
 * Starts the sandbox detached (its own process group; stdout to a file, everything else to the
 * log file), waits for the ready line, and writes the outputs. Rejects, after stopping the
 * sandbox, when it exits first or no ready line comes within the time-out.
 *
 * @example
 * await startSandbox(process.env);
 */
export async function startSandbox(env) {
  const plan = planSandbox(env);
  const stdout = openSync(plan.readyFile, 'w');
  const stderr = openSync(plan.logFile, 'a');
  // Where this run's log starts: an earlier run's lines in the same file are not rewritten.
  const logStart = fstatSync(stderr).size;
  const child = spawn(plan.command, plan.args, {
    detached: true,
    stdio: ['ignore', stdout, stderr],
    env,
  });
  closeSync(stdout);
  closeSync(stderr);
  let exited;
  child.on('exit', (code, signal) => {
    exited = signal ?? `status ${code}`;
  });
  const started = await new Promise((done) => {
    child.on('error', (error) => done(error));
    child.on('spawn', () => done(undefined));
  });
  if (started instanceof Error) {
    throw new Error(
      `could not start ${quoteInput(plan.command)}: ${cleanTargetText(started.message, 300)}`,
    );
  }

  const deadline = Date.now() + plan.timeoutMs;
  let line;
  while (line === undefined) {
    const text = readFileSync(plan.readyFile, 'utf8');
    const end = text.indexOf('\n');
    if (end !== -1) line = text.slice(0, end);
    else if (exited !== undefined) {
      if (plan.npmPackage && saysNotFound(logTail(plan.logFile))) {
        const { name, version } = plan.npmPackage;
        throw new Error(notOnNpm(name, version, 'node packages/mock/bin/payment-service-mock.js'));
      }
      throw new Error(
        `the sandbox exited (${exited}) before it was ready; its log (${plan.logFile}):\n${logTail(plan.logFile)}`,
      );
    } else if (Date.now() > deadline) {
      stop(child.pid);
      throw new Error(
        `the sandbox printed no ready line within ${plan.timeoutMs / 1000} s (timeout-seconds); its log (${plan.logFile}):\n${logTail(plan.logFile)}`,
      );
    } else await sleep(100);
  }
  let ready;
  try {
    ready = JSON.parse(line);
  } catch {
    stop(child.pid);
    throw new Error(
      `the sandbox's first line on stdout is not its --ready-json line: ${line.slice(0, 200)}`,
    );
  }
  // Masked before anything else can print them: in the job's log, and in the log file, which a
  // workflow may upload as an artifact (the banner prints the key and the webhook secret).
  mask(ready.key);
  mask(ready.webhook_secret);
  try {
    maskSecretsInFile(plan.logFile, logStart, [ready.key, ready.webhook_secret]);
  } catch (error) {
    stop(child.pid);
    throw new Error(`could not mask the secrets in the log file ${plan.logFile}: ${error.message}`);
  }
  setOutput(env, 'base-url', ready.url);
  setOutput(env, 'key', ready.key);
  setOutput(env, 'webhook-secret', ready.webhook_secret ?? '');
  setOutput(env, 'pid', child.pid);
  setOutput(env, 'log-file', plan.logFile);
  process.stdout.write(
    `The sandbox listens on ${ready.url} (process ${child.pid}, log ${plan.logFile}).\n`,
  );
  // The sandbox outlives this step: nothing of this process holds it.
  child.unref();
  return { ...ready, pid: child.pid, logFile: plan.logFile };
}

/** Stops the sandbox's process group (the npx launcher and the sandbox under it). */
function stop(pid) {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await startSandbox(process.env);
  } catch (error) {
    process.stdout.write(errorCommand('sandbox', error.message));
    process.exitCode = 1;
  }
}
