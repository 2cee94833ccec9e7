// spec:breaking: the classifier on the real spec and on small documents, and the CLI's changeset gate.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { temporaryDirectory } from '../../../../test-support/temporary-directory.js';
import { classifyChanges } from '../../scripts/breaking-changes.mjs';
import { loadSpecDocument } from '../../scripts/load-spec.mjs';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const cli = resolve(root, 'packages/openapi/scripts/breaking.mjs');

// The spec in the tree, read and bundled once for the whole file (the first read parses every
// file it references, which is most of this file's time on a loaded machine).
let loaded: unknown;
beforeAll(async () => {
  loaded = await loadSpecDocument(resolve(root, 'spec/openapi.yaml'));
}, 120_000);

/** A deep copy of the spec in the tree, to change in a test. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed document, edited freely by the tests
async function currentSpec(): Promise<any> {
  return structuredClone(loaded);
}
const breakingOf = (before: unknown, after: unknown) =>
  classifyChanges(before, after).filter((change) => change.breaking);

describe('classifyChanges on the real spec', () => {
  it('finds nothing breaking between the spec and itself', async () => {
    const spec = await currentSpec();
    expect(classifyChanges(spec, await currentSpec())).toEqual([]);
  });

  it('names a removed response field and its JSON path', async () => {
    const before = await currentSpec();
    const after = await currentSpec();
    delete after.components.schemas.Payment.properties.amount_captured;
    after.components.schemas.Payment.required = after.components.schemas.Payment.required.filter(
      (name: string) => name !== 'amount_captured',
    );
    const [first, ...rest] = breakingOf(before, after);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ kind: 'removed-response-field', breaking: true });
    expect(first?.pointer).toMatch(/\/properties\/amount_captured$/);
  });

  it('lets an optional response field through', async () => {
    const before = await currentSpec();
    const after = await currentSpec();
    after.components.schemas.Payment.properties.metadata = { type: 'object' };
    expect(breakingOf(before, after)).toEqual([]);
    expect(classifyChanges(before, after)).toEqual([
      expect.objectContaining({ kind: 'new-response-field', breaking: false }),
    ]);
  });

  it('flags a new required request field and a narrowed request enum', async () => {
    const before = await currentSpec();
    const after = await currentSpec();
    const request = after.components.schemas.CreatePaymentRequest;
    request.properties.customer = { type: 'string' };
    request.required.push('customer');
    after.components.schemas.Currency.enum = ['KZT'];
    const kinds = breakingOf(before, after).map((change) => change.kind);
    expect(kinds).toContain('new-required-request-field');
    expect(kinds).toContain('narrowed-enum');
  });
});

describe('classifyChanges on request bounds', () => {
  it('lets a bound through that no accepted value could exceed, and flags one that narrows', async () => {
    const before = await currentSpec();
    const roomy = await currentSpec();
    const events = roomy.components.schemas.CreateWebhookEndpointRequest.properties.events;
    delete before.components.schemas.CreateWebhookEndpointRequest.properties.events.maxItems;
    delete before.components.schemas.CreatePaymentRequest.maxProperties;
    // Six distinct event types fit in 6 items; five declared fields fit in 5 members.
    events.maxItems = 6;
    roomy.components.schemas.CreatePaymentRequest.maxProperties = 5;
    expect(breakingOf(before, roomy)).toEqual([]);
    expect(classifyChanges(before, roomy).map((change) => change.kind)).toContain(
      'redundant-bound',
    );

    const tight = structuredClone(roomy);
    tight.components.schemas.CreateWebhookEndpointRequest.properties.events.maxItems = 5;
    tight.components.schemas.CreatePaymentRequest.maxProperties = 4;
    const narrowed = breakingOf(before, tight).map((change) => change.message);
    expect(narrowed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^maxItems none → 5/),
        expect.stringMatching(/^maxProperties none → 4/),
      ]),
    );
  });
});

describe('classifyChanges on small documents', () => {
  const operation = (responses: object, extra: object = {}) => ({
    openapi: '3.1.0',
    paths: { '/v1/things': { post: { operationId: 'createThing', responses, ...extra } } },
  });
  const ok = { description: 'ok' };

  it('a 2XX range made concrete is not breaking; a changed concrete code is', () => {
    expect(breakingOf(operation({ '2XX': ok }), operation({ '201': ok }))).toEqual([]);
    expect(breakingOf(operation({ '201': ok }), operation({ '200': ok }))[0]).toMatchObject({
      kind: 'changed-success-code',
    });
  });

  it('a removed operation or path is breaking', () => {
    expect(breakingOf(operation({ '201': ok }), { openapi: '3.1.0', paths: {} })[0]).toMatchObject({
      kind: 'removed-path',
      pointer: '#/paths/~1v1~1things',
    });
  });

  it('a request pattern that rejects what it accepted is breaking; a wider one is not', () => {
    const body = (pattern: string) => ({
      requestBody: {
        content: {
          'application/json': {
            schema: { type: 'object', properties: { url: { type: 'string', pattern } } },
          },
        },
      },
    });
    const narrowed = breakingOf(
      operation({ '201': ok }, body('^https?://')),
      operation({ '201': ok }, body('^https://')),
    );
    expect(narrowed[0]).toMatchObject({ kind: 'changed-pattern' });
    expect(
      breakingOf(
        operation({ '201': ok }, body('^https://')),
        operation({ '201': ok }, body('^https?://')),
      ),
    ).toEqual([]);
  });
});

// The command parses and bundles two specs in a child process: give it room on a busy machine.
describe('the spec:breaking command', { timeout: 60_000 }, () => {
  let directory: string;
  beforeEach(() => {
    directory = temporaryDirectory('spec-breaking-');
  });

  async function runWith(changeset: string | undefined) {
    const spec = await currentSpec();
    delete spec.components.schemas.Payment.properties.amount_captured;
    const current = join(directory, 'openapi.yaml');
    await writeFile(current, stringify(spec));
    const changesets = join(directory, 'changesets');
    await mkdir(changesets, { recursive: true });
    if (changeset) await writeFile(join(changesets, 'big-change.md'), changeset);
    const released = resolve(root, 'spec/openapi.yaml');
    return run(process.execPath, [
      cli,
      '--released',
      released,
      '--current',
      current,
      '--changesets',
      changesets,
    ]);
  }

  it('fails on a breaking change without a pending major changeset, naming it', async () => {
    const failure = await runWith(
      '---\n"@payment-service/openapi": major\n---\n\nOnly one.\n',
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(
      /removed-response-field: field amount_captured removed at #\/components\/schemas\/Payment\/properties\/amount_captured|amount_captured removed at #\/paths/,
    );
    expect((failure as { stderr: string }).stderr).toContain('@payment-service/sdk');
  });

  it('passes once both packages have a pending major changeset', async () => {
    const { stdout } = await runWith(
      '---\n"@payment-service/openapi": major\n"@payment-service/sdk": major\n---\n\nRemoves amount_captured.\n',
    );
    expect(stdout).toContain('BREAKING removed-response-field');
  });
});
