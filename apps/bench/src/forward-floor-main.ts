// Entry point of the forwarding floor: `node dist/forward-floor-main.js <target> <port>`, the least a node:http proxy does (pipe the request to the target over keep-alive, pipe the answer back), so the contract proxy's added latency can be read against what one more hop costs.
import { Agent, createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? 'http://127.0.0.1:4010');
const port = Number(process.argv[3] ?? 0);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer({ keepAliveTimeout: 65_000 }, (incoming, outgoing) => {
  const upstream = request(
    {
      hostname: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, host: target.host, connection: 'keep-alive' },
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  upstream.on('error', () => outgoing.destroy());
  incoming.pipe(upstream);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`forward floor listening on ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
