import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeSmtp, startFakeSmtp } from '../../delivery/support/fake-smtp.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const BASE = 'https://verify.example.test';
const APP = 'https://app.example.com';

function tokenOf(smtp: FakeSmtp, to: string): { token: string; code: string } {
  const mail = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(to));
  const text = mail?.mail.text ?? '';
  const token = /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!token || !code) throw new Error(`no link in mail to ${to}`);
  return { token, code };
}

/**
 * Parallel uses of one link: exactly one is answered 303 (its request verified once), every other
 * 410, on both stores; on PostgreSQL also across two instances of the service on one database,
 * and against right codes sent at the same moment.
 */
eachStore('Racing uses of a magic link', (start, dialect) => {
  let smtp: FakeSmtp;
  const services: TestService[] = [];
  let key: string;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    const env = {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      PUBLIC_BASE_URL: BASE,
      RESEND_COOLDOWN_SECONDS: '0',
    };
    services.push(await start(env));
    // A second instance on the same database (PostgreSQL: SQLite is one process by design).
    if (dialect === 'postgres') services.push(await start(env));
    const [first] = services as [TestService];
    key = await first.createKey({ channels: ['EMAIL', 'SMS'] });
    await first.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: { linkRedirectOrigins: [APP] },
    });
  });
  afterAll(async () => {
    for (const s of services) await s.close();
    await smtp.close();
  });

  it('20 parallel POSTs, spread over the instances: one 303, nineteen 410', async () => {
    const [first] = services as [TestService];
    const sent = await first.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 'race@example.com', link: { redirectUrl: `${APP}/done` } },
      key,
    );
    expect(sent.status).toBe(200);
    const { token } = tokenOf(smtp, 'race@example.com');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (services[i % services.length] as TestService).app.inject({
          method: 'POST',
          url: `/v1/links/${token}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(19);
    const winner = answers.find((a) => a.statusCode === 303);
    expect(winner?.headers.location).toBe(
      `${APP}/done?requestId=${sent.body.data.requestId}&status=verified`,
    );
  });

  it('a POST racing right codes on the other instance: exactly one of them verifies', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `race-code-${round}@example.com`;
      const sent = await (services[0] as TestService).post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email, link: {} },
        key,
      );
      const requestId = sent.body.data.requestId as string;
      const { token, code } = tokenOf(smtp, email);
      const other = services[services.length - 1] as TestService;
      const [link, ...codes] = await Promise.all([
        (services[0] as TestService).app.inject({ method: 'POST', url: `/v1/links/${token}` }),
        ...Array.from({ length: 4 }, () => other.post('/v1/contact/verify-code', { requestId, code }, key)),
      ]);
      const wins =
        (link?.statusCode === 200 ? 1 : 0) + codes.filter((c) => c.body.data?.verified === true).length;
      expect(wins, `round ${round}`).toBe(1);
      if (link?.statusCode !== 200) expect(link?.statusCode).toBe(410);
    }
  });
});
