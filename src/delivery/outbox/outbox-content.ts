import { channelSpec } from '../../domain/channels/registry.js';
import { asLocale, type Locale } from '../../domain/locales.js';
import type { OutboxEntry } from '../../domain/ports/verifications.js';
import { templateOf } from '../../domain/templates.js';
import type { Branding, OutboxMessage } from '../../domain/types.js';
import type { DeliveryRequest } from '../interface.js';
import { type RenderOptions, renderMessage, templateKey } from '../messages.js';

/**
 * What the outbox stores of a message: the inputs of the renderer, not its output. A branded
 * email is a few kilobytes of HTML; its inputs are a hundred bytes. Written on every send and read
 * only when someone opens the outbox, the message is rendered on read, by the same function a
 * provider uses, so it is still exactly what the recipient would have seen. The code is stored
 * masked: the store keeps it in clear beside the content only while the request is pending.
 */
interface StoredContent {
  /**
   * Format version, for a renderer that changes later. 2: the channel and the address are left
   * out, since the request's row has them (about 50 bytes less in a row written at every send).
   */
  v: 1 | 2;
  request: Pick<DeliveryRequest, 'code' | 'codeTtlSeconds'> & {
    /**
     * Left out when it is a text (LEFT_OUT): the version before this one renders a message without
     * it as a text too, so a rollback shows the same message (21 bytes less on every row).
     */
    deliveryType?: DeliveryRequest['deliveryType'];
    /**
     * Left out when it is LEFT_OUT's (the default branding of an account that set none: 59 bytes
     * on every row). The version before this one reads an absent branding as that default too;
     * the ones before it fail on a message without one, so roll back one version at a time.
     */
    branding?: Branding;
    /** Version 1 only (version 2 reads the entry's). */
    channel?: DeliveryRequest['channel'];
    to?: string;
    /**
     * Left out when there is none (null in messages kept before): every byte of the content is
     * written again by each update of its request that cannot stay on its page.
     */
    purpose?: string | null;
    customMessage?: string | null;
    /**
     * Absent in messages kept before locales existed: English. `pt` in those kept before Portuguese
     * had two locales: read as pt-BR.
     */
    locale?: string;
    /** The magic link with its token masked: the outbox keeps no way to use it. */
    link?: string;
  };
  /** The WebOTP host the message was sent with (the account's, or the deployment's). */
  webOtpDomain?: string;
  appHash?: string;
  publicBaseUrl?: string;
}

export function encodeOutboxContent(request: DeliveryRequest, options: RenderOptions = {}): string {
  const { channel, code, codeTtlSeconds, deliveryType, purpose, customMessage, locale } = request;
  const branding = brandingOf(request);
  const content: StoredContent = { v: 2, request: { code: maskCode(code), codeTtlSeconds } };
  if (deliveryType !== LEFT_OUT.deliveryType) content.request.deliveryType = deliveryType;
  if (!isLeftOutBranding(branding)) content.request.branding = branding;
  if (purpose !== null) content.request.purpose = purpose;
  if (customMessage !== null) content.request.customMessage = customMessage;
  // English, the default, is left out: most messages are kept as they were before locales.
  if (locale !== 'en') content.request.locale = locale;
  if (request.link) content.request.link = maskLink(request.link);
  const webOtpHost = request.webOtpHost ?? options.webOtpDomain;
  // The one-tap lines belong to a text message.
  const text = channelSpec(channel).message === 'sms';
  if (text && webOtpHost) content.webOtpDomain = webOtpHost;
  if (text && request.appHash) content.appHash = request.appHash;
  if (options.publicBaseUrl && channelSpec(channel).message === 'email' && branding.logo)
    content.publicBaseUrl = options.publicBaseUrl;
  return JSON.stringify(content);
}

/**
 * The branding with only the template this message uses: an account's templates for every
 * language and channel are kilobytes, and would otherwise be copied onto every request row.
 * An account's branding is one cached object until it changes, so the trimmed copy is kept
 * beside it (per locale and channel) instead of being rebuilt on every send.
 */
const trimmedBrandings = new WeakMap<Branding, Map<string, Branding>>();

function brandingOf({ branding, locale, channel }: DeliveryRequest): Branding {
  let byMessage = trimmedBrandings.get(branding);
  if (byMessage === undefined) {
    byMessage = new Map();
    trimmedBrandings.set(branding, byMessage);
  }
  const key = `${locale} ${channel}`;
  let trimmed = byMessage.get(key);
  if (trimmed === undefined) {
    trimmed = trimBranding(branding, locale, channel);
    byMessage.set(key, trimmed);
  }
  return trimmed;
}

function trimBranding(branding: Branding, locale: Locale, channel: DeliveryRequest['channel']): Branding {
  const { templates, ...rest } = branding;
  const key = templateKey(channel);
  const own = key === null ? undefined : templateOf(templates, locale, key);
  return key === null || own === undefined ? rest : { ...rest, templates: { [locale]: { [key]: own } } };
}

/**
 * What a kept message that leaves a field out means. Pinned here rather than read from the
 * deployment's settings: a message kept today renders the same after a release that changes them.
 */
const LEFT_OUT = {
  deliveryType: 'TEXT',
  branding: { brandName: 'Contact Verify', color: '#2563eb' },
} as const satisfies { deliveryType: DeliveryRequest['deliveryType']; branding: Branding };

/** Whether `branding` is LEFT_OUT's: its two fields and nothing else (no logo, no templates). */
const isLeftOutBranding = (branding: Branding) =>
  branding.brandName === LEFT_OUT.branding.brandName &&
  branding.color === LEFT_OUT.branding.color &&
  Object.keys(branding).length === 2;

/** The locale of a kept message: the one it was sent in; `pt` (kept before the split) is pt-BR. */
const storedLocale = (locale: string | undefined): Locale =>
  locale === undefined ? 'en' : locale === 'pt' ? 'pt-BR' : (asLocale(locale) ?? 'en');

/** A magic link as the outbox keeps it: its token (the last path segment) masked. */
export const maskLink = (link: string) => link.replace(/[^/]+$/, (token) => '*'.repeat(token.length));

/** A code as a settled message shows it. */
export const maskCode = (code: string) => '*'.repeat(code.length);

/**
 * The message of an outbox entry as its recipient sees it (the admin API's shape), with the code
 * in clear while its request is pending and masked once it settled.
 */
export function renderOutboxEntry(entry: OutboxEntry): OutboxMessage {
  const content = JSON.parse(entry.content) as StoredContent;
  const request: DeliveryRequest = {
    ...content.request,
    deliveryType: content.request.deliveryType ?? LEFT_OUT.deliveryType,
    branding: content.request.branding ?? { ...LEFT_OUT.branding },
    channel: content.request.channel ?? entry.channel,
    to: content.request.to ?? entry.sentTo,
    purpose: content.request.purpose ?? null,
    customMessage: content.request.customMessage ?? null,
    code: entry.code ?? maskCode(content.request.code),
    locale: storedLocale(content.request.locale),
    ...(content.appHash ? { appHash: content.appHash } : {}),
    verificationId: entry.verificationId,
    accountId: entry.accountId,
    country: null,
  };
  return {
    ...renderMessage(request, { webOtpDomain: content.webOtpDomain, publicBaseUrl: content.publicBaseUrl }),
    id: outboxMessageId(entry.verificationId),
    accountId: entry.accountId,
    verificationId: entry.verificationId,
    createdAt: entry.createdAt,
  };
}

/**
 * The code an outbox message carries beside its text in the admin API: a test request's, while it
 * is pending, so automated tests read it without parsing a message; never a live request's.
 */
export const testCodeOf = (entry: OutboxEntry): string | null => (entry.mode === 'test' ? entry.code : null);

/** A request has at most one outbox message: its id is derived from the request's. */
export const outboxMessageId = (verificationId: string) => `msg_${verificationId.replaceAll('-', '')}`;
