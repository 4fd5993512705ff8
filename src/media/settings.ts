import { type Static, type TObject, Type } from '@sinclair/typebox';

/** The media settings of calls whose audio this service sends itself (WebRTC), described once. */
export const mediaSettings = {
  webrtcAnnouncedAddresses: Type.Optional(
    Type.String({
      env: 'WEBRTC_ANNOUNCED_ADDRESSES',
      minLength: 1,
      pattern: '^ *[0-9A-Fa-f.:]+( *, *[0-9A-Fa-f.:]+)* *$',
      description:
        "IP addresses offered as the host candidates of a call's media, comma-separated; only these are offered and used. Unset: every address of the machine's interfaces. Behind NAT, the public address (with UDP forwarded to this host).",
    }),
  ),
  webrtcIceServers: Type.Optional(
    Type.String({
      env: 'WEBRTC_ICE_SERVERS',
      minLength: 1,
      secret: true,
      pattern: '^(stun|turns?):[^\\s,]+(,(stun|turns?):[^\\s,]+)*$',
      description:
        'STUN and TURN servers of call media, comma-separated URLs: `stun:stun.example.com:3478`, `turn:user:password@turn.example.com:3478` (credentials before the host). Unset: none (host candidates only).',
    }),
  ),
};

export type MediaConfig = Static<TObject<typeof mediaSettings>>;

/** A STUN or TURN server as a WebRTC peer takes it. */
export interface IceServer {
  urls: string;
  username?: string;
  credential?: string;
}

/** The media options of a call, from the configuration. */
export interface MediaOptions {
  /** Host candidates offered; empty: the machine's interfaces. */
  announcedAddresses: string[];
  iceServers: IceServer[];
}

export function mediaOptions(config: MediaConfig): MediaOptions {
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    announcedAddresses: list(config.webrtcAnnouncedAddresses),
    iceServers: list(config.webrtcIceServers).map(parseIceServer),
  };
}

/** `turn:user:password@host:port` → `{urls: 'turn:host:port', username, credential}`. */
export function parseIceServer(url: string): IceServer {
  const match = /^(stun|turns?):(?:([^:@]+):([^@]+)@)?(.+)$/.exec(url);
  if (!match) throw new Error(`Not a STUN or TURN URL: ${url.replace(/:[^:@]*@/, ':***@')}`);
  const [, scheme, username, credential, host] = match;
  return username && credential
    ? {
        urls: `${scheme}:${host}`,
        username: decodeURIComponent(username),
        credential: decodeURIComponent(credential),
      }
    : { urls: `${scheme}:${host}` };
}
