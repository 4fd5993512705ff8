/** A `messages` webhook with the user's reply to a call-permission request, as Meta sends it. */
export function permissionReply(
  waUser: string,
  response: 'accept' | 'reject',
  options: { requestMessageId?: string | null; permanent?: boolean; expiresAt?: number } = {},
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '366634483210360',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: 'User' }, wa_id: waUser }],
              messages: [
                {
                  ...(options.requestMessageId
                    ? { context: { from: '15550783881', id: options.requestMessageId } }
                    : {}),
                  from: waUser,
                  id: `wamid.reply-${Math.random().toString(36).slice(2)}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'interactive',
                  interactive: {
                    type: 'call_permission_reply',
                    call_permission_reply: {
                      response,
                      is_permanent: options.permanent ?? false,
                      ...(response === 'accept' && options.expiresAt
                        ? { expiration_timestamp: Math.floor(options.expiresAt / 1000) }
                        : {}),
                      response_source: 'user_action',
                    },
                  },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}
