// The `payment-service-contract` command: runs main() on this process's arguments, streams and environment.
import { main } from './cli/main.js';
import { maskSecrets } from './runner/exchange-record.js';
import { cleanTargetText } from './untrusted-text.js';

// A reader that stops early (`… | head`) closes the pipe: end quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// Anything that escapes main (an error thrown in a callback) is no verdict: exit 4, never 1.
const noVerdict = (error: unknown) => {
  process.stderr.write(
    `payment-service-contract: no verdict, an internal error: ${cleanTargetText(maskSecrets(String((error as Error)?.stack ?? error)), 4000)}\n`,
  );
  process.exit(4);
};
process.on('uncaughtException', noVerdict);
process.on('unhandledRejection', noVerdict);

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
