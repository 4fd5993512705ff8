import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { Contacts, normaliseSearch } from '../../src/domain/contacts.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { T0, verification } from '../store/fixtures.js';

describe('contacts as operators see them', () => {
  it('reads what an operator types as the destination it is stored as', () => {
    expect(normaliseSearch('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
    expect(normaliseSearch('+1 (415) 555-0100')).toBe('+14155550100');
    expect(normaliseSearch('1 415 555')).toBe('+1415555');
    expect(normaliseSearch('ACME')).toBe('acme');
  });

  describe('over a store', () => {
    let store: SqliteStore;
    let clock: ManualClock;
    let contacts: Contacts;
    beforeEach(async () => {
      store = new SqliteStore(':memory:');
      clock = new ManualClock(T0 + 60_000);
      contacts = new Contacts(store.readModel, clock);
      await store.accounts.createAccount({ id: 'acc_1', name: 'One', settings: {}, createdAt: T0 });
      await store.verifications.createVerifications([verification({ destination: 'ann@example.com' })]);
      await store.verifications.createVerifications([
        verification({ destination: '+14155550100', channel: 'SMS', createdAt: T0 + 1 }),
      ]);
    });
    afterEach(() => store.close());

    it('finds a contact by what an operator types, shows its profile, blocks and unblocks it', async () => {
      const [found] = await contacts.search('acc_1', 'ANN@', 10);
      expect(found?.destination).toBe('ann@example.com');
      expect((await contacts.search('acc_1', '+1 415', 10)).map((c) => c.destination)).toEqual([
        '+14155550100',
      ]);

      const profile = await contacts.profile(found!.id);
      expect(profile?.contact.id).toBe(found!.id);
      expect(profile?.history.map((h) => h.address)).toEqual(['ann@example.com']);
      expect(await contacts.profile('no-such-contact')).toBeNull();

      const blocked = await contacts.block(found!.id, 'fraud');
      expect(blocked?.blocked).toEqual({ at: T0 + 60_000, reason: 'fraud' });
      expect((await contacts.unblock(found!.id))?.blocked).toBeNull();
      expect(await contacts.block('no-such-contact', 'x')).toBeNull();
    });

    it('lists an account’s contacts most recently seen first, a page after a cursor', async () => {
      const first = await contacts.list({ accountId: 'acc_1', limit: 1 });
      expect(first.map((c) => c.destination)).toEqual(['+14155550100']);
      const next = await contacts.list({
        accountId: 'acc_1',
        limit: 10,
        after: { lastSeen: first[0]!.lastSeen, id: first[0]!.id },
      });
      expect(next.map((c) => c.destination)).toEqual(['ann@example.com']);
    });
  });
});
