// The webhooks of one key: its endpoints (register, list, delete), its delivery log, and redelivery of an event.
import type { components, SandboxComponents } from '@payment-service/openapi';
import type { DomainResult } from '../domain/payments.js';
import { extend } from '../shared/objects.js';
import { maskUrl } from '../shared/secrets.js';
import { receiversOf } from '../webhooks/receivers.js';
import type { KeySession } from './key-session.js';
import { type Change, noEvents } from './sandbox-state.js';
import * as endpoints from './webhook-endpoints.js';

type Schemas = components['schemas'];
type SandboxSchemas = SandboxComponents['schemas'];

/**
 * The webhook operations of one key (spec: createWebhookEndpoint, listWebhookEndpoints,
 * deleteWebhookEndpoint, listWebhookDeliveries, redeliverEvent).
 *
 * @example
 * await service.webhooks.createEndpoint({ url: 'http://127.0.0.1:3000/webhooks' }); // 201 with the whsec_ secret
 */
export class WebhooksFacet {
  constructor(private readonly scope: KeySession) {}

  async createEndpoint(
    request: Schemas['CreateWebhookEndpointRequest'],
  ): Promise<DomainResult<Schemas['WebhookEndpointWithSecret']>> {
    const { sandbox } = this.scope;
    const account = await this.scope.open();
    return endpoints.createWebhookEndpoint(
      account,
      this.scope.now(account),
      request,
      sandbox.webhookPolicy,
      sandbox.random,
    );
  }

  async listEndpoints(): Promise<DomainResult<Schemas['WebhookEndpointList']>> {
    return endpoints.listWebhookEndpoints(await this.scope.find());
  }

  async deleteEndpoint(id: string): Promise<DomainResult<Schemas['DeletedWebhookEndpoint']>> {
    return endpoints.deleteWebhookEndpoint(await this.scope.find(), id);
  }

  /**
   * The key's delivery attempts, newest first; only one event's when `eventId` is given. Each
   * URL is masked as in the inspector (credentials and query values `***`): the operator's
   * `--webhook-url` is shared by every key, and may carry a token.
   */
  async listDeliveries(eventId: string | null): Promise<SandboxSchemas['WebhookDeliveryList']> {
    const log = (await (await this.scope.find())?.webhooks?.deliveryLog()) ?? [];
    const data = log
      .filter((entry) => eventId === null || entry.event_id === eventId)
      .map((entry) => extend(entry, { url: maskUrl(entry.url) }));
    return { object: 'list', data: data.reverse() };
  }

  /** Sends one of the key's events again: how many endpoints get it, or undefined if unknown. */
  async redeliverEvent(eventId: string): Promise<Change<number | undefined>> {
    const account = await this.scope.find();
    const event = await account?.webhooks?.eventById(eventId);
    if (account === undefined || event === undefined)
      return { result: undefined, events: noEvents };
    const receivers = await receiversOf(
      account.webhooks,
      this.scope.sandbox.defaultEndpoint,
      event.type,
    );
    return {
      result: receivers.length,
      events: [{ account, event, dueAt: this.scope.now(account) }],
    };
  }
}
