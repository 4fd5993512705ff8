import { DEFAULT_ACCOUNT_ID } from '../domain/accounts.js';
import type { Clock } from '../domain/clock.js';
import { timeOrderedHex } from '../domain/ids.js';
import type { KeysAndAccounts } from '../domain/ports/keys-and-accounts.js';
import type {
  EndpointPatch,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookStore,
} from '../domain/ports/webhooks.js';
import { newWebhookSecret, type SecretBox } from './secrets.js';
import { parseWebhookUrl, resolveTarget } from './url-guard.js';

export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  /** The `whsec_…` signing secret: shown once, stored sealed. */
  secret: string;
}

/**
 * Webhook endpoint management, shared by the admin API and the CLI. A URL is checked when it is
 * registered (form, and that it resolves to a public address) and again before every delivery.
 * Throws UrlRefused for a URL that may not be used.
 */
export class WebhookAdmin {
  constructor(
    private readonly store: { accounts: Pick<KeysAndAccounts, 'getAccount'>; webhooks: WebhookStore },
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly allowPrivate: boolean,
  ) {}

  private async checkUrl(raw: string): Promise<string> {
    const url = parseWebhookUrl(raw);
    await resolveTarget(url, this.allowPrivate);
    return url.toString();
  }

  /** null when the account does not exist. */
  async create(input: {
    url: string;
    events: string[];
    accountId?: string;
    enabled?: boolean;
  }): Promise<CreatedEndpoint | null> {
    const accountId = input.accountId ?? DEFAULT_ACCOUNT_ID;
    if (!(await this.store.accounts.getAccount(accountId))) return null;
    const url = await this.checkUrl(input.url);
    const secret = newWebhookSecret();
    const now = this.clock.now();
    const endpoint = await this.store.webhooks.createEndpoint({
      id: `wh_${timeOrderedHex(now)}`,
      accountId,
      url,
      events: [...new Set(input.events)],
      enabled: input.enabled ?? true,
      sealedSecret: this.secrets.seal(secret),
      createdAt: now,
    });
    return { endpoint, secret };
  }

  list(accountId?: string): Promise<WebhookEndpoint[]> {
    return this.store.webhooks.listEndpoints(accountId);
  }

  get(id: string): Promise<WebhookEndpoint | null> {
    return this.store.webhooks.getEndpoint(id);
  }

  async update(id: string, patch: EndpointPatch): Promise<WebhookEndpoint | null> {
    const url = patch.url === undefined ? undefined : await this.checkUrl(patch.url);
    return this.store.webhooks.updateEndpoint(id, {
      ...patch,
      url,
      events: patch.events && [...new Set(patch.events)],
    });
  }

  delete(id: string): Promise<boolean> {
    return this.store.webhooks.deleteEndpoint(id, this.clock.now());
  }

  /** null when the endpoint does not exist. */
  async deliveries(id: string, limit: number): Promise<WebhookDelivery[] | null> {
    if (!(await this.store.webhooks.getEndpoint(id))) return null;
    return this.store.webhooks.listDeliveries(id, limit);
  }

  /** null when the endpoint (deleted ones included) or the delivery does not exist. */
  async replay(id: string, deliveryId: string): Promise<WebhookDelivery | null> {
    // A deleted endpoint's delivery would wait forever: no worker sends to it.
    if (!(await this.store.webhooks.getEndpoint(id))) return null;
    return this.store.webhooks.replayDelivery(id, deliveryId, this.clock.now());
  }
}
