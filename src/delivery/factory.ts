import { type Config, ConfigError } from '../config/schema.js';
import type { Clock } from '../domain/clock.js';
import type { Channel, DeliveryType } from '../domain/types.js';
import type { Store } from '../store/interface.js';
import { Dispatcher, type ProviderRoute } from './dispatcher.js';
import type { ChannelProvider, Delivery } from './interface.js';
import type { RenderOptions } from './messages.js';
import { OutboxProvider } from './outbox/outbox-provider.js';
import { PROVIDERS } from './providers/registry.js';
import { twilioVoice } from './providers/twilio/index.js';
import { whatsapp } from './providers/whatsapp/index.js';
import { parseSmsRoutes, smsRouteFor } from './routing.js';

/**
 * Configurations that start but probably do not do what their operator meant; logged once at
 * start. (Configurations that cannot work are refused instead, see delivery/settings.ts.)
 */
export function deliveryWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const context = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: undefined };
  if (whatsapp.configured(config, context) && !twilioVoice.configured(config, context)) {
    warnings.push(
      `WHATSAPP is configured but CALL has no provider (Twilio with a phone-number caller ID: TWILIO_VOICE_FROM, or TWILIO_FROM when it is a number): live requests with deliveryType CALL ${
        config.liveOutbox === 'allow'
          ? 'go to the outbox and are not delivered'
          : 'are refused with 503 CHANNEL_UNAVAILABLE'
      }.`,
    );
  }
  return warnings;
}

/** What the deployment adds to every rendered message (the outbox's, the preview's, the providers'). */
export function renderOptions(config: Config): RenderOptions {
  return { webOtpDomain: config.smsWebOtpDomain, publicBaseUrl: config.publicBaseUrl ?? null };
}

/**
 * Builds the providers named by the configuration, once, and the routes between them: EMAIL over
 * SMTP; SMS by country with failover; WHATSAPP TEXT through the Cloud API and CALL through Twilio
 * Voice. A channel (or WhatsApp delivery type) without a provider uses the outbox.
 */
export function buildDelivery(config: Config, store: Store, clock: Clock): Delivery {
  const context = { publicBaseUrl: config.publicBaseUrl ?? null, webOtpDomain: config.smsWebOtpDomain };
  const built = PROVIDERS.flatMap((module) => {
    const provider = module.create(config, context);
    return provider ? [{ module, provider }] : [];
  });
  const serving = (channel: Channel, deliveryType?: DeliveryType) =>
    built.find(
      (b) =>
        b.module.channel === channel &&
        (deliveryType === undefined || (b.module.deliveryType ?? 'TEXT') === deliveryType),
    )?.provider ?? null;

  // SMS providers by name, in the registry's order: the default route tries them in that order.
  const sms = new Map(
    built.filter((b) => b.module.channel === 'SMS').map((b) => [b.module.name, b.provider]),
  );
  const email = serving('EMAIL');
  const whatsappText = serving('WHATSAPP', 'TEXT');
  const whatsappCall = serving('WHATSAPP', 'CALL');

  const { routes: smsRoutes, problems } = parseSmsRoutes(config.smsRoutes, [...sms.keys()]);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);

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

  const providers = built.map((b) => b.provider);
  const outbox = new OutboxProvider(store, renderOptions(config));
  return new Dispatcher(outbox, routes, providers, {
    clock,
    breaker: {
      failures: config.circuitBreakerFailures,
      cooldownMs: config.circuitBreakerCooldownSeconds * 1000,
    },
    checkIntervalMs: config.providerCheckIntervalSeconds * 1000,
    liveOutbox: config.liveOutbox,
  });
}
