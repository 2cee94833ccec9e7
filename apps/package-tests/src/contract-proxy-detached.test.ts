// Issue 40, from the packed tarballs: the installed bin started in the background by a CI step's shell that then exits keeps forwarding for the next step, and writes its report at SIGTERM.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toolPath } from './pack.js';
import { sharedProject } from './shared-project.js';

/** Reads `file` until `pattern` matches in it. */
async function waitIn(file: string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const match = pattern.exec(await readFile(file, 'utf8').catch(() => ''));
    if (match) return match;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${pattern} never appeared in ${file}`);
}

describe('the installed proxy started by a CI step that ends', () => {
  let project: string;
  let target: Server;
  beforeAll(async () => {
    project = await sharedProject('kit', inject('tarballs'), inject('registry'));
    target = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"object":"list","data":[],"has_more":false}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => target?.close(resolve)));

  it('keeps forwarding in the next step, and writes its report at SIGTERM', async () => {
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const log = join(project, 'detached-proxy.log');
    // Step one: start the bin in the background, wait until it listens, end.
    const step = spawn(
      'bash',
      [
        '-c',
        `./node_modules/.bin/payment-service-contract proxy --target ${url} --port 0 --report json:detached.json > detached-proxy.log 2>&1 < /dev/null &
echo $! > detached-proxy.pid
until grep -q 'proxy http' detached-proxy.log; do sleep 0.05; done`,
      ],
      { cwd: project, stdio: 'ignore', env: { PATH: toolPath(), HOME: project } },
    );
    const code = await new Promise((resolve) => step.once('exit', resolve));
    expect(code).toBe(0);
    const [, proxyUrl] = await waitIn(log, /proxy (http:\/\/127\.0\.0\.1:\d+) →/);
    const pid = Number(await readFile(join(project, 'detached-proxy.pid'), 'utf8'));
    // Step two, a moment later (the old parent watch stopped the proxy within half a second).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const answer = await fetch(`${proxyUrl}/v1/payments?limit=1`, {
      headers: { authorization: 'Bearer sk_test_detached_packed_1' },
    });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    process.kill(pid, 'SIGTERM');
    await waitIn(log, /wrote the json report to detached\.json/);
    const report = JSON.parse(await readFile(join(project, 'detached.json'), 'utf8'));
    expect(report.traffic.exchanges).toBe(1);
  });
});
