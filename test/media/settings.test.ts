import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/schema.js';
import { mediaOptions, parseIceServer } from '../../src/media/settings.js';

describe('media settings', () => {
  it('reads the announced addresses and the ICE servers, TURN credentials before the host', () => {
    const config = loadConfig({
      WEBRTC_ANNOUNCED_ADDRESSES: '203.0.113.7, 127.0.0.1',
      WEBRTC_ICE_SERVERS:
        'stun:stun.example.com:3478,turn:alice:s%40cret@turn.example.com:3478?transport=udp',
    });
    expect(mediaOptions(config)).toEqual({
      announcedAddresses: ['203.0.113.7', '127.0.0.1'],
      iceServers: [
        { urls: 'stun:stun.example.com:3478' },
        { urls: 'turn:turn.example.com:3478?transport=udp', username: 'alice', credential: 's@cret' },
      ],
    });
    expect(mediaOptions(loadConfig({}))).toEqual({ announcedAddresses: [], iceServers: [] });
  });

  it('refuses what is not an address list or a STUN/TURN URL, naming the variable', () => {
    expect(() => loadConfig({ WEBRTC_ANNOUNCED_ADDRESSES: 'example.com' })).toThrow(
      /WEBRTC_ANNOUNCED_ADDRESSES/,
    );
    expect(() => loadConfig({ WEBRTC_ICE_SERVERS: 'http://stun.example.com' })).toThrow(/WEBRTC_ICE_SERVERS/);
    expect(() => parseIceServer('ftp:x')).toThrow(/STUN or TURN/);
  });
});
