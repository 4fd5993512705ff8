import { Type } from '@sinclair/typebox';

/**
 * SILENT_PROVIDER: which vendor carries the SILENT channel (silent network authentication).
 * Described once here; both silent providers' settings carry it, so it is in the schema, the
 * settings table and each provider's section of docs/delivery.md.
 */
export const silentProviderSettings = {
  silentProvider: Type.Optional(
    Type.Union([Type.Literal('twilio'), Type.Literal('vonage')], {
      env: 'SILENT_PROVIDER',
      description:
        'The provider of the SILENT channel (silent network authentication): `twilio` (Twilio Verify SNA: needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_VERIFY_SERVICE_SID) or `vonage` (Vonage Verify v2 silent_auth: needs VONAGE_APPLICATION_ID and VONAGE_PRIVATE_KEY). Unset: SILENT codes of live keys go to the outbox or are refused (LIVE_OUTBOX).',
    }),
  ),
};
