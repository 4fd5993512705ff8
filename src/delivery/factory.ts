import type { Clock } from '../domain/clock.js';
import type { Channel, DeliveryType } from '../domain/types.js';
import { Dispatcher, type ProviderRoute } from './dispatcher.js';
import type { ChannelProvider, Delivery } from './interface.js';
import type { RenderOptions } from './messages.js';
import { OutboxProvider, type OutboxStore } from './outbox/outbox-provider.js';
import type { ProviderContext, ProviderModule } from './providers/module.js';
import { PROVIDERS, type ProviderList, smsProviderNames } from './providers/registry.js';
import { parseSmsRoutes, smsRouteFor } from './routing.js';
import { type DeliverySettings, DeliverySettingsError } from './settings.js';

/** Whether `module` serves `channel` (and, when given, that WhatsApp delivery type). */
const serves = (module: ProviderModule, channel: Channel, deliveryType?: DeliveryType) =>
  module.channel === channel &&
  (deliveryType === undefined || (module.deliveryType ?? 'TEXT') === deliveryType);

/**
 * Configurations that start but probably do not do what their operator meant; logged once at
 * start. (Configurations that cannot work are refused instead, see delivery/settings.ts.)
 */
export function deliveryWarnings(config: DeliverySettings, providers: ProviderList = PROVIDERS): string[] {
  const warnings: string[] = [];
  const context: ProviderContext = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: undefined };
  const configured = (m: ProviderModule) => m.configured(config, context);
  const calls = providers.filter((m) => serves(m, 'WHATSAPP', 'CALL'));
  if (
    providers.some((m) => serves(m, 'WHATSAPP', 'TEXT') && configured(m)) &&
    calls.length > 0 &&
    !calls.some(configured)
  ) {
    const how = calls.map((m) => m.setup ?? m.title).join('; or ');
    warnings.push(
      `WHATSAPP is configured but CALL has no provider (${how}): live requests with deliveryType CALL ${
        config.liveOutbox === 'allow'
          ? 'go to the outbox and are not delivered'
          : 'are refused with 503 CHANNEL_UNAVAILABLE'
      }.`,
    );
  }
  return warnings;
}

/** What the deployment adds to every rendered message (the outbox's, the preview's, the providers'). */
export function renderOptions(config: DeliverySettings): RenderOptions {
  return { webOtpDomain: config.smsWebOtpDomain, publicBaseUrl: config.publicBaseUrl ?? null };
}

/**
 * Builds the configured providers of `providers` (the registry), once, and the routes between
 * them: EMAIL and each WhatsApp delivery type through the first provider configured for it; SMS
 * by country with failover, by default through every configured SMS provider in the registry's
 * order. A channel (or WhatsApp delivery type) without a provider uses the outbox.
 */
export function buildDelivery(
  config: DeliverySettings,
  store: OutboxStore,
  clock: Clock,
  providers: ProviderList = PROVIDERS,
): Delivery {
  const context = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: config.smsWebOtpDomain };
  const built = providers.flatMap((module) => {
    const provider = module.create(config, context);
    return provider ? [{ module, provider }] : [];
  });
  const serving = (channel: Channel, deliveryType?: DeliveryType) =>
    built.find((b) => serves(b.module, channel, deliveryType))?.provider ?? null;

  // SMS providers by name, in the registry's order: the default route tries them in that order.
  const sms = new Map(
    built.filter((b) => b.module.channel === 'SMS').map((b) => [b.module.name, b.provider]),
  );
  const email = serving('EMAIL');
  const whatsappText = serving('WHATSAPP', 'TEXT');
  const whatsappCall = serving('WHATSAPP', 'CALL');

  const { routes: smsRoutes, problems } = parseSmsRoutes(config.smsRoutes, {
    known: smsProviderNames(providers),
    configured: [...sms.keys()],
  });
  if (problems.length > 0)
    throw new DeliverySettingsError(`Invalid configuration:\n  ${problems.join('\n  ')}`);

  const routes: Partial<Record<'EMAIL' | 'SMS' | 'WHATSAPP', ProviderRoute>> = {};
  if (email) routes.EMAIL = () => [email];
  if (sms.size > 0) {
    routes.SMS = (r) =>
      smsRouteFor(smsRoutes, r.country)
        .map((name) => sms.get(name))
        .filter((p): p is ChannelProvider => p !== undefined);
  }
  if (whatsappText || whatsappCall) {
    routes.WHATSAPP = (r) => {
      const provider = r.deliveryType === 'CALL' ? whatsappCall : whatsappText;
      return provider ? [provider] : [];
    };
  }

  const outbox = new OutboxProvider(store, renderOptions(config));
  return new Dispatcher(
    outbox,
    routes,
    built.map((b) => b.provider),
    {
      clock,
      breaker: {
        failures: config.circuitBreakerFailures,
        cooldownMs: config.circuitBreakerCooldownSeconds * 1000,
      },
      checkIntervalMs: config.providerCheckIntervalSeconds * 1000,
      liveOutbox: config.liveOutbox,
    },
  );
}
