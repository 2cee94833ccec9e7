// The `payment-service-contract` command: runs main() on this process's arguments, streams and environment.
import { main } from './cli/main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
