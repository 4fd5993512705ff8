import { channelSpec, isSilentChannel } from '../channels/registry.js';
import { generateCode, hashCode, unguessableCode } from '../codes.js';
import { timeOrderedUuid } from '../ids.js';
import { generateLinkToken, hashLinkToken } from '../links.js';
import { negotiateLocale } from '../locales.js';
import type { DeliveryPlan, DeliveryRequest } from '../ports/delivery.js';
import { storedRisk } from '../risk.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';
import type { AuthenticatedKey, NewVerification } from '../types.js';
import type { VerificationDeps } from './deps.js';
import type { CheckedLink } from './send-link.js';
import type { ScreenedTarget } from './send-screen.js';
import { deliveryTypeOf } from './send-targets.js';

/** A target whose request is stored: its code, the message that carries it, and how it goes. */
export type IssuedTarget = ScreenedTarget & {
  requestId: string;
  /** Everything a provider needs (the code included: never logged). */
  delivery: DeliveryRequest;
  /** The outbox took it already, or a provider delivers it now. */
  plan: DeliveryPlan;
  /** The keyed hash of its magic link's token; null: its message carries none. */
  linkHash: Buffer | null;
};

/** What issuing reads of a send request (a fallback's is rebuilt from what its SILENT send kept). */
export type IssueRequest = Pick<
  SendRequest,
  'phone' | 'country' | 'locale' | 'deliveryType' | 'purpose' | 'customMessage'
>;

/** What only some sends issue with. */
export interface IssueOptions {
  /** The group the requests join (a fallback code joins its SILENT request's); else the first's id. */
  groupId?: string;
  /** The checked `link` of the send (./send-link.ts); null or absent: none. */
  link?: CheckedLink | null;
}

/**
 * Makes a code per target and stores the requests, durable before any provider is called; the
 * requests of a dual send share a group, named by the first. Delivery plans each message first:
 * what it plans for the outbox is written with the row itself (one write per send, and nothing
 * to deliver afterwards).
 */
export async function issueCodes(
  deps: VerificationDeps,
  key: Pick<AuthenticatedKey, 'accountId' | 'mode'>,
  request: IssueRequest,
  targets: ScreenedTarget[],
  s: EffectiveSettings,
  now: number,
  { groupId, link = null }: IssueOptions = {},
): Promise<{ issued: IssuedTarget[]; expiresAt: number }> {
  const expiresAt = now + s.codeTtlSeconds * 1000;
  const locale = negotiateLocale({
    requested: request.locale,
    accountDefault: s.locale,
    // An email-only request has no country to go by; a dual send's email follows its phone.
    phoneCountry: request.phone === null ? null : request.country,
  });
  const issued = targets.map((t): IssuedTarget => {
    // The one-tap lines (WebOTP host, Android app hash) belong to a text message.
    const text = channelSpec(t.channel).message === 'sms';
    const requestId = timeOrderedUuid(now);
    // A link only in the message that can carry one (EMAIL), never in its dual sibling's.
    const token = link && channelSpec(t.channel).linkable ? generateLinkToken() : null;
    const delivery: DeliveryRequest = {
      verificationId: requestId,
      accountId: key.accountId,
      channel: t.channel,
      // The message goes to the address as given; the mailbox is only how it is counted.
      to: t.address,
      code: generateCode(s.codeLength),
      codeTtlSeconds: s.codeTtlSeconds,
      deliveryType: request.deliveryType,
      country: t.country,
      purpose: request.purpose,
      customMessage: request.customMessage,
      branding: s.branding,
      locale,
      // Absent as undefined rather than left out: every request has one shape (see issuedTarget).
      webOtpHost: text && s.webOtpHost !== null ? s.webOtpHost : undefined,
      appHash: text && s.appHash !== null ? s.appHash : undefined,
      link: token && link ? `${link.baseUrl}/v1/links/${token}` : undefined,
    };
    const plan = deps.delivery.plan(delivery, key.mode);
    // A provider checks a silent request: its row keeps a code no guess can match. The outbox
    // stands in for the provider with a code of digits, as the device's code (docs/silent.md).
    if (isSilentChannel(t.channel) && plan.via === 'provider') delivery.code = unguessableCode();
    const linkHash = token ? hashLinkToken(deps.codeSecret, token) : null;
    return issuedTarget(t, requestId, delivery, linkHash, plan);
  });
  const group = groupId ?? issued[0]?.requestId ?? '';
  const rows = issued.map((t): NewVerification => {
    const outbox = t.plan.via === 'outbox' ? t.plan : null;
    return {
      id: t.requestId,
      accountId: key.accountId,
      groupId: group,
      channel: t.channel,
      destination: t.destination,
      address: t.address === t.destination ? null : t.address,
      deliveryType: deliveryTypeOf(t.channel, request),
      country: t.country,
      purpose: request.purpose,
      codeHash: hashCode(deps.codeSecret, t.requestId, t.delivery.code),
      maxAttempts: s.maxAttempts,
      createdAt: now,
      expiresAt,
      deliveryStatus: outbox ? 'outbox' : 'queued',
      outbox: outbox ? outbox.content : null,
      outboxCode: outbox ? t.delivery.code : null,
      mode: key.mode,
      risk: storedRisk(t.risk),
      locale,
      linkHash: t.linkHash,
      linkRedirect: t.linkHash ? (link?.redirectUrl ?? null) : null,
    };
  });
  await deps.store.verifications.createVerifications(rows);
  return { issued, expiresAt };
}

/**
 * An issued target as an object of one fixed shape: a spread followed by more properties
 * (`{ ...t, requestId, … }`) costs V8 a runtime call per property on every send
 * (bench:instructions counted about 2,500 instructions each). `Required` makes a field added to
 * the target, optional or not, fail to compile until copied here.
 */
function issuedTarget(
  t: ScreenedTarget,
  requestId: string,
  delivery: DeliveryRequest,
  linkHash: Buffer | null,
  plan: DeliveryPlan,
): IssuedTarget {
  const { channel, destination, address, country, risk } = t;
  return {
    channel,
    destination,
    address,
    country,
    risk,
    requestId,
    delivery,
    linkHash,
    plan,
  } satisfies Required<IssuedTarget>;
}
