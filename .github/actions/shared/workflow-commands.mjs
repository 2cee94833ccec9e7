// GitHub Actions' file commands and workflow commands, for the scripts of this repository's actions.

import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

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
