import { describe, expect, it } from 'vitest';
import {
  verifyMetaSignature,
  whatsappStatusUpdates,
} from '../../../../src/delivery/providers/whatsapp/whatsapp.callback.js';
import { metaSignature } from '../../support/signing.js';

describe('WhatsApp webhooks', () => {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              statuses: [
                { id: 'wamid.A', status: 'delivered', recipient_id: '14155550123' },
                {
                  id: 'wamid.B',
                  status: 'failed',
                  errors: [{ code: 131026, title: 'Message undeliverable' }],
                },
                { id: 'wamid.C', status: 'sent' },
              ],
            },
          },
        ],
      },
    ],
  });

  it('verifies X-Hub-Signature-256 over the raw body', () => {
    expect(verifyMetaSignature('app-secret', body, metaSignature('app-secret', body))).toBe(true);
    expect(verifyMetaSignature('app-secret', `${body}\n`, metaSignature('app-secret', body))).toBe(false);
    expect(verifyMetaSignature('other', body, metaSignature('app-secret', body))).toBe(false);
    expect(verifyMetaSignature('app-secret', body, undefined)).toBe(false);
  });

  it('reads every final status of the batch', () => {
    expect(whatsappStatusUpdates(JSON.parse(body))).toEqual([
      { provider: 'whatsapp', providerMessageId: 'wamid.A', status: 'delivered', error: null },
      {
        provider: 'whatsapp',
        providerMessageId: 'wamid.B',
        status: 'failed',
        error: 'WhatsApp reported failed (error 131026)',
      },
    ]);
  });
});
