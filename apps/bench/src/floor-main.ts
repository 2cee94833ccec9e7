// Entry point of the floor server process: `node dist/floor-main.js <port>`.
import { createFloorServer } from './floor-server.js';

const port = Number(process.argv[2] ?? 0);
const server = createFloorServer();
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`floor listening on ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
