import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/domain/clock.js';
import type { CallJob } from '../../../../src/domain/ports/whatsapp-calls.js';
import { DEFAULT_BRANDING } from '../../../../src/domain/settings.js';
import { verification } from '../../../store/fixtures.js';
import { ADMIN_TOKEN } from '../../../support/app.js';
import { WebhookReceiver } from '../../../support/webhook-receiver.js';
import { type CallRig, startCallRig } from './support/call-service.js';
import { permissionReply } from './support/webhooks.js';

/**
 * What becomes of a WhatsApp call that does not deliver its code: each ends the job with a reason
 * (the first word of the request's delivery error), erases the sealed code and records the
 * request `failed` (`undelivered` on the resource, a `verification.undelivered` event).
 */
describe('WhatsApp call: refusals, timeouts and limits', () => {
  let rig: CallRig | null = null;
  afterEach(async () => {
    await rig?.close();
    rig = null;
  });

  const ended = async (r: CallRig, requestId: string, timeoutMs = 20_000): Promise<CallJob> =>
    r.until(
      `request ${requestId} to end`,
      async () => {
        const job = await r.job(requestId);
        if (job.state !== 'ended') return null;
        // The request's record follows the job's end (a request settled meanwhile records nothing).
        if (job.outcome === 'request_settled') return job;
        return (await r.delivery(requestId)) === 'failed' ? job : null;
      },
      timeoutMs,
    );
  const inState = (r: CallRig, requestId: string, state: CallJob['state']) =>
    r.until(`request ${requestId} in ${state}`, async () => {
      const job = await r.job(requestId);
      return job.state === state ? job : null;
    });
  const sends = (r: CallRig, path: string) => r.fake.received.filter((x) => x.path.endsWith(path));

  it('the user rejects the permission request: undelivered, permission_rejected, no call, a verification.undelivered event that says why', async () => {
    const receiver = new WebhookReceiver();
    const receiverUrl = await receiver.listen();
    try {
      rig = await startCallRig({
        env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_INTERVAL_MS: '3600000' },
      });
      const endpoint = await rig.svc.post(
        '/v1/admin/webhooks',
        { url: receiverUrl, events: ['verification.undelivered'] },
        ADMIN_TOKEN,
      );
      receiver.secret = endpoint.body.data.secret;
      rig.fake.addUser('14155550101', { onPermissionRequest: 'reject' });
      const sent = await rig.send('+14155550101');
      expect(sent.status).toBe(200);
      const requestId = sent.body.data.requestId as string;
      const job = await ended(rig, requestId);
      expect(job).toMatchObject({ outcome: 'permission_rejected', sealedCode: null, callId: null });
      expect(await rig.delivery(requestId)).toBe('failed');
      expect(sends(rig, '/calls')).toHaveLength(0);
      await rig.svc.folds.runOnce();
      await rig.svc.webhooks.runOnce();
      const [event] = await receiver.waitFor(1);
      expect(event?.verified?.data).toMatchObject({
        type: 'verification.undelivered',
        requestId,
        status: 'pending',
        provider: 'whatsapp-call',
        deliveryStatus: 'undelivered',
        deliveryError: expect.stringMatching(/^permission_rejected: /),
      });
    } finally {
      await receiver.close();
    }
  });

  it('keeps the code only sealed while it waits, and erases it when the request is superseded', async () => {
    rig = await startCallRig();
    rig.fake.addUser('14155550102', { onPermissionRequest: 'ignore' });
    const first = (await rig.send('+14155550102')).body.data.requestId as string;
    const waiting = await inState(rig, first, 'awaiting_permission');
    expect(await rig.delivery(first)).toBe('awaiting_permission');
    // AES-256-GCM: nonce, ciphertext and tag in base64url; no digits run of a code in clear.
    expect(waiting.sealedCode).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(waiting.permissionMessageId).toMatch(/^wamid\./);
    const second = (await rig.send('+14155550102')).body.data.requestId as string;
    // The second send cancels the first; the worker erases its sealed code.
    const gone = await ended(rig, first);
    expect(gone).toMatchObject({ outcome: 'request_settled', sealedCode: null });
    // The second asks nothing more today (1 request a day): the limit refuses it.
    const limited = await ended(rig, second);
    expect(limited.outcome).toBe('permission_request_limit');
    expect(sends(rig, '/messages')).toHaveLength(1);
  });

  it('no reply before the code expires: undelivered, permission_not_answered', async () => {
    const clock = new ManualClock();
    rig = await startCallRig({ clock, env: { CODE_TTL_SECONDS: '60' } });
    rig.fake.addUser('14155550103', { onPermissionRequest: 'ignore' });
    const requestId = (await rig.send('+14155550103')).body.data.requestId as string;
    await inState(rig, requestId, 'awaiting_permission');
    clock.advance(61_000);
    const job = await ended(rig, requestId);
    expect(job).toMatchObject({ outcome: 'permission_not_answered', sealedCode: null });
    expect(await rig.delivery(requestId)).toBe('failed');
  });

  it('an accept that comes after the code expired places no call (code_expired)', async () => {
    const clock = new ManualClock();
    // The worker never runs here: the late accept alone must refuse to call.
    rig = await startCallRig({ clock, env: { CODE_TTL_SECONDS: '60' }, timings: { tickMs: 3_600_000 } });
    rig.fake.addUser('14155550104', { onPermissionRequest: 'ignore' });
    const requestId = (await rig.send('+14155550104')).body.data.requestId as string;
    const waiting = await inState(rig, requestId, 'awaiting_permission');
    clock.advance(61_000);
    const status = await rig.fake.sendWebhook(
      permissionReply('14155550104', 'accept', { requestMessageId: waiting.permissionMessageId }),
    );
    expect(status).toBe(200);
    const job = await ended(rig, requestId);
    expect(job.outcome).toBe('code_expired');
    expect(sends(rig, '/calls')).toHaveLength(0);
  });

  it('a stored permission that expired is asked for again', async () => {
    rig = await startCallRig();
    rig.fake.addUser('14155550105', {
      onPermissionRequest: 'ignore',
      permission: { kind: 'temporary', expiresAt: Date.now() - 1_000 },
    });
    const accountId = (await rig.svc.store.accounts.listAccounts())[0]?.id as string;
    await rig.svc.store.whatsappCalls.putPermission({
      accountId,
      waUser: '14155550105',
      kind: 'temporary',
      expiresAt: Date.now() - 1_000,
      updatedAt: Date.now() - 86_400_000,
    });
    const requestId = (await rig.send('+14155550105')).body.data.requestId as string;
    await inState(rig, requestId, 'awaiting_permission');
    expect(sends(rig, '/call_permissions')).toHaveLength(1);
    expect(sends(rig, '/messages')).toHaveLength(1);
    expect(sends(rig, '/calls')).toHaveLength(0);
    expect(await rig.svc.store.whatsappCalls.permission(accountId, '14155550105')).toBeNull();
  });

  it("WhatsApp's limits: a second permission request in a day, and the connected calls of a day", async () => {
    rig = await startCallRig({ fake: { callsPerDay: 0 } });
    rig.fake.addUser('14155550106', { requests: [Date.now() - 3_600_000] });
    rig.fake.addUser('14155550107', { permission: { kind: 'permanent', expiresAt: null } });
    const asked = (await rig.send('+14155550106')).body.data.requestId as string;
    const called = (await rig.send('+14155550107')).body.data.requestId as string;
    const refusedRequest = await ended(rig, asked);
    expect(refusedRequest.outcome).toBe('permission_request_limit');
    const refusedCall = await ended(rig, called);
    expect(refusedCall.outcome).toBe('call_limit');
    expect(sends(rig, '/messages')).toHaveLength(0);
    expect(sends(rig, '/calls')).toHaveLength(0);
    expect(await rig.delivery(asked)).toBe('failed');
  });

  it('a permission WhatsApp revoked (after unanswered calls) is found by the call: no_permission, and it is forgotten', async () => {
    rig = await startCallRig();
    rig.fake.addUser('14155550111', { permission: { kind: 'none', expiresAt: null } });
    const accountId = (await rig.svc.store.accounts.listAccounts())[0]?.id as string;
    // This service still believes in a permanent permission; WhatsApp revoked it.
    await rig.svc.store.whatsappCalls.putPermission({
      accountId,
      waUser: '14155550111',
      kind: 'permanent',
      expiresAt: null,
      updatedAt: Date.now(),
    });
    const requestId = (await rig.send('+14155550111')).body.data.requestId as string;
    const job = await ended(rig, requestId);
    expect(job.outcome).toBe('no_permission');
    // The stored permission was trusted (no check first), and is dropped now.
    expect(sends(rig, '/call_permissions')).toHaveLength(0);
    expect(sends(rig, '/calls')).toHaveLength(1);
    expect(await rig.svc.store.whatsappCalls.permission(accountId, '14155550111')).toBeNull();
  });

  it('a job whose process died before starting it is started by the worker, and the request learns it', async () => {
    rig = await startCallRig({ timings: { startGraceMs: 300 } });
    rig.fake.addUser('14155550112', { onPermissionRequest: 'ignore' });
    const flow = rig.svc.whatsappCalls;
    if (!flow) throw new Error('WhatsApp calls are not configured');
    const accountId = (await rig.svc.store.accounts.listAccounts())[0]?.id as string;
    const now = Date.now();
    const v = verification({
      accountId,
      channel: 'WHATSAPP',
      destination: '+14155550112',
      deliveryType: 'CALL',
      createdAt: now,
      expiresAt: now + 600_000,
      deliveryStatus: 'queued',
    });
    await rig.svc.store.verifications.createVerifications([v]);
    // The send stored the job, then died before recording it on the request and starting it.
    const accepted = await flow.accept({
      verificationId: v.id,
      accountId,
      channel: 'WHATSAPP',
      to: '+14155550112',
      code: '482913',
      codeTtlSeconds: 600,
      deliveryType: 'CALL',
      country: 'US',
      purpose: null,
      customMessage: null,
      branding: DEFAULT_BRANDING,
      locale: 'en',
    });
    expect(accepted).toMatchObject({ ok: true, accepted: 'queued' });
    const jobId = accepted.ok ? accepted.providerMessageId : '';
    const waiting = await rig.until('the worker to start it', async () => {
      const job = await rig?.svc.store.whatsappCalls.get(jobId);
      return job?.state === 'awaiting_permission' ? job : null;
    });
    expect(waiting.sealedCode).not.toContain('482913');
    expect(sends(rig, '/messages')).toHaveLength(1);
    // The request names its job now: later webhooks find it.
    const stored = await rig.svc.store.verifications.getVerification(accountId, v.id);
    expect(stored).toMatchObject({
      deliveryStatus: 'awaiting_permission',
      provider: 'whatsapp-call',
      providerMessageId: jobId,
    });
  });

  it('a call never answered is ended after the ring timeout (no_answer)', async () => {
    rig = await startCallRig({ timings: { ringTimeoutMs: 1_500 } });
    rig.fake.addUser('14155550108', { onCall: 'never', permission: { kind: 'permanent', expiresAt: null } });
    const requestId = (await rig.send('+14155550108')).body.data.requestId as string;
    await rig.until('calling', async () => (await rig?.delivery(requestId)) === 'calling');
    const job = await ended(rig, requestId);
    expect(job).toMatchObject({ outcome: 'no_answer', sealedCode: null });
    expect(job.callId).toMatch(/^wacid\./);
    await rig.until('the terminate', async () =>
      sends(rig as CallRig, '/calls').some((r) => (r.body as { action?: string }).action === 'terminate'),
    );
    expect(await rig.delivery(requestId)).toBe('failed');
  });

  it('a call the user rejects is undelivered (rejected)', async () => {
    rig = await startCallRig();
    rig.fake.addUser('14155550109', { onCall: 'reject', permission: { kind: 'permanent', expiresAt: null } });
    const requestId = (await rig.send('+14155550109')).body.data.requestId as string;
    const job = await ended(rig, requestId);
    expect(job.outcome).toBe('rejected');
    await rig.until('undelivered', async () => (await rig?.delivery(requestId)) === 'failed');
  });

  it('a webhook with a bad signature is refused and changes nothing; the signed one is taken', async () => {
    rig = await startCallRig({ timings: { ringTimeoutMs: 1_000 } });
    rig.fake.addUser('14155550110', { onPermissionRequest: 'ignore', onCall: 'never' });
    const requestId = (await rig.send('+14155550110')).body.data.requestId as string;
    const waiting = await inState(rig, requestId, 'awaiting_permission');
    const reply = permissionReply('14155550110', 'accept', { requestMessageId: waiting.permissionMessageId });
    expect(await rig.fake.sendWebhook(reply, true)).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect((await rig.job(requestId)).state).toBe('awaiting_permission');
    expect(sends(rig, '/calls')).toHaveLength(0);
    // The user's permission as WhatsApp knows it, then the signed reply: the call is placed.
    const user = rig.fake.users.get('14155550110');
    if (user) user.permission = { kind: 'temporary', expiresAt: Date.now() + 86_400_000 };
    expect(await rig.fake.sendWebhook(reply)).toBe(200);
    const job = await ended(rig, requestId);
    expect(job.callId).toMatch(/^wacid\./);
    expect(job.outcome).toBe('no_answer');
  });
});
