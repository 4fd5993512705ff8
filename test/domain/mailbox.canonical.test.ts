import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

/**
 * A block holds for the person, not the string: `jane+1@`, `j.a.n.e@gmail.com`, upper case and
 * the punycode form of a domain all reach the mailbox of `jane@…`, and passed its block (20 of 20
 * sends to `jane+N@` in a second, risk 0). Contacts, blocks, risk velocity and the destination
 * limits key the canonical mailbox; the message goes to the address as given.
 */
function canonicalSuite(name: string, env: () => Record<string, string>) {
  describe(`canonical mailbox: ${name}`, () => {
    let svc: TestService;
    let key: string;
    let accountId: string;
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 10, 0, 0));
    const admin = (url: string) => svc.get(url, ADMIN_TOKEN);
    const send = (email: string) => svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
    const contactsOf = async (q: string) =>
      (await admin(`/v1/admin/contacts?accountId=${accountId}&q=${encodeURIComponent(q)}`)).body
        .data as Array<{
        id: string;
        destination: string;
        counts: { sends: number };
      }>;
    const block = async (address: string) => {
      const [contact] = await contactsOf(address);
      if (!contact) throw new Error(`no contact for ${address}`);
      const res = await svc.post(`/v1/admin/contacts/${contact.id}/block`, { reason: 'abuse' }, ADMIN_TOKEN);
      expect(res.body.data.blocked).toBe(true);
      return contact;
    };
    const outboxCount = async () => (await admin('/v1/admin/outbox?limit=500')).body.data.length as number;

    beforeAll(async () => {
      // No cooldown and a wide hourly cap: what refuses the variants here is the block alone (and
      // a budget of 2 wrong codes, for the test of that budget).
      svc = await startTestService(
        {
          RESEND_COOLDOWN_SECONDS: '0',
          SENDS_PER_DESTINATION_PER_HOUR: '1000',
          FAILURES_PER_DESTINATION_PER_DAY: '2',
          ...env(),
        },
        { clock },
      );
      key = await svc.createKey();
      accountId = (await admin('/v1/admin/accounts')).body.data[0].id;
    });
    afterAll(() => svc?.close());

    it('a block of jane@gmail.com refuses jane+N@, J.A.N.E@, upper case and googlemail.com', async () => {
      expect((await send('jane@gmail.com')).status).toBe(200);
      await block('jane@gmail.com');
      const before = await outboxCount();
      const variants = [
        ...Array.from({ length: 20 }, (_, i) => `jane+${i + 1}@gmail.com`),
        'J.A.N.E@gmail.com',
        'JANE@GMAIL.COM',
        'j.ane+x@googlemail.com',
      ];
      for (const email of variants) {
        const res = await send(email);
        expect(res.status, email).toBe(403);
        expect(res.body.error.code, email).toBe('CONTACT_BLOCKED');
      }
      expect(await outboxCount()).toBe(before);
      // Every refusal was of the one contact: no new contact was made for a variant.
      expect((await contactsOf('jane')).map((c) => c.destination)).toEqual(['jane@gmail.com']);
    });

    it('a block of jane@exämple.com refuses its punycode form, upper case and a +tag', async () => {
      expect((await send('jane@exämple.com')).status).toBe(200);
      const contact = await block('jane@exämple.com');
      expect(contact.destination).toBe('jane@xn--exmple-cua.com');
      for (const email of ['jane@xn--exmple-cua.com', 'JANE@EXÄMPLE.COM', 'Jane+2@XN--EXMPLE-CUA.COM']) {
        const res = await send(email);
        expect(res.status, email).toBe(403);
        expect(res.body.error.code, email).toBe('CONTACT_BLOCKED');
      }
    });

    it("a block holds across Fastmail's subdomain addresses and Yahoo's disposable addresses", async () => {
      expect((await send('kim@fastmail.com')).status).toBe(200);
      await block('kim@fastmail.com');
      expect((await send('lee-shop@yahoo.com')).status).toBe(200);
      const yahoo = await block('lee-shop@yahoo.com');
      expect(yahoo.destination).toBe('lee-@yahoo.com');
      for (const email of [
        'shop@kim.fastmail.com',
        'News@KIM.FastMail.com',
        'kim+x@fastmail.com',
        'lee-news@yahoo.com',
      ]) {
        const res = await send(email);
        expect(res.status, email).toBe(403);
        expect(res.body.error.code, email).toBe('CONTACT_BLOCKED');
      }
      // Other names, other providers' hyphens and Yahoo's own account are other mailboxes.
      for (const email of ['shop@kimberly.fastmail.com', 'lee-shop@example.com', 'lee@yahoo.com'])
        expect((await send(email)).status, email).toBe(200);
      // The message goes to the address as given.
      expect((await send('deals@ann.fastmail.fm')).status).toBe(200);
      expect((await svc.lastMessage('ann@fastmail.fm')).to).toBe('deals@ann.fastmail.fm');
    });

    it('risk velocity counts the variants of one mailbox together', async () => {
      const scores: number[] = [];
      let last: { signals: Array<{ name: string }> } | undefined;
      for (let i = 1; i <= 5; i++) {
        const res = await send(`bob+${i}@example.net`);
        expect(res.status).toBe(200);
        scores.push(res.body.data.risk.score);
        last = res.body.data.risk;
      }
      // The 4th send sees 3 sends to the mailbox in the hour, the 5th 4.
      expect(scores.slice(0, 3)).toEqual([0, 0, 0]);
      expect(scores[3]).toBeGreaterThan(0);
      expect(last?.signals.map((s) => s.name)).toContain('destination_velocity');
    });

    it('delivers to the address exactly as given, and the outbox finds it by any variant', async () => {
      const given = 'Dora.Smith+News@Example.ORG';
      expect((await send(given)).status).toBe(200);
      for (const lookup of [given, 'dora.smith@example.org', 'DORA.SMITH+other@example.org']) {
        const [message] = (await admin(`/v1/admin/outbox?to=${encodeURIComponent(lookup)}&limit=1`)).body
          .data;
        expect(message?.to, lookup).toBe(given);
      }
      expect((await send('erin@exämple.com')).status).toBe(200);
      expect((await svc.lastMessage('erin@xn--exmple-cua.com')).to).toBe('erin@exämple.com');
    });

    it("the daily budget of wrong codes is the mailbox's", async () => {
      // Two wrong codes on two forms of one address use up a budget of 2.
      for (const email of ['hal+a@example.com', 'HAL+b@example.com']) {
        const sent = await send(email);
        expect(sent.status, email).toBe(200);
        const code = await svc.lastCode(email);
        const wrong = code === '000000' ? '111111' : '000000';
        const res = await svc.post(
          '/v1/contact/verify-code',
          { requestId: sent.body.data.requestId, code: wrong },
          key,
        );
        expect(res.body.data.verified).toBe(false);
      }
      const refused = await send('hal@example.com');
      expect(refused.status).toBe(429);
      expect(refused.body.error.details[0].message).toMatch(/wrong codes/);
    });

    it('one live code per mailbox: a send to a variant cancels the pending code of another', async () => {
      const first = (await send('gus+1@example.com')).body.data;
      const code = await svc.lastCode('gus+1@example.com');
      expect((await send('Gus+2@example.com')).status).toBe(200);
      const late = await svc.post('/v1/contact/verify-code', { requestId: first.requestId, code }, key);
      expect(late.body.data).toMatchObject({ verified: false, status: 'canceled' });
    });

    it('the profile is one contact per mailbox and lists the addresses seen', async () => {
      const given = [
        'carol@gmail.com',
        'C.A.R.O.L@gmail.com',
        'carol+shop@googlemail.com',
        'carol@gmail.com',
      ];
      for (const email of given) {
        expect((await send(email)).status).toBe(200);
        clock.advance(1000);
      }
      const found = await contactsOf('c.a.r.o.l@gmail.com');
      expect(found.map((c) => c.destination)).toEqual(['carol@gmail.com']);
      expect(found[0]?.counts.sends).toBe(4);
      const profile = (await admin(`/v1/admin/contacts/${found[0]?.id}`)).body.data;
      expect([...profile.addressesSeen].sort()).toEqual(
        ['C.A.R.O.L@gmail.com', 'carol+shop@googlemail.com', 'carol@gmail.com'].sort(),
      );
      expect(profile.history.map((h: { address: string }) => h.address)).toEqual([...given].reverse());
    });
  });

  describe(`canonical mailbox, destination limits: ${name}`, () => {
    let svc: TestService;
    let key: string;
    const send = (email: string) => svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);

    beforeAll(async () => {
      // The contract's resend cooldown (30 s) and hourly cap (5).
      svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '30', ...env() });
      key = await svc.createKey();
    });
    afterAll(() => svc?.close());

    it('the resend cooldown holds across the variants of one mailbox', async () => {
      expect((await send('fay@gmail.com')).status).toBe(200);
      for (const email of ['fay+1@gmail.com', 'F.A.Y@gmail.com', 'FAY@googlemail.com']) {
        const res = await send(email);
        expect(res.status, email).toBe(429);
        expect(res.body.error.code, email).toBe('RATE_LIMITED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Another mailbox is not held by it.
      expect((await send('fay.other@gmail.com')).status).toBe(200);
    });
  });
}

canonicalSuite('SQLite', () => ({}));

describe.runIf(hasPostgres)('on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  canonicalSuite('PostgreSQL', () => ({ DATABASE_URL: db.url }));
});
