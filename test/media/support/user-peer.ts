import OpusScript from 'opusscript';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';

/**
 * The WhatsApp user's side of a code call, in a test: a second werift peer on loopback that
 * answers the offer, receives the RTP audio and decodes it with libopus (opusscript), as a phone
 * would before its loudspeaker.
 */
export class UserPeer {
  private readonly received: Array<{ timestamp: number; payload: Buffer }> = [];
  private lastPacketAt = 0;

  private constructor(
    private readonly pc: RTCPeerConnection,
    /** The SDP answer, candidates inside (loopback only). */
    readonly answer: string,
  ) {}

  static async answering(offer: string): Promise<UserPeer> {
    const pc = new RTCPeerConnection({
      codecs: {
        audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
      },
      iceServers: [],
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ['127.0.0.1'],
      iceInterfaceAddresses: { udp4: '127.0.0.1' },
      iceFilterCandidatePair: (pair) => pair.localCandidate.host === '127.0.0.1',
    });
    let peer: UserPeer | undefined;
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => {
        peer?.received.push({ timestamp: rtp.header.timestamp, payload: Buffer.from(rtp.payload) });
        if (peer) peer.lastPacketAt = performance.now();
      });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') resolve();
      else pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && resolve());
    });
    const sdp = (pc.localDescription?.sdp ?? '')
      .split('\r\n')
      .filter((l) => !l.startsWith('a=candidate:') || / 127\.0\.0\.1 /.test(l))
      .join('\r\n');
    peer = new UserPeer(pc, sdp);
    return peer;
  }

  /** RTP packets received so far. */
  get packets(): number {
    return this.received.length;
  }

  /** Resolves once packets have come and then none for `quietMs` (the speaker is done), or after `timeoutMs`. */
  async heardAll(quietMs: number, timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (performance.now() < until) {
      if (this.received.length > 0 && performance.now() - this.lastPacketAt > quietMs) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The audio heard, decoded to 48 kHz mono PCM in timestamp order; a gap in timestamps is silence. */
  pcm(): Int16Array {
    const first = this.received[0]?.timestamp ?? 0;
    const ordered = [...this.received].sort(
      (a, b) => ((a.timestamp - first) >>> 0) - ((b.timestamp - first) >>> 0),
    );
    const decoder = new OpusScript(48_000, 1, OpusScript.Application.VOIP);
    const chunks: Int16Array[] = [];
    let at = 0;
    for (const p of ordered) {
      const offset = (p.timestamp - first) >>> 0;
      if (offset > at) chunks.push(new Int16Array(offset - at));
      const out = decoder.decode(p.payload);
      chunks.push(new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength)));
      at = offset + out.byteLength / 2;
    }
    decoder.delete();
    const pcm = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let o = 0;
    for (const c of chunks) {
      pcm.set(c, o);
      o += c.length;
    }
    return pcm;
  }

  /** The far end's connection state, as werift reports it. */
  get state(): string {
    return this.pc.connectionState;
  }

  close(): Promise<void> {
    return this.pc.close();
  }
}
