import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DestinationSignals } from '../../src/domain/ports/read-model.js';
import type { WindowCounts } from '../../src/domain/pumping-breaker.js';
import { assessRisk, RISK_SIGNALS } from '../../src/domain/risk.js';
import { type SendCodeBody, validateSendRequest } from '../../src/domain/send-request.js';

/**
 * Every risk signal docs/analytics.md lists can be reached by a send that validation accepts: a
 * signal whose condition the send-code rules already refuse (as `country_mismatch` was: a
 * `country` the number does not belong to is a 400) would be documented but never seen.
 */

const QUIET: DestinationSignals = {
  blocked: false,
  history: { sends: 0, verified: 0, wrongCodes: 0 },
  sendsLastHour: 0,
  neighboursLastHour: 0,
  breaker: null,
};

/** The signals of a send-code body, as the service scores it, after validation accepted it. */
function signalsOf(
  body: SendCodeBody,
  signals: Partial<DestinationSignals> = {},
  countryHour?: WindowCounts,
): string[] {
  const checked = validateSendRequest(body, new Set());
  if (!checked.ok) throw new Error(`refused: ${JSON.stringify(checked.details)}`);
  const { request } = checked;
  const channel = request.channels[0];
  if (!channel) throw new Error('no channel');
  return assessRisk({
    channel,
    destination: (channel === 'EMAIL' ? request.mailbox : request.phone) as string,
    country: channel === 'EMAIL' ? null : request.country,
    numberFacts: request.numberFacts,
    signals: { ...QUIET, ...signals },
    countryHour,
  }).signals.map((s) => s.name);
}

const UK_MOBILE = { channel: 'SMS', phone: '+447400123456', country: 'GB' } as const;

/** One send per signal that raises it. */
const REACHED: Record<string, () => string[]> = {
  destination_velocity: () => signalsOf(UK_MOBILE, { sendsLastHour: 5 }),
  unconverted_sends: () =>
    signalsOf(
      { channel: 'EMAIL', email: 'a@example.com' },
      { history: { sends: 6, verified: 1, wrongCodes: 0 } },
    ),
  wrong_code_ratio: () =>
    signalsOf(
      { channel: 'EMAIL', email: 'a@example.com' },
      { history: { sends: 2, verified: 1, wrongCodes: 4 } },
    ),
  number_type: () => signalsOf({ channel: 'SMS', phone: '+445612345678' }),
  prefix_burst: () => signalsOf(UK_MOBILE, { neighboursLastHour: 8 }),
  country_conversion: () => signalsOf(UK_MOBILE, {}, { sent: 50, verified: 2 }),
};

/** The signal names of docs/analytics.md's table under "Risk score". */
function documentedSignals(): string[] {
  const page = readFileSync(new URL('../../docs/analytics.md', import.meta.url), 'utf8');
  const section = page.slice(
    page.indexOf('## Risk score'),
    page.indexOf('\n## ', page.indexOf('## Risk score') + 1),
  );
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1] as string);
}

describe('risk signals', () => {
  it('every documented signal is raised by a send that validation accepts', () => {
    const documented = documentedSignals();
    expect(documented.length).toBeGreaterThan(0);
    for (const name of documented) {
      const reach = REACHED[name];
      expect(reach, `docs/analytics.md lists ${name}: add the send that raises it to REACHED`).toBeDefined();
      expect(reach?.(), name).toContain(name);
    }
    expect(Object.keys(REACHED).sort()).toEqual([...documented].sort());
    // The list the OpenAPI document names (src/http/schemas.ts) is the documented one.
    expect([...RISK_SIGNALS].sort()).toEqual([...documented].sort());
  });

  it('a country the number does not belong to is refused before any score', () => {
    const refused = validateSendRequest({ channel: 'SMS', phone: '+447400123456', country: 'FR' }, new Set());
    expect(refused.ok).toBe(false);
    expect(refused.ok ? [] : refused.details.map((d) => d.field)).toEqual(['country']);
    // Accepted, the country is the number's region, so nothing is left to disagree.
    expect(signalsOf(UK_MOBILE)).toEqual([]);
  });
});
