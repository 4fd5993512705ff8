import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { hashCode, matchingCodeId } from '../../src/domain/codes.js';
import type { SessionStore, StoredSession } from '../../src/domain/ports/sessions.js';
import type { WebhookStore } from '../../src/domain/ports/webhooks.js';
import { type AdminGate, isAdminToken } from '../../src/http/auth.js';
import { csrfKeyFrom, DashboardSessions } from '../../src/http/dashboard/sessions.js';
import { resealWebhookSecrets, SecretBox } from '../../src/webhooks/secrets.js';

/** What a rotation of CODE_SECRET or ADMIN_TOKEN accepts from before it, part by part. */

const OLD = Buffer.from('old-code-secret');
const NEW = Buffer.from('new-code-secret');

describe('codes during a CODE_SECRET rotation', () => {
  it('verify under the current or the previous secret, and under no other', () => {
    const rows = [
      { id: 'req-old', codeHash: hashCode(OLD, 'req-old', '111111') },
      { id: 'req-new', codeHash: hashCode(NEW, 'req-new', '222222') },
    ];
    expect(matchingCodeId([NEW, OLD], rows, '111111')).toBe('req-old');
    expect(matchingCodeId([NEW, OLD], rows, '222222')).toBe('req-new');
    expect(matchingCodeId(NEW, rows, '111111')).toBeNull();
    expect(matchingCodeId([NEW, Buffer.from('other')], rows, '111111')).toBeNull();
  });
});

describe('webhook signing secrets during a CODE_SECRET rotation', () => {
  it('open under the previous secret, and are sealed again under the current one', () => {
    const sealedOld = new SecretBox(OLD).seal('whsec_a');
    const box = new SecretBox(NEW, [OLD]);
    expect(box.open(sealedOld)).toBe('whsec_a');
    const resealed = box.reseal(sealedOld);
    expect(resealed).not.toBeNull();
    expect(new SecretBox(NEW).open(resealed!)).toBe('whsec_a');
    expect(box.reseal(resealed!)).toBeNull();
    expect(() => box.open(new SecretBox(Buffer.from('other')).seal('whsec_b'))).toThrow(
      /another CODE_SECRET/,
    );
  });

  it('are replaced only when the stored value is still the one read, and unreadable ones are named', async () => {
    const rows = new Map([
      ['wh_old', new SecretBox(OLD).seal('whsec_old')],
      ['wh_new', new SecretBox(NEW).seal('whsec_new')],
      ['wh_lost', new SecretBox(Buffer.from('other')).seal('whsec_lost')],
    ]);
    const store = {
      sealedSecrets: async () => [...rows].map(([id, sealedSecret]) => ({ id, sealedSecret })),
      replaceSealedSecret: async (id: string, expected: string, next: string) => {
        if (rows.get(id) !== expected) return false;
        rows.set(id, next);
        return true;
      },
    } as unknown as WebhookStore;
    const box = new SecretBox(NEW, [OLD]);
    expect(await resealWebhookSecrets(store, box)).toEqual({ resealed: 1, unreadable: ['wh_lost'] });
    expect(new SecretBox(NEW).open(rows.get('wh_old')!)).toBe('whsec_old');
    expect(await resealWebhookSecrets(store, box)).toEqual({ resealed: 0, unreadable: ['wh_lost'] });
  });
});

describe('dashboard CSRF tokens during a CODE_SECRET rotation', () => {
  it('made under the previous secret are accepted beside the current ones', async () => {
    const saved = new Map<string, StoredSession>();
    const store: SessionStore = {
      create: async (s) => void saved.set(s.idHash, s),
      find: async (h) => saved.get(h) ?? null,
      delete: async (h) => saved.delete(h),
      sweep: async () => 0,
    };
    const clock = new ManualClock(Date.parse('2026-11-26T00:00:00Z'));
    const before = new DashboardSessions(store, clock, csrfKeyFrom(OLD), 3600);
    const session = await before.open();
    const during = new DashboardSessions(store, clock, [csrfKeyFrom(NEW), csrfKeyFrom(OLD)], 3600);
    const found = (await during.find(session.id))!;
    expect(found.csrfToken).not.toBe(session.csrfToken);
    expect(during.csrfMatches(found, session.csrfToken)).toBe(true);
    expect(during.csrfMatches(found, found.csrfToken)).toBe(true);
    const after = new DashboardSessions(store, clock, csrfKeyFrom(NEW), 3600);
    expect(after.csrfMatches(found, session.csrfToken)).toBe(false);
  });
});

describe('admin tokens during an ADMIN_TOKEN rotation', () => {
  it('are the current one or the previous one', () => {
    const sha = (s: string) => createHash('sha256').update(s).digest();
    const gate = { tokenHash: sha('new-token'), previousTokenHash: sha('old-token') } as AdminGate;
    expect(isAdminToken(gate, 'new-token')).toBe(true);
    expect(isAdminToken(gate, 'old-token')).toBe(true);
    expect(isAdminToken(gate, 'other-token')).toBe(false);
    expect(isAdminToken({ ...gate, previousTokenHash: undefined }, 'old-token')).toBe(false);
  });
});
