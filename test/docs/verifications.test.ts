import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATES, DELIVERY_STATUSES } from '../../src/domain/delivery-states.js';
import { VERIFICATION_METHODS } from '../../src/domain/verification/method.js';

const page = readFileSync(new URL('../../docs/verifications.md', import.meta.url), 'utf8');

describe('docs/verifications.md', () => {
  it("shows each stored delivery state as the domain does (DELIVERY_STATES' shownAs)", () => {
    const rows = [...page.matchAll(/^\| `([a-z_]+)` \| `([a-z_]+)` \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(DELIVERY_STATUSES.map((d) => [d, DELIVERY_STATES[d].shownAs]));
  });

  it('names every verification method', () => {
    for (const m of VERIFICATION_METHODS) expect(page).toContain(`\`${m}\``);
  });
});
