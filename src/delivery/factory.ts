import { type Config, ConfigError } from '../config/schema.js';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../store/interface.js';
import { Dispatcher, type ProviderRoute } from './dispatcher.js';
import type { ChannelProvider, Delivery } from './interface.js';
import { OutboxProvider } from './outbox/outbox-provider.js';
import { SmtpProvider } from './providers/smtp/smtp.provider.js';
import { smtpOptions } from './providers/smtp/smtp.settings.js';
import { TelnyxSmsProvider } from './providers/telnyx/telnyx.provider.js';
import { telnyxOptions } from './providers/telnyx/telnyx.settings.js';
import { TwilioSmsProvider } from './providers/twilio/twilio.provider.js';
import { twilioOptions } from './providers/twilio/twilio.settings.js';
import { TwilioVoiceProvider } from './providers/twilio/twilio-voice.provider.js';
import { VonageSmsProvider } from './providers/vonage/vonage.provider.js';
import { vonageOptions } from './providers/vonage/vonage.settings.js';
import { WhatsAppProvider } from './providers/whatsapp/whatsapp.provider.js';
import { whatsappOptions } from './providers/whatsapp/whatsapp.settings.js';
import { parseSmsRoutes, smsRouteFor } from './routing.js';

/** CALL's provider: Twilio Voice, which needs Twilio with a phone-number caller ID. */
function twilioVoiceOptions(twilio: ReturnType<typeof twilioOptions>) {
  return twilio?.voiceFrom ? { ...twilio, voiceFrom: twilio.voiceFrom } : null;
}

/**
 * Configurations that start but probably do not do what their operator meant; logged once at
 * start. (Configurations that cannot work are refused instead, see delivery/settings.ts.)
 */
export function deliveryWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (whatsappOptions(config) && !twilioVoiceOptions(twilioOptions(config, config.publicBaseUrl ?? null))) {
    warnings.push(
      'WHATSAPP is configured but CALL has no provider (Twilio with a phone-number caller ID: TWILIO_VOICE_FROM, or TWILIO_FROM when it is a number): requests with deliveryType CALL go to the outbox.',
    );
  }
  return warnings;
}

/**
 * Builds the providers named by the configuration, once, and the routes between them: EMAIL over
 * SMTP; SMS by country with failover; WHATSAPP TEXT through the Cloud API and CALL through Twilio
 * Voice. A channel (or WhatsApp delivery type) without a provider uses the outbox.
 */
export function buildDelivery(config: Config, store: Store, clock: Clock): Delivery {
  const publicBaseUrl = config.publicBaseUrl ?? null;
  const webOtpDomain = config.smsWebOtpDomain;
  const twilio = twilioOptions(config, publicBaseUrl);
  const vonage = vonageOptions(config, publicBaseUrl);
  const telnyx = telnyxOptions(config, publicBaseUrl);
  const smtp = smtpOptions(config);
  const whatsapp = whatsappOptions(config);

  const sms = new Map<string, ChannelProvider>();
  if (twilio) sms.set('twilio', new TwilioSmsProvider(twilio, webOtpDomain));
  if (vonage) sms.set('vonage', new VonageSmsProvider(vonage, webOtpDomain));
  if (telnyx) sms.set('telnyx', new TelnyxSmsProvider(telnyx, webOtpDomain));
  const email = smtp ? new SmtpProvider(smtp) : null;
  const whatsappText = whatsapp ? new WhatsAppProvider(whatsapp) : null;
  const voice = twilioVoiceOptions(twilio);
  const whatsappCall = voice ? new TwilioVoiceProvider(voice) : null;

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

  const providers = [email, ...sms.values(), whatsappText, whatsappCall].filter(
    (p): p is ChannelProvider => p !== null,
  );
  return new Dispatcher(new OutboxProvider(store, { webOtpDomain }), routes, providers, {
    clock,
    breaker: {
      failures: config.circuitBreakerFailures,
      cooldownMs: config.circuitBreakerCooldownSeconds * 1000,
    },
    checkIntervalMs: config.providerCheckIntervalSeconds * 1000,
  });
}
