// A snapshot's Idempotency-Key records: each stored answer checked as the API could have sent it, an endpoint's secret kept out of the text.
import { errorCodes, openapiDocument } from '@payment-service/openapi';
import type { IdempotencyData } from '../service/account-data.js';
import { checkIdempotencyKey } from '../service/idempotency.js';
import type { ApiValidators } from '../shared/validation.js';
import { parseSigningSecret } from '../webhooks/signing.js';
import {
  arrayOf,
  hideSigningKey,
  iso,
  isRecord,
  type Problems,
  SIGNING_KEY,
  shown,
  type TimeReader,
  timeOf,
} from './snapshot-check.js';
import { readHeaders } from './snapshot-headers.js';
import type { SnapshotIdempotencyRecord } from './types.js';

/** An operation that takes an Idempotency-Key, as the spec declares it. */
interface IdempotentOperation {
  operationId: string;
  method: string;
  /** The spec's path with each `{param}` as one segment, anchored at the end (the app may be mounted). */
  path: RegExp;
  /** The statuses the spec declares for it. */
  statuses: ReadonlySet<number>;
  /** The compiled schema its 2xx body follows, when the mock compiled one. */
  schema: 'Payment' | 'Refund' | 'WebhookEndpoint' | undefined;
}

interface LooseResponse {
  $ref?: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
}

interface LooseOperation {
  operationId?: string;
  parameters?: { $ref?: string }[];
  responses?: Record<string, LooseResponse>;
}

/** The spec's shared responses, by `$ref`. */
const RESPONSES = openapiDocument.components.responses as unknown as Record<string, LooseResponse>;

/** The schema `$ref` of a response's JSON body, following a shared response's `$ref`. */
function schemaRefOf(response: LooseResponse | undefined): string | undefined {
  const shared = response?.$ref?.replace('#/components/responses/', '');
  const resolved = shared === undefined ? response : RESPONSES[shared];
  return resolved?.content?.['application/json']?.schema?.$ref;
}

/** The compiled validator of each success schema (an endpoint with its secret is an endpoint). */
const SUCCESS_SCHEMAS: Readonly<Record<string, IdempotentOperation['schema']>> = {
  '#/components/schemas/Payment': 'Payment',
  '#/components/schemas/Refund': 'Refund',
  '#/components/schemas/WebhookEndpointWithSecret': 'WebhookEndpoint',
};

/** Every operation that takes an Idempotency-Key, from the spec. */
const OPERATIONS: readonly IdempotentOperation[] = Object.entries(
  openapiDocument.paths as unknown as Record<string, Record<string, LooseOperation>>,
).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, operation]): IdempotentOperation[] => {
    const takesKey = operation.parameters?.some(
      (parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey',
    );
    if (takesKey !== true || operation.responses === undefined) return [];
    const codes = Object.keys(operation.responses).filter((code) => /^\d{3}$/.test(code));
    const success = codes.find((code) => code.startsWith('2'));
    const ref = success === undefined ? undefined : schemaRefOf(operation.responses[success]);
    const template = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/?#]+');
    return [
      {
        operationId: operation.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path: new RegExp(`^(/[^?#\\s]*)?${template}$`),
        statuses: new Set(codes.map(Number)),
        schema: ref ? SUCCESS_SCHEMAS[ref] : undefined,
      },
    ];
  }),
);
const REGISTRATION = OPERATIONS.find(
  (operation) => operation.operationId === 'createWebhookEndpoint',
);
/** Error codes by status, to tell a problem body the API could have sent. */
const CODES = errorCodes as Readonly<Record<string, { status: number }>>;

/** Longer than any answer the API stores (a problem is at most 16 KiB). */
const MAX_BODY_CHARACTERS = 65_536;
/** How an endpoint registration's secret shows in a snapshot. */
const MASKED_SECRET = '"secret":"whsec_***"';

/**
 * One record as a snapshot writes it: an endpoint registration's `whsec_` secret is masked in
 * the body, its key bytes kept in `signing_key_base64` (put back on restore).
 *
 * @example
 * snapshotRecord(readAccountData(state, apiKey).idempotencyRecords[0]).expires_at;
 */
export function snapshotRecord(record: IdempotencyData): SnapshotIdempotencyRecord {
  const { status, headers, body } = record.response;
  const response: SnapshotIdempotencyRecord['response'] = { status, headers: { ...headers }, body };
  const secret = registrationSecret(record.method, record.path, status, body);
  if (secret !== undefined) {
    response.body = body.replace(`"secret":${JSON.stringify(secret)}`, MASKED_SECRET);
    response.signing_key_base64 = secret.slice('whsec_'.length);
    hideSigningKey(response);
  }
  return {
    key: record.key,
    method: record.method,
    path: record.path,
    body_fingerprint: record.bodyFingerprint,
    response,
    expires_at: iso(record.expiresAt),
  };
}

/** The `whsec_` secret an endpoint registration's answer shows, if it is one. */
function registrationSecret(method: string, path: string, status: number, body: string) {
  if (REGISTRATION === undefined || method !== REGISTRATION.method) return undefined;
  if (!REGISTRATION.path.test(path) || status < 200 || status > 299) return undefined;
  try {
    const secret: unknown = JSON.parse(body)?.secret;
    return typeof secret === 'string' && parseSigningSecret(secret) !== undefined
      ? secret
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a snapshot's records: keys as the API accepts them, unique; the method and path of an
 * operation that takes a key; a stored answer the operation could have sent (a status it
 * declares, HTTP-valid headers, a JSON body of its schema or a problem of that status).
 * `offsetMs` turns expiries on the key's clock into the server's.
 *
 * @example
 * readRecords(snapshot.idempotency_records, { validators, maxRecords: 10_000, offsetMs: 0 }, problems);
 */
export function readRecords(
  given: unknown,
  context: { validators: ApiValidators; maxRecords: number; offsetMs: number },
  problems: Problems,
): IdempotencyData[] {
  const keys = new Set<string>();
  const entries = arrayOf(given, 'idempotency_records', context.maxRecords, problems);
  return entries.flatMap((entry, index) => {
    const where = `idempotency_records[${index}]`;
    const read = readRecord(entry, where, context, problems);
    if (read === undefined) return [];
    if (keys.has(read.key)) {
      problems.add(
        `${where}.key`,
        `${where}.key ${shown(read.key)} is already the key of another record; keys must be unique`,
      );
    }
    keys.add(read.key);
    return [read as IdempotencyData];
  });
}

/**
 * Reads one record at `where`: a key as the API accepts it; the method and path of an operation
 * that takes a key; a stored answer the operation could have sent; an expiry within the clock's
 * range. With `inFlight`, a record whose request is still running (no `response`) is one too (a
 * store that keeps those). Undefined when it is not an object; every problem goes to `problems`.
 *
 * @example
 * readRecord(entry, 'idempotency_record', { validators, offsetMs: 0 }, problems);
 */
export function readRecord(
  entry: unknown,
  where: string,
  context: {
    validators: ApiValidators;
    offsetMs: number;
    inFlight?: boolean;
    /** How times are given: ISO text (a snapshot, the default) or ms epoch (a store). */
    readTime?: TimeReader;
    /**
     * Whether a body is the text of a payment already checked as a `Payment` (a store's create
     * answer is its payment's text): not parsed and checked again.
     */
    checkedPayment?: (body: string) => boolean;
  },
  problems: Problems,
):
  | (Omit<IdempotencyData, 'response'> & { response: IdempotencyData['response'] | undefined })
  | undefined {
  const inFlight = context.inFlight === true && isRecord(entry) && entry.response === undefined;
  if (!isRecord(entry) || !(inFlight || isRecord(entry.response))) {
    problems.add(
      where,
      `${where} must be an object { key, method, path, body_fingerprint, response: { status, headers, body }, expires_at }`,
    );
    return undefined;
  }
  const { key, method, path, body_fingerprint: fingerprint } = entry;
  if (typeof key !== 'string' || checkIdempotencyKey(key) !== undefined) {
    problems.add(
      `${where}.key`,
      `${where}.key must be an Idempotency-Key of 1 to 255 characters; got ${shown(key)}`,
    );
  }
  const operation = OPERATIONS.find(
    (candidate) =>
      candidate.method === method && typeof path === 'string' && candidate.path.test(path),
  );
  if (operation === undefined) {
    const known = OPERATIONS.map((candidate) => `${candidate.method} ${candidate.operationId}`);
    problems.add(
      `${where}.path`,
      `${where}.method and path must be those of an operation that takes an Idempotency-Key (${known.join(', ')}); got ${shown(method)} ${shown(path)}`,
    );
  }
  if (!isFingerprint(fingerprint)) {
    problems.add(
      `${where}.body_fingerprint`,
      `${where}.body_fingerprint must be '' (no body) or 'h' and 22 base64url characters (a hash of the canonical body); got ${shown(fingerprint)}`,
    );
  }
  const response = isRecord(entry.response)
    ? readResponse(entry.response, `${where}.response`, operation, context, problems)
    : undefined;
  const expiresAt = (context.readTime ?? timeOf)(entry.expires_at, `${where}.expires_at`, problems);
  return {
    key: String(key),
    method: String(method),
    path: String(path),
    bodyFingerprint: String(fingerprint),
    response,
    expiresAt,
    serverExpiresAt: expiresAt - context.offsetMs,
  };
}

function isFingerprint(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value === '') return true;
  return /^h[A-Za-z0-9_-]{22}$/.test(value);
}

/** A stored answer, checked as the operation could have sent it. */
function readResponse(
  given: Record<string, unknown>,
  where: string,
  operation: IdempotentOperation | undefined,
  context: { validators: ApiValidators; checkedPayment?: (body: string) => boolean },
  problems: Problems,
): IdempotencyData['response'] {
  const { status, headers } = given;
  let body = given.body;
  const statuses = operation?.statuses ?? new Set<number>();
  if (typeof status !== 'number' || (operation !== undefined && !statuses.has(status))) {
    const allowed =
      operation === undefined
        ? 'a status its operation declares'
        : `one of ${[...statuses].join(', ')}`;
    problems.add(`${where}.status`, `${where}.status must be ${allowed}; got ${shown(status)}`);
  }
  const success = typeof status === 'number' && status >= 200 && status <= 299;
  const checkedHeaders = readHeaders(headers, `${where}.headers`, success, problems);
  if (given.signing_key_base64 !== undefined) {
    const key = given.signing_key_base64;
    if (
      operation !== REGISTRATION ||
      !success ||
      typeof body !== 'string' ||
      !body.includes(MASKED_SECRET)
    ) {
      problems.add(
        `${where}.signing_key_base64`,
        `${where}.signing_key_base64 belongs only to an endpoint registration's answer whose body shows ${MASKED_SECRET}`,
      );
    } else if (typeof key !== 'string' || !SIGNING_KEY.test(key)) {
      // Never shown: it is a signing key.
      problems.add(
        `${where}.signing_key_base64`,
        `${where}.signing_key_base64 must be the base64 of 1 to 256 bytes`,
      );
    } else {
      body = body.replace(MASKED_SECRET, `"secret":"whsec_${key}"`);
    }
  }
  if (typeof body !== 'string' || body.length > MAX_BODY_CHARACTERS) {
    problems.add(
      `${where}.body`,
      `${where}.body must be a string of at most ${MAX_BODY_CHARACTERS} characters`,
    );
  } else if (typeof status === 'number' && operation !== undefined) {
    const checked = success && operation.schema === 'Payment' && context.checkedPayment?.(body);
    if (checked !== true) {
      checkBody(body, status, success, operation, `${where}.body`, context.validators, problems);
    }
  }
  return { status: status as number, headers: checkedHeaders, body: String(body) };
}

/** A success body of the operation's schema, or a problem of the status. */
function checkBody(
  body: string,
  status: number,
  success: boolean,
  operation: IdempotentOperation,
  where: string,
  validators: ApiValidators,
  problems: Problems,
): void {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    problems.add(where, `${where} must be JSON, as the API answers; got ${shown(body)}`);
    return;
  }
  if (success) {
    if (operation.schema !== undefined) {
      problems.check(where, validators.validator(operation.schema)(value));
    }
    return;
  }
  const code = isRecord(value) ? value.code : undefined;
  const known = typeof code === 'string' && Object.hasOwn(CODES, code) ? CODES[code] : undefined;
  if (!isRecord(value) || value.status !== status || known?.status !== status) {
    problems.add(
      where,
      `${where} must be a problem of status ${status} with one of the API's error codes for it; got ${shown(body)}`,
    );
  }
}
