import { describe, expect, it } from 'vitest';
import { whatsappCallEvents } from '../../../../src/delivery/providers/whatsapp/whatsapp.call-events.js';
import { whatsappStatusUpdates } from '../../../../src/delivery/providers/whatsapp/whatsapp.callback.js';

const wrap = (field: string, value: unknown) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: '1', changes: [{ field, value: { messaging_product: 'whatsapp', ...(value as object) } }] }],
});

describe('WhatsApp calling webhooks', () => {
  it('reads connect, statuses and terminate as the calls field sends them', () => {
    const events = whatsappCallEvents(
      wrap('calls', {
        calls: [
          {
            id: 'wacid.A',
            to: '12185552828',
            event: 'connect',
            timestamp: '1749196895',
            session: { sdp_type: 'answer', sdp: 'v=0' },
            biz_opaque_callback_data: 'req_1',
          },
          {
            id: 'wacid.A',
            to: '12185552828',
            event: 'terminate',
            timestamp: '1749196925',
            status: 'Completed',
            start_time: '1749196896',
            end_time: '1749196925',
            duration: 29,
          },
          { id: 'wacid.B', event: 'terminate', status: 'FAILED', errors: [{ code: 138021 }] },
          { event: 'connect' },
          { id: 'wacid.C', event: 'media_update' },
        ],
        statuses: [
          {
            id: 'wacid.A',
            type: 'call',
            status: 'RINGING',
            recipient_id: '12185552828',
            timestamp: '1749196896',
          },
          { id: 'wacid.A', type: 'call', status: 'BUSY' },
          { id: 'wamid.X', status: 'delivered' },
        ],
      }),
    );
    expect(events).toEqual([
      {
        kind: 'connect',
        callId: 'wacid.A',
        to: '12185552828',
        sdpType: 'answer',
        sdp: 'v=0',
        tracking: 'req_1',
        at: new Date(1749196895000),
      },
      {
        kind: 'terminate',
        callId: 'wacid.A',
        status: 'COMPLETED',
        to: '12185552828',
        durationSeconds: 29,
        startedAt: new Date(1749196896000),
        endedAt: new Date(1749196925000),
        errorCode: null,
        tracking: null,
        at: new Date(1749196925000),
      },
      expect.objectContaining({
        kind: 'terminate',
        callId: 'wacid.B',
        status: 'FAILED',
        durationSeconds: null,
        errorCode: '138021',
      }),
      {
        kind: 'status',
        callId: 'wacid.A',
        status: 'RINGING',
        recipient: '12185552828',
        tracking: null,
        at: new Date(1749196896000),
      },
    ]);
    // The message-status parser of the existing callback leaves call statuses alone.
    expect(
      whatsappStatusUpdates(
        wrap('calls', { statuses: [{ id: 'wacid.A', type: 'call', status: 'ACCEPTED' }] }),
      ),
    ).toEqual([]);
  });

  it('reads a call_permission_reply, and nothing from other messages or bad input', () => {
    const reply = (r: unknown) =>
      whatsappCallEvents(
        wrap('messages', {
          messages: [
            {
              from: '14155550123',
              id: 'wamid.R',
              timestamp: '1760000000',
              type: 'interactive',
              context: { id: 'wamid.Q' },
              interactive: { type: 'call_permission_reply', call_permission_reply: r },
            },
            { from: '14155550123', type: 'text', text: { body: 'hi' } },
          ],
        }),
      );
    expect(
      reply({
        response: 'accept',
        is_permanent: false,
        expiration_timestamp: 1760604800,
        response_source: 'user_action',
      }),
    ).toEqual([
      {
        kind: 'permission_reply',
        from: '14155550123',
        accepted: true,
        permanent: false,
        expiresAt: new Date(1760604800000),
        requestMessageId: 'wamid.Q',
        source: 'user_action',
        at: new Date(1760000000000),
      },
    ]);
    expect(reply({ response: 'reject' })).toMatchObject([
      { accepted: false, permanent: false, expiresAt: null },
    ]);
    expect(reply({ response: 'maybe' })).toEqual([]);
    for (const junk of [
      null,
      'x',
      1,
      [],
      { entry: 'x' },
      { entry: [{ changes: [{ value: { calls: 'x', messages: [null] } }] }] },
    ]) {
      expect(whatsappCallEvents(junk)).toEqual([]);
    }
  });
});
