import nodemailer from 'nodemailer';
import type { Channel } from '../../../domain/types.js';
import type { ChannelProvider, DeliveryRequest, SendOutcome } from '../../interface.js';
import { renderEmail } from '../../messages.js';
import type { SmtpOptions } from './smtp.settings.js';

interface SmtpError {
  code?: string;
  command?: string;
  responseCode?: number;
}

/** EMAIL over SMTP with nodemailer: a branded HTML part and a plain-text part. */
export class SmtpProvider implements ChannelProvider {
  readonly name = 'smtp';
  readonly channels: readonly Channel[] = ['EMAIL'];
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(private readonly options: SmtpOptions) {
    this.transport = nodemailer.createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
      // nodemailer would otherwise log envelopes and message bodies, codes included.
      logger: false,
      debug: false,
    });
  }

  async send(request: DeliveryRequest): Promise<SendOutcome> {
    const { subject, text, html } = renderEmail(request, { publicBaseUrl: this.options.publicBaseUrl });
    // A bare address is shown under the brand name of the account the code is for.
    const from = this.options.from.includes('<')
      ? this.options.from
      : { name: request.branding.brandName, address: this.options.from };
    try {
      const info = await this.transport.sendMail({
        from,
        to: request.to,
        subject,
        text,
        html,
        // Codes are one-off: ask clients not to thread them and auto-responders to stay quiet.
        headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
      });
      return { ok: true, providerMessageId: String(info.messageId ?? '') };
    } catch (err) {
      return classify(err as SmtpError);
    }
  }

  async check() {
    try {
      await this.transport.verify();
      return 'up' as const;
    } catch {
      return 'down' as const;
    }
  }
}

/**
 * A 5xx answer to RCPT TO refuses the address itself (no such mailbox, domain refused); anything
 * else (connection, authentication, 4xx greylisting, timeouts) is the server's or ours to fix.
 * The server's reply text is left out: it may quote the message.
 */
function classify(err: SmtpError): SendOutcome {
  if (err.command === 'RCPT TO' && (err.responseCode ?? 0) >= 500) {
    return {
      ok: false,
      retryable: false,
      error: `the mail server refused the address (SMTP ${err.responseCode})`,
    };
  }
  const detail = err.responseCode ? `SMTP ${err.responseCode}` : (err.code ?? 'error');
  return { ok: false, retryable: true, error: `the mail server did not accept the message (${detail})` };
}
