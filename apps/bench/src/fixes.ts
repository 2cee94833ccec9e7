// Hot-path fixes made in packages/mock after profiling, with the numbers measured before and after.

/** One fix: what changed, and create throughput before and after on the same machine. */
export interface HotPathFix {
  commit: string;
  change: string;
  /** Creates per second through the CLI (default settings) before and after, same machine. */
  before: string;
  after: string;
}

/** The fixes, oldest first; filled in by hand when a fix lands, from side-by-side runs on this machine. */
export const HOT_PATH_FIXES: HotPathFix[] = [
  {
    commit: '252dd73',
    change:
      'Store: creation orders in FIFO queues instead of iterating Maps from the front (V8 scans the deleted slots: ~14 µs per lookup at 10,000 entries vs 0.76 µs); the profile showed idempotency begin + sweep + record eviction at ~11 % of busy time',
    before: 'creates/s past the per-key cap, median of 3 × 4 s: 5,024 (p99 70 ms)',
    after: '6,717 (p99 15 ms); load average ~3 during the A/B, noisy',
  },
  {
    commit: '09dd2e3',
    change:
      "Validation: Ajv no longer compiles the JSON Schema 2020-12 meta-schema to check the spec at start-up (Redocly lints the spec); it was most of createMockServer's time",
    before: 'createMockServer() 295 ms; CLI cold start median 853 ms (7 runs, load ~2.5)',
    after: '71 ms; 630 ms',
  },
  {
    commit: 'd1ba925',
    change: 'Validation: each request-body validator compiles on first use, not all at start-up',
    before: 'createMockServer() 71 ms; CLI cold start median 630 ms (load ~2.5)',
    after: '14 ms; 565 ms',
  },
  {
    commit: '9884989',
    change:
      'Idempotency: one-shot crypto.hash and canonical JSON by concatenation for the body hash (canonicalJson + Hash were ~5.5 % of busy time)',
    before: 'hashBody 7.54 µs per create',
    after: '5.08 µs (same hash)',
  },
  {
    commit: 'f6da4aa',
    change: 'formatTimestamp reuses the text while the second is unchanged (~2 % of busy time)',
    before: '1.44 µs per call',
    after: '0.013 µs',
  },
  {
    commit: '2259072',
    change:
      "Idempotency records keep a short body's text (≤ 512 characters; a longer one's canonical SHA-256) and canonicalize only when a retry's text differs, so a create hashes nothing (canonicalJson + crypto.hash were ~7 % of busy time); the inspector's recorder reads the stored answer, not `c.res.headers` (which made @hono/node-server build a Headers per answer, ~3 %)",
    before:
      'creates/s through the CLI child (--quiet), wrk c=50, median of 3 alternating 5 s rounds: 5,562',
    after: '6,677',
  },
  {
    commit: '86ffd74',
    change:
      "SDK: each attempt refuses redirects (`redirect: 'error'`, no window), which lets Node's fetch skip copying the request and teeing its body (the profile showed `cloneBody`, a stream tee and their `makeTransferable` calls per call); a 3xx is a ConnectionError that says so, not retried",
    before:
      'client CPU per create at concurrency 10 against the CLI, median of 5 alternating 3 s rounds: bare fetch 311 µs, SDK 380 µs',
    after: 'SDK ~340 µs; bare fetch with the same init 271 µs',
  },
  {
    commit: '2181d9a',
    change:
      'CLI: the bin runs one file bundled by esbuild instead of ~150 modules (module resolution and loading were ~70 % of the 130 ms import of the mock)',
    before: 'process start to the first create through the bin, median of 7: 340 ms (same load)',
    after: '225 ms',
  },
  {
    commit: 'e1d83d1',
    change:
      'Validation: request-body validators compiled by Ajv standalone code at build time; loading Ajv (~19 ms), adding the spec (~7 ms) and compiling the first validator (~14 ms) left the cold start',
    before: 'process start to the first create through the bin, median of 7: ~225 ms',
    after: '~175 ms',
  },
  {
    commit: '08a1df7',
    change:
      "Object literals with properties after a spread (`{ ...headers, 'request-id': id }`, the inspector's `{ ...entry, receivedAt }`) leave the request path: Node 20's V8 builds them on a slow path, ~1 µs each against ~0.08 µs for `Object.assign` (micro-benchmark); the inspector's log is a ring; log times reuse the second's text (`toISOString` ~1 µs)",
    before:
      "retrieve through `mock.app.fetch` with @hono/node-server's Request/Response, median of 7 alternating rounds of 50,000: 19.3 µs",
    after: '13.8 µs',
  },
  {
    commit: '4152698',
    change:
      "The log line's problem `code` and the inspector's response body come from the text the mock answered with, not from `c.res.clone()`: under @hono/node-server the copy built a web Response, its Headers and a ReadableStream tee for every 4xx and every idempotent replay (the profile showed `makeTransferable` and `readableStreamTee` under `jsonTextOf`)",
    before:
      '404 retrieves/s through the CLI (default logging), wrk c=50, median of 4 alternating 4 s rounds: ~2,880 (388 µs of server CPU each)',
    after: '~8,540 (122 µs)',
  },
  {
    commit: 'f47e3e7',
    change:
      "One precomposed pipeline per operation instead of ten async middleware layers (auth, faults, body, validation, Idempotency-Key, handler, answer: each present only where the operation needs it), observed once at the end (log line, inspector record, drop) from what the pipeline holds; an answer serialized once for the client, its idempotency record and the inspector; a stored payment's JSON kept from its first read until it changes (from ec35ee6: its first read, not its creation, so the memory budget holds as many payments as before)",
    before:
      'CPU per create under wrk c=50 over 1,000 keys (node --cpu-prof, busy µs / request): 164.5 µs (retrieve 54.7 µs); quick A/B in one run, the build before as BENCH_PREVIOUS: creates/s 1×, retrieves/s 1×',
    after: '133.5 µs (retrieve 52.0 µs); creates/s 1.14×, retrieves/s 1.17× the build before',
  },
  {
    commit: 'f902f26',
    change:
      'CLI: the bundle is minified (666 → 355 kB to decode and parse) and the launcher (dist/cli.js) is one bundled file instead of five modules read before the main bundle',
    before:
      'process start to the first 201 through the bin (shebang heap flag), median of 7 interleaved: ~331 ms (Hono floor ~245 ms)',
    after: '305 ms (Hono floor 252 ms)',
  },
  {
    commit: '7816e63',
    change:
      'CLI: the launcher loads node:child_process, node:os and node:url only to relaunch; the console builds its inspector and reference scripts on first use',
    before: 'process start to the first 201 through the bin, median of 7: 305 ms',
    after: '299 ms (Hono floor 245 ms: 1.22×)',
  },
];
