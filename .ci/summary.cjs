// Copies what `npm test` writes (its stdin) to file descriptor 3 (the CI step's output) as it
// comes, and prints one line at the end: vitest's per-package "Tests  N passed | M failed" lines
// summed. .ci/run reads the line; no log file is written (a killed step would leave it behind).
const { writeSync } = require('node:fs');
const { stripVTControlCharacters } = require('node:util');

/** Writes all of `chunk` to fd 3, waiting out a full non-blocking pipe. */
function passOn(chunk) {
  let offset = 0;
  while (offset < chunk.length) {
    try {
      offset += writeSync(3, chunk, offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
let partial = '';
function count(line) {
  const plain = stripVTControlCharacters(line);
  if (!/^\S*:?\s*Tests\s+[0-9]/.test(plain)) return;
  passed += Number(plain.match(/(\d+) passed/)?.[1] ?? 0);
  failed += Number(plain.match(/(\d+) failed/)?.[1] ?? 0);
  skipped += Number(plain.match(/(\d+) skipped/)?.[1] ?? 0);
}
process.stdin.on('data', (chunk) => {
  passOn(chunk);
  const lines = (partial + chunk.toString('utf8')).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) count(line);
});
process.stdin.on('end', () => {
  count(partial);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
});
