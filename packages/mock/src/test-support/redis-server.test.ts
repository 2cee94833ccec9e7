import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CAN_TIE_CHILDREN, runs, stopsRunning } from '../../../../test-support/child-lifetime.js';
import { type Owner, ownerRunning } from '../../../../test-support/killed-owner.js';

let run: Owner | undefined;
afterEach(async () => {
  await run?.killAll();
  run = undefined;
});

describe.skipIf(!CAN_TIE_CHILDREN)('startTestRedis in a test process killed with SIGKILL', () => {
  it('leaves no redis-server running (a CI step that ends runs no afterAll)', async () => {
    run = await ownerRunning(
      fileURLToPath(new URL('./redis-server.ts', import.meta.url)),
      '(m) => m.startTestRedis()',
    );
    expect(run.descendants).toHaveLength(1);
    expect(run.descendants.every(runs)).toBe(true);
    await run.kill();
    for (const pid of run.descendants) await stopsRunning(pid);
  });
});
