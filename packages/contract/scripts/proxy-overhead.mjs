// Measures the latency the contract proxy adds on loopback: the mock and the proxy each in their own process (as they run for real), this one the client. `node scripts/proxy-overhead.mjs [REQUESTS]` after a build.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measureProxyOverhead } from '../dist/proxy/overhead.js';

const requests = Number(process.argv[2] ?? 5000);
const bin = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Starts a child and waits until its output shows a URL matching `pattern`. */
function start(args, pattern) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve({ child, url: match[1] });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

const mock = await start(
  [bin('../../mock/bin/payment-service-mock.js'), '--port', '0'],
  /(http:\/\/127\.0\.0\.1:\d+)/,
);
const proxy = await start(
  [
    bin('../bin/payment-service-contract.js'),
    'proxy',
    '--target',
    mock.url,
    '--port',
    '0',
    '--report',
    'text:/dev/null',
  ],
  /proxy (http:\/\/127\.0\.0\.1:\d+) →/,
);
const headers = {
  authorization: 'Bearer sk_test_proxy_overhead_1',
  'content-type': 'application/json',
};
const create = JSON.stringify({
  amount: 1000,
  currency: 'KZT',
  capture: true,
  payment_method: { type: 'token', token: 'tok_test_success' },
});
const mixes = {
  'POST /v1/payments': () => ({ method: 'POST', path: '/v1/payments', headers, body: create }),
  'GET /v1/payments?limit=10': () => ({ method: 'GET', path: '/v1/payments?limit=10', headers }),
};
const ms = (value) => value.toFixed(3);
try {
  for (const [name, next] of Object.entries(mixes)) {
    const result = await measureProxyOverhead({
      target: mock.url,
      proxy: proxy.url,
      requests,
      next,
    });
    process.stdout.write(
      `${name}: ${requests} each way; direct p50 ${ms(result.direct.p50)} p99 ${ms(result.direct.p99)} ms; proxied p50 ${ms(result.proxied.p50)} p99 ${ms(result.proxied.p99)} ms; added p50 ${ms(result.added.p50)} ms, p99 ${ms(result.added.p99)} ms\n`,
    );
  }
} finally {
  proxy.child.kill('SIGTERM');
  mock.child.kill('SIGTERM');
}
