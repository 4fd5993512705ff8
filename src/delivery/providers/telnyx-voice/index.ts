import { header, rawBody } from '../callback.js';
import { defineProvider } from '../module.js';
import { verifyTelnyxSignature } from '../telnyx/telnyx.callback.js';
import { callCommand, callEventOf, telnyxCallUpdate } from './telnyx-voice.callback.js';
import { TelnyxVoiceProvider } from './telnyx-voice.provider.js';
import { openScript } from './telnyx-voice.script.js';
import {
  telnyxCommandsOptions,
  telnyxVoiceOptions,
  telnyxVoiceProblems,
  telnyxVoiceSettings,
} from './telnyx-voice.settings.js';

/** VOICE: the code read out in a phone call placed and driven through Telnyx Call Control. */
export const telnyxVoice = defineProvider({
  name: 'telnyx-voice',
  title: 'Telnyx Call Control',
  api: 'Telnyx Call Control, `POST /v2/calls`, then `speak` on `call.answered` and `hangup` once it is spoken',
  setup: 'Telnyx Call Control: TELNYX_VOICE_CONNECTION_ID with PUBLIC_BASE_URL and TELNYX_PUBLIC_KEY',
  channel: 'VOICE',
  settings: telnyxVoiceSettings,
  configured: (config, { publicBaseUrl }) => telnyxVoiceOptions(config, publicBaseUrl) !== null,
  problems: (config, { publicBaseUrl }) => telnyxVoiceProblems(config, publicBaseUrl),
  create(config, { publicBaseUrl, seal }) {
    const options = telnyxVoiceOptions(config, publicBaseUrl);
    // buildDelivery always gives a seal: without one the answered call could not be spoken to.
    return options && seal ? new TelnyxVoiceProvider(options, seal) : null;
  },
  callbackRoutes(app, { config, now, record, seal, http }) {
    app.post(
      '/v1/callbacks/telnyx-voice',
      http.doc({
        operationId: 'receiveTelnyxCallEvent',
        summary:
          'Telnyx Call Control webhook: speaks the code once the call is answered, hangs up once it is spoken, records the outcome',
        checks:
          '`telnyx-signature-ed25519` must be the Ed25519 signature, under TELNYX_PUBLIC_KEY, of `<telnyx-timestamp>|<raw body>`, with `telnyx-timestamp` within 5 minutes of now.',
      }),
      async (request, reply) => {
        const commands = telnyxCommandsOptions(config);
        if (!commands || !config.telnyxVoiceConnectionId || !config.telnyxPublicKey)
          throw http.notConfigured(
            'Telnyx Call Control (set TELNYX_VOICE_CONNECTION_ID and TELNYX_PUBLIC_KEY)',
          );
        const body = rawBody(request);
        const signed = verifyTelnyxSignature(
          config.telnyxPublicKey,
          body,
          header(request, 'telnyx-signature-ed25519'),
          header(request, 'telnyx-timestamp'),
          now(),
        );
        if (!signed) throw http.badSignature('telnyx-signature-ed25519');
        const event = callEventOf(http.parseJson(body));
        if (!event) return http.received(reply);
        const update = telnyxCallUpdate(event);
        if (update) await record([update]);
        if (event.type === 'call.answered') {
          // The script the send sealed into the call; a call whose script cannot be read (or whose
          // code expired) is hung up rather than left silent.
          const script = openScript(seal, event.clientState, now());
          const done = script
            ? await callCommand(commands, event.callControlId, 'speak', {
                payload: script.text,
                payload_type: 'text',
                voice: script.voice,
              })
            : await callCommand(commands, event.callControlId, 'hangup', {});
          if (!done) throw http.retryLater('Telnyx did not take the command; deliver the webhook again.');
        } else if (event.type === 'call.speak.ended') {
          if (!(await callCommand(commands, event.callControlId, 'hangup', {})))
            throw http.retryLater('Telnyx did not take the hangup; deliver the webhook again.');
        }
        return http.received(reply);
      },
    );
  },
});
