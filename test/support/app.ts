import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { type ComposeOptions, compose, type Service } from '../../src/compose.js';
import { type Config, loadConfig } from '../../src/config/schema.js';
import type { ProviderList } from '../../src/delivery/providers/registry.js';
import type { Clock } from '../../src/domain/clock.js';
import { CHANNELS, type Channel } from '../../src/domain/types.js';

// At least 32 characters: a shorter ADMIN_TOKEN is refused at boot.
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** A configuration for tests: in-memory SQLite, a fixed admin token, overrides by env name. */
export function testConfig(env: Record<string, string> = {}, providers?: ProviderList): Config {
  return loadConfig(
    {
      DATABASE_URL: 'sqlite::memory:',
      ADMIN_TOKEN,
      CODE_SECRET: 'test-code-secret',
      LOG_LEVEL: 'silent',
      // Tests call the admin API with wrong tokens on purpose, all from one address.
      ADMIN_AUTH_FAILURES_PER_MINUTE: '100000',
      ...env,
    },
    providers,
  );
}

export interface TestService extends Service {
  app: FastifyInstance;
  /** Creates an API key through the admin API and returns its secret. */
  createKey(input?: {
    channels?: Channel[];
    accountId?: string;
    test?: boolean;
    name?: string;
  }): Promise<string>;
  /** POSTs JSON with a bearer token and returns status, headers and parsed body. */
  post(
    url: string,
    body: unknown,
    token?: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  get(url: string, token?: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /** The newest outbox message to `to`. */
  lastMessage(to: string): Promise<{
    to: string;
    text: string;
    subject?: string;
    html?: string;
    requestId: string;
    channel: Channel;
  }>;
  /** The code in the newest outbox message to `to`. */
  lastCode(to: string): Promise<string>;
}

/** Starts the whole service in-process (not listening) on a fresh in-memory database. */
export async function startTestService(
  env: Record<string, string> = {},
  options: {
    clock?: Clock;
    logger?: pino.Logger;
    keyUseFlushMs?: number;
    dashboardDir?: string;
    /** A provider list that adds to the registry; the configuration is read with it too. */
    providers?: ProviderList;
    /** How often the instance says on the database that it is alive (ComposeOptions). */
    instanceHeartbeatMs?: number;
    /** The WhatsApp calls' timers (ComposeOptions). */
    whatsappCallTimings?: ComposeOptions['whatsappCallTimings'];
  } = {},
): Promise<TestService> {
  const service = await compose(testConfig(env, options.providers), {
    providers: options.providers,
    logger: options.logger ?? pino({ level: 'silent' }),
    clock: options.clock,
    keyUseFlushMs: options.keyUseFlushMs,
    dashboardDir: options.dashboardDir,
    instanceHeartbeatMs: options.instanceHeartbeatMs,
    whatsappCallTimings: options.whatsappCallTimings,
  });
  const request = async (method: 'GET' | 'POST', url: string, body: unknown, token?: string) => {
    const res = await service.app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, unknown>,
      body: res.body ? res.json() : null,
    };
  };
  const test: TestService = {
    ...service,
    post: (url, body, token) => request('POST', url, body, token),
    get: (url, token) => request('GET', url, undefined, token),
    async createKey(input = {}) {
      const res = await request(
        'POST',
        '/v1/admin/api-keys',
        {
          name: input.name ?? 'test',
          channels: input.channels ?? [...CHANNELS],
          accountId: input.accountId,
          test: input.test,
        },
        ADMIN_TOKEN,
      );
      if (res.status !== 201) throw new Error(`key creation failed: ${JSON.stringify(res.body)}`);
      return res.body.data.key as string;
    },
    async lastMessage(to) {
      const res = await request(
        'GET',
        `/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=1`,
        undefined,
        ADMIN_TOKEN,
      );
      const message = res.body.data[0];
      if (!message) throw new Error(`no outbox message to ${to}`);
      return message;
    },
    async lastCode(to) {
      const message = await test.lastMessage(to);
      const code = /\b(\d{4,10})\b/.exec(message.text)?.[1];
      if (!code) throw new Error(`no code in message: ${message.text}`);
      return code;
    },
  };
  return test;
}
