/**
 * Micro-benchmark of what locales add to a send: the tag's match and the negotiation
 * (src/domain/locales.ts), and the rendering of an SMS (the one-segment fit) and of an email (plural
 * form, direction). Not part of `npm run bench`: run it with `node --import tsx bench/locales-micro.ts`
 * (optionally `--before=<checkout>` to time that checkout's renderers beside these). It prints
 * nanoseconds per operation, the median of several rounds.
 */
import { performance } from 'node:perf_hooks';
import type { DeliveryRequest } from '../src/delivery/interface.js';
import { renderEmail, renderSms } from '../src/delivery/messages.js';
import { matchLocale, negotiateLocale } from '../src/domain/locales.js';

const ROUNDS = 7;
const N = 200_000;

function time(name: string, op: (i: number) => unknown): number {
  let sink = 0;
  for (let i = 0; i < N; i++) sink ^= op(i) === undefined ? 0 : 1; // warm up
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < N; i++) sink ^= op(i) === undefined ? 0 : 1;
    rounds.push(((performance.now() - start) * 1e6) / N);
  }
  rounds.sort((a, b) => a - b);
  const median = rounds[Math.floor(ROUNDS / 2)] as number;
  console.log(
    `${name.padEnd(58)} ${median.toFixed(0).padStart(6)} ns/op  (min ${(rounds[0] as number).toFixed(0)}, max ${(rounds.at(-1) as number).toFixed(0)})${sink < 0 ? '' : ''}`,
  );
  return median;
}

const TAGS = ['pt-BR', 'en', 'es-419', 'zh-Hant-HK', 'fr-CA', 'xx', 'de', 'ar'];
const COUNTRIES = ['JP', 'US', 'BR', 'IL', 'DE', 'FR', 'EG', 'IN'];

const request = (overrides: Partial<DeliveryRequest>): DeliveryRequest => ({
  verificationId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
  accountId: 'acc_default',
  channel: 'SMS',
  to: '+14155552671',
  code: '048213',
  codeTtlSeconds: 600,
  deliveryType: 'TEXT',
  country: 'US',
  purpose: 'login',
  customMessage: null,
  branding: { brandName: 'Acme Pay', color: '#2563eb' },
  locale: 'en',
  ...overrides,
});

const negotiation = time('negotiation: match the tag, then choose', (i) => {
  const match = matchLocale(TAGS[i & 7] as string);
  return negotiateLocale({
    requested: match === 'malformed' ? null : match,
    accountDefault: null,
    phoneCountry: COUNTRIES[i & 7] as string,
  });
});
time('negotiation without a tag (account default, country)', (i) =>
  negotiateLocale({ requested: null, accountDefault: null, phoneCountry: COUNTRIES[i & 7] as string }),
);
const en = request({ locale: 'en' });
const ru = request({ locale: 'ru' });
const smsEn = time('renderSms en (GSM-7, fits)', () => renderSms(en));
time('renderSms ru (UCS-2, fits)', () => renderSms(ru));
const longName = request({
  locale: 'ru',
  code: '1234567890',
  branding: { brandName: 'W'.repeat(60), color: '#000' },
});
time('renderSms ru, 10-digit code, 60-char name (cut)', () => renderSms(longName));
const oneTap = request({ locale: 'fr', webOtpHost: 'login.example.com', appHash: 'FA+9qCX9VSu' });
time('renderSms fr with both one-tap lines', () => renderSms(oneTap));
const email = time('renderEmail en', () => renderEmail({ ...en, channel: 'EMAIL' }).html);
time('renderEmail ar (right to left)', () => renderEmail({ ...en, channel: 'EMAIL', locale: 'ar' }).html);

const before = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
if (before) {
  const old = (await import(
    `${before}/src/delivery/messages.ts`
  )) as typeof import('../src/delivery/messages.js');
  const legacy = { ...en, locale: 'en' } as never;
  const oldSms = time(`before (${before}): renderSms en`, () => old.renderSms(legacy));
  const oldEmail = time(
    `before (${before}): renderEmail en`,
    () => old.renderEmail({ ...(legacy as object), channel: 'EMAIL' } as never).html,
  );
  console.log(
    `\nadded per SMS send: negotiation ${negotiation.toFixed(0)} ns + rendering ${(smsEn - oldSms).toFixed(0)} ns`,
  );
  console.log(
    `added per email send: negotiation ${negotiation.toFixed(0)} ns + rendering ${(email - oldEmail).toFixed(0)} ns`,
  );
}
