// Vitest wiring for a scenario file: starts a target, checks every response against the spec, and hands out clients.
import {
  createResponseValidator,
  describeProvenance,
  resolveElement,
} from '@payment-service/contract/toolkit';
import { createSandboxControls } from '@payment-service/mock/controls';
import { type ClientOptions, createClient } from '@payment-service/sdk';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { createRecordingFetch, type Recording } from '../recording-fetch.js';
import { startTarget, type Target, type TargetName } from './targets.js';

/** A raw answer: what `send` returns, for asserting on statuses and problem bodies. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON fields
  json: any;
}

/** A request made outside the SDK, so tests can send what the SDK's types forbid. */
export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is JSON-encoded. */
  body?: unknown;
  /** The key for `Authorization: Bearer`; `null` sends no Authorization header. */
  apiKey?: string | null;
}

const validator = createResponseValidator();

/**
 * Starts the named target for the surrounding `describe`, and fails any test whose responses break the spec.
 *
 * @example
 * describe.each(targetNames())('%s', (name) => {
 *   const ctx = useTarget(name);
 *   it('creates', async () => { await ctx.client().payments.create(params); });
 * });
 */
export function useTarget(name: TargetName) {
  let target: Target | undefined;
  let recording: Recording | undefined;

  beforeAll(async () => {
    target = await startTarget(name);
    recording = createRecordingFetch((request) => (target as Target).fetch(request), validator, {
      target: name,
      recordDir: inject('recordDir'),
    });
  });
  afterAll(async () => {
    await target?.close();
  });
  afterEach(() => {
    const described = (recording?.takeViolations() ?? []).map(
      (violation) =>
        `${violation.id} ${violation.exchange.method} ${violation.exchange.path} → ${violation.exchange.status}: expected ${violation.expected}, got ${violation.actual} (${describeProvenance(resolveElement(violation.element).provenance)})`,
    );
    expect(described, 'every response must honour the spec').toEqual([]);
  });

  const current = () => {
    if (!target || !recording) throw new Error('the target is not started yet');
    return { target, recording };
  };

  return {
    get target() {
      return current().target;
    },
    /** A fresh `sk_test_` key: an empty, isolated sandbox account. */
    newApiKey: () => current().target.newApiKey(),
    /** An SDK client on the target, through the checking fetch, with any further client options. */
    client(apiKey = current().target.newApiKey(), options: Partial<ClientOptions> = {}) {
      const { target: started, recording: checking } = current();
      return createClient({ ...options, apiKey, baseUrl: started.baseUrl, fetch: checking.fetch });
    },
    /** The typed sandbox controls for a key, through the checking fetch. */
    controls(apiKey: string) {
      const { target: started, recording: checking } = current();
      return createSandboxControls({ apiKey, baseUrl: started.baseUrl, fetch: checking.fetch });
    },
    /** Sends a raw request through the checking fetch. */
    async send(path: string, request: RawRequest = {}): Promise<RawResponse> {
      const { target: started, recording: checking } = current();
      const headers = new Headers(request.headers);
      const apiKey = request.apiKey === undefined ? started.newApiKey() : request.apiKey;
      if (apiKey !== null && !headers.has('authorization')) {
        headers.set('authorization', `Bearer ${apiKey}`);
      }
      let body: string | undefined;
      if (request.body !== undefined) {
        body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      const response = await checking.fetch(`${started.baseUrl}${path}`, {
        method: request.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
  };
}

/** What `useTarget` returns. */
export type TargetContext = ReturnType<typeof useTarget>;
