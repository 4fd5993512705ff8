import {
  providerBaseUrl,
  providerDefault,
  providerString,
  providerTimeout,
  type SettingsValues,
} from '../settings.js';

export const whatsappSettings = {
  whatsappToken: providerString('whatsapp', {
    env: 'WHATSAPP_TOKEN',
    required: true,
    secret: true,
    description: 'WhatsApp Cloud API access token (a system-user token), sent as a Bearer token.',
  }),
  whatsappPhoneNumberId: providerString('whatsapp', {
    env: 'WHATSAPP_PHONE_NUMBER_ID',
    required: true,
    description: 'Phone number ID of the sending WhatsApp Business number.',
  }),
  whatsappTemplate: providerString('whatsapp', {
    env: 'WHATSAPP_TEMPLATE',
    required: true,
    description: 'Name of the approved AUTHENTICATION template with a copy-code button.',
  }),
  whatsappTemplateLanguage: providerDefault(
    'whatsapp',
    'WHATSAPP_TEMPLATE_LANGUAGE',
    'en_US',
    'Language code of the template (as approved, e.g. `en_US`, `de`).',
  ),
  whatsappTemplateLanguages: providerString('whatsapp', {
    env: 'WHATSAPP_TEMPLATE_LANGUAGES',
    pattern: '^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?(,[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?)*$',
    description:
      'Further languages in which the template is approved, e.g. `es,fr,de,pt_BR`: a request whose `locale` is one of them gets the template in it; any other gets `WHATSAPP_TEMPLATE_LANGUAGE`.',
  }),
  whatsappCallPermissionTemplate: providerString('whatsapp', {
    env: 'WHATSAPP_CALL_PERMISSION_TEMPLATE',
    description:
      "Name of an approved template with a call-permission-request button (in `WHATSAPP_TEMPLATE_LANGUAGE`): asks a user for call permission when a `CALL` request finds the customer-service window closed. Unset: only the interactive request, which WhatsApp takes within 24 h of the user's last message.",
  }),
  whatsappApiVersion: providerDefault(
    'whatsapp',
    'WHATSAPP_API_VERSION',
    'v23.0',
    'Graph API version in the request path.',
  ),
  whatsappAppSecret: providerString('whatsapp', {
    env: 'WHATSAPP_APP_SECRET',
    secret: true,
    description:
      'Meta app secret: key of the X-Hub-Signature-256 check; webhooks are refused without it. WhatsApp calls (deliveryType CALL) need it: the permission replies and the `calls` webhook field (subscribe it beside `messages`, and enable calling on the number) come signed to /v1/callbacks/whatsapp.',
  }),
  whatsappVerifyToken: providerString('whatsapp', {
    env: 'WHATSAPP_VERIFY_TOKEN',
    secret: true,
    description: 'Verify token entered in the Meta app dashboard for the webhook subscription handshake.',
  }),
  whatsappBaseUrl: providerBaseUrl(
    'whatsapp',
    'WHATSAPP_BASE_URL',
    'https://graph.facebook.com',
    'WhatsApp Cloud',
  ),
  whatsappTimeoutMs: providerTimeout('whatsapp', 'WHATSAPP_TIMEOUT_MS', 5000, 'WhatsApp Cloud API'),
};

export interface WhatsAppOptions {
  token: string;
  phoneNumberId: string;
  template: string;
  language: string;
  /** Further approved languages of the template. */
  languages: string[];
  apiVersion: string;
  baseUrl: string;
  timeoutMs: number;
}

export function whatsappOptions(config: SettingsValues<typeof whatsappSettings>): WhatsAppOptions | null {
  if (!config.whatsappToken || !config.whatsappPhoneNumberId || !config.whatsappTemplate) return null;
  return {
    token: config.whatsappToken,
    phoneNumberId: config.whatsappPhoneNumberId,
    template: config.whatsappTemplate,
    language: config.whatsappTemplateLanguage,
    languages: (config.whatsappTemplateLanguages ?? '').split(',').filter(Boolean),
    apiVersion: config.whatsappApiVersion,
    baseUrl: config.whatsappBaseUrl,
    timeoutMs: config.whatsappTimeoutMs,
  };
}
