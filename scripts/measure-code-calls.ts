/**
 * Measures what code calls cost the process that places them: CPU time and peak RSS of 1 and of
 * 20 concurrent calls (6-digit code, the whole reading of about 15 s), on loopback, with the
 * prompts' packets sent as they are ("pre-encoded") and, for comparison, with the same audio
 * encoded during each call ("encoded per call", opusscript). The calls' far ends run in another
 * process, so the figures are the caller's alone. Run once on a quiet machine:
 *
 *   npx tsx scripts/measure-code-calls.ts
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpusScript from 'opusscript';
import { CodeCall } from '../src/media/code-call.js';
import { codeReading, loadPromptSet } from '../src/media/prompts.js';

type Mode = 'pre-encoded' | 'encoded per call';
const LOOPBACK = { announcedAddresses: ['127.0.0.1'], iceServers: [] };
const self = fileURLToPath(import.meta.url);

/** The far ends: answers offers sent by the parent and counts the packets each one hears. */
async function farEnds() {
  const { UserPeer } = await import('../test/media/support/user-peer.js');
  const peers = new Map<number, Awaited<ReturnType<typeof UserPeer.answering>>>();
  process.on('message', async (m: { id: number; offer?: string; count?: boolean }) => {
    if (m.offer) {
      const peer = await UserPeer.answering(m.offer);
      peers.set(m.id, peer);
      process.send?.({ id: m.id, answer: peer.answer });
    } else if (m.count) {
      const peer = peers.get(m.id);
      process.send?.({ id: m.id, packets: peer?.packets ?? 0 });
      await peer?.close();
      peers.delete(m.id);
    }
  });
  process.send?.({ ready: true });
}

/** The same reading decoded once to PCM frames: what a caller that encodes during the call starts from. */
function pcmFrames(packets: readonly Uint8Array[]): Buffer[] {
  const decoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
  const frames = packets.map((p) => Buffer.from(decoder.decode(Buffer.from(p))));
  decoder.delete();
  return frames;
}

async function measure(mode: Mode, calls: number) {
  const child = fork(self, ['--far-ends'], { execArgv: ['--import', 'tsx'] });
  process.once('exit', () => child.kill());
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  child.on('message', (m: Record<string, unknown>) => waiting.get(Number(m.id))?.(m));
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const ask = (id: number, m: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      child.send({ id, ...m });
    });

  const set = loadPromptSet('en');
  const prepared = codeReading('481592', set);
  const pcm = mode === 'encoded per call' ? pcmFrames(prepared) : [];
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: calls }, async (_, id) => {
      const t0 = performance.now();
      const call = await CodeCall.create(LOOPBACK);
      const offerMs = performance.now() - t0;
      const { answer } = await ask(id, { offer: call.offer });
      await call.answer(String(answer));
      const t1 = performance.now();
      await call.connected(20_000);
      const connectMs = performance.now() - t1;
      let packets = prepared;
      if (mode === 'encoded per call') {
        const encoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
        encoder.encoderCTL(4002, 16_000);
        packets = pcm.map((frame) => new Uint8Array(encoder.encode(frame, 960)));
        encoder.delete();
      }
      const played = await call.play(packets);
      await call.close();
      const { packets: heard } = await ask(id, { count: true });
      return {
        offerMs,
        connectMs,
        sent: played.packets,
        heard: Number(heard),
        seconds: played.durationMs / 1000,
      };
    }),
  );
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  child.kill();
  const cpuMs = (used.user + used.system) / 1000;
  const avg = (f: (r: (typeof results)[number]) => number) =>
    Math.round(results.reduce((s, r) => s + f(r), 0) / results.length);
  console.log(
    JSON.stringify({
      mode,
      calls,
      audioSeconds: results[0]?.seconds,
      cpuMs: Math.round(cpuMs),
      cpuMsPerCall: Math.round(cpuMs / calls),
      cpuShareOfOneCore: `${((100 * cpuMs) / wallMs).toFixed(1)}%`,
      rssBeforeMB: Math.round(rssBefore / 1e6),
      peakRssMB: Math.round(peak / 1e6),
      rssPerCallMB: +((peak - rssBefore) / 1e6 / calls).toFixed(1),
      offerMsAvg: avg((r) => r.offerMs),
      connectMsAvg: avg((r) => r.connectMs),
      packetsLost: results.reduce((s, r) => s + (r.sent - r.heard), 0),
    }),
  );
}

if (process.argv.includes('--far-ends')) {
  await farEnds();
} else {
  console.log(
    JSON.stringify({ node: process.version, rssIdleMB: Math.round(process.memoryUsage().rss / 1e6) }),
  );
  for (const mode of ['pre-encoded', 'encoded per call'] as const) {
    await measure(mode, 1);
    await measure(mode, 20);
  }
  process.exit(0);
}
