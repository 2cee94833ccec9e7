// Every request example in the specs, sent as written: the answer is the example's operation's documented success status, with the documented example's object and status.

import { type SpecName, specDocuments } from '@payment-service/contract/toolkit';
import { describe, expect, it } from 'vitest';
import { targetNames } from '../harness/targets.js';
import { useTarget } from '../harness/use-target.js';

// biome-ignore lint/suspicious/noExplicitAny: walking the spec documents as plain data
type Node = any;

/** One request example of one operation, with the documented success response it should get. */
interface RequestExample {
  spec: SpecName;
  operationId: string;
  method: string;
  path: string;
  name: string;
  body: unknown;
  status: number;
  /** The documented success example's value, when there is one. */
  documented: Node;
}

function resolve(document: Node, node: Node): Node {
  let current = node;
  while (current?.$ref) {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce((target: Node, segment: string) => target?.[segment.replaceAll('~1', '/')], document);
  }
  return current;
}

function requestExamples(): RequestExample[] {
  const found: RequestExample[] = [];
  for (const [spec, document] of Object.entries(specDocuments) as [SpecName, Node][]) {
    for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Node][]) {
      for (const method of ['get', 'post', 'put', 'delete']) {
        const operation = item[method];
        const content = resolve(document, operation?.requestBody)?.content?.['application/json'];
        if (!content?.examples) continue;
        const successKey = Object.keys(operation.responses).find((key) => /^2\d\d$/.test(key));
        const success = resolve(document, operation.responses[successKey ?? '']);
        const documented = Object.values(
          (success?.content?.['application/json']?.examples ?? {}) as Record<string, Node>,
        )[0]?.value;
        for (const [name, example] of Object.entries(content.examples) as [string, Node][]) {
          found.push({
            spec,
            operationId: operation.operationId,
            method: method.toUpperCase(),
            path,
            name,
            body: example.value,
            status: Number(successKey),
            documented,
          });
        }
      }
    }
  }
  return found;
}

const examples = requestExamples();

describe('the specs’ request examples', () => {
  it('cover every operation that takes a body', () => {
    const withBodies = Object.values(specDocuments).flatMap((document: Node) =>
      Object.values(document.paths as Node).flatMap((item: Node) =>
        ['post', 'put']
          .map((method) => item[method])
          .filter((operation: Node) => operation?.requestBody)
          .map((operation: Node) => operation.operationId as string),
      ),
    );
    const covered = new Set(examples.map((example) => example.operationId));
    expect(withBodies.filter((operationId) => !covered.has(operationId))).toEqual([]);
  });
});

describe.each(targetNames())('request examples sent to the sandbox (%s)', (name) => {
  const ctx = useTarget(name);

  /** A payment of the key in the state the operation needs, for paths with `{id}`. */
  async function prepare(apiKey: string, operationId: string): Promise<string> {
    const client = ctx.client(apiKey);
    const capture = operationId === 'createRefund';
    const payment = await client.payments.create({
      amount: 150_000,
      currency: 'KZT',
      capture,
      payment_method: { type: 'token', token: 'tok_test_success' },
    });
    return payment.id;
  }

  it.each(examples)('$spec $operationId example "$name" answers $status', async (example) => {
    const apiKey = ctx.newApiKey();
    const path = example.path.includes('{id}')
      ? example.path.replace('{id}', await prepare(apiKey, example.operationId))
      : example.path;
    const response = await ctx.send(path, {
      apiKey,
      method: example.method,
      body: example.body,
    });
    expect(response.status).toBe(example.status);
    for (const field of ['object', 'status'] as const) {
      if (example.documented?.[field] !== undefined && field in (response.json ?? {}))
        expect(response.json[field]).toBe(example.documented[field]);
    }
    if (example.operationId === 'setSandboxFaults') await ctx.controls(apiKey).clearFaults();
  });
});
