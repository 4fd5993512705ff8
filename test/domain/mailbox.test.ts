import { describe, expect, it } from 'vitest';
import { canonicalMailbox, isMailAddress } from '../../src/domain/mailbox.js';

describe('canonicalMailbox', () => {
  it('lower-cases the whole address', () => {
    expect(canonicalMailbox('Jane.Doe@Example.COM')).toBe('jane.doe@example.com');
    expect(canonicalMailbox('  jane@example.com ')).toBe('jane@example.com');
  });

  it('removes a +tag on every domain', () => {
    expect(canonicalMailbox('jane+1@example.com')).toBe('jane@example.com');
    expect(canonicalMailbox('jane+news+2024@example.org')).toBe('jane@example.org');
    expect(canonicalMailbox('JANE+Tag@Example.com')).toBe('jane@example.com');
  });

  it('keeps an address that is nothing but a tag whole', () => {
    expect(canonicalMailbox('+tag@example.com')).toBe('+tag@example.com');
  });

  it('removes dots of the local part on gmail.com and googlemail.com, which is gmail.com', () => {
    expect(canonicalMailbox('j.a.n.e@gmail.com')).toBe('jane@gmail.com');
    expect(canonicalMailbox('J.A.N.E+1@GoogleMail.com')).toBe('jane@gmail.com');
    expect(canonicalMailbox('jane@googlemail.com')).toBe('jane@gmail.com');
    // Elsewhere a dot is part of the mailbox's name.
    expect(canonicalMailbox('j.a.n.e@example.com')).toBe('j.a.n.e@example.com');
    expect(canonicalMailbox('j.ane@gmail.com.evil.example')).toBe('j.ane@gmail.com.evil.example');
  });

  it("folds Fastmail's subdomain addressing into the user's mailbox, on Fastmail's domains only", () => {
    expect(canonicalMailbox('shop@jane.fastmail.com')).toBe('jane@fastmail.com');
    expect(canonicalMailbox('News+x@Jane.FastMail.FM')).toBe('jane@fastmail.fm');
    // An underscore in the name is written as a hyphen in the subdomain.
    expect(canonicalMailbox('anything@joe-citizen.fastmail.fm')).toBe('joe_citizen@fastmail.fm');
    expect(canonicalMailbox('joe_citizen+x@fastmail.fm')).toBe('joe_citizen@fastmail.fm');
    // Deeper subdomains, other providers and look-alikes are left as they are.
    expect(canonicalMailbox('shop@a.jane.fastmail.com')).toBe('shop@a.jane.fastmail.com');
    expect(canonicalMailbox('shop@jane.example.com')).toBe('shop@jane.example.com');
    expect(canonicalMailbox('shop@jane.fastmail.com.evil.example')).toBe(
      'shop@jane.fastmail.com.evil.example',
    );
    expect(canonicalMailbox('shop@janefastmail.com')).toBe('shop@janefastmail.com');
  });

  it("folds Yahoo's disposable addresses (base-keyword) into one mailbox that names no account", () => {
    expect(canonicalMailbox('jane-shop@yahoo.com')).toBe('jane-@yahoo.com');
    expect(canonicalMailbox('Jane-News-2024@Yahoo.com')).toBe('jane-@yahoo.com');
    expect(canonicalMailbox('jane@yahoo.com')).toBe('jane@yahoo.com');
    // A hyphen is a tag only where the provider documents it.
    expect(canonicalMailbox('jane-shop@example.com')).toBe('jane-shop@example.com');
    expect(canonicalMailbox('jane-shop@gmail.com')).toBe('jane-shop@gmail.com');
    expect(canonicalMailbox('-shop@yahoo.com')).toBe('-shop@yahoo.com');
  });

  it('writes the domain in ASCII (punycode), whichever way it was given', () => {
    expect(canonicalMailbox('jane@exämple.com')).toBe('jane@xn--exmple-cua.com');
    expect(canonicalMailbox('Jane@EXÄMPLE.COM')).toBe('jane@xn--exmple-cua.com');
    expect(canonicalMailbox('jane@XN--EXMPLE-CUA.com')).toBe('jane@xn--exmple-cua.com');
    // Full-width letters are the same domain (IDNA mapping).
    expect(canonicalMailbox('jane@ｅｘａｍｐｌｅ.com')).toBe('jane@example.com');
  });

  it('ignores a trailing dot of the domain (the root)', () => {
    expect(canonicalMailbox('jane@example.com.')).toBe('jane@example.com');
  });

  it('gives null for what is no address, and never throws', () => {
    for (const odd of [
      '',
      '@',
      'jane',
      'jane@',
      '@example.com',
      'jane@exa mple.com',
      'jane@xn--zz.com',
      'jane@.',
    ]) {
      expect(canonicalMailbox(odd), odd).toBeNull();
    }
    expect(() => canonicalMailbox('\u0000@\ud800')).not.toThrow();
    expect(() => canonicalMailbox(`${'a'.repeat(10_000)}@${'b'.repeat(10_000)}`)).not.toThrow();
  });

  it('takes a domain named like an object property for a domain', () => {
    expect(canonicalMailbox('a.b@constructor')).toBe('a.b@constructor');
    expect(canonicalMailbox('a.b@__proto__')).toBe('a.b@__proto__');
  });

  it('is idempotent', () => {
    for (const a of ['J.A.N.E+1@GoogleMail.com', 'jane+x@exämple.com', 'a.b@example.com']) {
      const once = canonicalMailbox(a) as string;
      expect(canonicalMailbox(once)).toBe(once);
    }
  });
});

describe('isMailAddress', () => {
  it('accepts ASCII addresses and internationalised domains', () => {
    for (const ok of [
      'jane@example.com',
      'jane+1@gmail.com',
      'jane@exämple.com',
      'jane@xn--exmple-cua.com',
    ]) {
      expect(isMailAddress(ok), ok).toBe(true);
    }
  });

  it('refuses what is not an address, a non-ASCII local part, and non-strings', () => {
    for (const bad of [
      '',
      'jane',
      'jane@',
      'jäne@example.com',
      'jane@exa mple.com',
      'jane@-example.com',
      'a..b@example.com',
    ]) {
      expect(isMailAddress(bad), bad).toBe(false);
    }
    expect(isMailAddress(42)).toBe(false);
    expect(isMailAddress(null)).toBe(false);
    expect(isMailAddress('jane@xn--zz.com')).toBe(false);
  });
});
