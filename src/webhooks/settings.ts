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
    description:
      'How often each instance turns new events into deliveries and claims due ones for its free slots (a slot that frees up claims at once).',
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
  webhookConcurrency: Type.Integer({
    env: 'WEBHOOK_CONCURRENCY',
    default: 64,
    minimum: 1,
    maximum: 1000,
    description:
      'Webhook attempts each instance keeps in flight (the main pool); a free slot takes the next due delivery at once.',
  }),
  webhookMaxInFlightPerEndpoint: Type.Integer({
    env: 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT',
    default: 16,
    minimum: 1,
    maximum: 1000,
    description:
      'Attempts in flight to one endpoint at once, counted over every instance; within an instance an endpoint also holds no more than its fair share of the main pool.',
  }),
  webhookSlowAfterTimeouts: Type.Integer({
    env: 'WEBHOOK_SLOW_AFTER_TIMEOUTS',
    default: 3,
    minimum: 1,
    maximum: 1000,
    description:
      'Slow attempts in a row (no answer within WEBHOOK_TIMEOUT_MS, or an answer later than WEBHOOK_SLOW_ATTEMPT_PERCENT of it) that move an endpoint to the slow lane (one attempt in flight, outside the main pool) until a prompt success.',
  }),
  webhookSlowAttemptPercent: Type.Integer({
    env: 'WEBHOOK_SLOW_ATTEMPT_PERCENT',
    default: 50,
    minimum: 1,
    maximum: 100,
    description:
      'An attempt answered after this share of WEBHOOK_TIMEOUT_MS is slow, whatever its status, and counts toward WEBHOOK_SLOW_AFTER_TIMEOUTS as a timeout does (100: only timeouts count).',
  }),
  webhookSlowLaneConcurrency: Type.Integer({
    env: 'WEBHOOK_SLOW_LANE_CONCURRENCY',
    default: 4,
    minimum: 1,
    maximum: 100,
    description:
      'Webhook attempts each instance keeps in flight to slow-lane endpoints, apart from the main pool.',
  }),
};

export interface WebhookOptions {
  allowPrivate: boolean;
  pollIntervalMs: number;
  timeoutMs: number;
  /** Waits before retries 1, 2, … in ms. */
  retryDelaysMs: number[];
  disableAfterMs: number;
  /** Slots of the main pool. */
  concurrency: number;
  /** In-flight cap of one endpoint outside the slow lane, over every instance. */
  maxInFlightPerEndpoint: number;
  /** Slow attempts in a row (timed out or answered late) that put an endpoint in the slow lane. */
  slowAfterTimeouts: number;
  /** An attempt that lasts longer than this is slow, answered or not. */
  slowAttemptMs: number;
  /** Slots of the slow lane. */
  slowLaneConcurrency: number;
}

export function webhookOptions(config: {
  webhooksAllowPrivate: boolean;
  webhookPollIntervalMs: number;
  webhookTimeoutMs: number;
  webhookRetrySchedule: string;
  webhookDisableAfterSeconds: number;
  webhookConcurrency: number;
  webhookMaxInFlightPerEndpoint: number;
  webhookSlowAfterTimeouts: number;
  webhookSlowAttemptPercent: number;
  webhookSlowLaneConcurrency: number;
}): WebhookOptions {
  return {
    allowPrivate: config.webhooksAllowPrivate,
    pollIntervalMs: config.webhookPollIntervalMs,
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetrySchedule.split(',').map((s) => Math.round(Number(s) * 1000)),
    disableAfterMs: config.webhookDisableAfterSeconds * 1000,
    concurrency: config.webhookConcurrency,
    maxInFlightPerEndpoint: config.webhookMaxInFlightPerEndpoint,
    slowAfterTimeouts: config.webhookSlowAfterTimeouts,
    slowAttemptMs: Math.round((config.webhookTimeoutMs * config.webhookSlowAttemptPercent) / 100),
    slowLaneConcurrency: config.webhookSlowLaneConcurrency,
  };
}
