// The sandbox controls under /_sandbox (reset, clock, faults), on the calling key's own account.
import { type Faults, normalizeFaults } from '../faults.js';
import type { Runtime } from '../runtime.js';
import { formatTimestamp } from '../time.js';
import { authenticate } from './auth.js';
import { readJsonBody } from './body.js';
import {
  type HandlerOutcome,
  invalidRequest,
  problemResponse,
  toResponse,
  toStoredJson,
} from './respond.js';
import { createRouter } from './router.js';

type ControlOperation =
  | 'resetSandbox'
  | 'getSandboxClock'
  | 'advanceSandboxClock'
  | 'getSandboxFaults'
  | 'setSandboxFaults'
  | 'clearSandboxFaults'
  | 'listWebhookDeliveries'
  | 'redeliverEvent';

const routeSandbox = createRouter<ControlOperation>({
  '/_sandbox/reset': { POST: 'resetSandbox' },
  '/_sandbox/clock': { GET: 'getSandboxClock' },
  '/_sandbox/clock/advance': { POST: 'advanceSandboxClock' },
  '/_sandbox/faults': {
    GET: 'getSandboxFaults',
    PUT: 'setSandboxFaults',
    DELETE: 'clearSandboxFaults',
  },
  '/_sandbox/webhook_deliveries': { GET: 'listWebhookDeliveries' },
  '/_sandbox/events/{id}/redeliver': { POST: 'redeliverEvent' },
});

/**
 * Creates the handler of every /_sandbox request. Faults never apply to these requests.
 *
 * @example
 * const handleSandbox = createSandboxHandler(runtime);
 * const { response } = await handleSandbox(request, '/_sandbox/clock', 'req_1');
 */
export function createSandboxHandler(
  runtime: Runtime,
): (request: Request, path: string, requestId: string) => Promise<HandlerOutcome> {
  const { store, options } = runtime;
  const json = (body: unknown, requestId: string): HandlerOutcome => ({
    response: toResponse(toStoredJson(200, body), requestId),
  });

  return async (request, path, requestId) => {
    const auth = authenticate(request.headers.get('authorization'));
    if (!auth.ok) return { response: problemResponse(auth.problem, requestId) };
    const { apiKey } = auth;
    const route = routeSandbox(request.method, path);
    if (!route.ok) return { response: problemResponse(route.problem, requestId) };

    let body: unknown;
    if (route.operation === 'advanceSandboxClock' || route.operation === 'setSandboxFaults') {
      const bodyResult = await readJsonBody(request, options.maxBodyBytes);
      if (!bodyResult.ok) return { response: problemResponse(bodyResult.problem, requestId) };
      body = bodyResult.body;
      const validator =
        route.operation === 'advanceSandboxClock'
          ? runtime.sandboxValidators.AdvanceClockRequest
          : runtime.sandboxValidators.Faults;
      const errors =
        body === undefined
          ? [{ param: '', code: 'required', message: 'a JSON request body is required' }]
          : validator(body);
      if (errors.length > 0) {
        return { response: problemResponse(invalidRequest(errors), requestId) };
      }
    }

    const serverNow = options.clock.now();
    store.sweep(serverNow);
    switch (route.operation) {
      case 'resetSandbox':
        return json({ object: 'sandbox_reset', deleted_payments: store.reset(apiKey) }, requestId);
      case 'getSandboxClock': {
        const account = store.find(apiKey);
        return json(
          clockBody(account?.now(serverNow) ?? serverNow, account?.offsetSeconds ?? 0, 0),
          requestId,
        );
      }
      case 'advanceSandboxClock': {
        const { seconds } = body as { seconds: number };
        const account = store.open(apiKey);
        account.offsetSeconds += seconds;
        const accountNow = account.now(serverNow);
        const settled = account.settleDue(accountNow, runtime.webhooks.paymentSettled);
        runtime.webhooks.kick(); // retries that came due run now
        store.expireIdempotencyRecords(account, accountNow);
        store.dropIfEmpty(account);
        return json(clockBody(accountNow, account.offsetSeconds, settled), requestId);
      }
      case 'getSandboxFaults':
        return json(normalizeFaults(store.find(apiKey)?.faults ?? {}), requestId);
      case 'setSandboxFaults': {
        const account = store.open(apiKey);
        account.faults = normalizeFaults(body as Faults);
        store.dropIfEmpty(account);
        return json(normalizeFaults(account.faults), requestId);
      }
      case 'listWebhookDeliveries': {
        const eventId = new URL(request.url).searchParams.get('event_id');
        const log = store.find(apiKey)?.webhooks?.log ?? [];
        const data = log.filter((entry) => eventId === null || entry.event_id === eventId);
        return json({ object: 'list', data: data.reverse() }, requestId);
      }
      case 'redeliverEvent': {
        const account = store.find(apiKey);
        const eventId = route.id ?? '';
        const queued =
          account === undefined
            ? undefined
            : runtime.webhooks.redeliver(account, eventId, account.now(serverNow));
        if (queued === undefined) {
          const detail = `No event with id ${eventId} exists for this API key (the last 1000 events are kept).`;
          return { response: problemResponse({ code: 'not_found', detail }, requestId) };
        }
        return json(
          { object: 'event_redelivery', event_id: eventId, endpoints: queued },
          requestId,
        );
      }
      case 'clearSandboxFaults': {
        const account = store.find(apiKey);
        if (account !== undefined) {
          account.faults = {};
          store.dropIfEmpty(account);
        }
        return json({}, requestId);
      }
    }
  };
}

function clockBody(accountNow: number, offsetSeconds: number, settled: number) {
  return {
    object: 'sandbox_clock',
    now: formatTimestamp(accountNow),
    offset_seconds: offsetSeconds,
    settled_payments: settled,
  };
}
