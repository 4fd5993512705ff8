import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/factory.js';
import type { StoreHarness } from './conformance.js';
import { dualPair, guessOf, MINUTE, T0, verification } from './fixtures.js';

const hashOf = (name: string) => createHash('sha256').update(`link ${name}`).digest();

/**
 * Magic links on every backend: a request found by the keyed hash of its link's token (the
 * current secret's or a previous one's), and used in one atomic unit that verifies it with no
 * attempt counted and cancels its dual sibling, exactly once however many use it at once.
 */
export function linksConformance(name: string, harness: StoreHarness): void {
  describe(`Links conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(() => harness.close(store));

    const status = async (id: string) => (await store.verifications.getVerification('acc_1', id))?.status;

    it('finds a request by either hash of its token, and nothing by another', async () => {
      await store.accounts.createAccount({
        id: 'acc_1',
        name: 'One',
        settings: { codeLength: 8 },
        createdAt: T0,
      });
      const v = verification({
        linkHash: hashOf('a'),
        linkRedirect: 'https://app.example.com/x',
        locale: 'de',
      });
      await store.verifications.createVerifications([v, verification()]);
      const found = await store.verifications.findLink([hashOf('other'), hashOf('a')]);
      expect(found).toEqual({
        id: v.id,
        accountId: 'acc_1',
        groupId: v.groupId,
        channel: 'EMAIL',
        masked: expect.stringMatching(/^u\*+@example\.com$/),
        status: 'pending',
        expiresAt: v.expiresAt,
        locale: 'de',
        mode: 'live',
        redirectUrl: 'https://app.example.com/x',
        // Read in the same statement, for the pages' branding.
        accountSettings: { codeLength: 8 },
      });
      expect(await store.verifications.findLink([hashOf('a')])).toMatchObject({ id: v.id });
      expect(await store.verifications.findLink([hashOf('b')])).toBeNull();
      expect(await store.verifications.consumeLink([hashOf('b')], T0)).toBeNull();
      // Finding consumes nothing.
      expect(await status(v.id)).toBe('pending');
    });

    it('a use verifies the request (no attempt counted) and cancels its dual sibling; a second use changes nothing', async () => {
      const [email, sms] = dualPair({ linkHash: null });
      email.linkHash = hashOf('dual');
      await store.verifications.createVerifications([email, sms]);
      const used = await store.verifications.consumeLink([hashOf('dual')], T0 + MINUTE);
      expect(used).toMatchObject({
        consumed: true,
        request: { id: email.id, status: 'pending', redirectUrl: null },
      });
      const after = await store.verifications.getVerification('acc_1', email.id);
      expect(after).toMatchObject({
        status: 'verified',
        verifiedAt: T0 + MINUTE,
        attempts: 0,
        method: 'link',
      });
      expect(await status(sms.id)).toBe('canceled');
      const again = await store.verifications.consumeLink([hashOf('dual')], T0 + MINUTE + 1);
      expect(again).toMatchObject({ consumed: false, request: { id: email.id, status: 'verified' } });
      expect((await store.verifications.getVerification('acc_1', email.id))?.verifiedAt).toBe(T0 + MINUTE);
      // Its code no longer counts: the request is settled.
      const attempt = await store.verifications.attempt('acc_1', email.id, T0 + MINUTE, guessOf(email.id));
      expect(attempt.counted).toBeNull();
    });

    it('an expired, canceled or code-verified request is not used', async () => {
      const expired = verification({ linkHash: hashOf('expired') });
      const coded = verification({ linkHash: hashOf('coded') });
      const superseded = verification({ linkHash: hashOf('superseded') });
      await store.verifications.createVerifications([expired]);
      await store.verifications.createVerifications([coded]);
      await store.verifications.createVerifications([superseded]);
      // A later send to the same destination cancels the earlier request (and so its link).
      await store.verifications.createVerifications([verification({ destination: superseded.destination })]);
      expect(await store.verifications.attempt('acc_1', coded.id, T0, guessOf(coded.id))).toMatchObject({
        consumed: true,
      });
      const at = expired.expiresAt;
      expect(await store.verifications.consumeLink([hashOf('expired')], at)).toMatchObject({
        consumed: false,
      });
      expect(await status(expired.id)).toBe('pending');
      expect(await store.verifications.consumeLink([hashOf('coded')], T0)).toMatchObject({
        consumed: false,
        request: { status: 'verified' },
      });
      expect(await store.verifications.consumeLink([hashOf('superseded')], T0)).toMatchObject({
        consumed: false,
        request: { status: 'canceled' },
      });
    });

    it('of 20 parallel uses, and of a use racing right codes, exactly one verifies', async () => {
      const v = verification({ linkHash: hashOf('race') });
      await store.verifications.createVerifications([v]);
      const uses = await Promise.all(
        Array.from({ length: 20 }, () => store.verifications.consumeLink([hashOf('race')], T0 + 1)),
      );
      expect(uses.filter((u) => u?.consumed)).toHaveLength(1);

      const w = verification({ linkHash: hashOf('race-code') });
      await store.verifications.createVerifications([w]);
      const [link, ...codes] = await Promise.all([
        store.verifications.consumeLink([hashOf('race-code')], T0 + 1),
        ...Array.from({ length: 5 }, () => store.verifications.attempt('acc_1', w.id, T0 + 1, guessOf(w.id))),
      ]);
      const winners = (link?.consumed ? 1 : 0) + codes.filter((c) => c.consumed).length;
      expect(winners).toBe(1);
      expect(await status(w.id)).toBe('verified');
    });
  });
}
