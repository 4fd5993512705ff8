import type { AddressInfo } from 'node:net';
import type { ComposeOptions } from '../../../../../src/compose.js';
import type { Clock } from '../../../../../src/domain/clock.js';
import type { CallJob } from '../../../../../src/domain/ports/whatsapp-calls.js';
import { startTestService, type TestService } from '../../../../support/app.js';
import {
  type FakeCalling,
  type FakeCallingOptions,
  startFakeCalling,
} from '../../../support/fake-whatsapp-calling.js';

export const APP_SECRET = 'app-secret';

/** What a WhatsApp call test runs on: the whole service listening on loopback, and the fake Graph API. */
export interface CallRig {
  svc: TestService;
  fake: FakeCalling;
  url: string;
  key: string;
  /** Sends a WHATSAPP CALL code; answers the send's entry. */
  send(phone: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** The job of a request (its provider message id), as stored. */
  job(requestId: string): Promise<CallJob>;
  /** The request's delivery status (`failed` is `undelivered` on the resource). */
  delivery(requestId: string): Promise<string>;
  /** Waits until `check` holds (polling), or fails naming what it waited for. */
  until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** The WhatsApp settings of a deployment whose WhatsApp can call, against the fake at `baseUrl`. */
export const callEnv = (baseUrl: string): Record<string, string> => ({
  WHATSAPP_TOKEN: 'EAAGtoken',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_TEMPLATE: 'verify_code',
  WHATSAPP_APP_SECRET: APP_SECRET,
  WHATSAPP_BASE_URL: baseUrl,
  WHATSAPP_CALL_PERMISSION_TEMPLATE: 'call_permission',
  WEBRTC_ANNOUNCED_ADDRESSES: '127.0.0.1',
  RESEND_COOLDOWN_SECONDS: '0',
});

export async function startCallRig(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    fake?: Partial<FakeCallingOptions>;
    timings?: ComposeOptions['whatsappCallTimings'];
  } = {},
): Promise<CallRig> {
  const fakeOptions: FakeCallingOptions = {
    appSecret: APP_SECRET,
    webhookUrl: 'http://127.0.0.1:9/unset',
    ...options.fake,
  };
  const fake = await startFakeCalling(fakeOptions);
  const svc = await startTestService(
    { ...callEnv(fake.url), ...options.env },
    { clock: options.clock, whatsappCallTimings: { tickMs: 100, ...options.timings } },
  );
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
  fakeOptions.webhookUrl = `${url}/v1/callbacks/whatsapp`;
  const key = await svc.createKey({ channels: ['WHATSAPP'] });
  const accountId = (await svc.store.accounts.listAccounts())[0]?.id as string;
  const verification = async (id: string) => {
    const v = await svc.store.verifications.getVerification(accountId, id);
    if (!v) throw new Error(`no request ${id}`);
    return v;
  };
  const rig: CallRig = {
    svc,
    fake,
    url,
    key,
    async send(phone, extra = {}) {
      const res = await svc.post(
        '/v1/contact/send-code',
        { channel: 'WHATSAPP', phone, deliveryType: 'CALL', ...extra },
        key,
      );
      return { status: res.status, body: res.body };
    },
    async job(requestId) {
      const v = await verification(requestId);
      const job = v.providerMessageId ? await svc.store.whatsappCalls.get(v.providerMessageId) : null;
      if (!job) throw new Error(`no call job for ${requestId}`);
      return job;
    },
    async delivery(requestId) {
      return (await verification(requestId)).deliveryStatus;
    },
    async until(what, check, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const value = await check().catch(() => null);
        if (value) return value as never;
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      await svc.close();
      await fake.close();
    },
  };
  return rig;
}
