import { resolveCodeSecrets } from '../compose.js';
import type { Config } from '../config/schema.js';
import { systemClock } from '../domain/clock.js';
import type { WebhookDelivery, WebhookEndpoint } from '../domain/ports/webhooks.js';
import type { Store } from '../store/factory.js';
import { WebhookAdmin } from '../webhooks/admin.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/events.js';
import { resealWebhookSecrets, SecretBox } from '../webhooks/secrets.js';
import { UrlRefused } from '../webhooks/url-guard.js';

export const WEBHOOK_USAGE = `  contact-verify webhooks create --url <url> --events <type,…> [--account <id>]
  contact-verify webhooks list [--account <id>]
  contact-verify webhooks delete <endpoint-id>
  contact-verify webhooks deliveries <endpoint-id>
  contact-verify webhooks replay <endpoint-id> --delivery <delivery-id>
  contact-verify webhooks reseal                   # after a CODE_SECRET rotation (CODE_SECRET_PREVIOUS set)`;

export const WEBHOOK_COMMANDS = [
  'webhooks create',
  'webhooks list',
  'webhooks delete',
  'webhooks deliveries',
  'webhooks replay',
  'webhooks reseal',
];

type Outcome = { out: unknown; text: string; code?: number };

/** As the API shows it: failingSince in ISO 8601 (the *At times are converted by the CLI). */
const endpointOut = (e: WebhookEndpoint) => ({
  ...e,
  failingSince: e.failingSince === null ? null : new Date(e.failingSince).toISOString(),
});

const endpointLine = (e: WebhookEndpoint) =>
  `${e.id}\t${e.accountId}\t${e.enabled ? 'enabled' : `disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}`}\t${e.url}\t${e.events.join(',')}`;
const deliveryLine = (d: WebhookDelivery) =>
  `${d.id}\t${d.eventType}\t${d.eventId}\t${d.status}\tattempts=${d.attempts}\tlast=${d.responseStatus ?? '-'}\tnext=${d.nextAttemptAt ? new Date(d.nextAttemptAt).toISOString() : '-'}`;

/** The `webhooks …` commands: the same operations as /v1/admin/webhooks. */
export async function webhookCommand(
  config: Config,
  store: Store,
  action: string,
  id: string | undefined,
  values: { url?: string; events?: string; account?: string; delivery?: string },
): Promise<Outcome> {
  const fail = (text: string): Outcome => ({ out: { error: text }, text, code: 2 });
  const { current, previous } = await resolveCodeSecrets(config, store);
  const box = new SecretBox(current, previous);
  const admin = new WebhookAdmin(store, box, systemClock, config.webhooksAllowPrivate);
  switch (action) {
    case 'create': {
      const events = (values.events ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      const unknown = events.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
      if (!values.url) return fail('webhooks create needs --url');
      if (events.length === 0 || unknown.length > 0)
        return fail(`--events takes a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
      try {
        const created = await admin.create({ url: values.url, events, accountId: values.account });
        if (!created) return fail(`no account ${values.account}`);
        return {
          out: { ...endpointOut(created.endpoint), secret: created.secret },
          text: `created webhook ${created.endpoint.id} → ${created.endpoint.url}\nsigning secret, shown once: ${created.secret}`,
        };
      } catch (err) {
        if (err instanceof UrlRefused) return fail(`--url refused: ${err.message}`);
        throw err;
      }
    }
    case 'list': {
      const endpoints = await admin.list(values.account);
      return { out: endpoints.map(endpointOut), text: endpoints.map(endpointLine).join('\n') };
    }
    case 'delete': {
      if (!id) return fail('webhooks delete needs an endpoint id');
      return (await admin.delete(id))
        ? { out: { id, deleted: true }, text: `deleted ${id}` }
        : fail(`no endpoint ${id}`);
    }
    case 'deliveries': {
      if (!id) return fail('webhooks deliveries needs an endpoint id');
      const deliveries = await admin.deliveries(id, 50);
      if (!deliveries) return fail(`no endpoint ${id}`);
      return { out: deliveries, text: deliveries.map(deliveryLine).join('\n') };
    }
    case 'replay': {
      if (!id || !values.delivery) return fail('webhooks replay needs an endpoint id and --delivery');
      const delivery = await admin.replay(id, values.delivery);
      if (!delivery) return fail(`no delivery ${values.delivery} on ${id}`);
      return { out: delivery, text: `queued ${delivery.id} again` };
    }
    case 'reseal': {
      const report = await resealWebhookSecrets(store.webhooks, box);
      const unreadable = report.unreadable.length;
      return {
        out: report,
        text:
          `${report.resealed} signing secret(s) sealed again under CODE_SECRET` +
          (unreadable > 0
            ? `; ${unreadable} sealed under neither CODE_SECRET nor CODE_SECRET_PREVIOUS: ${report.unreadable.join(', ')}`
            : ''),
        // Endpoints whose secrets no key opens cannot be signed for: the operator must act.
        code: unreadable > 0 ? 1 : 0,
      };
    }
    default:
      return fail(`unknown command "webhooks ${action}"`);
  }
}
