import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateApiKeySecret, hashApiKey, KEY_PATTERN } from '../../src/domain/api-keys.js';
import { codeMatches, generateCode, hashCode, matchingCodeId } from '../../src/domain/codes.js';

describe('codes', () => {
  it('are digits of the requested length, leading zeros kept', () => {
    for (const length of [4, 6, 8, 10]) {
      for (let i = 0; i < 200; i++) expect(generateCode(length)).toMatch(new RegExp(`^\\d{${length}}$`));
    }
  });

  it('spread over every digit in every position', () => {
    const seen = Array.from({ length: 6 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      for (const [p, d] of [...generateCode(6)].entries()) seen[p]?.add(d);
    }
    for (const s of seen) expect(s.size).toBe(10);
  });

  it('are stored as an HMAC keyed by the secret and bound to the request id', () => {
    const secret = Buffer.from('s1');
    const h = hashCode(secret, 'req-a', '123456');
    expect(h).toHaveLength(32);
    expect(h.equals(hashCode(Buffer.from('s2'), 'req-a', '123456'))).toBe(false);
    expect(h.equals(hashCode(secret, 'req-b', '123456'))).toBe(false);
    expect(codeMatches(secret, 'req-a', '123456', h)).toBe(true);
    expect(codeMatches(secret, 'req-a', '123457', h)).toBe(false);
    expect(codeMatches(secret, 'req-b', '123456', h)).toBe(false);
    expect(codeMatches(secret, 'req-a', '123456', Buffer.alloc(31))).toBe(false);
  });

  it('match against every row of a group, the first match winning', () => {
    const secret = Buffer.from('s1');
    const row = (id: string, code: string) => ({ id, codeHash: hashCode(secret, id, code) });
    const rows = [row('req-a', '111111'), row('req-b', '222222'), row('req-c', '222222')];
    expect(matchingCodeId(secret, rows, '111111')).toBe('req-a');
    expect(matchingCodeId(secret, rows, '222222')).toBe('req-b');
    expect(matchingCodeId(secret, rows, '333333')).toBeNull();
    expect(matchingCodeId(secret, [], '111111')).toBeNull();
  });
});

describe('API keys', () => {
  it('are 256-bit secrets with a recognisable prefix, stored as a hash', () => {
    const live = generateApiKeySecret('live');
    expect(live).toMatch(KEY_PATTERN);
    expect(live.startsWith('cvk_live_')).toBe(true);
    expect(generateApiKeySecret('test').startsWith('cvk_test_')).toBe(true);
    expect(generateApiKeySecret('live')).not.toBe(live);
    expect(hashApiKey(live)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('source', () => {
  it('never uses Math.random', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk(new URL('../../src', import.meta.url).pathname);
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/Math\.random/);
  });
});
