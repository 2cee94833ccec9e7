// The stages of a request and which of the mock's modules and functions (and which of Node's and @hono/node-server's) each sample of a profile belongs to: the one place this is written.

/** The stages a request's server CPU is split into, in the order a request meets them. */
export const STAGES = [
  'http',
  'auth',
  'faults',
  'body',
  'validation',
  'idempotency',
  'operation',
  'serialization',
  'observation',
  'response',
] as const;

/** One stage of a request. */
export type Stage = (typeof STAGES)[number];

/** Rows of the table that are no stage of the request path. */
export const OTHER_ROWS = ['gc', 'native', 'background', 'unattributed'] as const;

/** A row of the stage table: a stage, or GC, native work outside JS, the server's own timers, or a sample the map does not place. */
export type StageRow = Stage | (typeof OTHER_ROWS)[number];

/** What each row of the table holds. */
export const STAGE_LABELS: Record<StageRow, string> = {
  http: "HTTP parse and Hono (Node's parser and socket reads, @hono/node-server's request, Hono's router, the mock's host and connection checks)",
  auth: 'auth (the bearer key, its account service)',
  faults: "the key's faults (latency_ms, fail_next, drop_after_commit)",
  body: 'body read (media type, size, bytes, JSON.parse)',
  validation: "validation (the spec's request schema, the id's form)",
  idempotency: 'idempotency (Idempotency-Key: body fingerprint, claim, record)',
  operation: 'operation and store (the handler, the domain, the memory store)',
  serialization: 'serialization (JSON.stringify, stored answers, the Response object)',
  observation: 'inspector, log and events (Request-Id, log line, inspector record, payment events)',
  response: "response write (@hono/node-server's answer, Node's ServerResponse and socket writes)",
  gc: 'garbage collection (the main thread’s GC pauses)',
  native: 'native, outside any JS function (event loop, I/O polling)',
  background: "the server's own timers, outside any request (the launcher watch)",
  unattributed:
    'unattributed (mock code the map does not place: a start-up module or a file it lacks)',
};

/**
 * Where a mock module's samples go: a stage; `inherit` (shared helpers: the stage of the nearest
 * caller the map places, else Node's and Hono's rules); `startup` (runs before requests: a sample
 * there is unattributed); `background` (the server's timers outside requests: their own row).
 */
export type ModuleStage = Stage | 'inherit' | 'startup' | 'background';

/** A module's stage, and the functions of it that belong to another (by the name V8 reports). */
export interface ModuleStages {
  stage: ModuleStage;
  functions?: Readonly<Record<string, ModuleStage>>;
}

const of = (stage: ModuleStage, functions?: Record<string, ModuleStage>): ModuleStages =>
  functions === undefined ? { stage } : { stage, functions };

/**
 * Every module of `packages/mock/src` the CLI loads, by its path under `src/` without extension,
 * but those of `MOCK_FOLDER_STAGES`' folders that take their folder's stage (`stage-map.test.ts`
 * fails when one is missing or gone, or a function named here is not in its module). A sample goes to the stage of the innermost frame on its stack that a module here
 * places; with none, to Node's and @hono/node-server's rules (`nodeFrameStage`).
 */
export const MOCK_MODULE_STAGES: Readonly<Record<string, ModuleStages>> = {
  // The request listener and the connection bookkeeping are the root of every request's stack.
  'server/node-server': of('inherit', { refusedHost: 'http', listenerAnswer: 'response' }),
  'server/connections': of('inherit'),
  'server/allowed-hosts': of('http'),
  'server/limits': of('http'),
  'server/http-limits': of('startup'),
  'app/mock-server': of('http', { serviceFor: 'auth' }),
  'app/runtime': of('operation', { serviceFor: 'auth' }),
  'app/options': of('startup'),
  'app/record-checks': of('operation'),
  // The precomposed pipeline: composition only; each named step is its own module.
  'http/pipeline': of('http'),
  'http/steps/state': of('inherit'),
  'http/steps/auth': of('auth'),
  'http/steps/path-id': of('validation'),
  'http/steps/faults': of('faults'),
  'http/steps/read-body': of('body'),
  'http/steps/validate': of('validation'),
  'http/steps/refuse': of('validation'),
  'http/steps/session': of('operation'),
  'http/steps/settle': of('operation'),
  'http/steps/idempotency': of('idempotency'),
  'http/steps/operate': of('operation'),
  'http/steps/observe': of('observation'),
  'http/operation-input': of('operation'),
  'http/routes': of('inherit'),
  // The app's router (Hono's, its match ending at an operation's route): Hono's routing.
  'http/answering-router': of('http'),
  'http/auth': of('auth'),
  'http/body': of('body'),
  'http/json-shape': of('body'),
  'http/caller': of('operation'),
  'http/exchange': of('observation', {
    answerWith: 'serialization',
    answerProblem: 'serialization',
    internalError: 'serialization',
  }),
  'http/respond': of('serialization', { invalidRequest: 'validation' }),
  'http/v1-routes': of('operation'),
  'http/sandbox-routes': of('operation'),
  'generated/request-validators': of('validation'),
  'generated/redis-scripts': of('operation'),
  'service/account-data': of('operation'),
  'service/account-service': of('inherit', {
    checkCapacity: 'operation',
    release: 'operation',
    giveBackUnusedClaim: 'idempotency',
  }),
  'service/faults-facet': of('faults'),
  'service/idempotency-facet': of('idempotency'),
  'service/idempotency': of('idempotency'),
  'service/payments-facet': of('operation'),
  'service/clock-facet': of('operation'),
  'service/key-session': of('operation'),
  'service/sandbox-state': of('operation'),
  'service/pending-writes': of('operation'),
  'service/webhook-endpoints': of('operation'),
  'service/webhooks-facet': of('operation'),
  'service/inspector-facet': of('observation'),
  'service/inspector': of('observation'),
  'service/payment-events': of('observation'),
  'domain/payments': of('operation'),
  'domain/tokens': of('operation'),
  'domain/transitions': of('operation'),
  'domain/webhook-address': of('operation'),
  'domain/webhook-url': of('operation'),
  'shared/faults': of('faults'),
  'shared/id-form': of('validation'),
  // The date-time format the validators and the record checks use: their stage.
  'shared/formats': of('inherit'),
  'shared/ids': of('inherit'),
  'shared/intern': of('inherit'),
  'shared/objects': of('inherit'),
  'shared/problems': of('serialization'),
  'shared/secrets': of('inherit'),
  'shared/time': of('inherit'),
  'shared/validation': of('validation'),
  'shared/version': of('startup'),
  'shared/line-writer': of('observation'),
  // The memory store: its Idempotency-Key records and request log belong to their steps.
  'store/store': of('operation'),
  'store/opening-store': of('operation'),
  'store/read-session': of('operation'),
  'store/memory/memory-session': of('operation'),
  'store/memory/memory-seam': of('operation', {
    idempotencyRecord: 'idempotency',
    claimIdempotencyKey: 'idempotency',
    completeIdempotencyRecord: 'idempotency',
    forgetIdempotencyRecord: 'idempotency',
    expireIdempotencyRecords: 'idempotency',
    recordRequest: 'observation',
  }),
  'store/memory/memory-store': of('operation', {
    addIdempotencyRecord: 'idempotency',
    completeIdempotencyRecord: 'idempotency',
    deleteIdempotencyRecord: 'idempotency',
    expireIdempotencyRecords: 'idempotency',
  }),
  'store/memory/account': of('operation', {
    idempotencyRecord: 'idempotency',
    claimIdempotencyKey: 'idempotency',
    completeIdempotencyRecord: 'idempotency',
    forgetIdempotencyRecord: 'idempotency',
    expireIdempotencyRecords: 'idempotency',
    recordRequest: 'observation',
    requestLog: 'observation',
  }),
  'store/record-checks': of('operation'),
  'store/byte-sizes': of('inherit'),
  'store/limits': of('inherit'),
  'store/request-records': of('observation'),
  'store/webhook-records': of('inherit'),
  'store/records': of('inherit'),
  'store/memory/changes': of('inherit'),
  'store/memory/fifo-queue': of('inherit'),
  'store/memory/min-heap': of('inherit'),
  'store/memory/request-log': of('observation'),
  'store/memory/webhook-state': of('observation'),
  'store/data-dir/journal': of('operation'),
  'store/data-dir/replay': of('startup'),
  'store/redis/open': of('startup'),
  'store/redis/redis-webhooks': of('observation'),
  'store/redis/url': of('startup'),
  // Modules off the CLI's request path today (types, the package's entries, the controls'
  // helpers), placed for the builds that ran them per request.
  controls: of('operation'),
  'domain/types': of('operation'),
  index: of('startup'),
  node: of('inherit'),
  'http/env': of('inherit'),
  'http/operations': of('operation'),
  'shared/compiled-validator': of('validation'),
  // The command line: start-up, except the request log it hands the server.
  cli: of('startup'),
  'cli/launcher-watch': of('background'),
  'cli/run': of('observation'),
  'cli/log-output': of('observation'),
};

/**
 * The stage of every module of a folder that `MOCK_MODULE_STAGES` does not name: folders whose
 * modules all do one kind of work (the stores other than memory, the console, webhooks, the
 * command line, the testing entry). The request path's own folders (http/, service/, shared/,
 * the memory store) have no default: each new module there must be placed by name.
 */
export const MOCK_FOLDER_STAGES: Readonly<Record<string, ModuleStage>> = {
  'store/redis/': 'operation',
  'store/data-dir/': 'operation',
  'console/': 'operation',
  'webhooks/': 'observation',
  // The command line runs before requests, but for the request log it hands the server.
  'cli/': 'startup',
  // The snapshot checks the stores' record checks reuse: their caller's stage.
  'testing/': 'inherit',
};

/**
 * Modules of the earlier builds the stage table compares with, where the layout differed: d7ac2fd
 * (before the mock's redesign: a flat `src/`, the /v1 pipeline in `http/v1`, the middleware in
 * `app`) and d4b14ca and 9bf239d (before issue 41: the memory store at the top of `store/`, the
 * key's service cache and scope). Consulted only for a module the current map and folders do not
 * place, or for a function of a module that has the same name today but no such function (d7ac2fd's
 * `cli` wrote the request log), so that a previous build's column has no unattributed row for code
 * that moved. Closures V8 reports without a name take their module's stage: d7ac2fd's middleware
 * (its Request-Id and its log line's text) counts as HTTP.
 */
export const LEGACY_MODULE_STAGES: Readonly<Record<string, ModuleStages>> = {
  // d7ac2fd
  cli: of('startup', { logger: 'observation' }),
  app: of('http', { internalError: 'serialization' }),
  faults: of('faults'),
  'http/router': of('http'),
  'http/sandbox': of('operation'),
  'http/v1': of('operation', { render: 'serialization', validate: 'validation' }),
  idempotency: of('idempotency'),
  ids: of('inherit'),
  options: of('startup'),
  problems: of('serialization'),
  runtime: of('operation'),
  secrets: of('inherit'),
  time: of('inherit'),
  validation: of('validation'),
  // d7ac2fd, d4b14ca and 9bf239d: the memory store before its folder
  'store/accounts': of('operation', {
    addIdempotencyRecord: 'idempotency',
    completeIdempotencyRecord: 'idempotency',
    deleteIdempotencyRecord: 'idempotency',
    expireIdempotencyRecords: 'idempotency',
  }),
  'store/account': of('operation', {
    idempotencyRecord: 'idempotency',
    claimIdempotencyKey: 'idempotency',
    completeIdempotencyRecord: 'idempotency',
    forgetIdempotencyRecord: 'idempotency',
    expireIdempotencyRecords: 'idempotency',
    recordRequest: 'observation',
    requestLog: 'observation',
  }),
  'store/fifo-queue': of('inherit'),
  'store/min-heap': of('inherit'),
  'store/memory': of('inherit'),
  'store/request-log': of('observation'),
  'store/webhook-state': of('observation'),
  'store/journal': of('operation'),
  // d4b14ca and 9bf239d
  'cli-bundle': of('startup'),
  'service/service-cache': of('auth'),
  'service/key-scope': of('operation'),
  'shared/awaitable': of('inherit'),
};

/**
 * The stage of a frame of the mock: its function's, else its module's, else its folder's, else
 * an earlier build's module's (`LEGACY_MODULE_STAGES`); undefined: a module the map lacks.
 *
 * @example
 * mockFrameStage('store/memory/account', 'claimIdempotencyKey'); // 'idempotency'
 */
export function mockFrameStage(module: string, functionName: string): ModuleStage | undefined {
  const entry = MOCK_MODULE_STAGES[module];
  const legacy = LEGACY_MODULE_STAGES[module];
  if (entry !== undefined) {
    return entry.functions?.[functionName] ?? legacy?.functions?.[functionName] ?? entry.stage;
  }
  const folder = Object.keys(MOCK_FOLDER_STAGES).find((prefix) => module.startsWith(prefix));
  if (folder !== undefined) return MOCK_FOLDER_STAGES[folder];
  return legacy === undefined ? undefined : (legacy.functions?.[functionName] ?? legacy.stage);
}

/** @hono/node-server's functions that read a request's body. */
const NODE_SERVER_BODY = new Set([
  'readBodyDirect',
  'readBodyWithFastPath',
  'readRawBodyIfAvailable',
  'consumeBodyDirectOnce',
  'toArrayBuffer',
]);

/** @hono/node-server's functions that write an answer. */
const NODE_SERVER_RESPONSE = new Set([
  'responseViaCache',
  'responseViaResponseObject',
  'writeFromReadableStream',
  'writeFromReadableStreamDefaultReader',
  'buildOutgoingHttpHeaders',
  'flushHeaders',
  'trySetContentLength',
  'writeDefaultHeaders',
  'handleResponseError',
]);

/** Node's functions, outside `node:_http_outgoing`, that write an answer or finish one. */
const NODE_RESPONSE = new Set([
  'writeHead',
  '_implicitHeader',
  'resOnFinish',
  'onServerResponseClose',
  'emitCloseNT',
  'detachSocket',
  'writevGeneric',
  'writeGeneric',
  'afterWriteDispatched',
  'onWriteComplete',
  '_writeGeneric',
  '_writev',
]);

/**
 * The stage of a frame outside the mock (a sample with no frame the mock's map places): the
 * answer's writing (`response`), the body's reading (`body`), or undefined (no opinion: the
 * request's HTTP parse, Hono and the rest of Node count as `http`).
 *
 * @example
 * nodeFrameStage('@hono/node-server', 'responseViaCache'); // 'response'
 */
export function nodeFrameStage(location: string, functionName: string): Stage | undefined {
  if (location.startsWith('@hono/node-server/')) {
    if (NODE_SERVER_RESPONSE.has(functionName)) return 'response';
    if (NODE_SERVER_BODY.has(functionName)) return 'body';
    return undefined;
  }
  if (location === 'node:_http_outgoing') return 'response';
  if (location.startsWith('node:') && NODE_RESPONSE.has(functionName)) return 'response';
  return undefined;
}
