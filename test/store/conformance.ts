import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CodeGuess } from '../../src/domain/ports/verifications.js';
import type { NewCallJob } from '../../src/domain/ports/whatsapp-calls.js';
import type { Store } from '../../src/store/factory.js';
import {
  apiKey,
  DAY,
  dualPair,
  fixtureCodeHash,
  guessOf,
  MINUTE,
  outboxContent,
  T0,
  verification,
} from './fixtures.js';

/** How a backend gives the suite a store on an empty, migrated database, and takes it back. */
export interface StoreHarness {
  open(): Promise<Store>;
  close(store: Store): Promise<void>;
}

const times = <T>(count: number, work: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => work(i)));

/**
 * The Store contract, run against every backend (better-auth's adapter suites are the model):
 * the same calls must give the same answers on SQLite and PostgreSQL, concurrency included.
 */
export function storeConformance(name: string, harness: StoreHarness): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;
    const none = guessOf(null);
    /** A wrong guess on `id` (of account acc_1) at `now`. */
    const wrong = (id: string, now = T0) => store.verifications.attempt('acc_1', id, now, none);
    /** A right guess on `id` that matches `winner`'s code. */
    const right = (id: string, winner = id, now = T0) =>
      store.verifications.attempt('acc_1', id, now, guessOf(winner));
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(() => harness.close(store));

    const account = async (id = 'acc_1', settings = {}) =>
      store.accounts.createAccount({ id, name: `Account ${id}`, settings, createdAt: T0 });

    describe('settings and accounts', () => {
      it('getOrCreateSetting keeps the first value', async () => {
        expect(await store.getOrCreateSetting('secret', 'a')).toEqual({ value: 'a', created: true });
        expect(await store.getOrCreateSetting('secret', 'b')).toEqual({ value: 'a', created: false });
      });

      it('getOrCreateSetting from many callers at once creates exactly one value', async () => {
        const results = await times(10, (i) => store.getOrCreateSetting('token', `v${i}`));
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(new Set(results.map((r) => r.value)).size).toBe(1);
      });

      it('creates, lists, reads and updates accounts', async () => {
        await account('acc_b', { codeLength: 8 });
        await store.accounts.createAccount({ id: 'acc_a', name: 'A', settings: {}, createdAt: T0 + 1 });
        expect(await store.accounts.getAccount('acc_b')).toEqual({
          id: 'acc_b',
          name: 'Account acc_b',
          settings: { codeLength: 8 },
          createdAt: T0,
        });
        expect((await store.accounts.listAccounts()).map((a) => a.id)).toEqual(['acc_b', 'acc_a']);
        const updated = await store.accounts.updateAccountSettings('acc_b', {
          maxAttempts: 3,
          allowedCountries: ['GB'],
        });
        expect(updated?.settings).toEqual({ maxAttempts: 3, allowedCountries: ['GB'] });
        expect((await store.accounts.getAccount('acc_b'))?.settings).toEqual(updated?.settings);
        expect(await store.accounts.getAccount('acc_none')).toBeNull();
        expect(await store.accounts.updateAccountSettings('acc_none', {})).toBeNull();
      });

      it('refuses a second account with the same id as an ordinary error', async () => {
        await account('acc_dup');
        const err = await account('acc_dup').catch((e: Error) => e);
        expect(err).toBeInstanceOf(Error);
        expect((err as Error).name).not.toBe('StoreUnavailable');
      });
    });

    describe('API keys', () => {
      it('creates keys and finds a live one joined with its account settings', async () => {
        await account('acc_1', { codeTtlSeconds: 120 });
        await account('acc_2');
        const key = apiKey('acc_1', { channels: ['EMAIL', 'WHATSAPP'], mode: 'test' });
        const record = await store.accounts.createApiKey(key);
        await store.accounts.createApiKey(apiKey('acc_2'));
        const { keyHash: _hash, ...visible } = key;
        const stored = { ...visible, revokedAt: null, lastUsedAt: null };
        expect(record).toMatchObject(stored);
        expect(await store.accounts.getApiKey(key.id)).toEqual(stored);
        expect((await store.accounts.listApiKeys('acc_1')).map((k) => k.id)).toEqual([key.id]);
        expect(await store.accounts.listApiKeys()).toHaveLength(2);
        expect(await store.accounts.findActiveApiKey(key.keyHash)).toEqual({
          ...stored,
          accountSettings: { codeTtlSeconds: 120 },
        });
        expect(await store.accounts.findActiveApiKey('no-such-hash')).toBeNull();
      });

      it('revokes a key once', async () => {
        await account();
        const key = apiKey('acc_1');
        await store.accounts.createApiKey(key);
        expect(await store.accounts.revokeApiKey(key.id, T0 + 5)).toBe(true);
        expect(await store.accounts.revokeApiKey(key.id, T0 + 6)).toBe(false);
        expect(await store.accounts.revokeApiKey('key_none', T0)).toBe(false);
        expect((await store.accounts.getApiKey(key.id))?.revokedAt).toBe(T0 + 5);
        expect(await store.accounts.findActiveApiKey(key.keyHash)).toBeNull();
      });

      it('rotates a live key in one step and refuses to rotate a revoked one', async () => {
        await account();
        const old = apiKey('acc_1');
        await store.accounts.createApiKey(old);
        const replacement = apiKey('acc_1');
        expect(await store.accounts.rotateApiKey(old.id, replacement, T0 + 10)).toMatchObject({
          id: replacement.id,
          revokedAt: null,
        });
        expect(await store.accounts.findActiveApiKey(old.keyHash)).toBeNull();
        expect((await store.accounts.findActiveApiKey(replacement.keyHash))?.id).toBe(replacement.id);
        const second = apiKey('acc_1');
        expect(await store.accounts.rotateApiKey(old.id, second, T0 + 20)).toBeNull();
        expect(await store.accounts.getApiKey(second.id)).toBeNull();
      });

      it('renames a live key and changes its channels, and refuses a revoked or unknown one', async () => {
        await account();
        const key = apiKey('acc_1', { channels: ['EMAIL'] });
        await store.accounts.createApiKey(key);
        expect(await store.accounts.updateApiKey(key.id, { name: 'renamed' })).toMatchObject({
          id: key.id,
          name: 'renamed',
          channels: ['EMAIL'],
        });
        expect(await store.accounts.updateApiKey(key.id, { channels: ['SMS', 'WHATSAPP'] })).toMatchObject({
          name: 'renamed',
          channels: ['SMS', 'WHATSAPP'],
        });
        expect((await store.accounts.findActiveApiKey(key.keyHash))?.channels).toEqual(['SMS', 'WHATSAPP']);
        expect(await store.accounts.updateApiKey('key_none', { name: 'x' })).toBeNull();
        await store.accounts.revokeApiKey(key.id, T0 + 1);
        expect(await store.accounts.updateApiKey(key.id, { name: 'late' })).toBeNull();
        expect((await store.accounts.getApiKey(key.id))?.name).toBe('renamed');
      });

      it('records the last use of keys in one batch, never moving it backwards', async () => {
        await account();
        const a = apiKey('acc_1');
        const b = apiKey('acc_1');
        await store.accounts.createApiKey(a);
        await store.accounts.createApiKey(b);
        await store.accounts.recordApiKeyUses(new Map());
        await store.accounts.recordApiKeyUses(
          new Map([
            [a.id, T0 + 100],
            [b.id, T0 + 200],
            ['key_none', T0],
          ]),
        );
        expect((await store.accounts.getApiKey(a.id))?.lastUsedAt).toBe(T0 + 100);
        expect((await store.accounts.getApiKey(b.id))?.lastUsedAt).toBe(T0 + 200);
        // Another process's older batch arriving late does not win.
        await store.accounts.recordApiKeyUses(new Map([[b.id, T0 + 150]]));
        expect((await store.accounts.getApiKey(b.id))?.lastUsedAt).toBe(T0 + 200);
        expect((await store.accounts.listApiKeys()).map((k) => k.lastUsedAt)).toEqual([T0 + 100, T0 + 200]);
      });
    });

    describe('dashboard sessions', () => {
      it('finds a session by its id hash until it expires, deletes it, and sweeps expired ones', async () => {
        const s = store.sessions;
        await s.create({ idHash: 'a'.repeat(64), createdAt: T0, expiresAt: T0 + MINUTE });
        await s.create({ idHash: 'b'.repeat(64), createdAt: T0, expiresAt: T0 + 2 * MINUTE });
        await s.create({ idHash: 'c'.repeat(64), createdAt: T0, expiresAt: T0 + 3 * MINUTE });
        expect(await s.find('a'.repeat(64), T0)).toEqual({
          idHash: 'a'.repeat(64),
          createdAt: T0,
          expiresAt: T0 + MINUTE,
        });
        expect(await s.find('a'.repeat(64), T0 + MINUTE)).toBeNull();
        expect(await s.find('d'.repeat(64), T0)).toBeNull();
        expect(await s.delete('c'.repeat(64))).toBe(true);
        expect(await s.delete('c'.repeat(64))).toBe(false);
        expect(await s.find('c'.repeat(64), T0)).toBeNull();
        expect(await s.sweep(T0 + 2 * MINUTE, 1)).toBe(1);
        expect(await s.sweep(T0 + 2 * MINUTE, 10)).toBe(1);
        expect(await s.sweep(T0 + 2 * MINUTE, 10)).toBe(0);
      });
    });

    describe('WhatsApp call jobs and permissions', () => {
      const job = (id: string, over: Partial<NewCallJob> = {}): NewCallJob => ({
        id,
        verificationId: id,
        accountId: 'acc_1',
        waUser: '14155550100',
        locale: 'en',
        requestText: 'May we call you?',
        state: 'new',
        sealedCode: 'sealed',
        expiresAt: T0 + 10 * MINUTE,
        dueAt: T0 + 10_000,
        createdAt: T0,
        ...over,
      });

      it('moves a job only from the states (and the due time) named, once', async () => {
        const c = store.whatsappCalls;
        const v = verification();
        await store.verifications.createVerifications([v]);
        await c.insert(job(v.id));
        expect(await c.get(v.id)).toMatchObject({
          state: 'new',
          sealedCode: 'sealed',
          dueAt: T0 + 10_000,
          callId: null,
        });
        expect(await c.due(T0, 10)).toEqual([]);
        expect((await c.due(T0 + 10_000, 10)).map((j) => j.id)).toEqual([v.id]);
        // Two claims of the same due job: one wins.
        const claim = () =>
          c.move(v.id, ['new'], { state: 'starting', holder: 'i1', dueAt: T0 + 20_000 }, T0 + 10_000, {
            dueAt: T0 + 10_000,
          });
        expect(await Promise.all([claim(), claim()])).toEqual(expect.arrayContaining([true, false]));
        expect(await c.move(v.id, ['new'], { state: 'ended' }, T0)).toBe(false);
        expect(
          await c.move(
            v.id,
            ['starting'],
            { state: 'awaiting_permission', permissionMessageId: 'wamid.1', holder: null },
            T0 + 1,
          ),
        ).toBe(true);
        expect((await c.awaitingPermission('14155550100')).map((j) => j.permissionMessageId)).toEqual([
          'wamid.1',
        ]);
        expect(
          await c.move(
            v.id,
            ['awaiting_permission'],
            { state: 'calling', callId: 'wacid.1', holder: 'i1' },
            T0 + 2,
          ),
        ).toBe(true);
        expect((await c.byCallId('wacid.1'))?.id).toBe(v.id);
        expect((await c.heldBy('i1')).map((j) => j.id)).toEqual([v.id]);
        expect(
          await c.move(
            v.id,
            ['calling'],
            { state: 'ended', outcome: 'completed', sealedCode: null, dueAt: null, durationSeconds: 14 },
            T0 + 3,
          ),
        ).toBe(true);
        expect(await c.get(v.id)).toMatchObject({
          state: 'ended',
          outcome: 'completed',
          sealedCode: null,
          durationSeconds: 14,
          updatedAt: T0 + 3,
        });
        expect(await c.heldBy('i1')).toEqual([]);
        expect(await c.sweep(T0 + 3, 10)).toBe(0);
        expect(await c.sweep(T0 + 4, 10)).toBe(1);
        expect(await c.get(v.id)).toBeNull();
      });

      it('ends the waiting jobs of requests that left pending, erasing their sealed code', async () => {
        const c = store.whatsappCalls;
        const pending = verification();
        const canceled = verification();
        await store.verifications.createVerifications([pending]);
        await store.verifications.createVerifications([canceled]);
        await store.verifications.recordDelivery(canceled.id, {
          at: T0 + 5,
          deliveryStatus: 'failed',
          provider: null,
          providerMessageId: null,
          cancel: true,
        });
        await c.insert(job(pending.id, { state: 'awaiting_permission' }));
        await c.insert(job(canceled.id, { state: 'awaiting_permission' }));
        const ended = await c.endSettled(T0 + 6, 10);
        expect(ended.map((j) => j.id)).toEqual([canceled.id]);
        expect(await c.get(canceled.id)).toMatchObject({
          state: 'ended',
          sealedCode: null,
          outcome: 'request_settled',
        });
        expect(await c.get(pending.id)).toMatchObject({ state: 'awaiting_permission', sealedCode: 'sealed' });
        expect(await c.endSettled(T0 + 7, 10)).toEqual([]);
      });

      it("keeps a user's permission per account", async () => {
        const c = store.whatsappCalls;
        expect(await c.permission('acc_1', '14155550100')).toBeNull();
        await c.putPermission({
          accountId: 'acc_1',
          waUser: '14155550100',
          kind: 'temporary',
          expiresAt: T0 + DAY,
          updatedAt: T0,
        });
        await c.putPermission({
          accountId: 'acc_1',
          waUser: '14155550100',
          kind: 'permanent',
          expiresAt: null,
          updatedAt: T0 + 1,
        });
        expect(await c.permission('acc_1', '14155550100')).toEqual({
          accountId: 'acc_1',
          waUser: '14155550100',
          kind: 'permanent',
          expiresAt: null,
          updatedAt: T0 + 1,
        });
        expect(await c.permission('acc_2', '14155550100')).toBeNull();
        await c.dropPermission('acc_1', '14155550100');
        expect(await c.permission('acc_1', '14155550100')).toBeNull();
      });
    });

    describe('the lookups cache', () => {
      const line = (lineType: 'mobile' | 'voip', checkedAt = T0) => ({
        lineType,
        carrier: 'Vodafone UK',
        country: 'GB',
        mcc: '234',
        mnc: '15',
        checkedAt,
      });
      const sim = { lastSimChange: { at: T0 - 2 * 3_600_000 }, checkedAt: T0 };

      it('keeps each part until its own expiry, updates one part without the other, and sweeps', async () => {
        const c = store.lookups;
        expect(await c.get('k1', T0)).toEqual({ line: null, sim: null });
        await c.put('k1', {
          line: { facts: line('mobile'), expiresAt: T0 + DAY },
          sim: { facts: sim, expiresAt: T0 + MINUTE },
        });
        expect(await c.get('k1', T0)).toEqual({ line: line('mobile'), sim });
        // The SIM change goes stale first; the line type stays.
        expect(await c.get('k1', T0 + MINUTE)).toEqual({ line: line('mobile'), sim: null });
        // A SIM part alone leaves the line part as it was.
        const window = { lastSimChange: { withinHours: 24, changed: true, checkedAt: T0 + 2 * MINUTE } };
        await c.put('k1', {
          sim: { facts: { ...window, checkedAt: T0 + 2 * MINUTE }, expiresAt: T0 + 3 * MINUTE },
        });
        expect(await c.get('k1', T0 + 2 * MINUTE)).toEqual({
          line: line('mobile'),
          sim: { ...window, checkedAt: T0 + 2 * MINUTE },
        });
        // A line part alone leaves the SIM part.
        await c.put('k1', { line: { facts: line('voip', T0 + 2 * MINUTE), expiresAt: T0 + 2 * DAY } });
        expect((await c.get('k1', T0 + 2 * MINUTE)).sim).toEqual({ ...window, checkedAt: T0 + 2 * MINUTE });
        expect((await c.get('k1', T0 + DAY + MINUTE)).line).toEqual(line('voip', T0 + 2 * MINUTE));
        // A null SIM change (the carrier does not say) is an answer too.
        await c.put('k2', {
          line: { facts: { ...line('mobile'), lineType: null as never, carrier: null }, expiresAt: T0 + DAY },
          sim: { facts: { lastSimChange: null, checkedAt: T0 }, expiresAt: T0 + DAY },
        });
        expect(await c.get('k2', T0)).toEqual({
          line: { ...line('mobile'), lineType: null, carrier: null },
          sim: { lastSimChange: null, checkedAt: T0 },
        });
        expect(await c.get('k3', T0)).toEqual({ line: null, sim: null });
        await c.put('k3', {});
        // k2 expires at T0 + DAY, k1 at T0 + 2 DAY.
        expect(await c.sweep(T0 + DAY, 10)).toBe(1);
        expect(await c.get('k2', T0)).toEqual({ line: null, sim: null });
        expect(await c.sweep(T0 + 2 * DAY, 10)).toBe(1);
        expect(await c.sweep(T0 + 2 * DAY, 10)).toBe(0);
      });

      it('holds a claim for one caller at a time, until it lapses or is given up', async () => {
        const c = store.lookups;
        expect(await c.claim('k:l', T0, T0 + 1500)).toBe(true);
        expect(await c.claim('k:l', T0 + 100, T0 + 1600)).toBe(false);
        // Other parts of the number are a claim of their own.
        expect(await c.claim('k:ls', T0 + 100, T0 + 1600)).toBe(true);
        // Lapsed at its end: the next caller holds it.
        expect(await c.claim('k:l', T0 + 1500, T0 + 3000)).toBe(true);
        expect(await c.claim('k:l', T0 + 1600, T0 + 3100)).toBe(false);
        await c.release('k:l');
        expect(await c.claim('k:l', T0 + 1600, T0 + 3100)).toBe(true);
        // Of many callers at once, one holds it.
        const held = await times(10, () => c.claim('race', T0, T0 + 1000));
        expect(held.filter(Boolean)).toHaveLength(1);
        // The sweep takes lapsed claims away with the lapsed entries.
        await c.sweep(T0 + 5000, 10);
        expect(await c.claim('race', T0, T0 + 1000)).toBe(true);
      });

      it('many writes of one key at once leave one row with a complete part', async () => {
        await times(10, (i) =>
          store.lookups.put('same', {
            line: { facts: line(i % 2 ? 'voip' : 'mobile'), expiresAt: T0 + DAY },
          }),
        );
        const got = await store.lookups.get('same', T0);
        expect(['mobile', 'voip']).toContain(got.line?.lineType);
        expect(await store.lookups.sweep(T0 + DAY, 100)).toBe(1);
      });
    });

    describe('verification requests', () => {
      it('stores a request and reads it back within its account only', async () => {
        const v = verification({
          channel: 'WHATSAPP',
          deliveryType: 'CALL',
          country: 'GB',
          purpose: 'login',
          locale: 'zh-TW',
        });
        await store.verifications.createVerifications([v]);
        const got = await store.verifications.getVerification('acc_1', v.id);
        // The outbox content is read through listOutbox only.
        const { outbox: _, ...fields } = v;
        expect(got).toEqual({
          ...fields,
          status: 'pending',
          attempts: 0,
          verifiedAt: null,
          method: null,
          deliveryUpdatedAt: null,
          provider: null,
          providerMessageId: null,
        });
        expect(Buffer.isBuffer(got?.codeHash)).toBe(true);
        expect(await store.verifications.getVerification('acc_other', v.id)).toBeNull();
      });

      it('supersedes the pending request of the same account, channel and destination', async () => {
        const first = verification({ destination: 'a@example.com' });
        const otherChannel = verification({ destination: 'a@example.com', channel: 'SMS' });
        const otherAccount = verification({ destination: 'a@example.com', accountId: 'acc_2' });
        await store.verifications.createVerifications([first]);
        await store.verifications.createVerifications([otherChannel]);
        await store.verifications.createVerifications([otherAccount]);
        const second = verification({ destination: 'a@example.com' });
        await store.verifications.createVerifications([second]);
        expect((await store.verifications.getVerification('acc_1', first.id))?.status).toBe('canceled');
        expect((await store.verifications.getVerification('acc_1', second.id))?.status).toBe('pending');
        expect((await store.verifications.getVerification('acc_1', otherChannel.id))?.status).toBe('pending');
        expect((await store.verifications.getVerification('acc_2', otherAccount.id))?.status).toBe('pending');
        expect((await right(first.id)).consumed).toBe(false);
      });

      it('keeps one live code per destination when sends race', async () => {
        const rows = Array.from({ length: 10 }, () => verification({ destination: 'race@example.com' }));
        await Promise.all(rows.map((r) => store.verifications.createVerifications([r])));
        const states = await Promise.all(rows.map((r) => store.verifications.getVerification('acc_1', r.id)));
        expect(states.filter((s) => s?.status === 'pending')).toHaveLength(1);
      });

      it('writes sends of one moment each on its own: a later send supersedes, a bad one fails alone', async () => {
        const existing = verification();
        await store.verifications.createVerifications([existing]);
        const fresh = Array.from({ length: 8 }, (_, i) => verification({ destination: `f${i}@example.com` }));
        const [early, late] = [
          verification({ destination: 'x@example.com' }),
          verification({ destination: 'x@example.com' }),
        ];
        // The same id again: the primary key refuses this one send.
        const clash = verification({
          id: existing.id,
          groupId: existing.id,
          destination: 'clash@example.com',
        });
        const outcomes = await Promise.allSettled([
          ...fresh.map((r) => store.verifications.createVerifications([r])),
          store.verifications.createVerifications([early]),
          store.verifications.createVerifications([clash]),
          store.verifications.createVerifications([late]),
        ]);
        expect(outcomes.map((o) => o.status)).toEqual([
          ...fresh.map(() => 'fulfilled'),
          'fulfilled',
          'rejected',
          'fulfilled',
        ]);
        for (const r of fresh)
          expect((await store.verifications.getVerification('acc_1', r.id))?.status).toBe('pending');
        expect((await store.verifications.getVerification('acc_1', early.id))?.status).toBe('canceled');
        expect((await store.verifications.getVerification('acc_1', late.id))?.status).toBe('pending');
        expect((await store.verifications.getVerification('acc_1', existing.id))?.destination).toBe(
          existing.destination,
        );
      });

      it('counts 60 parallel attempts atomically: exactly max_attempts count, the last fails the request', async () => {
        const v = verification({ maxAttempts: 5 });
        await store.verifications.createVerifications([v]);
        const counted = (await times(60, () => wrong(v.id, T0 + 1))).filter((o) => o.counted);
        expect(counted).toHaveLength(5);
        expect(counted.map((o) => o.counted?.attempts).sort()).toEqual([1, 2, 3, 4, 5]);
        expect(counted[0]?.counted).toMatchObject({ maxAttempts: 5, rows: [{ id: v.id, channel: 'EMAIL' }] });
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          attempts: 5,
          status: 'failed',
        });
        expect((await wrong(v.id, T0 + 2)).counted).toBeNull();
      });

      it('consumes a code once under 30 parallel right guesses', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        const results = await times(30, () => right(v.id, v.id, T0 + 7));
        expect(results.filter((o) => o.consumed)).toHaveLength(1);
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          status: 'verified',
          verifiedAt: T0 + 7,
          attempts: 1,
        });
        expect((await wrong(v.id, T0 + 8)).counted).toBeNull();
      });

      it('shares attempts across a dual pair, verifies the winner and cancels its sibling', async () => {
        const [email, sms] = dualPair({ maxAttempts: 5 });
        await store.verifications.createVerifications([email, sms]);
        let seen: string[] = [];
        const first = await store.verifications.attempt('acc_1', email.id, T0 + 1, {
          pick: (rows) => {
            seen = rows.map((r) => r.channel).sort();
            return null;
          },
        });
        expect(seen).toEqual(['EMAIL', 'SMS']);
        expect(first.counted?.attempts).toBe(1);
        expect(first.counted?.rows.map((r) => r.channel).sort()).toEqual(['EMAIL', 'SMS']);
        await wrong(sms.id, T0 + 1);
        for (const row of [email, sms])
          expect((await store.verifications.getVerification('acc_1', row.id))?.attempts).toBe(2);

        // Either request id accepts the code of either row; of two right guesses one wins.
        const [viaEmail, viaSms] = await Promise.all([
          right(email.id, sms.id, T0 + 2),
          right(sms.id, email.id, T0 + 2),
        ]);
        expect([viaEmail.consumed, viaSms.consumed].filter(Boolean)).toHaveLength(1);
        const winner = viaEmail.consumed ? sms : email;
        const sibling = viaEmail.consumed ? email : sms;
        expect((await store.verifications.getVerification('acc_1', winner.id))?.status).toBe('verified');
        expect((await store.verifications.getVerification('acc_1', sibling.id))?.status).toBe('canceled');
        expect((await right(sibling.id, sibling.id, T0 + 3)).consumed).toBe(false);
        // The request whose code matched is verified by its code; the sibling only settled.
        expect(await store.verifications.getVerification('acc_1', winner.id)).toMatchObject({
          method: 'code',
          verifiedAt: T0 + 2,
        });
        expect((await store.verifications.getVerification('acc_1', sibling.id))?.method).toBeNull();
      });

      it('reads a request with the other rows of its group, within its account and mode only', async () => {
        const [email, sms] = dualPair();
        const single = verification();
        const test = verification({ mode: 'test' });
        await store.verifications.createVerifications([email, sms]);
        await store.verifications.createVerifications([single]);
        await store.verifications.createVerifications([test]);
        for (const id of [email.id, sms.id])
          expect((await store.verifications.getGroup('acc_1', id)).map((r) => r.id)).toEqual(
            [email.id, sms.id].sort(),
          );
        expect(await store.verifications.getGroup('acc_1', single.id)).toMatchObject([
          { id: single.id, status: 'pending' },
        ]);
        expect(await store.verifications.getGroup('acc_2', email.id)).toEqual([]);
        expect(await store.verifications.getGroup('acc_1', test.id)).toEqual([]);
        expect(await store.verifications.getGroup('acc_1', test.id, 'test')).toHaveLength(1);
        expect(await store.verifications.getGroup('acc_1', email.id, 'test')).toEqual([]);
        expect(await store.verifications.getGroup('acc_1', '00000000-0000-7000-8000-000000000000')).toEqual(
          [],
        );
      });

      it('cancels a pending group whole, and never a settled, expired or used-up one', async () => {
        const [email, sms] = dualPair({ maxAttempts: 2 });
        const verified = verification();
        const expired = verification();
        const usedUp = verification({ maxAttempts: 1 });
        for (const rows of [[email, sms], [verified], [expired], [usedUp]])
          await store.verifications.createVerifications(rows);
        await right(verified.id);
        // A pending row whose last attempt was counted by a statement that did not settle it.
        await wrong(usedUp.id);
        await store.verifications.settleGroup(email.groupId, 'canceled', T0 + 1);
        await store.verifications.settleGroup(verified.groupId, 'canceled', T0 + 1);
        await store.verifications.settleGroup(expired.groupId, 'canceled', expired.expiresAt);
        await store.verifications.settleGroup(usedUp.groupId, 'canceled', T0 + 1);
        const status = async (id: string) => (await store.verifications.getVerification('acc_1', id))?.status;
        expect([await status(email.id), await status(sms.id)]).toEqual(['canceled', 'canceled']);
        expect(await status(verified.id)).toBe('verified');
        expect(await status(expired.id)).toBe('pending');
        expect(await status(usedUp.id)).not.toBe('canceled');
        // Canceled is settled: no attempt counts on either row, and a second cancel changes nothing.
        expect((await right(sms.id, sms.id, T0 + 2)).counted).toBeNull();
        await store.verifications.settleGroup(email.groupId, 'canceled', T0 + 3);
        expect(await store.verifications.getVerification('acc_1', sms.id)).toMatchObject({
          status: 'canceled',
          attempts: 0,
        });
      });

      it('fails a dual pair on its last wrong guess, on both rows', async () => {
        const [email, sms] = dualPair({ maxAttempts: 5 });
        await store.verifications.createVerifications([email, sms]);
        const counted = (await times(60, () => wrong(email.id, T0 + 1))).filter((o) => o.counted);
        expect(counted).toHaveLength(5);
        for (const row of [email, sms])
          expect(await store.verifications.getVerification('acc_1', row.id)).toMatchObject({
            attempts: 5,
            status: 'failed',
          });
      });

      it('refuses attempts once a request expired, and settles it expired', async () => {
        const [email, sms] = dualPair();
        await store.verifications.createVerifications([email, sms]);
        await store.verifications.settleGroup(email.groupId, 'expired', email.expiresAt - 1);
        expect((await store.verifications.getVerification('acc_1', email.id))?.status).toBe('pending');
        expect((await wrong(email.id, email.expiresAt)).counted).toBeNull();
        await store.verifications.settleGroup(email.groupId, 'expired', email.expiresAt);
        for (const row of [email, sms]) {
          expect(await store.verifications.getVerification('acc_1', row.id)).toMatchObject({
            status: 'expired',
            attempts: 0,
          });
        }
      });

      it('settles a group failed only once its attempts are used up', async () => {
        const v = verification({ maxAttempts: 3 });
        await store.verifications.createVerifications([v]);
        await wrong(v.id);
        await store.verifications.settleGroup(v.groupId, 'failed', T0);
        expect((await store.verifications.getVerification('acc_1', v.id))?.status).toBe('pending');
        // The guess that uses the attempts up fails the request in the statement that counts it.
        await wrong(v.id);
        await wrong(v.id);
        expect((await store.verifications.getVerification('acc_1', v.id))?.status).toBe('failed');
        await store.verifications.settleGroup(v.groupId, 'failed', T0);
        expect((await right(v.id)).consumed).toBe(false);
      });
    });

    describe('delivery state', () => {
      it('records a delivery, and cancels a pending request when asked', async () => {
        const sent = verification();
        const failed = verification();
        const verified = verification();
        await store.verifications.createVerifications([sent]);
        await store.verifications.createVerifications([failed]);
        await store.verifications.createVerifications([verified]);
        await right(verified.id);
        await store.verifications.recordDelivery(sent.id, {
          at: T0,
          deliveryStatus: 'sent',
          provider: 'twilio',
          providerMessageId: 'SM1',
        });
        const cancel = {
          at: T0,
          deliveryStatus: 'failed',
          provider: null,
          providerMessageId: null,
          cancel: true,
        } as const;
        await store.verifications.recordDelivery(failed.id, { ...cancel, error: 'down' });
        await store.verifications.recordDelivery(verified.id, cancel);
        expect(await store.verifications.getVerification('acc_1', sent.id)).toMatchObject({
          status: 'pending',
          deliveryStatus: 'sent',
          provider: 'twilio',
          providerMessageId: 'SM1',
        });
        expect(await store.verifications.getVerification('acc_1', failed.id)).toMatchObject({
          status: 'canceled',
          deliveryStatus: 'failed',
        });
        expect((await store.verifications.getVerification('acc_1', verified.id))?.status).toBe('verified');
      });

      it('keeps when the delivery state last moved, by either way it is recorded', async () => {
        const v = verification({ deliveryStatus: 'queued' });
        await store.verifications.createVerifications([v]);
        expect((await store.verifications.getVerification('acc_1', v.id))?.deliveryUpdatedAt).toBeNull();
        await store.verifications.recordDelivery(v.id, {
          at: T0 + 5,
          deliveryStatus: 'sent',
          provider: 'vonage',
          providerMessageId: 'upd-1',
        });
        expect((await store.verifications.getVerification('acc_1', v.id))?.deliveryUpdatedAt).toBe(T0 + 5);
        await store.verifications.recordDeliveryByProviderId('vonage', 'upd-1', 'delivered', null, T0 + 9);
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          deliveryStatus: 'delivered',
          deliveryUpdatedAt: T0 + 9,
        });
      });

      it('updates a delivery by the provider message id', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        await store.verifications.recordDelivery(v.id, {
          at: T0,
          deliveryStatus: 'sent',
          provider: 'vonage',
          providerMessageId: 'm-1',
        });
        expect(
          await store.verifications.recordDeliveryByProviderId('vonage', 'm-1', 'delivered', null, T0),
        ).toBe(true);
        expect((await store.verifications.getVerification('acc_1', v.id))?.deliveryStatus).toBe('delivered');
        expect(await store.verifications.recordDeliveryByProviderId('twilio', 'm-1', 'failed', 'x', T0)).toBe(
          false,
        );
        expect(
          await store.verifications.recordDeliveryByProviderId('vonage', 'm-2', 'failed', null, T0),
        ).toBe(false);
      });
    });

    // Store.attempt reads, compares, counts and consumes in one call: the only way to verify.
    describe('attempt', () => {
      const attempt: Store['verifications']['attempt'] = (...args) => store.verifications.attempt(...args);

      it('counts the attempt before the comparison and consumes the picked row once', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        let seen = -1;
        // A guess without its hashes: compared by pick, on every store.
        const first = await attempt('acc_1', v.id, T0, {
          pick: (rows) => {
            seen = rows.length;
            return v.id;
          },
        });
        expect(seen).toBe(1);
        expect(first).toMatchObject({
          winnerId: v.id,
          consumed: true,
          counted: { attempts: 1, maxAttempts: 5 },
        });
        expect(first.request?.status).toBe('pending');
        const again = await attempt('acc_1', v.id, T0, guessOf(v.id));
        expect(again).toMatchObject({ counted: null, consumed: false });
        expect((await store.verifications.getVerification('acc_1', v.id))?.status).toBe('verified');
      });

      it('stops counting once the attempts are used up', async () => {
        const v = verification({ maxAttempts: 2 });
        await store.verifications.createVerifications([v]);
        expect((await attempt('acc_1', v.id, T0, none)).counted?.attempts).toBe(1);
        expect((await attempt('acc_1', v.id, T0, none)).counted?.attempts).toBe(2);
        const third = await attempt('acc_1', v.id, T0, guessOf(v.id));
        expect(third).toMatchObject({ counted: null, winnerId: null, consumed: false });
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          attempts: 2,
          status: 'failed',
        });
      });

      it('answers no request for an unknown id or another account', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        expect((await attempt('acc_2', v.id, T0, none)).request).toBeNull();
        expect((await attempt('acc_1', 'nope', T0, none)).request).toBeNull();
      });

      it('counts nothing for an expired request', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        expect(await attempt('acc_1', v.id, T0 + 11 * MINUTE, guessOf(v.id))).toMatchObject({
          counted: null,
          consumed: false,
        });
      });

      it('matches a code under any secret the guess gives a hash for (a rotation keeps the old ones)', async () => {
        const zero = Buffer.alloc(32);
        for (const older of [[zero], [zero, zero]]) {
          const v = verification();
          await store.verifications.createVerifications([v]);
          const underOld: CodeGuess = {
            pick: (rows) => (rows.some((r) => r.id === v.id) ? v.id : null),
            hashesFor: (id) => [...older, fixtureCodeHash(id)],
          };
          expect(await attempt('acc_1', v.id, T0, underOld)).toMatchObject({
            winnerId: v.id,
            consumed: true,
          });
        }
      });

      it('finds no request of a channel the asking key is not enabled for, and counts nothing', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        for (const guess of [none, guessOf(v.id)])
          expect(await attempt('acc_1', v.id, T0, guess, 'live', ['SMS', 'WHATSAPP'])).toEqual({
            request: null,
            counted: null,
            winnerId: null,
            consumed: false,
          });
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          status: 'pending',
          attempts: 0,
        });
        expect(await attempt('acc_1', v.id, T0, guessOf(v.id), 'live', ['EMAIL'])).toMatchObject({
          consumed: true,
          counted: { attempts: 1 },
        });
      });

      it('counts nothing on a request still pending with its attempts used up', async () => {
        const v = verification({ maxAttempts: 0 });
        await store.verifications.createVerifications([v]);
        for (const guess of [none, guessOf(v.id)])
          expect(await attempt('acc_1', v.id, T0, guess)).toMatchObject({ counted: null, consumed: false });
        expect(await store.verifications.getVerification('acc_1', v.id)).toMatchObject({
          status: 'pending',
          attempts: 0,
        });
      });

      it("spends no attempt of a pair's sibling through a canceled request", async () => {
        const [email, sms] = dualPair();
        await store.verifications.createVerifications([email, sms]);
        // A new send to the email address supersedes (cancels) the pair's email request.
        await store.verifications.createVerifications([verification({ destination: email.destination })]);
        expect(await attempt('acc_1', email.id, T0, guessOf(sms.id))).toMatchObject({
          counted: null,
          consumed: false,
        });
        const both = await attempt('acc_1', sms.id, T0, {
          pick: (rows) => {
            expect(rows.map((r) => r.id)).toEqual([sms.id]);
            return null;
          },
        });
        expect(both.counted?.attempts).toBe(1);
        // The same with the guess's hashes (a store may then decide in one statement), and a right one.
        expect((await attempt('acc_1', sms.id, T0, none)).counted?.attempts).toBe(2);
        expect(await attempt('acc_1', sms.id, T0, guessOf(sms.id))).toMatchObject({
          winnerId: sms.id,
          consumed: true,
          counted: { attempts: 3, rows: [{ id: sms.id, channel: 'SMS' }] },
        });
      });

      it('counts 60 parallel wrong guesses exactly max_attempts times, and one right guess wins once', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        const wrong = await times(60, () => attempt('acc_1', v.id, T0, none));
        expect(wrong.filter((o) => o.counted !== null)).toHaveLength(5);
        const w = verification();
        await store.verifications.createVerifications([w]);
        const right = await times(30, () => attempt('acc_1', w.id, T0, guessOf(w.id)));
        expect(right.filter((o) => o.consumed)).toHaveLength(1);
      });

      // Security review, item 5: on PostgreSQL the guesses counted while the winner's consume was in
      // flight used up the attempts, and some answers were 429 on a verified request.
      it('counts no attempt for 50 parallel right codes once one of them verified', async () => {
        const v = verification();
        await store.verifications.createVerifications([v]);
        const right = await times(50, () => attempt('acc_1', v.id, T0, guessOf(v.id)));
        expect(right.filter((o) => o.consumed)).toHaveLength(1);
        expect(right.filter((o) => o.counted !== null)).toHaveLength(1);
        const after = await store.verifications.getVerification('acc_1', v.id);
        expect(after).toMatchObject({ status: 'verified', attempts: 1 });
      });

      it('counts each guess of one moment on its own: other requests, the same one twice, both of a pair', async () => {
        const [a, b] = [verification(), verification()];
        const [email, sms] = dualPair({ maxAttempts: 5 });
        const expired = verification({ expiresAt: T0 - 1 });
        for (const rows of [[a], [b], [email, sms], [expired]])
          await store.verifications.createVerifications(rows);
        // Started together: a store that batches the attempts of one turn gets them in one batch.
        const outcomes = await Promise.all([
          attempt('acc_1', a.id, T0, none),
          attempt('acc_1', b.id, T0, guessOf(b.id)),
          attempt('acc_1', a.id, T0, none),
          attempt('acc_1', email.id, T0, none),
          attempt('acc_1', sms.id, T0, none),
          attempt('acc_2', a.id, T0, none),
          attempt('acc_1', 'no-such-id', T0, none),
          attempt('acc_1', expired.id, T0, none),
        ]);
        expect(
          outcomes
            .map((o) => o.counted?.attempts ?? null)
            .slice(0, 5)
            .sort(),
        ).toEqual([1, 1, 1, 2, 2]);
        expect(outcomes[1]).toMatchObject({ winnerId: b.id, consumed: true });
        expect(outcomes.slice(5).map((o) => [o.request?.id ?? null, o.counted])).toEqual([
          [null, null],
          [null, null],
          [expired.id, null],
        ]);
        expect((await store.verifications.getVerification('acc_1', a.id))?.attempts).toBe(2);
        expect((await store.verifications.getVerification('acc_1', b.id))?.status).toBe('verified');
        for (const row of [email, sms])
          expect((await store.verifications.getVerification('acc_1', row.id))?.attempts).toBe(2);
        expect((await store.verifications.getVerification('acc_1', expired.id))?.attempts).toBe(0);
      });

      it('consumes each code of one moment once: other groups, the same code twice, both of a pair', async () => {
        const [a, b, c, done] = [verification(), verification(), verification(), verification()];
        const [email, sms] = dualPair();
        for (const rows of [[a], [b], [c], [done], [email, sms]])
          await store.verifications.createVerifications(rows);
        expect((await right(done.id)).consumed).toBe(true);
        // Started together: a store that batches the attempts of one turn gets them in one batch.
        const outcomes = await Promise.all([
          right(a.id),
          right(email.id),
          right(b.id),
          right(a.id),
          right(sms.id),
          right(done.id),
          right(b.id, a.id),
          right(c.id, 'no-such-id'),
          right(c.id),
        ]);
        expect(outcomes.map((o) => o.consumed)).toEqual([
          true,
          true,
          true,
          false,
          false,
          false,
          false,
          false,
          true,
        ]);
        const status = async (v: { id: string }) =>
          (await store.verifications.getVerification('acc_1', v.id))?.status;
        for (const v of [a, b, c, done]) expect(await status(v)).toBe('verified');
        expect([await status(email), await status(sms)]).toEqual(['verified', 'canceled']);
      });
    });

    it("lists a verified pair's messages as the resource shows them: how and when on the verified one only", async () => {
      const [email, sms] = dualPair({ outbox: outboxContent() });
      await store.verifications.createVerifications([email, sms]);
      await right(sms.id, email.id, T0 + 7);
      const entries = await store.verifications.listOutbox({ accountId: 'acc_1', limit: 1000 });
      const of = (id: string) => entries.find((e) => e.verificationId === id);
      expect(of(email.id)).toMatchObject({ status: 'verified', verifiedAt: T0 + 7, method: 'code' });
      expect(of(sms.id)).toMatchObject({ status: 'canceled', verifiedAt: null, method: null });
    });

    describe('outbox', () => {
      it('lists messages newest first, filtered by destination or account', async () => {
        const a1 = verification({ destination: 'a@example.com' });
        const b = verification({ destination: '+14155550100', channel: 'SMS', country: 'US' });
        // Sent to the address as typed, counted under its mailbox.
        const a2 = verification({
          destination: 'a@example.com',
          address: 'A@Example.com',
          accountId: 'acc_2',
        });
        const silent = verification({ destination: 'a@example.com', deliveryStatus: 'sent' });
        for (const v of [a1, b, a2, silent]) await store.verifications.createVerifications([v]);
        const content = new Map([a1, b, a2].map((v) => [v.id, outboxContent()]));
        for (const [id, text] of content) await store.verifications.addOutboxMessage(id, text, '123456');
        const entry = (v: typeof a1) => ({
          verificationId: v.id,
          groupId: v.id,
          siblingRequestId: null,
          accountId: v.accountId,
          // a1 was superseded by `silent`.
          status: v === a1 ? 'canceled' : 'pending',
          verifiedAt: null,
          method: null,
          channel: v.channel,
          to: v.destination,
          sentTo: v.address ?? v.destination,
          content: content.get(v.id),
          // a1 was superseded by `silent` before its message was kept: no code in clear.
          code: v === a1 ? null : '123456',
          mode: 'live',
          createdAt: v.createdAt,
        });
        const ids = (entries: Array<{ verificationId: string }>) => entries.map((e) => e.verificationId);
        // Only requests the outbox delivered are listed; newest first, also within a millisecond.
        expect(ids(await store.verifications.listOutbox({ limit: 10 }))).toEqual([a2.id, b.id, a1.id]);
        expect(await store.verifications.listOutbox({ to: 'a@example.com', limit: 10 })).toEqual([
          entry(a2),
          entry(a1),
        ]);
        expect(ids(await store.verifications.listOutbox({ accountId: 'acc_1', limit: 10 }))).toEqual([
          b.id,
          a1.id,
        ]);
        expect(
          await store.verifications.listOutbox({ accountId: 'acc_1', to: 'a@example.com', limit: 10 }),
        ).toEqual([entry(a1)]);
        expect(await store.verifications.listOutbox({ limit: 1 })).toEqual([entry(a2)]);
        expect(await store.verifications.listOutbox({ to: '+14155550100', limit: 5 })).toEqual([entry(b)]);
        expect(await store.verifications.listOutbox({ to: 'nobody@example.com', limit: 5 })).toEqual([]);
        // A page starts after the request id of the previous page's last message.
        expect(ids(await store.verifications.listOutbox({ before: a2.id, limit: 1 }))).toEqual([b.id]);
        expect(ids(await store.verifications.listOutbox({ before: b.id, limit: 10 }))).toEqual([a1.id]);
        expect(await store.verifications.listOutbox({ before: a1.id, limit: 10 })).toEqual([]);
        expect(
          await store.verifications.listOutbox({ to: 'a@example.com', before: a2.id, limit: 10 }),
        ).toEqual([entry(a1)]);
        // One mode or the other (all of these are live).
        expect(ids(await store.verifications.listOutbox({ mode: 'live', limit: 10 }))).toEqual([
          a2.id,
          b.id,
          a1.id,
        ]);
        expect(await store.verifications.listOutbox({ mode: 'test', limit: 10 })).toEqual([]);
      });

      it("finds one request's message by its id, and names the other request of a dual send", async () => {
        const [email, sms] = dualPair({ outbox: outboxContent(), outboxCode: '222222' });
        const single = verification({ outbox: outboxContent(), outboxCode: '333333', mode: 'test' });
        for (const v of [email, sms, single]) await store.verifications.createVerifications([v]);
        const find = async (filter: Partial<Parameters<typeof store.verifications.listOutbox>[0]>) =>
          (await store.verifications.listOutbox({ limit: 10, ...filter })).map((e) => ({
            id: e.verificationId,
            groupId: e.groupId,
            sibling: e.siblingRequestId,
          }));
        // Each half of the pair names the other; a single send names none.
        expect(await find({ requestId: email.id })).toEqual([
          { id: email.id, groupId: email.id, sibling: sms.id },
        ]);
        expect(await find({ requestId: sms.id })).toEqual([
          { id: sms.id, groupId: email.id, sibling: email.id },
        ]);
        expect(await find({ requestId: single.id })).toEqual([
          { id: single.id, groupId: single.id, sibling: null },
        ]);
        expect(await find({})).toEqual([
          { id: single.id, groupId: single.id, sibling: null },
          { id: sms.id, groupId: email.id, sibling: email.id },
          { id: email.id, groupId: email.id, sibling: sms.id },
        ]);
        // The other filters still hold: another account, another mode, another destination,
        // or a page past it find nothing; an unknown id (or no id at all) finds nothing.
        expect(
          await find({ requestId: email.id, accountId: 'acc_1', mode: 'live', to: email.destination }),
        ).toEqual([{ id: email.id, groupId: email.id, sibling: sms.id }]);
        expect(await find({ requestId: email.id, accountId: 'acc_2' })).toEqual([]);
        expect(await find({ requestId: single.id, mode: 'live' })).toEqual([]);
        expect(await find({ requestId: email.id, to: sms.destination })).toEqual([]);
        expect(await find({ requestId: email.id, before: email.id })).toEqual([]);
        expect(await find({ requestId: 'not-a-request' })).toEqual([]);
        // A request without an outbox message is not listed, even by its id.
        const sent = verification({ deliveryStatus: 'sent' });
        await store.verifications.createVerifications([sent]);
        expect(await find({ requestId: sent.id })).toEqual([]);
      });

      it('lists a message written with its request, its code in clear only while the request is pending', async () => {
        const v = verification({
          destination: 'with-row@example.com',
          outbox: outboxContent(),
          outboxCode: '654321',
          mode: 'test',
        });
        await store.verifications.createVerifications([v]);
        const listed = {
          verificationId: v.id,
          groupId: v.id,
          siblingRequestId: null,
          accountId: v.accountId,
          status: 'pending',
          verifiedAt: null,
          method: null,
          channel: v.channel,
          to: v.destination,
          sentTo: v.destination,
          content: v.outbox,
          code: '654321',
          mode: 'test',
          createdAt: v.createdAt,
        };
        expect(await store.verifications.listOutbox({ to: 'with-row@example.com', limit: 5 })).toEqual([
          listed,
        ]);
        expect(
          await store.verifications.listOutbox({ to: 'with-row@example.com', mode: 'test', limit: 5 }),
        ).toEqual([listed]);
        expect(
          await store.verifications.listOutbox({ to: 'with-row@example.com', mode: 'live', limit: 5 }),
        ).toEqual([]);
        await store.verifications.attempt('acc_1', v.id, T0, guessOf(v.id), 'test');
        expect(await store.verifications.listOutbox({ to: 'with-row@example.com', limit: 5 })).toEqual([
          { ...listed, status: 'verified', verifiedAt: T0, method: 'code', code: null },
        ]);
      });

      it('erases the code of every way a request leaves pending', async () => {
        const made = Array.from({ length: 6 }, () =>
          verification({ outbox: outboxContent(), outboxCode: '111111' }),
        );
        const [verified, failed, expired, swept, superseded, undelivered] = made as [
          ReturnType<typeof verification>,
          ...ReturnType<typeof verification>[],
        ];
        for (const v of made) await store.verifications.createVerifications([v]);
        await right(verified.id);
        for (let i = 0; i < 5; i++) await wrong(failed!.id);
        await store.verifications.settleGroup(expired!.groupId, 'expired', expired!.expiresAt);
        await store.verifications.createVerifications([
          verification({ destination: superseded!.destination }),
        ]);
        await store.verifications.recordDelivery(undelivered!.id, {
          at: T0,
          deliveryStatus: 'failed',
          provider: null,
          providerMessageId: null,
          cancel: true,
        });
        await store.verifications.sweep(swept!.expiresAt, 365 * DAY, 100);
        const codes = new Map(
          (await store.verifications.listOutbox({ limit: 20 })).map((e) => [e.verificationId, e.code]),
        );
        for (const v of made) expect(codes.get(v.id)).toBeNull();
      });
    });

    describe('retention sweep', () => {
      it('expires overdue pending requests and deletes old rows in batches', async () => {
        const now = T0 + 40 * DAY;
        const retention = 30 * DAY;
        const old = Array.from({ length: 5 }, () => verification({ createdAt: T0, expiresAt: T0 + MINUTE }));
        const overdue = Array.from({ length: 3 }, () =>
          verification({ createdAt: now - 20 * MINUTE, expiresAt: now - 10 * MINUTE }),
        );
        const live = verification({ createdAt: now - MINUTE, expiresAt: now + 9 * MINUTE });
        for (const row of [...old, ...overdue, live]) await store.verifications.createVerifications([row]);
        // Old rows were settled long ago; only the recent overdue ones wait for the sweeper.
        for (const row of old) await store.verifications.settleGroup(row.groupId, 'expired', T0 + MINUTE);
        await store.verifications.addOutboxMessage(old[0]!.id, outboxContent(), '123456');
        await store.verifications.addOutboxMessage(live.id, outboxContent(), '123456');

        const first = await store.verifications.sweep(now, retention, 2);
        expect(first.expired).toBe(2);
        expect(first.deleted).toBeGreaterThanOrEqual(2);
        let total = { ...first };
        for (let i = 0; i < 10; i++) {
          const r = await store.verifications.sweep(now, retention, 2);
          total = { expired: total.expired + r.expired, deleted: total.deleted + r.deleted };
          if (r.expired < 2 && r.deleted < 2) break;
        }
        expect(total).toEqual({ expired: 3, deleted: 5 });
        for (const row of old) expect(await store.verifications.getVerification('acc_1', row.id)).toBeNull();
        for (const row of overdue)
          expect((await store.verifications.getVerification('acc_1', row.id))?.status).toBe('expired');
        expect((await store.verifications.getVerification('acc_1', live.id))?.status).toBe('pending');
        expect((await store.verifications.listOutbox({ limit: 10 })).map((e) => e.verificationId)).toEqual([
          live.id,
        ]);
        expect(await store.verifications.sweep(now, retention, 2)).toEqual({ expired: 0, deleted: 0 });
      });
    });
  });
}
