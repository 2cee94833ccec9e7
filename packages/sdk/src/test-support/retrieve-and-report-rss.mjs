// Test support, run as a child process: retrieves one payment with the built SDK from a base URL, then prints what
// happened and the process's peak resident memory as one JSON line (measured here, apart from the test runner).
// Usage: node retrieve-and-report-rss.mjs <path of dist/index.js> <baseUrl> [timeout ms]
import { pathToFileURL } from 'node:url';

const [entry, baseUrl, timeout = '20000'] = process.argv.slice(2);
const { createClient } = await import(pathToFileURL(entry).href);
const client = createClient({ apiKey: 'sk_test_hostileServerKey01', baseUrl, maxRetries: 0 });
const started = Date.now();
let outcome;
try {
  const payment = await client.payments.retrieve('pay_1', { timeout: Number(timeout) });
  outcome = { resolved: true, idLength: String(payment?.id ?? '').length };
} catch (error) {
  outcome = {
    resolved: false,
    name: error?.name,
    code: error?.code,
    message: String(error?.message).slice(0, 500),
  };
}
// maxRSS is in kibibytes.
const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(
  `${JSON.stringify({ ...outcome, elapsedMs: Date.now() - started, peakRssMiB })}\n`,
);
