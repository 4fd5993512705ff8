import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CALL_UNDELIVERED_REASONS,
  undeliveredError,
} from '../../../../src/delivery/providers/whatsapp/whatsapp.call-reasons.js';

describe('why a WhatsApp call did not deliver its code', () => {
  it('records the reason code first, then a sentence', () => {
    expect(undeliveredError('no_answer')).toBe('no_answer: the call was not answered within 30 seconds');
    expect(undeliveredError('call_failed', 'WhatsApp answered error 131000')).toBe(
      'call_failed: WhatsApp answered error 131000',
    );
  });

  it('lists every reason in docs/delivery.md', () => {
    const doc = readFileSync(new URL('../../../../docs/delivery.md', import.meta.url), 'utf8');
    for (const reason of Object.keys(CALL_UNDELIVERED_REASONS)) expect(doc).toContain(`| \`${reason}\` |`);
  });
});
