// The contract proxy: forwards an app's traffic to a target and checks every exchange against the spec off the forwarding path, recording it as HAR when asked; its report is ready at any moment.
import { performance } from 'node:perf_hooks';
import type { FailOn } from '../report.js';
import { type SpecDocument, specDocuments } from '../spec/spec-index.js';
import { cleanTargetText } from '../untrusted-text.js';
import { type CapturedExchange, startForwardingProxy } from './forward.js';
import { createHarRecorder, type HarLimits } from './har.js';
import { createTrafficChecker, type TrafficExchange } from './traffic-checker.js';
import { type TrafficGate, type TrafficReport, trafficReport } from './traffic-report.js';

/** Options of `startContractProxy`. */
export interface ContractProxyOptions {
  /** The target the app's requests go to: a provider's sandbox or the mock. */
  target: string;
  host?: string;
  port?: number;
  /** Which failures fail the run. Default `documented`. */
  failOn?: FailOn;
  /** Bodies larger than this are forwarded whole but not checked. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Record the exchanges as HAR (bounded by these limits); `recording()` returns it. */
  record?: boolean | HarLimits;
  /** Exchanges waiting to be checked, at most; past it they are counted, not checked. Default 1 000. */
  maxQueued?: number;
  /** How long one exchange may take, in ms, before a 504 (or a cut answer). Default 30 000. */
  upstreamTimeoutMs?: number;
  /** The wall clock (tests inject one). */
  now?: () => number;
}

/** A running contract proxy. */
export interface ContractProxy {
  /** The URL to give the app as its base URL. */
  url: string;
  /** The report of the traffic so far (exchanges still queued for checking are checked first), under a gate when given. */
  report(gate?: TrafficGate): Promise<TrafficReport>;
  /** The HAR recorder, when recording. */
  recording: ReturnType<typeof createHarRecorder> | undefined;
  /** Copies of bodies in flight or queued, in bytes (bounded by the proxy's budget). */
  readonly bufferedBytes: number;
  close(): Promise<void>;
}

const MAX_ERRORS = 20;
const utf8 = new TextDecoder('utf-8');

/** The exchange the checker reads, from the proxy's copies. */
function trafficExchange(captured: CapturedExchange): TrafficExchange {
  return {
    method: captured.method,
    url: captured.url,
    path: captured.path,
    requestHeaders: captured.requestHeaders,
    ...(captured.requestBytes > 0 ? { requestBody: utf8.decode(captured.requestBody) } : {}),
    ...(captured.requestBytes > captured.cap
      ? { requestBodyUnread: `body over ${captured.cap} bytes` }
      : {}),
    status: captured.status,
    responseHeaders: captured.responseHeaders,
    responseBody: utf8.decode(captured.responseBody),
    ...(captured.responseBytes > captured.cap
      ? { responseBodyUnread: `body over ${captured.cap} bytes` }
      : {}),
    ...(captured.noAnswer !== undefined ? { noAnswer: captured.noAnswer } : {}),
  };
}

/**
 * Starts the contract proxy in front of `target`.
 *
 * @example
 * const proxy = await startContractProxy({ target: 'http://127.0.0.1:4010', record: true });
 * // run the app's tests with PAYMENT_SERVICE_BASE_URL=proxy.url
 * const report = await proxy.report();
 * await proxy.close();
 */
export async function startContractProxy(options: ContractProxyOptions): Promise<ContractProxy> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const checker = createTrafficChecker();
  const recording = options.record
    ? createHarRecorder(options.record === true ? {} : options.record)
    : undefined;
  const errors: TrafficReport['errors'] = [];
  const queue: CapturedExchange[] = [];
  const maxQueued = options.maxQueued ?? 1000;
  let draining: Promise<void> | undefined;

  function checkCaptured(captured: CapturedExchange) {
    try {
      recording?.add(captured);
      if (captured.uncopied) {
        checker.notChecked("not checked: the proxy's buffers were full");
        checker.notes.exchanges += 1;
      } else checker.check(trafficExchange(captured));
    } catch (error) {
      if (errors.length < MAX_ERRORS)
        errors.push({
          scenario: `${captured.method} ${cleanTargetText(captured.path, 200)}`,
          message: cleanTargetText(String((error as Error)?.stack ?? error), 4000),
        });
    } finally {
      captured.release();
    }
  }

  /** Checks what is queued, a slice per turn of the event loop, so forwarding keeps its turns. */
  function drain(): Promise<void> {
    draining ??= new Promise<void>((resolve) => {
      const step = () => {
        // At most about half a millisecond of checking per turn: forwarding never waits longer.
        const until = performance.now() + 0.5;
        while (queue.length > 0) {
          checkCaptured(queue.shift() as CapturedExchange);
          if (performance.now() >= until) break;
        }
        if (queue.length > 0) setImmediate(step);
        else {
          draining = undefined;
          resolve();
        }
      };
      setImmediate(step);
    });
    return draining;
  }

  const forwarding = await startForwardingProxy({
    target: options.target,
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.upstreamTimeoutMs !== undefined
      ? { upstreamTimeoutMs: options.upstreamTimeoutMs }
      : {}),
    now,
    onRefused: () => checker.refusedLiveKey(),
    onExchange(captured) {
      if (queue.length >= maxQueued) {
        captured.release();
        checker.notChecked('not checked: the checker fell behind the traffic');
        checker.notes.exchanges += 1;
        return;
      }
      queue.push(captured);
      void drain();
    },
  });

  return {
    url: forwarding.url,
    recording,
    get bufferedBytes() {
      return forwarding.bufferedBytes;
    },
    async report(gate) {
      // Exchanges handed on in this turn are queued on the next: wait a turn, then drain.
      await new Promise((resolve) => setImmediate(resolve));
      await drain();
      return trafficReport({
        mode: 'proxy',
        target: options.target,
        failOn: options.failOn ?? 'documented',
        checks: checker.results(),
        notes: { ...checker.notes, notChecked: { ...checker.notes.notChecked } },
        spec: specDocuments.openapi as SpecDocument,
        startedAt,
        now: now(),
        errors: [...errors],
        ...(gate ? { gate } : {}),
      });
    },
    close: () => forwarding.close(),
  };
}
