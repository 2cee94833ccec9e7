// Hostile and malformed recordings: each is a clear exit 2 naming the field, never a crash.
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { main } from '../cli/main.js';
import { harExchanges, MAX_HAR_BYTES, readHar } from './har-reader.js';

async function replay(content: string | undefined, extra: string[] = []) {
  const cwd = temporaryDirectory('contract-har-');
  if (content !== undefined) await writeFile(join(cwd, 'in.har'), content);
  let stdout = '';
  let stderr = '';
  const code = await main(['replay', 'in.har', ...extra], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
  });
  return { code, stdout, stderr };
}

const entry = (patch: Record<string, unknown> = {}) => ({
  startedDateTime: '2026-11-22T04:20:00.000Z',
  time: 1,
  request: {
    method: 'GET',
    url: 'http://127.0.0.1:4010/v1/payments?limit=1',
    headers: [{ name: 'authorization', value: 'Bearer sk_test_…' }],
  },
  response: {
    status: 200,
    headers: [{ name: 'content-type', value: 'application/json' }],
    content: { size: 2, mimeType: 'application/json', text: '{}' },
  },
  ...patch,
});
const har = (entries: unknown) => JSON.stringify({ log: { version: '1.2', entries } });

describe('replay of a malformed or hostile recording', () => {
  it.each([
    ['a missing file', undefined, /in\.har: the recording cannot be read \(ENOENT\)/],
    ['text that is not JSON', 'not json {', /the recording is not JSON/],
    ['no log', '{"entries":[]}', /log is missing/],
    [
      'entries that are not a list',
      '{"log":{"version":"1.2","entries":{}}}',
      /log\.entries must be array/,
    ],
    [
      'a status of the wrong type',
      har([entry(), entry({ response: { status: '200', headers: [], content: {} } })]),
      /log\.entries\[1\]\.response\.status must be integer/,
    ],
    [
      'a header value of the wrong type',
      har([
        entry({
          request: {
            method: 'GET',
            url: 'http://x/v1/payments',
            headers: [{ name: 'a', value: 7 }],
          },
        }),
      ]),
      /log\.entries\[0\]\.request\.headers\[0\]\.value must be string/,
    ],
    [
      'a URL that is not one',
      har([entry({ request: { method: 'GET', url: 'not a url', headers: [] } })]),
      /log\.entries\[0\]\.request\.url is not a URL/,
    ],
    [
      'deep nesting',
      `{"log":{"version":"1.2","entries":[],"_x":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`,
      /log\._x\[0\]\[0\].* nests deeper than 32 levels/,
    ],
    ['a JSON array at the top', '[1,2,3]', /the recording must be object/],
    [
      'a version that is not text',
      '{"log":{"version":1,"entries":[]}}',
      /log\.version must be string/,
    ],
    ['no entries', '{"log":{"version":"1.2"}}', /log\.entries is missing/],
    ['JSON cut short', `{"log":{"version":"1.2","entries":[${JSON.stringify(entry())}`, /not JSON/],
    ['an entry that is not an object', har([entry(), 7]), /log\.entries\[1\] must be object/],
  ])('%s: exit 2 naming the field', async (_name, content, message) => {
    const { code, stderr } = await replay(content);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/internal error|at .*\.js:\d+/);
  });

  it('refuses a recording over its size bound without reading it', async () => {
    const cwd = temporaryDirectory('contract-har-huge-');
    const file = join(cwd, 'huge.har');
    const handle = await open(file, 'w');
    // Sparse: the size is there, the bytes are not.
    await handle.truncate(MAX_HAR_BYTES + 1);
    await handle.close();
    await expect(readHar(file)).rejects.toThrow(
      /is 268435457 bytes; replay reads at most 268435456/,
    );
  });

  it('refuses a spec file that is not an OpenAPI document, naming the field', async () => {
    const cwd = temporaryDirectory('contract-har-spec-');
    await writeFile(join(cwd, 'in.har'), har([entry()]));
    await writeFile(join(cwd, 'bad.yaml'), 'openapi: 3.1.0\npaths: [1, 2]\n');
    let stderr = '';
    const code = await main(['replay', 'in.har', '--spec', 'bad.yaml'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      env: {},
      cwd,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--spec .*bad\.yaml: field paths: expected an object of paths/);
  });

  it('reads what it can use of a browser recording: pseudo-headers ignored, a missing body not checked', async () => {
    const cwd = temporaryDirectory('contract-har-browser-');
    const file = join(cwd, 'browser.har');
    await writeFile(
      file,
      har([
        entry({
          request: {
            method: 'get',
            url: 'https://sandbox.example/v1/payments?limit=1',
            headers: [{ name: ':authority', value: 'sandbox.example' }],
          },
          response: {
            status: 200,
            headers: [],
            content: { size: 120, mimeType: 'application/json' },
          },
        }),
      ]),
    );
    const [exchange] = await readHar(file);
    expect(exchange).toMatchObject({
      method: 'GET',
      path: '/v1/payments?limit=1',
      requestHeaders: {},
      responseBodyUnread: 'body not in the recording',
    });
  });

  it('holds one entry at a time, and refuses one over its bound naming it, after yielding those before', async () => {
    const cwd = temporaryDirectory('contract-har-entry-');
    const file = join(cwd, 'big-entry.har');
    const big = entry({ comment: 'x'.repeat(300_000) });
    await writeFile(file, har([entry(), entry(), big]));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const exchange of harExchanges(file, { maxEntryBytes: 100_000 }))
        seen.push(exchange.method);
    })();
    await expect(reading).rejects.toThrow(
      /log\.entries\[2\].* holds a value over 100000 bytes: replay reads one entry at a time/,
    );
    expect(seen).toEqual(['GET', 'GET']);
  });
});
