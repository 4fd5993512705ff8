import { afterEach, describe, expect, it } from 'vitest';
import { type CallRig, startCallRig } from './support/call-service.js';

/**
 * WHATSAPP with deliveryType CALL end to end, on loopback: the service asks the fake Graph API for
 * the user's call permission, sends the request, takes the signed accept, places the call with a
 * real WebRTC offer; the fake's user peer answers, decodes the audio and recognises the digits,
 * which verify the request. Two locales.
 */
describe('WhatsApp call: the user hears the code', () => {
  let rig: CallRig | null = null;
  afterEach(async () => {
    await rig?.close();
    rig = null;
  });

  it('asks for permission, calls on the accept, and the digits heard (English) verify the request', async () => {
    rig = await startCallRig({ env: { CODE_LENGTH: '6' } });
    const { fake } = rig;
    fake.addUser('14155550123', { language: 'en', onPermissionRequest: 'accept' });
    const started = Date.now();
    const sent = await rig.send('+14155550123', { locale: 'en' });
    const answeredInMs = Date.now() - started;
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'pending', channel: 'WHATSAPP', deliveryType: 'CALL' });
    const requestId = sent.body.data.requestId as string;
    // The send only stored the job: no Graph API call, no media on the request path.
    expect(answeredInMs).toBeLessThan(2_000);

    // The permission was asked (interactive: the window is open), then the call placed on the accept.
    const job = await rig.until(
      'the call to end',
      async () => {
        const j = await rig?.job(requestId);
        return j?.state === 'ended' ? j : null;
      },
      60_000,
    );
    expect(job.outcome).toBe('completed');
    expect(job.sealedCode).toBeNull();
    expect(await rig.delivery(requestId)).toBe('completed');
    const asked = fake.received.filter((r) => r.path.endsWith('/messages'));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.body).toMatchObject({
      type: 'interactive',
      interactive: { type: 'call_permission_request' },
    });
    const call = [...fake.calls.values()].at(-1);
    const heard = await call?.heard;
    expect(heard?.clips[0]).toBe('intro');
    expect(heard?.digits).toHaveLength(12);
    const code = heard?.digits.slice(0, 6) as string;
    expect(heard?.digits.slice(6)).toBe(code);
    // The terminate webhook's duration is kept.
    const ended = await rig.until('the duration', async () =>
      (await rig?.job(requestId))?.durationSeconds !== null ? rig?.job(requestId) : null,
    );
    expect(ended.durationSeconds).toBeGreaterThanOrEqual(0);

    const verified = await rig.svc.post('/v1/contact/verify-code', { requestId, code }, rig.key);
    expect(verified.body.data).toMatchObject({ verified: true, status: 'verified' });

    // The permission is kept: a later CALL to the same user calls at once, without asking again.
    const again = await rig.send('+14155550123', { locale: 'en' });
    const second = again.body.data.requestId as string;
    await rig.until('the second call', async () => (await rig?.job(second))?.state === 'ended');
    expect((await rig.job(second)).outcome).toBe('completed');
    expect(fake.received.filter((r) => r.path.endsWith('/messages'))).toHaveLength(1);
    expect(fake.received.filter((r) => r.path.endsWith('/call_permissions'))).toHaveLength(1);
  }, 120_000);

  it('speaks Spanish to a Spanish request, after a permanent permission asked by template (window closed)', async () => {
    rig = await startCallRig({ env: { CODE_LENGTH: '4' } });
    const { fake } = rig;
    fake.addUser('34612345678', {
      language: 'es',
      windowOpen: false,
      onPermissionRequest: 'accept_permanent',
    });
    const sent = await rig.send('+34612345678', { locale: 'es' });
    expect(sent.status).toBe(200);
    const requestId = sent.body.data.requestId as string;
    const job = await rig.until(
      'the call to end',
      async () => {
        const j = await rig?.job(requestId);
        return j?.state === 'ended' ? j : null;
      },
      60_000,
    );
    expect(job.outcome).toBe('completed');
    const asked = fake.received
      .filter((r) => r.path.endsWith('/messages'))
      .map((r) => r.body as { type: string });
    expect(asked.map((b) => b.type)).toEqual(['interactive', 'template']);
    const permission = await rig.svc.store.whatsappCalls.permission(job.accountId, '34612345678');
    expect(permission).toMatchObject({ kind: 'permanent', expiresAt: null });
    const heard = await [...fake.calls.values()].at(-1)?.heard;
    expect(heard?.digits).toHaveLength(8);
    const code = heard?.digits.slice(0, 4) as string;
    expect(heard?.digits.slice(4)).toBe(code);
    const verified = await rig.svc.post('/v1/contact/verify-code', { requestId, code }, rig.key);
    expect(verified.body.data.verified).toBe(true);
  }, 120_000);
});
