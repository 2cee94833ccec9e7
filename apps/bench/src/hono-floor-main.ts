// Entry point of the Hono floor process: `node dist/hono-floor-main.js <port>`.
import { serve } from '@hono/node-server';
import { createHonoFloorApp } from './hono-floor-server.js';

const port = Number(process.argv[2] ?? 0);
const server = serve({ fetch: createHonoFloorApp().fetch, port, hostname: '127.0.0.1' }, () => {
  process.stdout.write(`hono floor listening on ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
