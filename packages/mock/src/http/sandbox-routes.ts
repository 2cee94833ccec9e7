// The sandbox controls of spec/sandbox.yaml: one route per operationId, on the caller's own key.
import type { SandboxComponents, SandboxOperations, SandboxPaths } from '@payment-service/openapi';
import type { SandboxValidators } from '../shared/validation.js';
import { mockVersion } from '../shared/version.js';
import { STORE_RETRY_AFTER_SECONDS } from '../store/store.js';
import type { RouteTable } from './operations.js';
import { noBody, requiredBody } from './routes.js';

/**
 * Builds the route of every sandbox control. Faults never apply to these requests. A control in
 * the sandbox spec without a route here is a compile error naming it.
 *
 * @example
 * const routes = createSandboxRoutes(sandboxValidators);
 */
export function createSandboxRoutes(
  validators: SandboxValidators,
  health: { log?: (() => SandboxComponents['schemas']['SandboxLogHealth']) | undefined } = {},
) {
  return {
    getSandboxHealth: {
      body: noBody,
      handle: async ({ service }) => {
        const unhealthy = await service.storeHealth();
        if (unhealthy !== undefined) {
          // Nothing secret: whether the store serves, never its address.
          const detail = `This instance cannot serve requests now: ${unhealthy}.`;
          return {
            problem: {
              code: 'store_unavailable',
              detail,
              headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
            },
          };
        }
        return {
          status: 200,
          body: {
            object: 'sandbox_health',
            status: 'ok',
            version: mockVersion,
            ...(health.log === undefined ? {} : { log: health.log() }),
          },
        };
      },
    },
    resetSandbox: {
      body: noBody,
      handle: async ({ service }) => ({ status: 200, body: await service.reset() }),
    },
    getSandboxClock: {
      body: noBody,
      handle: async ({ service }) => ({ status: 200, body: await service.clock.get() }),
    },
    advanceSandboxClock: {
      body: requiredBody(validators.validator('AdvanceClockRequest')),
      handle: async ({ service, body }) => {
        const { result, events } = await service.clock.advance(body.seconds);
        if (!result.ok) return { problem: result.problem };
        // Always handed over (even empty): retries that came due with the clock run now.
        return { status: 200, body: result.body, events };
      },
    },
    getSandboxFaults: {
      body: noBody,
      handle: async ({ service }) => ({ status: 200, body: await service.faults.get() }),
    },
    setSandboxFaults: {
      body: requiredBody(validators.validator('Faults')),
      handle: async ({ service, body }) => ({ status: 200, body: await service.faults.set(body) }),
    },
    clearSandboxFaults: {
      body: noBody,
      handle: async ({ service }) => ({ status: 200, body: await service.faults.clear() }),
    },
    getSandboxInspector: {
      body: noBody,
      handle: async ({ service, callerOnThisMachine }) => {
        const inspector = await service.inspector.get();
        if (callerOnThisMachine) return { status: 200, body: inspector };
        const events = inspector.events.map((event) => ({
          ...event,
          deliveries: event.deliveries.map(withoutAnswer),
        }));
        return { status: 200, body: { ...inspector, events } };
      },
    },
    listWebhookDeliveries: {
      body: noBody,
      handle: async ({ service, query, callerOnThisMachine }) => {
        const list = await service.webhooks.listDeliveries(query.get('event_id'));
        if (callerOnThisMachine) return { status: 200, body: list };
        return { status: 200, body: { ...list, data: list.data.map(withoutAnswer) } };
      },
    },
    redeliverEvent: {
      body: noBody,
      handle: async ({ service, id }) => {
        const { result: endpoints, events } = await service.webhooks.redeliverEvent(id);
        if (endpoints === undefined) {
          const detail = `No event with id ${id} exists for this API key (the last 1000 events are kept).`;
          return { problem: { code: 'not_found', detail } };
        }
        return {
          status: 200,
          body: { object: 'event_redelivery', event_id: id, endpoints },
          events,
        };
      },
    },
  } satisfies RouteTable<SandboxOperations, SandboxPaths>;
}

/**
 * A delivery attempt without what the receiver answered (its status stays): the answers of
 * receivers on the sandbox's machine are shown only to callers on that machine, so that a sandbox
 * reachable over the network cannot be used to read the services around it.
 */
function withoutAnswer(
  delivery: SandboxComponents['schemas']['WebhookDelivery'],
): SandboxComponents['schemas']['WebhookDelivery'] {
  return delivery.response_body === null ? delivery : { ...delivery, response_body: null };
}
