import { afterEach, describe, expect, it } from 'vitest';
import { CodeCall, MediaError } from '../../src/media/code-call.js';
import { codeReading, loadPromptSet } from '../../src/media/prompts.js';
import { recognise } from './support/recognise.js';
import { UserPeer } from './support/user-peer.js';

const LOOPBACK = { announcedAddresses: ['127.0.0.1'], iceServers: [] };

describe('CodeCall: a WebRTC peer that speaks a code', () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });

  it('offers audio only, Opus at 48 kHz, DTLS actpass, with its loopback candidate inside', async () => {
    const call = await CodeCall.create(LOOPBACK);
    open.push(call);
    const sdp = call.offer;
    expect(sdp.match(/^m=/gm)).toEqual(['m=']);
    expect(sdp).toMatch(/^m=audio 9 UDP\/TLS\/RTP\/SAVPF \d+\r?$/m);
    expect(sdp).toMatch(/^a=rtpmap:\d+ opus\/48000\/2\r?$/m);
    expect(sdp).toMatch(/^a=setup:actpass\r?$/m);
    expect(sdp).toMatch(/^a=fingerprint:sha-256 /m);
    const candidates = sdp.match(/^a=candidate:.*$/gm) ?? [];
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(c).toMatch(/ udp \d+ 127\.0\.0\.1 \d+ typ host/);
  });

  for (const [language, code] of [
    ['en', '481592'],
    ['es', '730948'],
  ] as const) {
    it(`is heard saying the code twice, in ${language}, by the peer that answers`, async () => {
      const call = await CodeCall.create(LOOPBACK);
      open.push(call);
      const user = await UserPeer.answering(call.offer);
      open.push(user);
      await call.answer(user.answer);
      const playback = await call.speak(codeReading(code, loadPromptSet(language)), 10_000);
      await user.heardAll(500, 5_000);
      expect(user.packets).toBe(playback.packets);
      const heard = recognise(user.pcm(), language);
      expect(heard.clips.join(' ')).toBe(`intro ${[...code].join(' ')} again ${[...code].join(' ')}`);
      expect(heard.digits).toBe(code + code);
      // A wrong code never passes for this one.
      expect(heard.digits).not.toBe(`${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}`.repeat(2));
      // Paced in real time: 20 ms a packet, give or take the loaded machine.
      expect(playback.durationMs).toBeGreaterThan(playback.packets * 20 - 100);
    }, 60_000);
  }

  it('gives up when the far end never answers the offer, and closes', async () => {
    const call = await CodeCall.create(LOOPBACK);
    open.push(call);
    const error = await call.connected(300).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).reason).toBe('not_connected');
    await call.close();
    await expect(call.answer('v=0')).rejects.toMatchObject({ reason: 'closed' });
  });

  it('gives up when the answer points at a peer that is gone', async () => {
    const call = await CodeCall.create(LOOPBACK);
    open.push(call);
    const user = await UserPeer.answering(call.offer);
    await user.close();
    await call.answer(user.answer);
    await expect(call.speak([new Uint8Array([0xf8])], 1_500)).rejects.toMatchObject({
      reason: 'not_connected',
    });
  });

  it('refuses an answer that is not SDP', async () => {
    const call = await CodeCall.create(LOOPBACK);
    open.push(call);
    await expect(call.answer('not sdp')).rejects.toMatchObject({ reason: 'bad_answer' });
  });

  it('stops speaking when the call is ended', async () => {
    const call = await CodeCall.create(LOOPBACK);
    open.push(call);
    const user = await UserPeer.answering(call.offer);
    open.push(user);
    await call.answer(user.answer);
    await call.connected(10_000);
    const ended = new AbortController();
    const playing = call.play(codeReading('123456', loadPromptSet('en')), ended.signal);
    setTimeout(() => ended.abort(), 300);
    await expect(playing).rejects.toMatchObject({ reason: 'closed' });
    expect(user.packets).toBeLessThan(100);
  });
});
