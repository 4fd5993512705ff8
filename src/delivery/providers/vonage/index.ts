import type { FastifyReply, FastifyRequest } from 'fastify';
import { formValues, isJson, rawBody, stringValues } from '../callback.js';
import { defineProvider } from '../module.js';
import { verifyVonageSignature, vonageStatusUpdate } from './vonage.callback.js';
import { VonageSmsProvider } from './vonage.provider.js';
import { vonageOptions, vonageSettings } from './vonage.settings.js';

/** SMS through the Vonage SMS API. */
export const vonage = defineProvider({
  name: 'vonage',
  title: 'Vonage',
  api: 'Vonage SMS API, `POST /sms/json`',
  channel: 'SMS',
  settings: vonageSettings,
  configured: (config, { publicBaseUrl }) => vonageOptions(config, publicBaseUrl) !== null,
  create(config, { publicBaseUrl, webOtpDomain }) {
    const options = vonageOptions(config, publicBaseUrl);
    return options ? new VonageSmsProvider(options, webOtpDomain) : null;
  },
  callbackRoutes(app, { config, now, record, http }) {
    // Vonage sends delivery receipts as GET or POST (form or JSON), as chosen in its dashboard.
    const receipt = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!config.vonageApiKey) throw http.notConfigured('Vonage');
      const params: Record<string, string> = { ...(request.query as Record<string, string>) };
      const body = rawBody(request);
      if (body)
        Object.assign(params, isJson(request) ? stringValues(http.parseJson(body)) : formValues(body));
      const trusted = config.vonageSignatureSecret
        ? verifyVonageSignature(params, config.vonageSignatureSecret, config.vonageSignatureMethod, now())
        : params['api-key'] === config.vonageApiKey;
      if (!trusted) throw http.badSignature(config.vonageSignatureSecret ? 'sig' : 'api-key');
      const update = vonageStatusUpdate(params);
      await record(update ? [update] : []);
      return http.received(reply);
    };
    const checks =
      'with VONAGE_SIGNATURE_SECRET set, `sig` must sign the other parameters (VONAGE_SIGNATURE_METHOD) and their `timestamp` be within 5 minutes of now; without it, `api-key` must equal VONAGE_API_KEY.';
    app.get(
      '/v1/callbacks/vonage',
      http.doc({
        operationId: 'receiveVonageReceiptByGet',
        summary: 'Vonage delivery receipt (GET)',
        checks,
      }),
      receipt,
    );
    app.post(
      '/v1/callbacks/vonage',
      http.doc({ operationId: 'receiveVonageReceipt', summary: 'Vonage delivery receipt', checks }),
      receipt,
    );
  },
});
