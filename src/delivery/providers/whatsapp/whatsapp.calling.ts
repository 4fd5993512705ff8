import { callApi, field, joinUrl } from '../http.js';
import type { SettingsValues } from '../settings.js';
import { type WhatsAppOptions, whatsappOptions, type whatsappSettings } from './whatsapp.settings.js';

/**
 * The WhatsApp Cloud API's calling endpoints, for business-initiated calls (docs/delivery.md,
 * "WhatsApp calls"): the user's call permission, the permission request, connect and terminate,
 * and the phone number's calling settings. Expected failures are values with `retryable`, as for
 * the providers; `code` is Meta's error code when it sent one.
 */
export type CallingResult<T> = ({ ok: true } & T) | CallingFailure;

export interface CallingFailure {
  ok: false;
  /** A timeout, 5xx or rate limit: the same request may succeed later. */
  retryable: boolean;
  /** A sentence for logs and the request's delivery record; never holds the code. */
  error: string;
  /** Meta's `error.code`, when it answered one. */
  code?: number;
  /** The call was refused for want of the user's permission (error 138006). */
  noPermission?: boolean;
}

/** One of WhatsApp's limits on an action, as `call_permissions` reports it. */
export interface CallLimit {
  /** ISO 8601 duration: `PT24H`, `P7D`. */
  period: string;
  maxAllowed: number;
  currentUsage: number;
  /** When the limit lets the action again, if WhatsApp said. */
  until: Date | null;
}

/** What WhatsApp says of a user's call permission (`GET /{phone-number-id}/call_permissions`). */
export interface CallPermission {
  /** `granted` for a temporary or permanent permission; as WhatsApp spells it otherwise. */
  status: 'granted' | 'no_permission' | 'expired' | (string & {});
  /** WhatsApp's own word: `temporary`, `permanent`, `granted`, `no_permission` … */
  reported: string;
  /** When a temporary permission ends; null for a permanent one or none. */
  expiresAt: Date | null;
  /** `start_call` is allowed now (permission given and the connected-call limit not reached). */
  canCall: boolean;
  /** `send_call_permission_request` is allowed now (1 a day and 2 a week per user). */
  canRequest: boolean;
  callLimits: CallLimit[];
  requestLimits: CallLimit[];
}

/** The body text of the interactive permission request (the buttons are WhatsApp's). */
export interface PermissionRequestText {
  body: string;
}

/** Meta's error: the customer-service window is closed (more than 24 h since the user wrote). */
const WINDOW_CLOSED = 131047;
/** Meta's error: no call permission from the user for this business number. */
const NO_PERMISSION = 138006;
/** Meta's throttling codes (429 answers too): retry later. */
const THROTTLED = new Set([4, 613, 80007, 130429, 131056]);

export type CallingOptions = Pick<
  WhatsAppOptions,
  'token' | 'phoneNumberId' | 'apiVersion' | 'baseUrl' | 'timeoutMs'
> & {
  /** WHATSAPP_CALL_PERMISSION_TEMPLATE: sent when the service window is closed. */
  permissionTemplate?: string;
  /** Language of that template (WHATSAPP_TEMPLATE_LANGUAGE). */
  templateLanguage: string;
};

/** The calling client's options, or null when WhatsApp is not configured. */
export function whatsappCallingOptions(
  config: SettingsValues<typeof whatsappSettings>,
): CallingOptions | null {
  const o = whatsappOptions(config);
  if (!o) return null;
  return {
    token: o.token,
    phoneNumberId: o.phoneNumberId,
    apiVersion: o.apiVersion,
    baseUrl: o.baseUrl,
    timeoutMs: o.timeoutMs,
    templateLanguage: o.language,
    ...(config.whatsappCallPermissionTemplate
      ? { permissionTemplate: config.whatsappCallPermissionTemplate }
      : {}),
  };
}

export class WhatsAppCalling {
  constructor(private readonly options: CallingOptions) {}

  private url(path: string) {
    const o = this.options;
    return joinUrl(
      o.baseUrl,
      `/${encodeURIComponent(o.apiVersion)}/${encodeURIComponent(o.phoneNumberId)}${path}`,
    );
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown) {
    const result = await callApi('whatsapp', {
      method,
      url: this.url(path),
      headers: { authorization: `Bearer ${this.options.token}` },
      body,
      timeoutMs: this.options.timeoutMs,
    });
    if (!result.ok) {
      const outcome = result.outcome as { retryable: boolean; error: string };
      return {
        ok: false as const,
        failure: { ok: false as const, retryable: outcome.retryable, error: outcome.error },
      };
    }
    const { status, json } = result.answer;
    if (status >= 200 && status < 300) return { ok: true as const, json };
    return { ok: false as const, failure: graphFailure(status, json) };
  }

  /** The user's call permission and what WhatsApp's limits allow now. `user` is the number, digits only. */
  async permission(user: string): Promise<CallingResult<{ permission: CallPermission }>> {
    const r = await this.call('GET', `/call_permissions?user_wa_id=${encodeURIComponent(waId(user))}`);
    if (!r.ok) return r.failure;
    return { ok: true, permission: readPermission(r.json) };
  }

  /**
   * Asks the user for call permission: the interactive `call_permission_request` message, which
   * WhatsApp takes only inside the customer-service window; outside it (error 131047) the
   * operator's template, when one is configured. Answers the message id the reply will quote.
   */
  async requestPermission(
    to: string,
    text: PermissionRequestText,
  ): Promise<CallingResult<{ messageId: string; via: 'interactive' | 'template' }>> {
    const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: waId(to) };
    const interactive = await this.call('POST', '/messages', {
      ...base,
      type: 'interactive',
      interactive: {
        type: 'call_permission_request',
        action: { name: 'call_permission_request' },
        body: { text: text.body },
      },
    });
    if (interactive.ok) return messageId(interactive.json, 'interactive');
    const template = this.options.permissionTemplate;
    if (interactive.failure.code !== WINDOW_CLOSED || !template) return interactive.failure;
    const templated = await this.call('POST', '/messages', {
      ...base,
      type: 'template',
      template: { name: template, language: { code: this.options.templateLanguage } },
    });
    return templated.ok ? messageId(templated.json, 'template') : templated.failure;
  }

  /**
   * Places the call with the SDP offer. `tracking` comes back in every webhook of the call
   * (`biz_opaque_callback_data`, up to 512 characters): a request id, never a code.
   */
  async connect(to: string, offer: string, tracking?: string): Promise<CallingResult<{ callId: string }>> {
    const r = await this.call('POST', '/calls', {
      messaging_product: 'whatsapp',
      to: waId(to),
      action: 'connect',
      session: { sdp_type: 'offer', sdp: offer },
      ...(tracking ? { biz_opaque_callback_data: tracking.slice(0, 512) } : {}),
    });
    if (!r.ok) return r.failure;
    const id = field(r.json, 'calls', 0, 'id');
    return typeof id === 'string'
      ? { ok: true, callId: id }
      : { ok: false, retryable: true, error: 'WhatsApp answered the call without a call id' };
  }

  /** Ends the call (a call already ended is not an error worth retrying). */
  async terminate(callId: string): Promise<CallingResult<object>> {
    const r = await this.call('POST', '/calls', {
      messaging_product: 'whatsapp',
      call_id: callId,
      action: 'terminate',
    });
    return r.ok ? { ok: true } : r.failure;
  }

  /** Whether calling is enabled on the phone number (`GET /{phone-number-id}/settings`), for /health. */
  async settings(): Promise<CallingResult<{ callingEnabled: boolean; status: string }>> {
    const r = await this.call('GET', '/settings');
    if (!r.ok) return r.failure;
    const status = String(field(r.json, 'calling', 'status') ?? 'UNKNOWN');
    return { ok: true, callingEnabled: status === 'ENABLED', status };
  }
}

/** WhatsApp ids are the number's digits, without `+`. */
const waId = (phone: string) => phone.replace(/\D/g, '');

function messageId(json: unknown, via: 'interactive' | 'template') {
  const id = field(json, 'messages', 0, 'id');
  return typeof id === 'string'
    ? { ok: true as const, messageId: id, via }
    : { ok: false as const, retryable: true, error: 'WhatsApp answered the message without an id' };
}

function graphFailure(status: number, json: unknown): CallingFailure {
  const code = Number(field(json, 'error', 'code'));
  const known = Number.isFinite(code) && code > 0 ? code : undefined;
  const message = String(field(json, 'error', 'message') ?? '').slice(0, 200);
  const detail = `${known ? `error ${known}` : `HTTP ${status}`}${message ? `: ${message}` : ''}`;
  if (known === NO_PERMISSION) {
    return {
      ok: false,
      retryable: false,
      error: `WhatsApp refused the call: no call permission from the user (${detail})`,
      code: known,
      noPermission: true,
    };
  }
  const retryable = status === 429 || status >= 500 || (known !== undefined && THROTTLED.has(known));
  return { ok: false, retryable, error: `WhatsApp answered ${detail}`, ...(known ? { code: known } : {}) };
}

function readLimits(action: unknown): CallLimit[] {
  const limits = field(action, 'limits');
  return (Array.isArray(limits) ? limits : []).map((l) => {
    const until = Number(field(l, 'limit_expiration_time'));
    return {
      period: String(field(l, 'time_period') ?? ''),
      maxAllowed: Number(field(l, 'max_allowed') ?? 0),
      currentUsage: Number(field(l, 'current_usage') ?? 0),
      until: Number.isFinite(until) && until > 0 ? new Date(until * 1000) : null,
    };
  });
}

function readPermission(json: unknown): CallPermission {
  const reported = String(field(json, 'permission', 'status') ?? 'no_permission');
  const expiry = Number(field(json, 'permission', 'expiration_time'));
  const actions = field(json, 'actions');
  const action = (name: string) =>
    (Array.isArray(actions) ? actions : []).find((a) => field(a, 'action_name') === name);
  const startCall = action('start_call');
  const request = action('send_call_permission_request');
  const granted = ['granted', 'temporary', 'permanent'].includes(reported);
  return {
    status: granted ? 'granted' : reported,
    reported,
    expiresAt: granted && Number.isFinite(expiry) && expiry > 0 ? new Date(expiry * 1000) : null,
    canCall: field(startCall, 'can_perform_action') === true,
    canRequest: field(request, 'can_perform_action') === true,
    callLimits: readLimits(startCall),
    requestLimits: readLimits(request),
  };
}
