// One shell line that reproduces a recorded request with curl, reading the key from the environment.
import type { ExchangeRecord } from '../runner/exchange-record.js';

/** Bodies longer than this are rebuilt by node from their runs of repeated characters. */
const INLINE_BODY_LIMIT = 1000;

/**
 * Quotes a string for a POSIX shell.
 *
 * @example
 * shellQuote("it's"); // `'it'\''s'`
 */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Splits a text into [chunk, repeat] runs, so a 80 kB padding is one short run. */
function runsOf(text: string): Array<[string, number]> {
  const runs: Array<[string, number]> = [];
  let literal = '';
  for (let index = 0; index < text.length; ) {
    let end = index + 1;
    while (end < text.length && text[end] === text[index]) end++;
    const length = end - index;
    if (length >= 32) {
      if (literal) runs.push([literal, 1]);
      literal = '';
      runs.push([text[index] as string, length]);
    } else literal += text.slice(index, end);
    index = end;
  }
  if (literal) runs.push([literal, 1]);
  return runs;
}

/**
 * The curl command that sends the recorded request again; the key is `$PAYMENT_SERVICE_API_KEY`.
 *
 * @example
 * curlCommand(record);
 * // curl -sS -i -X POST 'http://127.0.0.1:4010/v1/payments' -H "Authorization: Bearer $PAYMENT_SERVICE_API_KEY" -H 'content-type: application/json' --data-raw '{"amount":1000}'
 */
export function curlCommand(record: ExchangeRecord): string {
  const parts = ['curl -sS -i', `-X ${record.method}`, shellQuote(record.url)];
  for (const [name, value] of Object.entries(record.requestHeaders)) {
    if (name === 'user-agent') continue;
    parts.push(
      value.includes('$PAYMENT_SERVICE_API_KEY')
        ? `-H "${name}: ${value.replace(/"/g, '\\"')}"`
        : `-H ${shellQuote(`${name}: ${value}`)}`,
    );
  }
  const body = record.requestBody;
  if (body === undefined) return parts.join(' ');
  if (body.length <= INLINE_BODY_LIMIT)
    return [...parts, `--data-raw ${shellQuote(body)}`].join(' ');
  const script = `process.stdout.write(${JSON.stringify(runsOf(body))}.map(([s,n])=>s.repeat(n)).join(''))`;
  return `node -e ${shellQuote(script)} | ${[...parts, '--data-binary @-'].join(' ')}`;
}
