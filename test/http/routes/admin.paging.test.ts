import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

// The admin API's paged lists: GET /v1/admin/contacts without q (an account's contacts, most
// recently seen first) and GET /v1/admin/outbox, a page of `limit` at a time, each page after the
// `nextCursor` of the one before; outbox items carry their request's status.

describe('admin API: contacts and outbox a page at a time', () => {
  let svc: TestService;
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
  let accountId: string;
  let live: string;
  let test: string;

  const admin = async (url: string) => {
    const res = await svc.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const send = async (key: string, email: string) => {
    const res = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    clock.advance(60_000);
    return res.body.data.requestId as string;
  };
  /** Every page of `url` (which has a query already), following nextCursor. */
  const allPages = async (url: string) => {
    const pages: Array<Array<Record<string, unknown>>> = [];
    let cursor: string | null = null;
    do {
      const res = await admin(cursor ? `${url}&cursor=${cursor}` : url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages.push(res.body.data);
      cursor = res.body.nextCursor;
    } while (cursor && pages.length < 20);
    return pages;
  };

  beforeAll(async () => {
    svc = await startTestService({}, { clock });
    const account = await svc.post('/v1/admin/accounts', { name: 'Paging' }, ADMIN_TOKEN);
    accountId = account.body.data.id;
    live = await svc.createKey({ accountId });
    test = await svc.createKey({ accountId, test: true });
    for (const name of ['ann', 'bob', 'cat', 'dan', 'eve']) await send(live, `${name}@example.com`);
    await send(test, 'tess@example.com');
    // Seen again: bob moves to the top of the live contacts.
    await send(live, 'bob@example.com');
  });
  afterAll(() => svc.close());

  it('lists contacts without a search, most recently seen first, two to a page', async () => {
    const pages = await allPages(`/v1/admin/contacts?accountId=${accountId}&mode=live&limit=2`);
    expect(pages.map((p) => p.map((c) => c.destination))).toEqual([
      ['bob@example.com', 'eve@example.com'],
      ['dan@example.com', 'cat@example.com'],
      ['ann@example.com'],
    ]);
    expect(pages[0]?.[0]).toMatchObject({ mode: 'live', counts: { sends: 2 } });
    // A page that ends exactly at the last contact says there is none after it.
    const exact = await admin(`/v1/admin/contacts?accountId=${accountId}&mode=live&limit=5`);
    expect(exact.body.data).toHaveLength(5);
    expect(exact.body.nextCursor).toBeNull();
  });

  it('keeps a mode, or lists both', async () => {
    const testOnly = await admin(`/v1/admin/contacts?accountId=${accountId}&mode=test`);
    expect(testOnly.body.data.map((c: { destination: string }) => c.destination)).toEqual([
      'tess@example.com',
    ]);
    const both = await admin(`/v1/admin/contacts?accountId=${accountId}`);
    expect(both.body.data.map((c: { destination: string }) => c.destination)).toEqual([
      'bob@example.com',
      'tess@example.com',
      'eve@example.com',
      'dan@example.com',
      'cat@example.com',
      'ann@example.com',
    ]);
    expect(both.body.nextCursor).toBeNull();
  });

  it('a search has one page, in destination order, and honours the mode', async () => {
    const found = await admin(`/v1/admin/contacts?accountId=${accountId}&q=${encodeURIComponent('t')}`);
    expect(found.body).toEqual({
      data: [expect.objectContaining({ destination: 'tess@example.com' })],
      nextCursor: null,
    });
    expect((await admin(`/v1/admin/contacts?accountId=${accountId}&q=t&mode=live`)).body.data).toEqual([]);
    const first = await admin(`/v1/admin/contacts?accountId=${accountId}&limit=1`);
    const paged = await admin(
      `/v1/admin/contacts?accountId=${accountId}&q=a&cursor=${first.body.nextCursor}`,
    );
    expect(paged.status).toBe(400);
    expect(paged.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
  });

  it('lists the outbox newest first a page at a time, each item with its request id and status', async () => {
    const pages = await allPages(`/v1/admin/outbox?accountId=${accountId}&limit=3`);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const items = pages.flat();
    expect(items.map((m) => m.to)).toEqual([
      'bob@example.com',
      'tess@example.com',
      'eve@example.com',
      'dan@example.com',
      'cat@example.com',
      'bob@example.com',
      'ann@example.com',
    ]);
    // bob's first request was canceled by the second send to him.
    expect(items.map((m) => m.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
      'pending',
      'canceled',
      'pending',
    ]);
    for (const m of items) expect(m.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // A verified request says so on its message.
    const [newest] = items;
    const code = await svc.lastCode('bob@example.com');
    const verified = await svc.post('/v1/contact/verify-code', { requestId: newest?.requestId, code }, live);
    expect(verified.body.data.verified).toBe(true);
    const again = await admin(`/v1/admin/outbox?accountId=${accountId}&limit=1`);
    expect(again.body.data[0]).toMatchObject({ requestId: newest?.requestId, status: 'verified' });
    // One mode: the test key's message alone, or every live one.
    const testOnly = await admin(`/v1/admin/outbox?accountId=${accountId}&mode=test`);
    expect(testOnly.body.data.map((m: { to: string }) => m.to)).toEqual(['tess@example.com']);
    const liveOnly = await admin(`/v1/admin/outbox?accountId=${accountId}&mode=live`);
    expect(liveOnly.body.data).toHaveLength(6);
    expect((await admin('/v1/admin/outbox?mode=both')).status).toBe(400);
    // Filtered by destination, paged the same way.
    const bob = await allPages('/v1/admin/outbox?to=bob@example.com&limit=1');
    expect(bob.map((p) => p.map((m) => m.status))).toEqual([['verified'], ['canceled']]);
  });

  it('refuses a cursor it did not give', async () => {
    for (const cursor of ['bm90LWpzb24', Buffer.from('["x"]').toString('base64url'), 'a%2Bb']) {
      const contacts = await admin(`/v1/admin/contacts?accountId=${accountId}&cursor=${cursor}`);
      expect(contacts.status, cursor).toBe(400);
      expect(contacts.body.error.code).toBe('VALIDATION_ERROR');
    }
    // An outbox cursor is a request id: a contacts cursor is not one.
    const contactsCursor = (await admin(`/v1/admin/contacts?accountId=${accountId}&limit=1`)).body.nextCursor;
    expect((await admin(`/v1/admin/outbox?cursor=${contactsCursor}`)).status).toBe(400);
    expect((await admin(`/v1/admin/outbox?limit=abc`)).status).toBe(400);
  });
});
