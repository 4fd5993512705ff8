import { randomInt } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { RTCPeerConnection, RTCRtpCodecParameters, type RTCRtpSender, RtpHeader, RtpPacket } from 'werift';
import { MediaError } from './media-error.js';
import type { MediaOptions } from './settings.js';

export { MediaError };

/** Opus at 48 kHz: 960 samples (one RTP timestamp step) per 20 ms packet. */
const FRAME_MS = 20;
const SAMPLES_PER_FRAME = 960;

export interface CodeCallOptions extends MediaOptions {
  /** How long gathering the offer's candidates may take (STUN and TURN answers). */
  gatherTimeoutMs?: number;
}

/** What a call's playback did. */
export interface Playback {
  /** RTP packets sent (20 ms each). */
  packets: number;
  /** From the start of playback to its last packet. */
  durationMs: number;
}

/**
 * The media side of one call that speaks a code: an audio-only WebRTC peer (ICE, DTLS-SRTP,
 * Opus 48 kHz) that makes an offer, takes the far end's answer, waits for the connection and
 * sends prepared Opus packets as RTP, paced at 20 ms. It receives the far end's audio and
 * ignores it. `close()` releases its sockets and timers; every path should end with it.
 */
export class CodeCall {
  private closed = false;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly sender: RTCRtpSender,
    /** The SDP offer, with every candidate inside (the calls API takes one SDP, no trickle). */
    readonly offer: string,
  ) {}

  /** A new peer with its offer made and its candidates gathered. */
  static async create(options: CodeCallOptions): Promise<CodeCall> {
    const announced = options.announcedAddresses;
    const loopbackOnly = announced.length > 0 && announced.every((a) => a === '127.0.0.1');
    const pc = new RTCPeerConnection({
      codecs: {
        audio: [
          new RTCRtpCodecParameters({
            mimeType: 'audio/opus',
            clockRate: 48_000,
            channels: 2,
            parameters: 'minptime=10;useinbandfec=1',
          }),
        ],
      },
      // An empty list, never werift's default public STUN server: nothing leaves unless configured.
      iceServers: options.iceServers,
      iceUseIpv6: announced.length === 0 ? true : announced.some((a) => !isIPv4(a)),
      ...(announced.length > 0
        ? {
            iceAdditionalHostAddresses: announced,
            // werift also gathers the interfaces' addresses; only the announced ones may carry media.
            iceFilterCandidatePair: (pair) => announced.includes(pair.localCandidate.host),
          }
        : {}),
      ...(loopbackOnly ? { iceInterfaceAddresses: { udp4: '127.0.0.1' } } : {}),
    });
    try {
      const transceiver = pc.addTransceiver('audio', { direction: 'sendrecv' });
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc, options.gatherTimeoutMs ?? 5_000);
      const sdp = pc.localDescription?.sdp;
      if (!sdp) throw new Error('werift made no local description');
      return new CodeCall(pc, transceiver.sender, onlyAnnounced(sdp, announced));
    } catch (err) {
      await pc.close();
      throw err;
    }
  }

  /** Applies the far end's SDP answer (for WhatsApp: the `calls` webhook's `session.sdp`). */
  async answer(sdp: string): Promise<void> {
    if (this.closed) throw new MediaError('closed', 'The call was closed before its answer came');
    const problem = answerProblem(sdp);
    if (problem) throw new MediaError('bad_answer', `The SDP answer was refused: ${problem}`);
    try {
      await this.pc.setRemoteDescription({ type: 'answer', sdp });
    } catch (err) {
      throw new MediaError('bad_answer', `The SDP answer was refused: ${(err as Error).message}`);
    }
  }

  /** Resolves once ICE and DTLS are up (RTP sent before that is dropped); rejects on failure or timeout. */
  connected(timeoutMs: number): Promise<void> {
    if (this.pc.connectionState === 'connected') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        unsubscribe();
        if (err) reject(err);
        else resolve();
      };
      const timer = setTimeout(
        () => done(new MediaError('not_connected', `No media connection within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const { unSubscribe: unsubscribe } = this.pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected') done();
        else if (state === 'failed' || state === 'closed') {
          done(
            new MediaError(state === 'closed' ? 'closed' : 'not_connected', `The media connection ${state}`),
          );
        }
      });
    });
  }

  /**
   * Sends `packets` as RTP, one every 20 ms by the clock (a late timer sends what is due at once,
   * timestamps stay 960 apart). Stops early, rejecting, when the connection drops or `signal` aborts.
   */
  play(packets: readonly Uint8Array[], signal?: AbortSignal): Promise<Playback> {
    const sequence = randomInt(0, 0x10000);
    const timestamp = randomInt(0, 0x1_0000_0000);
    const started = performance.now();
    let next = 0;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const stop = (err?: Error) => {
        if (timer) clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        if (err) reject(err);
        else resolve({ packets: next, durationMs: Math.round(performance.now() - started) });
      };
      const aborted = () => stop(new MediaError('closed', 'The call ended while its code was being spoken'));
      signal?.addEventListener('abort', aborted, { once: true });
      const tick = () => {
        // 'disconnected' is transient (a late consent check on a loaded host): keep sending through it.
        const state = this.pc.connectionState;
        if (this.closed || state === 'closed' || state === 'failed') {
          stop(new MediaError('connection_lost', `The media connection was lost after ${next} packets`));
          return;
        }
        const due = Math.min(packets.length, Math.floor((performance.now() - started) / FRAME_MS) + 1);
        for (; next < due; next++) {
          // sendRtp fills in the negotiated payload type and the sender's SSRC.
          const header = new RtpHeader({
            sequenceNumber: (sequence + next) & 0xffff,
            timestamp: (timestamp + next * SAMPLES_PER_FRAME) >>> 0,
            marker: next === 0,
          });
          void this.sender.sendRtp(new RtpPacket(header, Buffer.from(packets[next] as Uint8Array)));
        }
        if (next >= packets.length) stop();
        else timer = setTimeout(tick, Math.max(1, started + next * FRAME_MS - performance.now()));
      };
      if (signal?.aborted) aborted();
      else tick();
    });
  }

  /** Waits for the connection, then plays `packets`: the whole media side of a call. */
  async speak(
    packets: readonly Uint8Array[],
    connectTimeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Playback> {
    await this.connected(connectTimeoutMs);
    return this.play(packets, signal);
  }

  /** Closes the peer: its sockets, DTLS and timers. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pc.close();
  }
}

/** What an answer must have for media to flow (werift itself takes almost any text). */
function answerProblem(sdp: string): string | null {
  if (!/^v=0\r?$/m.test(sdp)) return 'not SDP';
  if (!/^m=audio \d+ [A-Z/]*SAVPF? /m.test(sdp)) return 'no SRTP audio section';
  if (!/^a=rtpmap:\d+ opus\/48000(\/\d)?\r?$/im.test(sdp)) return 'Opus was not accepted';
  if (!/^a=fingerprint:/m.test(sdp)) return 'no DTLS fingerprint';
  if (!/^a=ice-ufrag:/m.test(sdp) || !/^a=ice-pwd:/m.test(sdp)) return 'no ICE credentials';
  if (!/^a=candidate:/m.test(sdp)) return 'no ICE candidate';
  if (/^a=setup:actpass/m.test(sdp)) return 'an answer cannot be a=setup:actpass';
  return null;
}

function gathered(pc: RTCPeerConnection, timeoutMs: number): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unSubscribe();
      reject(new Error(`ICE gathering took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      unSubscribe();
      resolve();
    });
  });
}

/** Keeps only the announced addresses among the offer's host candidates (reflexive and relay stay). */
function onlyAnnounced(sdp: string, announced: readonly string[]): string {
  if (announced.length === 0) return sdp;
  return sdp
    .split('\r\n')
    .filter((line) => {
      const m = /^a=candidate:\S+ \d+ \S+ \d+ (\S+) \d+ typ host/.exec(line);
      return !m || announced.includes(m[1] ?? '');
    })
    .join('\r\n');
}
