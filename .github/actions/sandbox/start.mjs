// The sandbox action: starts `payment-service-mock --port 0 --ready-json` in the background, waits
// for its ready line and gives its base URL, key and webhook secret (masked) as step outputs. The
// sandbox keeps running for the job's later steps; its process id is an output to stop it.
// Plain Node (no dependencies), so that it runs on any runner and its test runs it as it is.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { input, mask, setOutput, splitCommand } from '../shared/workflow-commands.mjs';

/**
 * Reads the action's inputs into the command to start and where its output goes; throws on a
 * wrong input, naming it.
 *
 * @example
 * planSandbox({ INPUT_VERSION: '0.2.0', RUNNER_TEMP: '/tmp' });
 */
export function planSandbox(env) {
  const version = input(env, 'version') || 'latest';
  const command = splitCommand(
    input(env, 'command') || `npx --yes @payment-service/mock@${version}`,
  );
  const timeoutText = input(env, 'timeout-seconds') || '120';
  const timeoutSeconds = Number(timeoutText);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(timeoutText) || timeoutSeconds <= 0) {
    throw new Error(`timeout-seconds must be a positive number; got "${timeoutText}"`);
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
  };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The last lines of the sandbox's log, for an error message. */
function logTail(logFile) {
  try {
    return readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
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
    throw new Error(`could not start ${plan.command}: ${started.message}`);
  }

  const deadline = Date.now() + plan.timeoutMs;
  let line;
  while (line === undefined) {
    const text = readFileSync(plan.readyFile, 'utf8');
    const end = text.indexOf('\n');
    if (end !== -1) line = text.slice(0, end);
    else if (exited !== undefined) {
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
  // Masked before anything else can print them.
  mask(ready.key);
  mask(ready.webhook_secret);
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
    process.stdout.write(`::error title=sandbox::${error.message.replace(/\n/g, '%0A')}\n`);
    process.exitCode = 1;
  }
}
