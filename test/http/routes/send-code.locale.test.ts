import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

const SEND = '/v1/contact/send-code';

/**
 * The locale of a send, end to end: the request's tag, else the account's default, else the
 * phone number's country, else English; a malformed tag is a 400, never a 500.
 */
describe('send-code: the locale of the message', () => {
  let svc: TestService;
  let key: string;
  let n = 0;
  beforeAll(async () => {
    svc = await startTestService({
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
      CODE_LENGTH: '10',
      SMS_WEBOTP_DOMAIN: 'deploy.example.com',
    });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  const settings = (body: Record<string, unknown>) =>
    svc.app.inject({
      method: 'PATCH',
      url: `/v1/admin/accounts/${DEFAULT_ACCOUNT_ID}/settings`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  /** Sends to a fresh destination and returns the message as the outbox keeps it and the stored locale. */
  async function send(body: Record<string, unknown>) {
    const res = await svc.post(SEND, body, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entry = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
    const to = (body.email ?? body.phone) as string;
    const message = await svc.lastMessage(to);
    const stored = await svc.store.verifications.getVerification(DEFAULT_ACCOUNT_ID, entry.requestId);
    return { message, locale: stored?.locale };
  }
  // Numbers valid in their country, a new one per send (each destination gets a code of its own).
  const japanese = () => `+8190${String(1000_0000 + n++).slice(-8)}`;
  const israeli = () => `+9725250${String(10_0000 + n++).slice(-5)}`;
  const brazilian = () => `+5511987${String(100_000 + n++).slice(-6)}`;
  const american = () => `+1415555${String(1000 + n++).slice(-4)}`;

  it('refuses a malformed tag with VALIDATION_ERROR naming locale', async () => {
    for (const locale of ['en-a', 'root', 'i-klingon', 'es MX', 'e', '1234', 'x'.repeat(40), 'en--US', 42]) {
      const res = await svc.post(SEND, { channel: 'EMAIL', email: 'tag@example.com', locale }, key);
      expect(res.status, `${locale}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      // One detail per problem: a 40-letter tag is both too long and no tag.
      for (const d of res.body.error.details) expect(d.field).toBe('locale');
    }
  });

  it('writes in the locale the tag matches, by language, script or region', async () => {
    expect((await send({ channel: 'SMS', phone: american(), locale: 'zh-Hant-HK' })).message.text).toMatch(
      /驗證碼/,
    );
    const pt = await send({ channel: 'SMS', phone: american(), locale: 'pt-AO' });
    expect(pt.locale).toBe('pt-PT');
    expect(pt.message.text).toMatch(/é o seu código de verificação/);
    expect((await send({ channel: 'SMS', phone: american(), locale: 'pt' })).locale).toBe('pt-BR');
    expect((await send({ channel: 'EMAIL', email: 'he@example.com', locale: 'iw' })).locale).toBe('he');
  });

  it("uses the phone number's country when the request names no language of ours", async () => {
    const jp = await send({ channel: 'SMS', phone: japanese() });
    expect(jp.locale).toBe('ja');
    expect(jp.message.text).toMatch(/認証コード/);
    expect((await send({ channel: 'SMS', phone: israeli(), locale: 'sw' })).locale).toBe('he');
    expect((await send({ channel: 'WHATSAPP', phone: brazilian() })).locale).toBe('pt-BR');
    expect((await send({ channel: 'SMS', phone: american() })).locale).toBe('en');
    // A dual send's email follows its phone.
    const dual = await svc.post(
      SEND,
      { channels: ['EMAIL', 'SMS'], email: 'dual@example.com', phone: japanese() },
      key,
    );
    expect(dual.status).toBe(200);
    expect((await svc.lastMessage('dual@example.com')).subject).toMatch(/認証コード/);
    // An email alone has no country to go by, even with `country` given.
    expect((await send({ channel: 'EMAIL', email: 'jp@example.com', country: 'JP' })).locale).toBe('en');
  });

  it("uses the account's default before the country, and the request's tag before both", async () => {
    expect((await settings({ locale: 'de' })).statusCode).toBe(200);
    try {
      expect((await send({ channel: 'SMS', phone: japanese() })).locale).toBe('de');
      expect((await send({ channel: 'EMAIL', email: 'de@example.com' })).locale).toBe('de');
      expect((await send({ channel: 'SMS', phone: japanese(), locale: 'sw-KE' })).locale).toBe('de');
      expect((await send({ channel: 'SMS', phone: japanese(), locale: 'fr-CA' })).locale).toBe('fr');
    } finally {
      await settings({ locale: null });
    }
    expect((await send({ channel: 'SMS', phone: japanese() })).locale).toBe('ja');
  });

  it("ends SMS with the account's one-tap lines, its host before the deployment's", async () => {
    const plain = await send({ channel: 'SMS', phone: american(), locale: 'en' });
    expect(plain.message.text).toMatch(/\n\n@deploy\.example\.com #\d{10}$/);
    expect((await settings({ webOtpHost: 'login.acme.example', appHash: 'FA+9qCX9VSu' })).statusCode).toBe(
      200,
    );
    try {
      const sms = (await send({ channel: 'SMS', phone: american(), locale: 'en' })).message.text;
      const code = /^(\d{10}) /.exec(sms)?.[1];
      expect(sms).toBe(
        `${code} is your Contact Verify verification code.\n\nFA+9qCX9VSu\n@login.acme.example #${code}`,
      );
      // Email carries neither.
      const email = (await send({ channel: 'EMAIL', email: 'onetap@example.com' })).message.text;
      expect(email).not.toMatch(/FA\+9qCX9VSu|acme\.example/);
    } finally {
      await settings({ webOtpHost: null, appHash: null });
    }
  });
});
