// A run killed with SIGKILL (a CI step that ends: no afterAll) leaves none of the processes the
// fleet and the sandbox helpers started: each is tied to the thread that spawned it.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CAN_TIE_CHILDREN,
  runs,
  stopsRunning,
  tiedToSpawner as testSupportTie,
} from '../../../../test-support/child-lifetime.js';
import { type Owner, ownerRunning } from '../../../../test-support/killed-owner.js';
import { tiedToSpawner } from './tied-child.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

let run: Owner | undefined;
afterEach(async () => {
  await run?.killAll();
  run = undefined;
});

it('ties a child with the same command line as test-support/child-lifetime.ts', () => {
  for (const [command, args] of [
    ['/usr/bin/redis-server', ['--port', '0']],
    [process.execPath, ['-e', '1']],
    ['haproxy', []],
  ] as [string, string[]][]) {
    expect(tiedToSpawner(command, args)).toEqual(testSupportTie(command, args));
    expect(tiedToSpawner(command, args, 'SIGTERM')).toEqual(
      testSupportTie(command, args, 'SIGTERM'),
    );
  }
});

describe.skipIf(!CAN_TIE_CHILDREN)('a test process killed with SIGKILL', () => {
  it('leaves no redis-server it started (startRedisServer)', async () => {
    run = await ownerRunning(here('./redis-server.ts'), '(m) => m.startRedisServer()');
    expect(run.descendants).toHaveLength(1);
    expect(run.descendants.every(runs)).toBe(true);
    await run.kill();
    for (const pid of run.descendants) await stopsRunning(pid);
  });

  it('leaves no CLI it started, nor the node the CLI relaunched (startSandbox, outside a package manager)', async () => {
    const { npm_config_user_agent: _, ...env } = process.env;
    run = await ownerRunning(here('../sandbox.ts'), '(m) => m.startSandbox(["--quiet"])', env);
    // The CLI and the node it relaunched with a heap limit.
    expect(run.descendants).toHaveLength(2);
    await run.kill();
    for (const pid of run.descendants) await stopsRunning(pid);
  });
});
