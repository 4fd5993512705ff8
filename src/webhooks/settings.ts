import { Type } from '@sinclair/typebox';

/** The webhook settings, spread into the one configuration schema (src/config/schema.ts). */
export const webhookSettings = {
  webhooksAllowPrivate: Type.Boolean({
    env: 'WEBHOOKS_ALLOW_PRIVATE',
    default: false,
    description:
      'Allow webhook URLs that resolve to loopback, private or link-local addresses (tests, a receiver on the same network).',
  }),
  webhookPollIntervalMs: Type.Integer({
    env: 'WEBHOOK_POLL_INTERVAL_MS',
    default: 1000,
    minimum: 10,
    maximum: 3_600_000,
    description: 'How often each instance turns new events into deliveries and sends the due ones.',
  }),
  webhookTimeoutMs: Type.Integer({
    env: 'WEBHOOK_TIMEOUT_MS',
    default: 10_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Time a receiver has to answer one webhook attempt (connection included).',
  }),
  webhookRetrySchedule: Type.String({
    env: 'WEBHOOK_RETRY_SCHEDULE_SECONDS',
    default: '5,300,1800,7200,18000,36000,36000',
    pattern: '^[0-9]+(\\.[0-9]+)?(,[0-9]+(\\.[0-9]+)?)*$',
    description:
      'Waits before each retry of a failed webhook, in seconds (±20 % jitter); after the last one the delivery fails. The default spans about a day.',
  }),
  webhookDisableAfterSeconds: Type.Integer({
    env: 'WEBHOOK_DISABLE_AFTER_SECONDS',
    default: 86_400,
    minimum: 1,
    maximum: 30 * 86_400,
    description: 'An endpoint whose attempts have all failed for this long is disabled (and logged).',
  }),
};

export interface WebhookOptions {
  allowPrivate: boolean;
  pollIntervalMs: number;
  timeoutMs: number;
  /** Waits before retries 1, 2, … in ms. */
  retryDelaysMs: number[];
  disableAfterMs: number;
}

export function webhookOptions(config: {
  webhooksAllowPrivate: boolean;
  webhookPollIntervalMs: number;
  webhookTimeoutMs: number;
  webhookRetrySchedule: string;
  webhookDisableAfterSeconds: number;
}): WebhookOptions {
  return {
    allowPrivate: config.webhooksAllowPrivate,
    pollIntervalMs: config.webhookPollIntervalMs,
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetrySchedule.split(',').map((s) => Math.round(Number(s) * 1000)),
    disableAfterMs: config.webhookDisableAfterSeconds * 1000,
  };
}
