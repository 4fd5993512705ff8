import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/delivery/dispatcher.js';
import type { ChannelProvider, ProviderState, SendOutcome } from '../../src/delivery/interface.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Channel } from '../../src/domain/types.js';
import { deliveryRequest } from './support/request.js';

/** A provider that answers from a script and counts its calls. */
class Scripted implements ChannelProvider {
  calls = 0;
  checks = 0;
  constructor(
    readonly name: string,
    public answer: () => SendOutcome | Promise<SendOutcome>,
    readonly channels: readonly Channel[] = ['SMS'],
    public state: ProviderState = 'up',
  ) {}
  async send() {
    this.calls++;
    return this.answer();
  }
  async check() {
    this.checks++;
    return this.state;
  }
}

const sent = (id: string) => () => ({ ok: true as const, providerMessageId: id });
const transient = () => ({ ok: false as const, retryable: true, error: 'HTTP 503' });
const refusal = () => ({ ok: false as const, retryable: false, error: 'invalid number' });

function setup(policy = { failures: 2, cooldownMs: 10_000 }, liveOutbox: 'allow' | 'refuse' = 'allow') {
  const clock = new ManualClock(0);
  const outbox = Object.assign(new Scripted('outbox', sent('msg_1'), ['EMAIL', 'SMS', 'WHATSAPP']), {
    prepare: () => ({ content: '{}', providerMessageId: 'msg_1' }),
  });
  const a = new Scripted('a', sent('A1'));
  const b = new Scripted('b', sent('B1'));
  const voice = new Scripted('voice', sent('V1'), ['WHATSAPP']);
  const dispatcher = new Dispatcher(
    outbox,
    { SMS: () => [a, b], WHATSAPP: (r) => (r.deliveryType === 'CALL' ? [voice] : []) },
    [a, b, voice],
    { clock, breaker: policy, checkIntervalMs: 5_000, liveOutbox },
  );
  return { clock, outbox, a, b, voice, dispatcher };
}

describe('Dispatcher', () => {
  it('fails over on a retryable failure and stops at a refusal', async () => {
    const { a, b, dispatcher } = setup();
    a.answer = transient;
    expect(await dispatcher.deliver(deliveryRequest(), 'live')).toEqual({
      ok: true,
      provider: 'b',
      providerMessageId: 'B1',
      outbox: false,
    });
    a.answer = refusal;
    expect(await dispatcher.deliver(deliveryRequest(), 'live')).toMatchObject({
      ok: false,
      permanent: true,
      provider: 'a',
    });
    expect(b.calls).toBe(1);
  });

  it('treats a provider that throws as a retryable failure', async () => {
    const { a, dispatcher } = setup();
    a.answer = () => {
      throw new TypeError('boom');
    };
    expect(await dispatcher.deliver(deliveryRequest(), 'live')).toMatchObject({
      ok: true,
      provider: 'b',
    });
  });

  it('opens the circuit after repeated failures, half-opens after the cool-off', async () => {
    const { clock, a, b, dispatcher } = setup();
    a.answer = transient;
    await dispatcher.deliver(deliveryRequest(), 'live');
    await dispatcher.deliver(deliveryRequest(), 'live');
    expect(a.calls).toBe(2);
    await dispatcher.deliver(deliveryRequest(), 'live');
    expect(a.calls).toBe(2);
    expect(b.calls).toBe(3);
    clock.advance(10_000);
    // Half-open: one more failure is enough to open it again.
    await dispatcher.deliver(deliveryRequest(), 'live');
    expect(a.calls).toBe(3);
    await dispatcher.deliver(deliveryRequest(), 'live');
    expect(a.calls).toBe(3);
  });

  it('refusals of the destination do not count toward the circuit', async () => {
    const { a, dispatcher } = setup({ failures: 1, cooldownMs: 10_000 });
    a.answer = refusal;
    await dispatcher.deliver(deliveryRequest(), 'live');
    await dispatcher.deliver(deliveryRequest(), 'live');
    expect(a.calls).toBe(2);
  });

  it('plans the outbox for test keys and for live codes without a provider, a provider otherwise', () => {
    const { outbox, a, voice, dispatcher } = setup();
    const parked = {
      via: 'outbox',
      content: '{}',
      result: { ok: true, provider: 'outbox', providerMessageId: 'msg_1', outbox: true },
    };
    const sms = deliveryRequest();
    const email = deliveryRequest({ channel: 'EMAIL', to: 'a@example.com' });
    const whatsapp = deliveryRequest({ channel: 'WHATSAPP', deliveryType: 'TEXT' });
    const voiceCall = deliveryRequest({ channel: 'WHATSAPP', deliveryType: 'CALL' });
    // A test key: the outbox, whatever providers the channel has.
    for (const r of [sms, email, whatsapp, voiceCall]) expect(dispatcher.plan(r, 'test')).toEqual(parked);
    // A live key: a provider where one is routed (SMS; WhatsApp calls) ...
    expect(dispatcher.plan(sms, 'live')).toEqual({ via: 'provider' });
    expect(dispatcher.plan(voiceCall, 'live')).toEqual({ via: 'provider' });
    // ... the outbox where none is (LIVE_OUTBOX=allow): email, WhatsApp text.
    expect(dispatcher.plan(email, 'live')).toEqual(parked);
    expect(dispatcher.plan(whatsapp, 'live')).toEqual(parked);
    // Under LIVE_OUTBOX=refuse a live code is never parked: deliver() refuses it.
    const refusing = setup(undefined, 'refuse').dispatcher;
    expect(refusing.plan(email, 'live')).toEqual({ via: 'provider' });
    expect(refusing.plan(sms, 'live')).toEqual({ via: 'provider' });
    expect(refusing.plan(email, 'test')).toEqual(parked);
    // Planning sends nothing.
    expect(a.calls + voice.calls + outbox.calls).toBe(0);
  });

  it('delivers through the outbox for test keys and through the route otherwise', async () => {
    const { outbox, a, voice, dispatcher } = setup();
    expect(await dispatcher.deliver(deliveryRequest(), 'test')).toMatchObject({
      ok: true,
      outbox: true,
    });
    expect(
      await dispatcher.deliver(deliveryRequest({ channel: 'WHATSAPP', deliveryType: 'CALL' }), 'live'),
    ).toMatchObject({ provider: 'voice', outbox: false });
    expect(a.calls).toBe(0);
    expect(outbox.calls).toBe(1);
    expect(voice.calls).toBe(1);
  });

  it('reports states from cached checks and open circuits; real providers decide operational', async () => {
    const { clock, a, b, voice, dispatcher } = setup();
    b.state = 'down';
    voice.state = 'down';
    const first = await dispatcher.health();
    expect(first.SMS).toEqual({
      operational: true,
      providers: [
        { name: 'a', state: 'up' },
        { name: 'b', state: 'down' },
      ],
      liveCodes: 'delivered',
    });
    expect(first.EMAIL).toEqual({
      operational: true,
      providers: [{ name: 'outbox', state: 'up' }],
      liveCodes: 'outbox',
      note: 'Live EMAIL codes go to the outbox and are not delivered: no provider is configured (LIVE_OUTBOX=allow).',
    });
    // WhatsApp TEXT still goes to the outbox (CALL has its provider), but the channel's one real provider is down.
    expect(first.WHATSAPP).toEqual({
      operational: false,
      providers: [
        { name: 'voice', state: 'down' },
        { name: 'outbox', state: 'up' },
      ],
      liveCodes: 'outbox',
      note: 'Live WHATSAPP codes with deliveryType TEXT go to the outbox and are not delivered: no provider is configured (LIVE_OUTBOX=allow).',
    });
    await dispatcher.health();
    expect(a.checks).toBe(1);
    clock.advance(5_000);
    a.answer = transient;
    await dispatcher.deliver(deliveryRequest(), 'live');
    await dispatcher.deliver(deliveryRequest(), 'live');
    // a's circuit is open; b delivered both messages, which outweighs its failed check.
    const later = await dispatcher.health();
    expect(later.SMS).toEqual({
      operational: true,
      providers: [
        { name: 'a', state: 'down' },
        { name: 'b', state: 'up' },
      ],
      liveCodes: 'delivered',
    });
  });

  it('LIVE_OUTBOX=refuse: a live code with no provider is unavailable and never parked; test keys still are', async () => {
    const { outbox, dispatcher } = setup(undefined, 'refuse');
    expect(dispatcher.available('EMAIL', 'live')).toBe(false);
    expect(dispatcher.available('EMAIL', 'test')).toBe(true);
    expect(dispatcher.available('SMS', 'live')).toBe(true);
    expect(dispatcher.available('WHATSAPP', 'live', 'CALL')).toBe(true);
    expect(dispatcher.available('WHATSAPP', 'live', 'TEXT')).toBe(false);
    expect(
      await dispatcher.deliver(deliveryRequest({ channel: 'EMAIL', to: 'a@example.com' }), 'live'),
    ).toMatchObject({ ok: false, permanent: false });
    expect(outbox.calls).toBe(0);
    expect(
      await dispatcher.deliver(deliveryRequest({ channel: 'EMAIL', to: 'a@example.com' }), 'test'),
    ).toMatchObject({ ok: true, outbox: true });
    const health = await dispatcher.health();
    expect(health.EMAIL).toMatchObject({ operational: false, liveCodes: 'refused' });
    expect(health.SMS).toMatchObject({ operational: true, liveCodes: 'delivered' });
    expect(health.WHATSAPP.note).toBe(
      'Live WHATSAPP codes with deliveryType TEXT are refused with 503 CHANNEL_UNAVAILABLE: no provider is configured (LIVE_OUTBOX=refuse). Test keys use the outbox.',
    );
    // LIVE_OUTBOX=allow (the default): every channel is available.
    expect(setup().dispatcher.available('EMAIL', 'live')).toBe(true);
  });
});
