import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CallEvent,
  whatsappCallEvents,
} from '../../../../src/delivery/providers/whatsapp/whatsapp.call-events.js';
import { verifyMetaSignature } from '../../../../src/delivery/providers/whatsapp/whatsapp.callback.js';
import { WhatsAppCalling } from '../../../../src/delivery/providers/whatsapp/whatsapp.calling.js';
import { CodeCall } from '../../../../src/media/code-call.js';
import { codeReading, loadPromptSet } from '../../../../src/media/prompts.js';
import { type FakeCalling, startFakeCalling } from '../../support/fake-whatsapp-calling.js';

const APP_SECRET = 'app-secret';
const LOOPBACK = { announcedAddresses: ['127.0.0.1'], iceServers: [] };

/** The service's webhook endpoint, reduced to what part A provides: the signature check and the parser. */
async function startReceiver() {
  const events: CallEvent[] = [];
  const refused: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-hub-signature-256'];
      if (!verifyMetaSignature(APP_SECRET, raw, typeof signature === 'string' ? signature : undefined)) {
        refused.push(raw);
        res.writeHead(401).end();
        return;
      }
      events.push(...whatsappCallEvents(JSON.parse(raw)));
      for (const w of waiters) w();
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const next = <E extends CallEvent>(pred: (e: CallEvent) => e is E, timeoutMs = 10_000): Promise<E> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = events.find(pred);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`no such webhook within ${timeoutMs} ms; got ${events.map((e) => e.kind).join(', ')}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/callbacks/whatsapp`,
    events,
    refused,
    next,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('WhatsApp calling: permission, call, the code heard', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fake: FakeCalling;
  let clock = Date.now();
  let calling: WhatsAppCalling;
  const options = (overrides = {}) => ({
    token: 'EAAGtoken',
    phoneNumberId: '106540352242922',
    apiVersion: 'v23.0',
    baseUrl: fake.url,
    timeoutMs: 2_000,
    templateLanguage: 'en_US',
    permissionTemplate: 'call_permission',
    ...overrides,
  });

  beforeAll(async () => {
    receiver = await startReceiver();
    fake = await startFakeCalling({
      appSecret: APP_SECRET,
      webhookUrl: receiver.url,
      callsPerDay: 3,
      ringMs: 300,
      now: () => clock,
    });
  });
  afterAll(async () => {
    await fake.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.events.length = 0;
    calling = new WhatsAppCalling(options());
  });

  /** Places a call the way part B will, and returns what the user heard and the terminate webhook. */
  async function placeCall(to: string, code: string, language: string) {
    const media = await CodeCall.create(LOOPBACK);
    try {
      const placed = await calling.connect(`+${to}`, media.offer, 'request-id-1');
      if (!placed.ok) throw new Error(placed.error);
      const connect = await receiver.next(
        (e): e is Extract<CallEvent, { kind: 'connect' }> =>
          e.kind === 'connect' && e.callId === placed.callId,
      );
      expect(connect).toMatchObject({ sdpType: 'answer', tracking: 'request-id-1', to });
      await media.answer(connect.sdp ?? '');
      await media.speak(codeReading(code, loadPromptSet(language)), 10_000);
      expect(await calling.terminate(placed.callId)).toEqual({ ok: true });
      const ended = await receiver.next(
        (e): e is Extract<CallEvent, { kind: 'terminate' }> =>
          e.kind === 'terminate' && e.callId === placed.callId,
      );
      return { heard: await fake.calls.get(placed.callId)?.heard, ended, callId: placed.callId };
    } finally {
      await media.close();
    }
  }

  it('asks for permission, gets the signed accept, then calls: the user hears the code (en)', async () => {
    fake.addUser('14155550123');
    const before = await calling.permission('+14155550123');
    expect(before).toMatchObject({
      ok: true,
      permission: { status: 'no_permission', canCall: false, canRequest: true },
    });

    const asked = await calling.requestPermission('+14155550123', {
      body: 'May we call you to read your code?',
    });
    expect(asked).toMatchObject({ ok: true, via: 'interactive' });
    const reply = await receiver.next(
      (e): e is Extract<CallEvent, { kind: 'permission_reply' }> =>
        e.kind === 'permission_reply' && e.from === '14155550123',
    );
    expect(reply).toMatchObject({
      from: '14155550123',
      accepted: true,
      permanent: false,
      requestMessageId: asked.ok ? asked.messageId : '',
      source: 'user_action',
    });
    expect(reply.expiresAt?.getTime()).toBe(Math.floor((clock + 7 * 86_400_000) / 1000) * 1000);

    const after = await calling.permission('14155550123');
    expect(after).toMatchObject({
      ok: true,
      permission: { status: 'granted', reported: 'temporary', canCall: true, canRequest: false },
    });

    const { heard, ended } = await placeCall('14155550123', '481592', 'en');
    expect(heard?.digits).toBe('481592481592');
    expect(heard?.clips.slice(0, 1)).toEqual(['intro']);
    expect(ended).toMatchObject({ status: 'COMPLETED', tracking: null });
    expect(ended.durationSeconds).toBeGreaterThanOrEqual(10);
    const statuses = receiver.events
      .filter((e) => e.kind === 'status')
      .map((e) => (e.kind === 'status' ? e.status : ''));
    expect(statuses).toEqual(['RINGING', 'ACCEPTED']);
  }, 60_000);

  it('a user with a permanent permission is called at once, and hears the code in Spanish', async () => {
    fake.addUser('34600111222', { language: 'es', permission: { kind: 'permanent', expiresAt: null } });
    expect(await calling.permission('34600111222')).toMatchObject({
      ok: true,
      permission: { status: 'granted', reported: 'permanent', expiresAt: null, canCall: true },
    });
    const { heard } = await placeCall('34600111222', '730948', 'es');
    expect(heard?.digits).toBe('730948730948');
    // The recogniser is not fooled by a code that was not said.
    expect(heard?.digits).not.toBe('730949730949');
  }, 60_000);

  it('outside the service window sends the operator template; without one, says why', async () => {
    fake.addUser('441234567890', { windowOpen: false });
    const asked = await calling.requestPermission('441234567890', { body: 'May we call you?' });
    expect(asked).toMatchObject({ ok: true, via: 'template' });
    expect(fake.received.at(-1)?.body).toMatchObject({
      type: 'template',
      template: { name: 'call_permission', language: { code: 'en_US' } },
    });
    fake.addUser('441234567891', { windowOpen: false });
    const withoutTemplate = new WhatsAppCalling(options({ permissionTemplate: undefined }));
    expect(
      await withoutTemplate.requestPermission('441234567891', { body: 'May we call you?' }),
    ).toMatchObject({
      ok: false,
      retryable: false,
      code: 131047,
    });
  });

  it('a rejected request comes back as a reject; calling anyway is refused for want of permission', async () => {
    fake.addUser('4915112345678', { onPermissionRequest: 'reject' });
    await calling.requestPermission('4915112345678', { body: 'May we call you?' });
    // Replies to earlier tests' requests may still arrive: wait for this user's.
    const reply = await receiver.next(
      (e): e is Extract<CallEvent, { kind: 'permission_reply' }> =>
        e.kind === 'permission_reply' && e.from === '4915112345678',
    );
    expect(reply).toMatchObject({ accepted: false, expiresAt: null });
    const media = await CodeCall.create(LOOPBACK);
    const placed = await calling.connect('4915112345678', media.offer);
    await media.close();
    expect(placed).toMatchObject({ ok: false, retryable: false, noPermission: true, code: 138006 });
  });

  it('reports the limits: one request a day, two a week; the connected calls of a day', async () => {
    const user = fake.addUser('33612345678', { onPermissionRequest: 'ignore' });
    expect(await calling.requestPermission('33612345678', { body: 'x' })).toMatchObject({ ok: true });
    const limited = await calling.permission('33612345678');
    expect(limited).toMatchObject({ ok: true, permission: { canRequest: false } });
    expect(limited.ok && limited.permission.requestLimits).toEqual([
      { period: 'PT24H', maxAllowed: 1, currentUsage: 1, until: null },
      { period: 'P7D', maxAllowed: 2, currentUsage: 1, until: null },
    ]);
    expect(await calling.requestPermission('33612345678', { body: 'x' })).toMatchObject({
      ok: false,
      retryable: false,
    });
    clock += 86_400_000 + 1;
    expect(await calling.requestPermission('33612345678', { body: 'x' })).toMatchObject({ ok: true });
    clock += 86_400_000 + 1;
    expect(await calling.permission('33612345678')).toMatchObject({
      ok: true,
      permission: { canRequest: false },
    });
    user.requests = [];

    // The business number's connected calls: this fake allows 3 a day, two of them made above.
    fake.addUser('33699999999', { permission: { kind: 'permanent', expiresAt: null }, onCall: 'reject' });
    const perm = await calling.permission('33699999999');
    expect(perm.ok && perm.permission.callLimits[0]).toMatchObject({ period: 'PT24H', maxAllowed: 3 });
  });

  it('a temporary permission that has expired reads as none, and the call is refused', async () => {
    fake.addUser('5511987654321', { permission: { kind: 'temporary', expiresAt: clock + 1_000 } });
    expect(await calling.permission('5511987654321')).toMatchObject({
      ok: true,
      permission: { status: 'granted' },
    });
    clock += 2_000;
    expect(await calling.permission('5511987654321')).toMatchObject({
      ok: true,
      permission: { status: 'no_permission', canCall: false, expiresAt: null },
    });
  });

  it('a call the user rejects, and one never answered, end FAILED with their status webhooks', async () => {
    fake.addUser('61412345678', { permission: { kind: 'permanent', expiresAt: null }, onCall: 'reject' });
    const media = await CodeCall.create(LOOPBACK);
    const rejected = await calling.connect('61412345678', media.offer);
    expect(rejected.ok).toBe(true);
    const callId = rejected.ok ? rejected.callId : '';
    await receiver.next((e): e is CallEvent => e.kind === 'terminate' && e.callId === callId);
    expect(
      receiver.events
        .filter((e) => 'callId' in e && e.callId === callId)
        .map((e) => (e.kind === 'status' ? e.status : e.kind)),
    ).toEqual(['RINGING', 'REJECTED', 'terminate']);
    await media.close();

    fake.addUser('61412345679', { permission: { kind: 'permanent', expiresAt: null }, onCall: 'never' });
    const silent = await CodeCall.create(LOOPBACK);
    const unanswered = await calling.connect('61412345679', silent.offer);
    const id = unanswered.ok ? unanswered.callId : '';
    // No connect webhook comes: the media side gives up on its own clock.
    await expect(silent.connected(500)).rejects.toMatchObject({ reason: 'not_connected' });
    const ended = await receiver.next(
      (e): e is Extract<CallEvent, { kind: 'terminate' }> => e.kind === 'terminate' && e.callId === id,
    );
    expect(ended).toMatchObject({ status: 'FAILED', durationSeconds: null });
    await silent.close();
  });

  it('a webhook with a bad signature is refused by the existing check', async () => {
    const status = await fake.sendWebhook({ object: 'whatsapp_business_account', entry: [] }, true);
    expect(status).toBe(401);
    expect(receiver.refused).toHaveLength(1);
  });

  it('reads whether calling is enabled on the number, and fails as a value when the API is away', async () => {
    expect(await calling.settings()).toEqual({ ok: true, callingEnabled: true, status: 'ENABLED' });
    const away = new WhatsAppCalling(options({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 500 }));
    expect(await away.settings()).toMatchObject({ ok: false, retryable: true });
    expect(await away.connect('1', 'v=0')).toMatchObject({ ok: false, retryable: true });
  });
});
