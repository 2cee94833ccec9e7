// The built CLI in a child process against a target answering a 1 MB `code` everywhere: under 256 MiB RSS, every report within its bound.
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { REPORT_LIMITS } from '../reports/index.js';
import { json, startHostileTarget } from '../test-support/hostile-target.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/payment-service-contract.js', import.meta.url));
const MiB = 1024 * 1024;

describe('the CLI against a target answering a 1 MB code on every request', async () => {
  const code = `${'c'.repeat(1_000_000)}\n::error::forged`;
  const target = await startHostileTarget((request) => {
    const { pathname, search } = new URL(request.url);
    if (pathname === '/v1/payments' && search === '?limit=1')
      return json(200, { object: 'list', data: [], has_more: false, code });
    return json(400, { code, detail: code }, { 'content-type': 'application/problem+json' });
  });
  afterAll(() => target.close());

  it('stays under 256 MiB RSS, and every report within its bound', async () => {
    const cwd = temporaryDirectory('contract-memory-');
    // Preloaded into the child: writes its peak RSS (kB) when it exits.
    const probe = join(cwd, 'max-rss.mjs');
    await writeFile(
      probe,
      "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.MAX_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
    );
    const child = await run(
      process.execPath,
      [
        '--import',
        probe,
        bin,
        'check',
        '--base-url',
        target.url,
        '--key',
        'sk_test_memory_bound_run',
        '--rate',
        '10000',
        '--no-progress',
        '--format',
        'text',
        '--format',
        'junit:r.xml',
        '--format',
        'markdown:r.md',
        '--format',
        'json:r.json',
        '--format',
        'github:gh.txt',
      ],
      { cwd, env: { ...process.env, MAX_RSS_FILE: join(cwd, 'rss') }, maxBuffer: 64 * MiB },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect((child as { code?: number }).code).toBe(1);
    const rssKb = Number(await readFile(join(cwd, 'rss'), 'utf8'));
    expect(rssKb * 1024).toBeLessThan(256 * MiB);
    expect(Buffer.byteLength(child.stdout)).toBeLessThanOrEqual(REPORT_LIMITS.text);
    expect(child.stdout + child.stderr).not.toMatch(/^\s*::/m);
    const sizes = {
      junit: (await stat(join(cwd, 'r.xml'))).size,
      markdown: (await stat(join(cwd, 'r.md'))).size,
      json: (await stat(join(cwd, 'r.json'))).size,
      github: (await stat(join(cwd, 'gh.txt'))).size,
    };
    for (const [format, size] of Object.entries(sizes))
      expect(size, format).toBeLessThanOrEqual(REPORT_LIMITS[format as keyof typeof sizes]);
    expect(sizes.markdown).toBeLessThanOrEqual(MiB);
  }, 120_000);
});
