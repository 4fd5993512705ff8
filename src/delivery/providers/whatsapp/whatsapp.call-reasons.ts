/**
 * Why a WhatsApp call did not deliver its code: a closed list, each reason the first word of the
 * request's delivery error (`permission_rejected: the user declined …`), which the
 * `verification.undelivered` event and the resource carry. Described once; docs/delivery.md and the
 * OpenAPI document list it from here.
 */
export const CALL_UNDELIVERED_REASONS = {
  permission_rejected: "the user declined WhatsApp's call-permission request",
  permission_not_answered: 'the user did not answer the call-permission request before the code expired',
  permission_request_limit:
    "WhatsApp's limit on call-permission requests (1 a day and 2 a week per user) refused a new request",
  permission_request_failed:
    'the call-permission request could not be sent (outside the 24 h customer-service window without WHATSAPP_CALL_PERMISSION_TEMPLATE, or refused by WhatsApp)',
  call_limit: "WhatsApp's limit of connected calls a day on the business number was reached",
  no_permission: 'WhatsApp refused the call for want of the permission (revoked, or expired)',
  rejected: 'the user declined the call',
  no_answer: 'the call was not answered within 30 seconds',
  call_failed: 'WhatsApp could not place or keep the call',
  media_failed: "the call's audio connection (ICE, DTLS) could not be made or was lost",
  code_expired: 'the code expired before the call could be placed',
} as const;

export type CallUndeliveredReason = keyof typeof CALL_UNDELIVERED_REASONS;

/** The delivery error a reason is recorded as: the reason first, then a sentence. */
export const undeliveredError = (reason: CallUndeliveredReason, detail?: string): string =>
  `${reason}: ${detail ?? CALL_UNDELIVERED_REASONS[reason]}`.slice(0, 500);
