// GitHub Actions' file commands and workflow commands, for the scripts of this repository's actions.

import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { cleanTargetText } from './untrusted-text.mjs';

/**
 * Hides `value` in every later line of the job's log (`::add-mask::`). Call it before the value
 * can reach any output.
 *
 * @example
 * mask(process.env.INPUT_KEY);
 */
export function mask(value, write = (line) => process.stdout.write(line)) {
  if (value === undefined || value === null || value === '') return;
  for (const line of String(value).split(/\r?\n/)) {
    if (line !== '') write(`::add-mask::${line}\n`);
  }
}

/**
 * One `::error` workflow command on one line: the message escaped as GitHub's runner reads it
 * (`%`, CR and LF as `%25`, `%0D`, `%0A`), so nothing in it can start a command of its own.
 *
 * @example
 * process.stdout.write(errorCommand('sandbox', 'the sandbox exited\nits log: …'));
 */
export function errorCommand(title, message) {
  const escapeData = (text) =>
    String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::error title=${property(title)}::${escapeData(message)}\n`;
}

/**
 * An input's value quoted in a message: control, line-separator and bidi characters as `\uXXXX`
 * escapes and cut at 200 characters, as the contract's reports show a target's text.
 *
 * @example
 * `fail-on must be one of …; got ${quoteInput('never\n::add-mask::x')}`; // '"never\\u000a::add-mask::x"'
 */
export function quoteInput(value) {
  return `"${cleanTargetText(String(value), 200)}"`;
}

/**
 * Appends one step output to `$GITHUB_OUTPUT`: `name=value`, or the heredoc form
 * (`name<<DELIMITER`) when the value spans lines, as GitHub documents.
 *
 * @example
 * setOutput(process.env, 'verdict', 'passed');
 */
export function setOutput(env, name, value) {
  const file = env.GITHUB_OUTPUT;
  if (file === undefined || file === '') throw new Error('GITHUB_OUTPUT is not set');
  const text = value === undefined || value === null ? '' : String(value);
  if (!/[\r\n]/.test(text)) {
    appendFileSync(file, `${name}=${text}\n`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${text}\n${delimiter}\n`);
}

/**
 * Appends Markdown to the job summary (`$GITHUB_STEP_SUMMARY`), if the runner gives one.
 *
 * @example
 * appendSummary(process.env, '## Contract check: passed\n');
 */
export function appendSummary(env, markdown) {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file === undefined || file === '') return;
  appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

/**
 * Splits a command given as one input (`npx --yes pkg@1 check`) into its words; quotes
 * ('…' or "…") keep spaces inside one word.
 *
 * @example
 * splitCommand('node "my dir/bin.js" check'); // ['node', 'my dir/bin.js', 'check']
 */
export function splitCommand(text) {
  const words = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]);
  return words;
}

/** An input of a composite action, passed as `INPUT_<NAME>`; trimmed, '' when not given. */
export function input(env, name) {
  return (env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
}

/**
 * The version of one of the kit's packages in the checkout this action runs from
 * (`payment-service/payment-service-kit/.github/actions/sandbox@v0.2.0` runs 0.2.0): the default
 * of the actions' `version` input, so an action never runs a package newer than itself.
 *
 * @example
 * checkoutVersion('mock'); // '0.1.0'
 */
export function checkoutVersion(name) {
  const file = new URL(`../../../packages/${name}/package.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')).version;
}

/**
 * What to say when npm has no such package version (npx printed `E404`): the kit is used from a
 * checkout before its first release.
 *
 * @example
 * notOnNpm('@payment-service/mock', '0.1.0', 'node packages/mock/bin/payment-service-mock.js');
 */
export function notOnNpm(name, version, bin) {
  return (
    `${name}@${version} is not on the npm registry (the kit is not published yet, or not that version). ` +
    'Before its first release, check out and build the kit (npm run setup, then npx turbo run build) ' +
    `and pass the command input: command: ${bin} (see "GitHub in one step" in the contract's README)`
  );
}

/** Whether npm's output says the package or version does not exist. */
export function saysNotFound(text) {
  return /\bE404\b|404 Not Found/.test(text);
}
