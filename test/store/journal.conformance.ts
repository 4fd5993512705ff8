import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/interface.js';
import type { RecordedEvent } from '../../src/store/journal.js';
import type { StoreHarness } from './conformance.js';
import { dualPair, MINUTE, T0, verification } from './fixtures.js';

/**
 * The event journal, on every backend: each state change of a request is journaled by the call
 * that makes it, with the request's mode, masked destination and contact, and never a code.
 */
export function journalConformance(name: string, harness: StoreHarness): void {
  describe(`Journal conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(() => harness.close(store));

    const events = async (filter: { requestId?: string; accountId?: string } = {}) =>
      (await store.listEvents({ limit: 1000, ...filter })).map((e) => e.type);
    const pickFirst = (rows: Array<{ id: string }>) => rows[0]?.id ?? null;
    const pickNone = () => null;
    /** The analytics' wrong codes by channel (those counted: no zeros). */
    const wrongCodes = async () => {
      const { buckets } = await store.analytics({
        accountId: 'acc_1',
        test: false,
        from: T0 - 86_400_000,
        to: T0 + 86_400_000,
        intervalMs: 3_600_000,
        groupBy: 'channel',
      });
      const by: Record<string, number> = {};
      for (const b of buckets) if (b.wrongCodes > 0) by[b.group] = (by[b.group] ?? 0) + b.wrongCodes;
      return by;
    };

    it('journals a send with its mode, masked destination and contact; a resend cancels the first', async () => {
      const jane = { test: true, destination: 'jane@example.com', contactId: 'ct-jane' };
      const first = verification(jane);
      await store.createVerifications([first]);
      const second = verification({ ...jane, createdAt: T0 + 1 });
      await store.createVerifications([second]);
      const all = await store.listEvents({ limit: 10 });
      expect(all.map((e) => [e.type, e.requestId])).toEqual([
        ['verification.created', first.id],
        ['verification.canceled', first.id],
        ['verification.created', second.id],
      ]);
      const created = all[0] as RecordedEvent;
      expect(created).toMatchObject({
        accountId: 'acc_1',
        test: true,
        channel: 'EMAIL',
        toMasked: 'j***@example.com',
        status: 'pending',
        createdAt: T0,
      });
      expect(created.contactId).toBe('ct-jane');
      expect(all[2]?.contactId).toBe(created.contactId);
      expect(all.every((e) => e.seq > 0 && /^[0-9a-f-]{36}$/.test(e.id))).toBe(true);
      expect(new Set(all.map((e) => e.id)).size).toBe(3);
      expect(JSON.stringify(all)).not.toContain('jane@example.com');
    });

    it('counts a wrong code on its request, journals the right one and the dual sibling it cancels', async () => {
      const [email, sms] = dualPair();
      await store.createVerifications([email, sms]);
      const attempt = store.attempt?.bind(store);
      if (!attempt) throw new Error('the store has no attempt()');
      await attempt('acc_1', email.id, T0 + MINUTE, pickNone);
      // Counted while its request is pending, on the request it was made on (no journal row of its own).
      expect(await wrongCodes()).toEqual({ EMAIL: 1 });
      await attempt(
        'acc_1',
        email.id,
        T0 + 2 * MINUTE,
        (rows) => rows.find((r) => r.channel === 'SMS')?.id ?? null,
      );
      const all = await store.listEvents({ limit: 20 });
      expect(all.map((e) => `${e.type} ${e.channel}`)).toEqual([
        'verification.created EMAIL',
        'verification.created SMS',
        // The consume settles both rows of the group in one statement; their order is the database's.
        ...all
          .slice(2)
          .map((e) => `${e.type} ${e.channel}`)
          .sort(),
      ]);
      expect(
        all
          .slice(2)
          .map((e) => `${e.type} ${e.channel}`)
          .sort(),
      ).toEqual(['verification.canceled EMAIL', 'verification.verified SMS']);
      // Settled and folded, the wrong code is counted once, still on the EMAIL request.
      expect(await wrongCodes()).toEqual({ EMAIL: 1 });
      const verified = all.find((e) => e.type === 'verification.verified');
      expect(verified?.data).toEqual({ secondsToVerify: 120 });
      expect(verified?.toMasked).toBe('+1******0100');
    });

    it('journals attempts used up, expiry (also the sweeper’s) and delivery outcomes', async () => {
      const used = verification({ maxAttempts: 1 });
      const late = verification();
      const swept = verification();
      await store.createVerifications([used]);
      await store.createVerifications([late]);
      await store.createVerifications([swept]);
      await store.attempt?.('acc_1', used.id, T0 + 1, pickNone);
      await store.settleGroup(used.groupId, 'failed', T0 + 2);
      await store.settleGroup(late.groupId, 'expired', T0 + 11 * MINUTE);
      await store.sweep(T0 + 20 * MINUTE, 365 * 86_400_000, 100);
      expect(await events({ requestId: used.id })).toEqual(['verification.created', 'verification.failed']);
      expect(await wrongCodes()).toEqual({ EMAIL: 1 });
      expect(await events({ requestId: late.id })).toEqual(['verification.created', 'verification.expired']);
      expect(await events({ requestId: swept.id })).toEqual(['verification.created', 'verification.expired']);

      const sms = verification({
        channel: 'SMS',
        destination: '+447700900123',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.createVerifications([sms]);
      await store.recordDelivery(sms.id, {
        deliveryStatus: 'sent',
        provider: 'twilio',
        providerMessageId: 'SM1',
      });
      await store.recordDeliveryByProviderId('twilio', 'SM1', 'delivered');
      const failed = verification({
        channel: 'SMS',
        destination: '+447700900124',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.createVerifications([failed]);
      await store.recordDelivery(failed.id, {
        deliveryStatus: 'failed',
        provider: null,
        providerMessageId: null,
        cancel: true,
      });
      expect(await events({ requestId: sms.id })).toEqual(['verification.created', 'verification.delivered']);
      const delivered = (await store.listEvents({ requestId: sms.id, limit: 5 }))[1];
      expect(delivered?.provider).toBe('twilio');
      expect((await events({ requestId: failed.id })).sort()).toEqual([
        'verification.canceled',
        'verification.created',
        'verification.undelivered',
      ]);
    });

    it('gathers the risk signals of a destination: velocity, its history, its number block, the country hour', async () => {
      const now = T0 + 30 * MINUTE;
      const sms = (destination: string, at: number) =>
        verification({
          channel: 'SMS',
          destination,
          country: 'GB',
          createdAt: at,
          expiresAt: at + 10 * MINUTE,
          contactId: `ct-${destination}`,
        });
      const target = '+447400123400';
      const first = sms(target, now - 3 * MINUTE);
      await store.createVerifications([first]);
      await store.attempt?.('acc_1', first.id, now - 2 * MINUTE, pickNone);
      await store.createVerifications([sms(target, now - MINUTE)]);
      // An old send, outside the hour, and three neighbours of the block sent to within it.
      await store.createVerifications([sms('+447400123499', now - 2 * 60 * MINUTE)]);
      for (const last of ['01', '02', '03'])
        await store.createVerifications([sms(`+4474001234${last}`, now - MINUTE)]);
      await store.createVerifications([sms('+447400999999', now - MINUTE)]);
      // Read from the requests themselves, before any fold has made the contact.
      const signals = await store.destinationSignals('acc_1', false, target, 'GB', now);
      expect(signals.sendsLastHour).toBe(2);
      expect(signals.neighboursLastHour).toBe(3);
      expect(signals.history).toEqual({ sends: 2, verified: 0, wrongCodes: 1 });
      expect(signals.countryHour.sent).toBe(6);
      expect(await store.destinationSignals('acc_1', true, target, 'GB', now)).toMatchObject({
        contact: null,
        history: { sends: 0, verified: 0, wrongCodes: 0 },
        countryHour: { sent: 0, verified: 0 },
      });
      // A read of contacts folds the journal: the contact is there, with the same counts.
      expect((await store.getContact(`ct-${target}`))?.counts).toEqual({
        sends: 2,
        verified: 0,
        failed: 0,
        wrongCodes: 1,
      });
      const folded = await store.destinationSignals('acc_1', false, target, 'GB', now);
      expect(folded).toEqual({ ...signals, contact: { id: `ct-${target}`, blocked: false } });
      // Asked at one moment (PostgreSQL reads them in one statement), each answer is its own:
      // the same as asked alone, in the order asked, with an email and an unknown number between.
      const asked: Array<[boolean, string, string | null]> = [
        [false, '+447400123401', 'GB'],
        [true, target, 'GB'],
        [false, 'nobody@example.com', null],
        [false, target, 'GB'],
        [false, '+447400555555', null],
      ];
      const together = await Promise.all(
        asked.map(([test, to, country]) => store.destinationSignals('acc_1', test, to, country, now)),
      );
      const alone = [];
      for (const [test, to, country] of asked)
        alone.push(await store.destinationSignals('acc_1', test, to, country, now));
      expect(together).toEqual(alone);
      expect(together[3]).toEqual(folded);
      expect(together[0]?.contact?.id).toBe('ct-+447400123401');
      expect(together[2]).toMatchObject({ contact: null, sendsLastHour: 0, neighboursLastHour: 0 });
      expect(folded.breaker).toBeNull();
      // The country's breaker comes with the rest: of this account, mode and country only.
      const tripped = {
        accountId: 'acc_1',
        test: false,
        country: 'GB',
        trippedAt: now - MINUTE,
        detail: 'tripped',
        resetAt: null,
        baseline: { hour: T0, sent: 4, verified: 1 },
      };
      await store.saveBreaker(tripped);
      await store.saveBreaker({ ...tripped, country: 'FR', detail: 'other country' });
      const read = await Promise.all(
        asked.map(([test, to, country]) => store.destinationSignals('acc_1', test, to, country, now)),
      );
      expect(read.map((r) => r.breaker)).toEqual([tripped, null, null, tripped, null]);
      expect(await store.getBreaker('acc_1', false, 'GB')).toEqual(tripped);
    });

    it('makes and counts the contacts from the journal: sends, outcomes, first and last seen, the last send', async () => {
      const to = {
        destination: '+447700900555',
        channel: 'SMS' as const,
        country: 'GB',
        contactId: 'ct-555',
      };
      const a = verification({ ...to, risk: '{"score":10}' });
      await store.createVerifications([a]);
      await store.attempt?.('acc_1', a.id, T0 + 1, pickNone);
      await store.attempt?.('acc_1', a.id, T0 + 2, pickFirst);
      // Folded between the sends: the second batch adds to the contact the first one made.
      expect((await store.getContact('ct-555'))?.counts).toEqual({
        sends: 1,
        verified: 1,
        failed: 0,
        wrongCodes: 1,
      });
      const b = verification({
        ...to,
        channel: 'WHATSAPP',
        createdAt: T0 + MINUTE,
        maxAttempts: 1,
        risk: '{"score":40}',
      });
      await store.createVerifications([b]);
      await store.attempt?.('acc_1', b.id, T0 + MINUTE + 1, pickNone);
      await store.settleGroup(b.groupId, 'failed', T0 + MINUTE + 2);
      const c = verification({ ...to, createdAt: T0 + 2 * MINUTE, risk: '{"score":70}' });
      const other = verification({ ...to, test: true, contactId: 'ct-555-test', createdAt: T0 + 2 * MINUTE });
      await store.createVerifications([c]);
      await store.createVerifications([other]);
      const contact = await store.getContact('ct-555');
      expect(contact).toMatchObject({
        accountId: 'acc_1',
        test: false,
        destination: '+447700900555',
        masked: '+4*******0555',
        channel: 'SMS',
        firstSeen: T0,
        lastSeen: T0 + 2 * MINUTE,
        counts: { sends: 3, verified: 1, failed: 1, wrongCodes: 2 },
        risk: '{"score":70}',
      });
      expect((await store.getContact('ct-555-test'))?.counts.sends).toBe(1);
      // A wrong code on a request still pending counts at once, in the profile and the search;
      // once the request settles and is folded, it still counts once.
      await store.attempt?.('acc_1', c.id, T0 + 2 * MINUTE + 1, pickNone);
      expect((await store.getContact('ct-555'))?.counts.wrongCodes).toBe(3);
      expect(
        (await store.searchContacts('acc_1', '+447700900555', 10)).map((x) => x.counts.wrongCodes),
      ).toEqual([3, 0]);
      await store.settleGroup(c.groupId, 'expired', T0 + 20 * MINUTE);
      expect((await store.getContact('ct-555'))?.counts).toEqual({
        sends: 3,
        verified: 1,
        failed: 1,
        wrongCodes: 3,
      });
      expect((await store.searchContacts('acc_1', '+4477009005', 10)).map((x) => x.id).sort()).toEqual([
        'ct-555',
        'ct-555-test',
      ]);
      expect(
        (await store.contactHistory(contact as NonNullable<typeof contact>, 10)).map((h) => h.requestId),
      ).toEqual([c.id, b.id, a.id]);
    });

    it('a request names the id its contact or earlier requests have, not the one proposed', async () => {
      const to = { destination: '+447700900777', channel: 'SMS' as const, country: 'GB' };
      const contactOf = async (id: string) =>
        (await store.listEvents({ requestId: id, limit: 5 }))[0]?.contactId;
      const a = verification({ ...to, contactId: 'ct-first' });
      await store.createVerifications([a]);
      // Before any fold: the earlier request's id, over the one this send proposes.
      const b = verification({ ...to, channel: 'WHATSAPP', createdAt: T0 + 1, contactId: 'ct-second' });
      await store.createVerifications([b]);
      // Another mode is another contact.
      const other = verification({ ...to, test: true, createdAt: T0 + 2, contactId: 'ct-test' });
      await store.createVerifications([other]);
      expect([await contactOf(a.id), await contactOf(b.id), await contactOf(other.id)]).toEqual([
        'ct-first',
        'ct-first',
        'ct-test',
      ]);
      expect((await store.getContact('ct-first'))?.counts.sends).toBe(2);
      expect(await store.getContact('ct-second')).toBeNull();
      // After the fold made the contact: its id.
      const c = verification({ ...to, createdAt: T0 + MINUTE, contactId: 'ct-third' });
      await store.createVerifications([c]);
      expect(await contactOf(c.id)).toBe('ct-first');
      const contact = await store.getContact('ct-first');
      expect(contact?.counts.sends).toBe(3);
      expect(
        (await store.contactHistory(contact as NonNullable<typeof contact>, 10)).map((h) => h.requestId),
      ).toEqual([c.id, b.id, a.id]);
    });

    it('a verify on a settled request journals nothing', async () => {
      const v = verification();
      await store.createVerifications([v]);
      await store.attempt?.('acc_1', v.id, T0 + 1, pickFirst);
      await store.attempt?.('acc_1', v.id, T0 + 2, pickFirst);
      await store.attempt?.('acc_1', v.id, T0 + 3, pickNone);
      expect(await events({ requestId: v.id })).toEqual(['verification.created', 'verification.verified']);
    });
  });
}
