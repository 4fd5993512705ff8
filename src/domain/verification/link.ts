import { isLinkToken, linkTokenHashes, verifiedRedirect } from '../links.js';
import type { Locale } from '../locales.js';
import type { LinkedRequest } from '../ports/verifications.js';
import type { Branding } from '../types.js';
import type { VerificationDeps } from './deps.js';
import type { RequestSettings } from './settings.js';

/**
 * What a magic link's page shows (docs/links.md), in the request's locale and its account's
 * branding. `confirm`: the masked address and one button; `verified`: the link was just used
 * (`redirect`: where to send the browser, else the service's page); `gone`: expired, used or
 * canceled (no address shown); `not_found`: no request has this link.
 */
export type LinkPage =
  | {
      kind: 'confirm';
      masked: string;
      /** The origin the POST will redirect to (the page's form may go there); null: none. */
      redirectOrigin: string | null;
      locale: Locale | null;
      accountId: string;
      branding: Branding;
    }
  | {
      kind: 'verified';
      requestId: string;
      redirect: string | null;
      locale: Locale | null;
      accountId: string;
      branding: Branding;
    }
  | { kind: 'gone'; locale: Locale | null; accountId: string; branding: Branding }
  | { kind: 'not_found' };

/**
 * Magic links: opening one (GET, which mail scanners do too) reads and changes nothing; using one
 * (POST) verifies its request in one atomic statement, as a right code does but with no attempt
 * counted. A token of the wrong shape is not looked up at all.
 */
export class VerifyLink {
  constructor(
    private readonly deps: VerificationDeps,
    private readonly settings: RequestSettings,
  ) {}

  /** The page a GET shows. */
  async open(token: string): Promise<LinkPage> {
    if (!isLinkToken(token)) return { kind: 'not_found' };
    const request = await this.deps.store.verifications.findLink(this.hashes(token));
    if (!request) return { kind: 'not_found' };
    const live = request.status === 'pending' && request.expiresAt > this.deps.clock.now();
    const branding = this.brandingOf(request);
    return live
      ? {
          kind: 'confirm',
          masked: request.masked,
          redirectOrigin: request.redirectUrl === null ? null : new URL(request.redirectUrl).origin,
          locale: request.locale,
          accountId: request.accountId,
          branding,
        }
      : { kind: 'gone', locale: request.locale, accountId: request.accountId, branding };
  }

  /** The page (or redirect) a POST answers: verified by this use, or gone. */
  async use(token: string): Promise<LinkPage> {
    if (!isLinkToken(token)) return { kind: 'not_found' };
    const now = this.deps.clock.now();
    const used = await this.deps.store.verifications.consumeLink(this.hashes(token), now);
    if (!used) return { kind: 'not_found' };
    const { request, consumed } = used;
    const branding = this.brandingOf(request);
    if (!consumed) {
      const expired = request.status === 'pending' && request.expiresAt <= now;
      // A pending request found expired is settled now, as a code attempt would.
      if (expired) await this.deps.store.verifications.settleGroup(request.groupId, 'expired', now);
      // Read pending but not used: a parallel use (or code) verified it under the row's lock.
      const outcome = expired
        ? 'expired'
        : request.status === 'pending' || request.status === 'verified'
          ? 'already_verified'
          : request.status;
      this.deps.events?.verified?.(request.channel, outcome);
      return { kind: 'gone', locale: request.locale, accountId: request.accountId, branding };
    }
    this.deps.events?.verified?.(request.channel, 'verified');
    this.deps.logger.info(
      { requestId: request.id, channel: request.channel, method: 'link' },
      'link verified',
    );
    return {
      kind: 'verified',
      requestId: request.id,
      redirect: request.redirectUrl === null ? null : verifiedRedirect(request.redirectUrl, request.id),
      locale: request.locale,
      accountId: request.accountId,
      branding,
    };
  }

  private hashes(token: string): Buffer[] {
    return linkTokenHashes([this.deps.codeSecret, ...(this.deps.previousCodeSecrets ?? [])], token);
  }

  /** The account's branding, from the settings its statement read with the request (no second read). */
  private brandingOf(request: LinkedRequest): Branding {
    return this.settings.of(request.accountSettings).branding;
  }
}
