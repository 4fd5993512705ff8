import { describe, expect, it } from 'vitest';
import { hashCode } from '../../src/domain/codes.js';
import {
  checkRedirectUrl,
  generateLinkToken,
  hashLinkToken,
  isLinkToken,
  LINK_TOKEN_LENGTH,
  linkTokenHashes,
  parseRedirectOrigin,
  verifiedRedirect,
} from '../../src/domain/links.js';

describe('link tokens', () => {
  it('are 32 random bytes in base64url: 43 characters, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 2000 }, generateLinkToken));
    expect(tokens.size).toBe(2000);
    for (const t of tokens) {
      expect(t).toHaveLength(LINK_TOKEN_LENGTH);
      expect(isLinkToken(t)).toBe(true);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
  });

  it('every character position takes many values (no fixed or biased part)', () => {
    const tokens = Array.from({ length: 4000 }, generateLinkToken);
    // The last character of 32 bytes in base64url carries 4 bits: 16 values; the others 64.
    for (let i = 0; i < LINK_TOKEN_LENGTH; i++) {
      const seen = new Set(tokens.map((t) => t[i]));
      expect(seen.size, `position ${i}`).toBeGreaterThanOrEqual(i === LINK_TOKEN_LENGTH - 1 ? 16 : 60);
    }
  });

  it('a shape check refuses anything but 43 base64url characters', () => {
    for (const bad of [
      '',
      'a'.repeat(42),
      'a'.repeat(44),
      `${'a'.repeat(42)}=`,
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)}/`,
      `${'a'.repeat(42)}\u00e9`,
    ])
      expect(isLinkToken(bad), bad).toBe(false);
  });

  it('is stored as a keyed hash: another secret gives another hash, and no code hash can equal it', () => {
    const token = generateLinkToken();
    const a = Buffer.from('secret-a');
    const b = Buffer.from('secret-b');
    expect(hashLinkToken(a, token)).toHaveLength(32);
    expect(hashLinkToken(a, token).equals(hashLinkToken(a, token))).toBe(true);
    expect(hashLinkToken(a, token).equals(hashLinkToken(b, token))).toBe(false);
    expect(hashLinkToken(a, token).toString('hex')).not.toContain(Buffer.from(token).toString('hex'));
    // The domain separator: HMAC(secret, "link\0" + token) is not a code's HMAC(secret, id "\0" code).
    expect(hashLinkToken(a, token).equals(hashCode(a, 'link', token))).toBe(false);
    // During a rotation: the current secret's hash, then the previous one's.
    const hashes = linkTokenHashes([a, b], token);
    expect(hashes[0]?.equals(hashLinkToken(a, token))).toBe(true);
    expect(hashes[1]?.equals(hashLinkToken(b, token))).toBe(true);
  });
});

describe('redirect URLs', () => {
  const allowed = ['https://app.example.com', 'http://localhost:3000', 'https://[2001:db8::1]'];
  const check = (url: string) => checkRedirectUrl(url, allowed);
  const ok = (url: string) => {
    const r = check(url);
    if ('problem' in r) throw new Error(`${url}: ${r.problem}`);
    return r.url;
  };

  it('accepts an allowed origin with any path, query and fragment, as the URL parser writes it', () => {
    expect(ok('https://app.example.com')).toBe('https://app.example.com/');
    expect(ok('https://app.example.com/welcome?x=1#top')).toBe('https://app.example.com/welcome?x=1#top');
    expect(ok('HTTPS://APP.EXAMPLE.COM:443/a')).toBe('https://app.example.com/a');
    expect(ok('http://localhost:3000/cb')).toBe('http://localhost:3000/cb');
    expect(ok('https://app.example.com/%2F%2Fevil.com')).toBe('https://app.example.com/%2F%2Fevil.com');
  });

  // CVE-2024-56734 (better-auth's callbackURL accepted a scheme-relative `//evil`), and
  // CVE-2025-27143 (its fix bypassed by `/\/evil` and other backslash forms, which browsers read as
  // `//`): every form of them, and the other known bypasses of redirect allow-lists.
  const bypasses: Array<[string, string]> = [
    ['//evil.com', 'scheme-relative'],
    ['//app.example.com', 'scheme-relative to an allowed host'],
    ['/\\/evil.com', 'CVE-2025-27143: slash backslash slash'],
    ['/\\evil.com', 'slash backslash'],
    ['\\\\evil.com', 'two backslashes'],
    ['/%5C/evil.com', 'encoded backslash, scheme-less'],
    ['/%2F/evil.com', 'encoded slash, scheme-less'],
    ['/welcome', 'a path alone'],
    ['https:evil.com', 'scheme without slashes'],
    ['https:/evil.com', 'scheme and one slash'],
    ['https:///evil.com', 'three slashes'],
    ['https:\\\\evil.com', 'scheme and backslashes'],
    ['https://app.example.com\\@evil.com', 'backslash before @'],
    ['https://evil.com\\app.example.com', 'backslash in the host'],
    ['https://app.example.com@evil.com', 'allowed origin as userinfo'],
    ['https://user:pass@app.example.com/', 'userinfo on an allowed origin'],
    ['http://localhost@evil.com', 'localhost as userinfo'],
    ['http://localhost:3000@evil.com', 'localhost and port as userinfo'],
    ['https://app.example.com%40evil.com', 'encoded @'],
    ['https://app.example.com%2F@evil.com', 'encoded slash before @'],
    ['https://app.example.com%2Fevil.com', 'encoded slash in the host'],
    ['https://app%2Eexample%2Ecom/', 'encoded dots'],
    ['https://app.example.com.evil.com/', 'allowed origin as a prefix of the host'],
    ['https://evil.com/https://app.example.com', 'allowed origin in the path'],
    ['https://evil.com?https://app.example.com', 'allowed origin in the query'],
    ['https://evil.com#https://app.example.com', 'allowed origin in the fragment'],
    ['https://evilapp.example.com/', 'a sibling host'],
    ['http://app.example.com/', 'http on a non-loopback host'],
    ['http://localhost/', 'an allowed host on another port'],
    ['http://localhost.evil.com:3000/', 'localhost as a prefix'],
    ['https://localhost:3000/', 'another scheme of an allowed origin'],
    ['javascript:alert(document.domain)//https://app.example.com', 'javascript:'],
    ['JaVaScRiPt:alert(1)', 'javascript: in mixed case'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['vbscript:msgbox(1)', 'vbscript:'],
    [' https://app.example.com/', 'a leading space (parsers strip it)'],
    ['https://app.example.com/\t', 'a tab (parsers drop it)'],
    ['\thttps://evil.com', 'a leading tab'],
    ['https://app.example.com/\r\nSet-Cookie: x=1', 'a header injection'],
    ['https://app.example.com/\u0000', 'a NUL'],
    ['https://app.example.com/\u202e', 'a bidirectional override'],
    ['https://app.example.com\u3002evil.com/', 'an ideographic full stop'],
    ['https://app.example.com\uff0eevil.com/', 'a full-width full stop'],
    [`https://app.example.com/${'a'.repeat(2000)}`, 'over 2,000 characters'],
    ['', 'empty'],
    ['not a url', 'not a URL'],
  ];
  for (const [url, what] of bypasses) {
    it(`refuses ${what}: ${JSON.stringify(url.slice(0, 60))}`, () => {
      expect('problem' in check(url)).toBe(true);
    });
  }

  it('full-width letters are read as the parser reads them: what is sent is the ASCII origin that was checked', () => {
    expect(ok('https://ａｐｐ.example.com/x')).toBe('https://app.example.com/x');
    expect('problem' in check('https://ｅｖｉｌ.com/')).toBe(true);
  });

  it('says why, and that an empty allow-list refuses every redirect', () => {
    expect(checkRedirectUrl('https://app.example.com/', [])).toEqual({
      problem: "must have an origin listed in the account's linkRedirectOrigins, which is empty",
    });
    expect(check('https://a@app.example.com/')).toEqual({
      problem: 'must not contain a user name or password',
    });
  });

  it('the answer URL adds requestId and status=verified to the query, keeping the fragment', () => {
    expect(verifiedRedirect('https://app.example.com/cb?x=1#f', 'r-1')).toBe(
      'https://app.example.com/cb?x=1&requestId=r-1&status=verified#f',
    );
  });
});

describe('allowed origins', () => {
  it('are origins only, normalised', () => {
    expect(parseRedirectOrigin('https://App.Example.com')).toEqual({ origin: 'https://app.example.com' });
    expect(parseRedirectOrigin('https://app.example.com/')).toEqual({ origin: 'https://app.example.com' });
    expect(parseRedirectOrigin('https://app.example.com:443')).toEqual({ origin: 'https://app.example.com' });
    expect(parseRedirectOrigin('http://127.0.0.1:8080')).toEqual({ origin: 'http://127.0.0.1:8080' });
    expect(parseRedirectOrigin('http://[::1]:8080')).toEqual({ origin: 'http://[::1]:8080' });
    for (const bad of [
      'https://app.example.com/path',
      'https://app.example.com?x',
      'https://app.example.com#x',
      'http://app.example.com',
      'https://u@app.example.com',
      'app.example.com',
      '//app.example.com',
      '*',
      'https://*.example.com',
    ])
      expect('problem' in parseRedirectOrigin(bad), bad).toBe(true);
  });
});
