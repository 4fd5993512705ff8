import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mode } from '../../src/domain/types.js';
import type { Store } from '../../src/store/factory.js';
import type { WebhookEventData } from '../../src/webhooks/events.js';
import type { StoreHarness } from './conformance.js';
import {
  claimAll,
  DAY,
  dualPair,
  everyEventEndpoint,
  firstCode,
  guessOf,
  MINUTE,
  T0,
  verification,
} from './fixtures.js';

/**
 * The change log and its fold, on every backend: each change of a request or a contact is
 * appended by the call that makes it, and the fold announces it once (a webhook delivery per
 * endpoint that wants it), counts it once (analytics, contacts), with the request's mode, masked
 * destination and contact, and never a code.
 */
export function foldConformance(name: string, harness: StoreHarness): void {
  describe(`Change log and fold conformance: ${name}`, () => {
    let store: Store;
    let endpointId: string;
    beforeEach(async () => {
      store = await harness.open();
      endpointId = `we_${Math.random().toString(36).slice(2)}`;
      for (const accountId of ['acc_1', 'acc_2'])
        await store.webhooks.createEndpoint(everyEventEndpoint(`${endpointId}_${accountId}`, accountId));
    });
    afterEach(() => harness.close(store));

    const none = guessOf(null);
    const first = firstCode;
    /** Every event announced so far to acc_1's endpoint, oldest change first. */
    const announced = async (): Promise<WebhookEventData[]> => {
      await store.readModel.fold(10_000);
      const due = await store.webhooks.claimDue(claimAll());
      return due
        .filter((d) => d.endpointId === `${endpointId}_acc_1`)
        .map((d) => (JSON.parse(d.payload) as { data: WebhookEventData }).data)
        .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id));
    };
    const typesOf = (events: WebhookEventData[], requestId: string) =>
      events.filter((e) => e.requestId === requestId).map((e) => e.type);
    /** The analytics of acc_1's live requests by `groupBy`, only the sums that are not zero. */
    const sums = async (groupBy: 'channel' | 'provider', field: 'wrongCodes' | 'sent' | 'delivered') => {
      const { buckets } = await store.readModel.analytics({
        accountId: 'acc_1',
        mode: 'live',
        from: T0 - DAY,
        to: T0 + DAY,
        intervalMs: 3_600_000,
        groupBy,
      });
      const by: Record<string, number> = {};
      for (const b of buckets) if (b[field] !== 0) by[b.group] = (by[b.group] ?? 0) + b[field];
      return by;
    };

    it('announces a send with its mode, masked destination and contact; a resend cancels the first', async () => {
      const jane = { mode: 'test' as const, destination: 'jane@example.com' };
      const sent = verification(jane);
      await store.verifications.createVerifications([sent]);
      const resent = verification({ ...jane, createdAt: T0 + 1 });
      await store.verifications.createVerifications([resent]);
      const [created, canceled, again, ...rest] = await announced();
      expect(rest).toEqual([]);
      expect([created?.type, canceled?.type, again?.type]).toEqual([
        'verification.created',
        'verification.canceled',
        'verification.created',
      ]);
      expect([created?.requestId, canceled?.requestId, again?.requestId]).toEqual([
        sent.id,
        sent.id,
        resent.id,
      ]);
      expect(created).toMatchObject({
        accountId: 'acc_1',
        test: true,
        channel: 'EMAIL',
        to: 'j***@example.com',
        status: 'pending',
        groupId: sent.id,
        timestamp: new Date(T0).toISOString(),
      });
      expect(canceled).toMatchObject({ status: 'canceled', timestamp: new Date(T0 + 1).toISOString() });
      const [contact] = await store.readModel.searchContacts('acc_1', 'jane@example.com', 5);
      expect(contact?.mode).toBe('test');
      for (const e of [created, canceled, again]) expect(e?.contactId).toBe(contact?.id);
      expect(contact?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Time-ordered by the contact's first send: its first 48 bits are that send's milliseconds.
      expect(Number.parseInt(`${contact?.id.slice(0, 8)}${contact?.id.slice(9, 13)}`, 16)).toBe(T0);
      const ids = [created, canceled, again].map((e) => e?.id);
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(await announced())).not.toContain('jane@example.com');
    });

    it('counts a wrong code on its request, announces the right one and the dual sibling it cancels', async () => {
      const [email, sms] = dualPair();
      await store.verifications.createVerifications([email, sms]);
      await store.verifications.attempt('acc_1', email.id, T0 + MINUTE, none);
      // Counted while its request is pending, on the request it was made on.
      expect(await sums('channel', 'wrongCodes')).toEqual({ EMAIL: 1 });
      await store.verifications.attempt('acc_1', email.id, T0 + 2 * MINUTE, {
        pick: (rows) => rows.find((r) => r.channel === 'SMS')?.id ?? null,
      });
      const events = await announced();
      expect(events.map((e) => `${e.type} ${e.channel}`).sort()).toEqual([
        'verification.canceled EMAIL',
        'verification.created EMAIL',
        'verification.created SMS',
        'verification.verified SMS',
      ]);
      // Settled and folded, the wrong code is counted once, still on the EMAIL request.
      expect(await sums('channel', 'wrongCodes')).toEqual({ EMAIL: 1 });
      const verified = events.find((e) => e.type === 'verification.verified');
      expect(verified).toMatchObject({ to: '+1******0100', status: 'verified', country: 'US' });
      expect(verified?.timestamp).toBe(new Date(T0 + 2 * MINUTE).toISOString());
    });

    it('announces a cancel of a dual pair once per request, and a second cancel not at all', async () => {
      const [email, sms] = dualPair();
      await store.verifications.createVerifications([email, sms]);
      await store.verifications.settleGroup(email.groupId, 'canceled', T0 + MINUTE);
      await store.verifications.settleGroup(email.groupId, 'canceled', T0 + 2 * MINUTE);
      const events = await announced();
      expect(events.map((e) => `${e.type} ${e.channel}`).sort()).toEqual([
        'verification.canceled EMAIL',
        'verification.canceled SMS',
        'verification.created EMAIL',
        'verification.created SMS',
      ]);
      for (const e of events.filter((x) => x.type === 'verification.canceled'))
        expect(e).toMatchObject({ status: 'canceled', timestamp: new Date(T0 + MINUTE).toISOString() });
    });

    it('announces attempts used up, expiry (also the sweeper’s) and delivery outcomes', async () => {
      const used = verification({ maxAttempts: 1 });
      const late = verification();
      const swept = verification();
      for (const v of [used, late, swept]) await store.verifications.createVerifications([v]);
      await store.verifications.attempt('acc_1', used.id, T0 + 1, none);
      await store.verifications.settleGroup(used.groupId, 'failed', T0 + 2);
      await store.verifications.settleGroup(late.groupId, 'expired', T0 + 11 * MINUTE);
      await store.verifications.sweep(T0 + 20 * MINUTE, 365 * DAY, 100);
      let events = await announced();
      expect(typesOf(events, used.id)).toEqual(['verification.created', 'verification.failed']);
      expect(await sums('channel', 'wrongCodes')).toEqual({ EMAIL: 1 });
      expect(typesOf(events, late.id)).toEqual(['verification.created', 'verification.expired']);
      expect(typesOf(events, swept.id)).toEqual(['verification.created', 'verification.expired']);

      const sms = verification({
        channel: 'SMS',
        destination: '+447700900123',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.verifications.createVerifications([sms]);
      await store.verifications.recordDelivery(sms.id, {
        at: T0 + 3,
        deliveryStatus: 'sent',
        provider: 'twilio',
        providerMessageId: 'SM1',
      });
      await store.verifications.recordDeliveryByProviderId('twilio', 'SM1', 'delivered', null, T0 + 4);
      // The same report again changes nothing.
      await store.verifications.recordDeliveryByProviderId('twilio', 'SM1', 'delivered', null, T0 + 5);
      const failed = verification({
        channel: 'SMS',
        destination: '+447700900124',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.verifications.createVerifications([failed]);
      await store.verifications.recordDelivery(failed.id, {
        at: T0 + 6,
        deliveryStatus: 'failed',
        provider: 'vonage',
        providerMessageId: null,
        error: 'down',
      });
      await store.verifications.recordDelivery(failed.id, {
        at: T0 + 7,
        deliveryStatus: 'failed',
        provider: null,
        providerMessageId: null,
        cancel: true,
      });
      events = await announced();
      expect(typesOf(events, sms.id)).toEqual(['verification.created', 'verification.delivered']);
      expect(events.find((e) => e.type === 'verification.delivered')).toMatchObject({
        provider: 'twilio',
        status: 'pending',
      });
      expect(typesOf(events, failed.id)).toEqual([
        'verification.created',
        'verification.undelivered',
        'verification.canceled',
      ]);
      // A send counts under the provider that took it (or was the last one tried), once.
      expect(await sums('provider', 'sent')).toEqual({ outbox: 3, twilio: 1, vonage: 1 });
      expect(await sums('provider', 'delivered')).toEqual({ twilio: 1 });
    });

    it("follows a call's progress forward only, and announces it delivered once", async () => {
      const call = verification({
        channel: 'VOICE',
        destination: '+447700900125',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.verifications.createVerifications([call]);
      await store.verifications.recordDelivery(call.id, {
        at: T0 + 1,
        deliveryStatus: 'calling',
        provider: 'twilio-voice',
        providerMessageId: 'CA1',
      });
      const report = (status: 'answered' | 'completed' | 'failed', at: number) =>
        store.verifications.recordDeliveryByProviderId('twilio-voice', 'CA1', status, null, at);
      expect(await report('answered', T0 + 2)).toBe(true);
      expect((await store.verifications.getVerification('acc_1', call.id))?.deliveryStatus).toBe('answered');
      expect(await report('completed', T0 + 3)).toBe(true);
      // A late report of an earlier state is known, and changes nothing.
      expect(await report('answered', T0 + 4)).toBe(true);
      expect((await store.verifications.getVerification('acc_1', call.id))?.deliveryStatus).toBe('completed');

      const unanswered = verification({
        channel: 'VOICE',
        destination: '+447700900126',
        country: 'GB',
        deliveryStatus: 'queued',
      });
      await store.verifications.createVerifications([unanswered]);
      await store.verifications.recordDelivery(unanswered.id, {
        at: T0 + 5,
        deliveryStatus: 'calling',
        provider: 'twilio-voice',
        providerMessageId: 'CA2',
      });
      await store.verifications.recordDeliveryByProviderId(
        'twilio-voice',
        'CA2',
        'failed',
        'no-answer',
        T0 + 6,
      );

      const events = await announced();
      expect(typesOf(events, call.id)).toEqual(['verification.created', 'verification.delivered']);
      expect(typesOf(events, unanswered.id)).toEqual(['verification.created', 'verification.undelivered']);
      expect(await sums('provider', 'delivered')).toEqual({ 'twilio-voice': 1 });
    });

    it('announces the blocks and unblocks of a contact', async () => {
      const v = verification({ destination: 'blocked@example.com' });
      await store.verifications.createVerifications([v]);
      await store.readModel.fold(10_000);
      const [contact] = await store.readModel.searchContacts('acc_1', 'blocked@example.com', 1);
      if (!contact) throw new Error('no contact');
      expect(
        (await store.readModel.setContactBlocked(contact.id, { reason: 'abuse' }, T0 + MINUTE))?.blocked,
      ).toEqual({
        at: T0 + MINUTE,
        reason: 'abuse',
      });
      expect(
        (await store.readModel.setContactBlocked(contact.id, null, T0 + 2 * MINUTE))?.blocked,
      ).toBeNull();
      expect(await store.readModel.setContactBlocked('no-such-contact', null, T0)).toBeNull();
      const events = (await announced()).filter((e) => e.type.startsWith('contact.'));
      expect(events.map((e) => e.type)).toEqual(['contact.blocked', 'contact.unblocked']);
      expect(events[0]).toMatchObject({
        contactId: contact.id,
        accountId: 'acc_1',
        to: 'b******@example.com',
      });
    });

    it('gathers the risk signals of a destination: velocity, its history, its number block, its breaker', async () => {
      const now = T0 + 30 * MINUTE;
      const sms = (destination: string, at: number) =>
        verification({
          channel: 'SMS',
          destination,
          country: 'GB',
          createdAt: at,
          expiresAt: at + 10 * MINUTE,
        });
      const target = '+447400123400';
      const sent = sms(target, now - 3 * MINUTE);
      await store.verifications.createVerifications([sent]);
      await store.verifications.attempt('acc_1', sent.id, now - 2 * MINUTE, none);
      await store.verifications.createVerifications([sms(target, now - MINUTE)]);
      // An old send, outside the hour, and three neighbours of the block sent to within it.
      await store.verifications.createVerifications([sms('+447400123499', now - 2 * 60 * MINUTE)]);
      for (const last of ['01', '02', '03'])
        await store.verifications.createVerifications([sms(`+4474001234${last}`, now - MINUTE)]);
      // One of them no longer pending: read from the requests that have settled (on PostgreSQL, a
      // different index from the pending ones).
      const settled = sms('+447400123404', now - 2 * MINUTE);
      await store.verifications.createVerifications([settled]);
      await store.verifications.settleGroup(settled.groupId, 'canceled', now - MINUTE);
      await store.verifications.createVerifications([sms('+447400999999', now - MINUTE)]);
      // Read from the requests themselves, before any fold made the contact.
      const signals = await store.readModel.destinationSignals('acc_1', 'live', target, 'GB', now);
      expect(signals).toEqual({
        blocked: false,
        sendsLastHour: 2,
        neighboursLastHour: 4,
        history: { sends: 2, verified: 0, wrongCodes: 1 },
        breaker: null,
      });
      expect(await store.readModel.destinationSignals('acc_1', 'test', target, 'GB', now)).toMatchObject({
        history: { sends: 0, verified: 0, wrongCodes: 0 },
        sendsLastHour: 0,
      });
      // Asked at one moment (PostgreSQL reads them in one statement), each answer is its own:
      // the same as asked alone, in the order asked, with an email and an unknown number between.
      const asked: Array<[Mode, string, string | null]> = [
        ['live', '+447400123401', 'GB'],
        ['test', target, 'GB'],
        ['live', 'nobody@example.com', null],
        ['live', target, 'GB'],
        ['live', '+447400555555', null],
      ];
      const together = await Promise.all(
        asked.map(([mode, to, country]) =>
          store.readModel.destinationSignals('acc_1', mode, to, country, now),
        ),
      );
      const alone = [];
      for (const [mode, to, country] of asked)
        alone.push(await store.readModel.destinationSignals('acc_1', mode, to, country, now));
      expect(together).toEqual(alone);
      expect(together[3]).toEqual(signals);
      expect(together[2]).toMatchObject({ blocked: false, sendsLastHour: 0, neighboursLastHour: 0 });
      // The country's breaker comes with the rest: of this account, mode and country only.
      const tripped = {
        accountId: 'acc_1',
        mode: 'live' as const,
        country: 'GB',
        trippedAt: now - MINUTE,
        detail: 'tripped',
        resetAt: null,
        baseline: { hour: T0, sent: 4, verified: 1 },
      };
      await store.readModel.saveBreaker(tripped);
      await store.readModel.saveBreaker({ ...tripped, country: 'FR', detail: 'other country' });
      const read = await Promise.all(
        asked.map(([mode, to, country]) =>
          store.readModel.destinationSignals('acc_1', mode, to, country, now),
        ),
      );
      expect(read.map((r) => r.breaker)).toEqual([tripped, null, null, tripped, null]);
      expect(await store.readModel.getBreaker('acc_1', 'live', 'GB')).toEqual(tripped);
      expect(await store.readModel.listBreakers({ accountId: 'acc_1', trippedOnly: true })).toHaveLength(2);
      await store.readModel.saveBreaker({ ...tripped, trippedAt: null, detail: null });
      expect((await store.readModel.listBreakers({ trippedOnly: true })).map((b) => b.country)).toEqual([
        'FR',
      ]);
      expect((await store.readModel.listBreakers({})).map((b) => b.country)).toEqual(['FR', 'GB']);
      // A blocked contact is what the screen refuses.
      await store.readModel.fold(10_000);
      const [contact] = await store.readModel.searchContacts('acc_1', target, 1);
      await store.readModel.setContactBlocked(contact?.id as string, { reason: 'x' }, now);
      expect((await store.readModel.destinationSignals('acc_1', 'live', target, 'GB', now)).blocked).toBe(
        true,
      );
      expect((await store.readModel.destinationSignals('acc_1', 'test', target, 'GB', now)).blocked).toBe(
        false,
      );
    });

    it('makes and counts the contacts from the log: sends, outcomes, first and last seen, the last send', async () => {
      const to = { destination: '+447700900555', channel: 'SMS' as const, country: 'GB' };
      const contactOf = async (mode: Mode = 'live') =>
        (await store.readModel.searchContacts('acc_1', to.destination, 5)).find((c) => c.mode === mode);
      const a = verification({ ...to, risk: '{"score":10}' });
      await store.verifications.createVerifications([a]);
      await store.verifications.attempt('acc_1', a.id, T0 + 1, none);
      await store.verifications.attempt('acc_1', a.id, T0 + 2, first);
      // Folded between the sends: later batches add to the contact the first one made.
      const made = await contactOf();
      expect(made?.counts).toEqual({ sends: 1, verified: 1, failed: 0, wrongCodes: 1 });
      const b = verification({
        ...to,
        channel: 'WHATSAPP',
        createdAt: T0 + MINUTE,
        maxAttempts: 1,
        risk: '{"score":40}',
      });
      await store.verifications.createVerifications([b]);
      await store.verifications.attempt('acc_1', b.id, T0 + MINUTE + 1, none);
      const c = verification({ ...to, createdAt: T0 + 2 * MINUTE, risk: '{"score":70}' });
      const other = verification({ ...to, mode: 'test', createdAt: T0 + 2 * MINUTE });
      await store.verifications.createVerifications([c]);
      await store.verifications.createVerifications([other]);
      const contact = await store.readModel.getContact(made?.id as string);
      expect(contact).toMatchObject({
        id: made?.id,
        accountId: 'acc_1',
        mode: 'live',
        destination: '+447700900555',
        masked: '+4*******0555',
        channel: 'SMS',
        firstSeen: T0,
        lastSeen: T0 + 2 * MINUTE,
        counts: { sends: 3, verified: 1, failed: 1, wrongCodes: 2 },
        risk: '{"score":70}',
        blocked: null,
      });
      expect((await contactOf('test'))?.counts.sends).toBe(1);
      // A wrong code on a request still pending counts at once, in the profile and the search;
      // once the request settles and is folded, it still counts once.
      await store.verifications.attempt('acc_1', c.id, T0 + 2 * MINUTE + 1, none);
      expect((await store.readModel.getContact(made?.id as string))?.counts.wrongCodes).toBe(3);
      expect(
        (await store.readModel.searchContacts('acc_1', '+447700900555', 10)).map((x) => x.counts.wrongCodes),
      ).toEqual([3, 0]);
      await store.verifications.settleGroup(c.groupId, 'expired', T0 + 20 * MINUTE);
      expect((await store.readModel.getContact(made?.id as string))?.counts).toEqual({
        sends: 3,
        verified: 1,
        failed: 1,
        wrongCodes: 3,
      });
      expect((await store.readModel.searchContacts('acc_1', '+4477009005', 10)).map((x) => x.mode)).toEqual([
        'live',
        'test',
      ]);
      expect(
        (await store.readModel.searchContacts('acc_1', '+4477009005', 10, 'test')).map((x) => x.mode),
      ).toEqual(['test']);
      expect(
        (await store.readModel.searchContacts('acc_1', '+4477009005', 10, 'live')).map((x) => x.mode),
      ).toEqual(['live']);
      expect(
        (await store.readModel.contactHistory(contact as NonNullable<typeof contact>, 10)).map(
          (h) => h.requestId,
        ),
      ).toEqual([c.id, b.id, a.id]);
      expect(await store.readModel.getContact('no-such-contact')).toBeNull();
    });

    it('lists the contacts of an account most recently seen first, a page at a time, by mode', async () => {
      const send = (destination: string, at: number, extra: { mode?: Mode; accountId?: string } = {}) =>
        store.verifications.createVerifications([verification({ destination, createdAt: at, ...extra })]);
      await send('old@example.com', T0);
      await send('mid@example.com', T0 + MINUTE);
      await send('new@example.com', T0 + 2 * MINUTE);
      // Seen again last: the oldest contact moves to the top.
      await send('old@example.com', T0 + 3 * MINUTE);
      // Two seen in the same millisecond: the page boundary falls between them.
      await send('same-a@example.com', T0 + 4 * MINUTE);
      await send('same-b@example.com', T0 + 4 * MINUTE);
      await send('test@example.com', T0 + 5 * MINUTE, { mode: 'test' });
      await send('other@example.com', T0 + 6 * MINUTE, { accountId: 'acc_2' });

      const live = { accountId: 'acc_1', mode: 'live' as const };
      const all = await store.readModel.listContacts({ ...live, limit: 10 });
      const sameMs = all.slice(0, 2).map((c) => c.destination);
      expect(sameMs.sort()).toEqual(['same-a@example.com', 'same-b@example.com']);
      expect(all.slice(2).map((c) => c.destination)).toEqual([
        'old@example.com',
        'new@example.com',
        'mid@example.com',
      ]);
      expect(all[2]).toMatchObject({ firstSeen: T0, lastSeen: T0 + 3 * MINUTE, counts: { sends: 2 } });

      // Paged two at a time, each page after the last contact of the one before: every contact once.
      const paged: string[] = [];
      let after: { lastSeen: number; id: string } | undefined;
      for (let page = 0; page < 5; page++) {
        const rows = await store.readModel.listContacts({ ...live, after, limit: 2 });
        paged.push(...rows.map((c) => c.destination));
        const last = rows.at(-1);
        if (!last) break;
        after = { lastSeen: last.lastSeen, id: last.id };
      }
      expect(paged).toEqual(all.map((c) => c.destination));

      expect(
        (await store.readModel.listContacts({ accountId: 'acc_1', mode: 'test', limit: 10 })).map(
          (c) => c.destination,
        ),
      ).toEqual(['test@example.com']);
      const both = await store.readModel.listContacts({ accountId: 'acc_1', limit: 10 });
      expect(both.map((c) => c.destination)[0]).toBe('test@example.com');
      expect(both).toHaveLength(6);
      expect(
        (await store.readModel.listContacts({ accountId: 'acc_2', limit: 10 })).map((c) => c.destination),
      ).toEqual(['other@example.com']);
      expect(await store.readModel.listContacts({ accountId: 'acc_none', limit: 10 })).toEqual([]);
    });

    it('a verify on a settled request announces and counts nothing', async () => {
      const v = verification();
      await store.verifications.createVerifications([v]);
      await store.verifications.attempt('acc_1', v.id, T0 + 1, first);
      await store.verifications.attempt('acc_1', v.id, T0 + 2, first);
      await store.verifications.attempt('acc_1', v.id, T0 + 3, none);
      expect(typesOf(await announced(), v.id)).toEqual(['verification.created', 'verification.verified']);
      expect(await sums('channel', 'wrongCodes')).toEqual({});
    });

    it('folds a batch over many hours of two days into daily buckets that add up its hours', async () => {
      const HOUR = 3_600_000;
      const at = (i: number) => ({
        createdAt: T0 + i * 5 * HOUR,
        expiresAt: T0 + i * 5 * HOUR + 10 * MINUTE,
      });
      const sent = Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? verification({ ...at(i), channel: 'SMS', destination: `+1415555020${i}`, country: 'US' })
          : verification({ ...at(i), purpose: 'login' }),
      );
      for (const v of sent) await store.verifications.createVerifications([v]);
      for (const [i, v] of sent.entries()) {
        await store.verifications.attempt('acc_1', v.id, v.createdAt + 1000, none);
        if (i % 2 === 0)
          await store.verifications.attempt('acc_1', v.id, v.createdAt + (i + 1) * 20_000, first);
      }
      // 10 created, 5 verified: a wrong code is counted on its request, not logged.
      expect(await store.readModel.fold(10_000)).toBe(15);
      const from = T0 - (T0 % DAY) - DAY;
      const read = (intervalMs: number) =>
        store.readModel.analytics({
          accountId: 'acc_1',
          mode: 'live',
          from,
          to: from + 5 * DAY,
          intervalMs,
          groupBy: 'channel',
        });
      const [hourly, daily] = [await read(HOUR), await read(DAY)];
      const fields = ['sent', 'verified', 'failed', 'canceled', 'wrongCodes'] as const;
      const byDay = (rows: typeof hourly.buckets) => {
        const days: Record<string, number> = {};
        for (const b of rows)
          for (const f of fields) {
            const key = `${b.start - (b.start % DAY)} ${b.group} ${f}`;
            days[key] = (days[key] ?? 0) + b[f];
          }
        return days;
      };
      const ttvByDay = (rows: typeof hourly.ttv) => {
        const days: Record<string, number> = {};
        for (const t of rows) {
          const key = `${t.start - (t.start % DAY)} ${t.group} ${t.bin}`;
          days[key] = (days[key] ?? 0) + t.count;
        }
        return days;
      };
      expect(new Set(hourly.buckets.map((b) => b.start - (b.start % DAY))).size).toBeGreaterThanOrEqual(2);
      expect(byDay(daily.buckets)).toEqual(byDay(hourly.buckets));
      expect(ttvByDay(daily.ttv)).toEqual(ttvByDay(hourly.ttv));
      const total = (f: (typeof fields)[number]) => daily.buckets.reduce((n, b) => n + b[f], 0);
      expect([total('sent'), total('verified'), total('wrongCodes')]).toEqual([10, 5, 10]);
      expect(daily.ttv.reduce((n, t) => n + t.count, 0)).toBe(5);
      expect(new Set(daily.ttv.map((t) => t.bin)).size).toBeGreaterThan(1);
    });

    it('folds each change once, however many folds run at once', async () => {
      const sent = Array.from({ length: 120 }, (_, i) =>
        verification({ createdAt: T0 + i, destination: `many${i}@example.com` }),
      );
      // In turns of 20 sends: on PostgreSQL a turn's created changes are one row of the log, folded
      // whole (a batch takes at least one), and 20 keeps each fold within its 25.
      for (let i = 0; i < sent.length; i += 20)
        await Promise.all(sent.slice(i, i + 20).map((v) => store.verifications.createVerifications([v])));
      await Promise.all(
        sent.slice(0, 60).map((v) => store.verifications.attempt('acc_1', v.id, T0 + MINUTE, first)),
      );
      const folded = await Promise.all(Array.from({ length: 6 }, () => store.readModel.fold(25)));
      expect(folded.every((n) => n <= 25)).toBe(true);
      const { buckets } = await store.readModel.analytics({
        accountId: 'acc_1',
        mode: 'live',
        from: T0 - DAY,
        to: T0 + DAY,
        intervalMs: 3_600_000,
      });
      expect(buckets.reduce((n, b) => n + b.sent, 0)).toBe(120);
      expect(buckets.reduce((n, b) => n + b.verified, 0)).toBe(60);
      expect((await announced()).length).toBe(180);
      expect(await store.readModel.fold(100)).toBe(0);
    });
  });
}
