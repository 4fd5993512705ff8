import { DELIVERY_TYPES, type DeliveryType } from './channels/channel.js';
import {
  CHANNELS,
  type Channel,
  channelSpec,
  channelsOffering,
  channelsTo,
  destinationField,
  FALLBACK_CHANNELS,
  isSilentChannel,
  listed,
} from './channels/registry.js';
import type { ErrorDetail } from './errors.js';
import { type Locale, localeTagProblems, matchLocale } from './locales.js';
import { canonicalMailbox } from './mailbox.js';
import { checkPhone, isKnownCountry, numberBelongsToCountry } from './phone.js';

/** The send-code body as the schema types it; fields the schema refused are skipped here. */
export interface SendCodeBody {
  channel?: Channel;
  channels?: Channel[];
  email?: string;
  phone?: string;
  whatsappNumber?: string;
  phoneNumber?: string;
  country?: string;
  deliveryType?: DeliveryType;
  purpose?: string;
  customMessage?: string;
  locale?: string;
  fallback?: Channel;
  link?: { redirectUrl?: string };
}

/** A send request that passed every rule, with destinations normalised. */
export interface SendRequest {
  channels: Channel[];
  dual: boolean;
  /** The address as given (trimmed): where the message goes. */
  email: string | null;
  /** The mailbox `email` reaches (src/domain/mailbox.ts): what contacts, blocks and limits key. */
  mailbox: string | null;
  /** The number as given, in E.164: where the message goes. */
  phone: string | null;
  /** The subscriber `phone` reaches (src/domain/phone.ts): what contacts, blocks and limits key. */
  subscriber: string | null;
  /** Upper-case ISO 3166-1 alpha-2: given, or inferred from the phone number. */
  country: string | null;
  /** What libphonenumber-js knew of the phone number when it checked it: its type and the region of its range (the risk score reads them). */
  numberFacts: { type: string | null; country: string | null } | null;
  deliveryType: DeliveryType;
  purpose: string | null;
  customMessage: string | null;
  /**
   * The supported locale the given BCP 47 tag matches (src/domain/locales.ts); null when none was
   * given or it names no language of ours (the send then negotiates: account default, country, en).
   */
  locale: Locale | null;
  /**
   * SILENT only: the channel that delivers a code, as the request's dual sibling, when the silent
   * check fails or times out (send-code `fallback`); null: none.
   */
  fallback: Channel | null;
  /**
   * A magic link beside the code (EMAIL only, docs/links.md); `redirectUrl` as given, checked
   * against the account's linkRedirectOrigins when the send is made. null: no link.
   */
  link: { redirectUrl: string | null } | null;
}

export type SendValidation =
  | { ok: true; request: SendRequest }
  | { ok: false; details: ErrorDetail[]; unsupportedNumber?: ErrorDetail };

const PHONE_FIELDS = ['phone', 'whatsappNumber', 'phoneNumber'] as const;

const EMAIL_CHANNELS = listed(channelsTo('email'));
const PHONE_CHANNELS = listed(channelsTo('phone'));
const LINKABLE_CHANNELS = CHANNELS.filter((c) => channelSpec(c).linkable);

/**
 * A deliveryType other than the default TEXT must be one a requested channel offers
 * (ChannelSpec.deliveryTypes); null when it is.
 */
function deliveryTypeRefusal(deliveryType: DeliveryType, channels: readonly Channel[]): string | null {
  // A value the schema refused (not a delivery type at all) was reported already.
  if (deliveryType === 'TEXT' || !DELIVERY_TYPES.includes(deliveryType)) return null;
  if (channels.some((c) => channelSpec(c).deliveryTypes.includes(deliveryType))) return null;
  const offering = channelsOffering(deliveryType);
  return `deliveryType ${deliveryType} needs ${offering.length > 1 ? 'one of the ' : 'the '}${listed(offering)} channel${offering.length > 1 ? 's' : ''}`;
}

/**
 * The rules of send-code that span several fields. `refused` names the fields the schema already
 * reported, so each problem yields exactly one detail.
 */
export function validateSendRequest(body: SendCodeBody, refused: ReadonlySet<string>): SendValidation {
  const details: ErrorDetail[] = [];
  let unsupportedNumber: ErrorDetail | undefined;

  let channels: Channel[] | null = null;
  const hasChannel = body.channel !== undefined;
  const hasChannels = body.channels !== undefined;
  if (hasChannel && hasChannels) {
    details.push({ field: 'channel', message: 'give either channel or channels, not both' });
  } else if (!hasChannel && !hasChannels) {
    if (!refused.has('channel') && !refused.has('channels')) {
      details.push({
        field: 'channel',
        message: 'channel (one channel) or channels (two channels) is required',
      });
    }
  } else if (hasChannel && !refused.has('channel')) {
    channels = [body.channel as Channel];
  } else if (hasChannels && !refused.has('channels')) {
    channels = body.channels as Channel[];
  }

  let email: string | null = null;
  let mailbox: string | null = null;
  if (channels?.some((c) => destinationField(c) === 'email') && !refused.has('email')) {
    const given = body.email?.trim() ?? '';
    if (given === '') {
      details.push({
        field: 'email',
        message: `email is required when the ${EMAIL_CHANNELS} channel is used`,
      });
    } else if ((given.split('@')[0] ?? '').length > 64) {
      // RFC 5321: a local part longer than 64 octets is not deliverable.
      details.push({ field: 'email', message: 'the part of email before @ must be at most 64 characters' });
    } else {
      mailbox = canonicalMailbox(given);
      if (mailbox === null) details.push({ field: 'email', message: 'email must be a valid email address' });
      else email = given;
    }
  }

  let phone: string | null = null;
  let subscriber: string | null = null;
  let inferredCountry: string | null = null;
  let numberFacts: SendRequest['numberFacts'] = null;
  const usesPhone = channels?.some((c) => destinationField(c) === 'phone') ?? false;
  if (usesPhone) {
    const given = PHONE_FIELDS.filter((f) => body[f] !== undefined && !refused.has(f));
    if (given.length === 0 && !PHONE_FIELDS.some((f) => refused.has(f))) {
      details.push({
        field: 'phone',
        message: `phone (or whatsappNumber, phoneNumber) is required for ${PHONE_CHANNELS}`,
      });
    }
    const parsed = new Map<string, string>();
    for (const field of given) {
      const check = checkPhone(body[field] as string);
      if (check.ok) {
        parsed.set(field, check.e164);
        subscriber = check.subscriber;
        inferredCountry = check.country;
        numberFacts = { type: check.type, country: check.country };
      } else if (check.reason === 'unsupported') {
        unsupportedNumber = { field, message: `${field} ${check.message}` };
      } else {
        details.push({ field, message: `${field} ${check.message}` });
      }
    }
    const numbers = new Set(parsed.values());
    if (numbers.size > 1) {
      details.push({ field: given[1] ?? 'phone', message: `${given.join(', ')} must hold the same number` });
    } else if (numbers.size === 1 && given.length === parsed.size) {
      phone = [...numbers][0] ?? null;
    }
  }

  let country: string | null = null;
  if (body.country !== undefined && !refused.has('country')) {
    const upper = body.country.toUpperCase();
    if (!isKnownCountry(upper)) {
      details.push({
        field: 'country',
        message: `country ${body.country} is not a known ISO 3166-1 alpha-2 code`,
      });
    } else if (
      // The region checkPhone found is one the number belongs to: no second parse for it.
      phone !== null &&
      upper !== inferredCountry &&
      !numberBelongsToCountry(phone, upper)
    ) {
      details.push({ field: 'country', message: `country ${upper} does not match the phone number` });
    } else {
      country = upper;
    }
  } else if (phone !== null) {
    country = inferredCountry;
  }

  let locale: Locale | null = null;
  if (body.locale !== undefined && !refused.has('locale')) {
    const match = matchLocale(body.locale);
    if (match === 'malformed') details.push(...localeTagProblems(body.locale));
    else locale = match;
  }

  const deliveryTypeProblem =
    body.deliveryType && channels && deliveryTypeRefusal(body.deliveryType, channels);
  if (deliveryTypeProblem) details.push({ field: 'deliveryType', message: deliveryTypeProblem });

  const fallback = body.fallback !== undefined && !refused.has('fallback') ? body.fallback : null;
  if (fallback !== null && channels) {
    const problem = fallbackRefusal(fallback, channels);
    if (problem) details.push({ field: 'fallback', message: problem });
  }
  let link: SendRequest['link'] = null;
  if (body.link !== undefined && !refused.has('link') && channels) {
    if (!channels.some((c) => channelSpec(c).linkable)) {
      details.push({
        field: 'link',
        message: `link needs the ${listed(LINKABLE_CHANNELS)} channel among the channels`,
      });
    } else {
      link = { redirectUrl: body.link.redirectUrl ?? null };
    }
  }

  if (details.length > 0 || channels === null) return { ok: false, details, unsupportedNumber };
  if (unsupportedNumber) return { ok: false, details: [], unsupportedNumber };
  return {
    ok: true,
    request: {
      channels,
      dual: channels.length === 2,
      email,
      mailbox,
      phone,
      subscriber: phone === null ? null : subscriber,
      country,
      numberFacts: phone === null ? null : numberFacts,
      deliveryType: body.deliveryType ?? 'TEXT',
      purpose: body.purpose ?? null,
      customMessage: body.customMessage ?? null,
      locale,
      fallback,
      link,
    },
  };
}

/** A `fallback` belongs to a single send on a silent channel, and names a channel that delivers a code. */
function fallbackRefusal(fallback: Channel, channels: readonly Channel[]): string | null {
  const silent = channelsTo('phone').filter(isSilentChannel);
  if (channels.length !== 1 || !isSilentChannel(channels[0] as Channel))
    return `fallback is for a single ${listed(silent)} send (channel: "${silent[0] ?? 'SILENT'}")`;
  if (!FALLBACK_CHANNELS.includes(fallback)) return `fallback must be one of ${listed(FALLBACK_CHANNELS)}`;
  return null;
}
