import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const STRINGS = [
  '',
  ' ',
  'EMAIL',
  'SMS',
  'WHATSAPP',
  'CALL',
  'TEXT',
  'a@example.com',
  '+14155552671',
  '+447400123456',
  '+19005550123',
  '+',
  '+0',
  '00',
  'us',
  'ZZ',
  '\u0000',
  '\ud800',
  '💥'.repeat(40),
  'x'.repeat(300),
  '<script>',
  '__proto__',
  'constructor',
  '0000',
  '123456',
  '0'.repeat(11),
  '1e6',
  '018f5c0e-7b7a-4c1e-9d3a-1a2b3c4d5e6f',
];

function value(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * 9);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.floor(next() * 2e6) - 1e6;
    case 3:
      return next() * 1e308;
    case 4:
      return depth < 2 ? Array.from({ length: Math.floor(next() * 3) }, () => value(next, depth + 1)) : [];
    case 5:
      return depth < 2 ? { a: value(next, depth + 1) } : {};
    default:
      return STRINGS[Math.floor(next() * STRINGS.length)];
  }
}

const SEND_FIELDS = [
  'channel',
  'channels',
  'email',
  'phone',
  'whatsappNumber',
  'phoneNumber',
  'country',
  'deliveryType',
  'purpose',
  'customMessage',
];
const VERIFY_FIELDS = ['requestId', 'otpCode', 'code'];

describe('no input produces a 500', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
      KEY_SEND_PER_SECOND: '100000',
      KEY_VERIFY_PER_SECOND: '100000',
    });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  const body = (next: () => number, fields: string[]) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) if (next() < 0.5) out[f] = value(next);
    return out;
  };

  it.each([1, 2, 3])('send-code, verify-code and admin bodies (seed %i)', async (seed) => {
    const next = rng(seed * 7919);
    for (let i = 0; i < 300; i++) {
      const send = body(next, SEND_FIELDS);
      const sent = await svc.post('/v1/contact/send-code', send, key);
      expect(sent.status, JSON.stringify(send)).toBeLessThan(500);
      const verify = body(next, VERIFY_FIELDS);
      const verified = await svc.post('/v1/contact/verify-code', verify, key);
      expect(verified.status, JSON.stringify(verify)).toBeLessThan(500);
      const admin = { name: value(next), channels: value(next), accountId: value(next), test: value(next) };
      const created = await svc.post('/v1/admin/api-keys', admin, ADMIN_TOKEN);
      expect(created.status, JSON.stringify(admin)).toBeLessThan(500);
    }
  });
});
