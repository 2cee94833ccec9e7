// The entry of the `payment-service-mock` command (bundled as dist/cli-bundle.js): runs the command line.
import { main } from './run.js';

// A failure in a background task (a webhook delivery, a timer) is logged; the sandbox keeps serving.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(
    `payment-service-mock: unexpected error in a background task: ${String(reason)}\n`,
  );
});

await main(process.argv.slice(2), process.env);
