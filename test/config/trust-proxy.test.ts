import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/schema.js';
import { trustedProxies, trustProxyWarnings } from '../../src/config/trust-proxy.js';

const load = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY });

describe('TRUST_PROXY', () => {
  it('takes false, true, a hop count and a list of addresses, networks and named ranges', () => {
    expect(trustedProxies(load('false').trustProxy)).toBe(false);
    expect(trustedProxies(loadConfig({}).trustProxy)).toBe(false);
    expect(trustedProxies(load('TRUE').trustProxy)).toBe(true);
    expect(trustedProxies(load('0').trustProxy)).toBe(false);
    expect(trustedProxies(load(' 10.0.0.1 , 10.1.0.0/16,loopback, ::1, fd00::/8').trustProxy)).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it('as a hop count trusts that many hops nearest the service, whatever their address', () => {
    const trust = trustedProxies(load('2').trustProxy) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => trust('192.0.2.1', hop))).toEqual([true, true, false]);
  });

  it('refuses anything else at start, naming the variable and the entry at fault', () => {
    for (const value of ['yes', '10.0.0.300', '10.0.0.0/40', 'lb.internal', '1.5', ',']) {
      expect(() => load(value), value).toThrow(ConfigError);
      expect(() => load(value), value).toThrow(/TRUST_PROXY: must be false, true, a hop count/);
    }
    expect(() => load('10.0.0.1, lb.internal')).toThrow(/"lb.internal" is none of those/);
  });

  it('warns only for true, which lets a client choose its address', () => {
    expect(trustProxyWarnings('true')[0]).toMatch(/trusts every hop/);
    for (const value of ['false', '1', '10.0.0.0/8']) expect(trustProxyWarnings(value)).toEqual([]);
  });
});
