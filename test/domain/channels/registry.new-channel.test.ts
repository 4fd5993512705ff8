import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** The new channel: one module of src/domain/channels/, nothing else of its own. */
const PIGEON_MODULE = `import { defineChannel } from './channel.js';

export const pigeon = defineChannel({
  name: 'PIGEON',
  title: 'Carrier pigeon',
  description: 'a pigeon that carries the code, to \`phone\`',
  destination: 'phone',
  deliveryTypes: [],
  carrier: 'message',
  countryWindow: true,
  routedByCountry: false,
  message: 'sms',
});
`;

/**
 * A channel is one module and one entry of the registry: a copy of src/ with exactly that added
 * type-checks, passes the layout lint, documents the channel in the OpenAPI document, and sends
 * and verifies codes on it through the HTTP API (the outbox carries them: it has no provider),
 * alone and in dual mode, with the same validation as any phone channel.
 */
describe('adding a channel to the registry', () => {
  const copy = mkdtempSync(join(tmpdir(), 'cv-new-channel-'));
  /** The copy's service (its modules are loaded at run time, so untyped here). */
  let service: {
    app: { inject(request: object): Promise<{ statusCode: number; body: string; json(): unknown }> };
    close(): Promise<void>;
  };
  type Answer = { status: number; body: any };
  let call: (token: string, method: string, url: string, body?: unknown) => Promise<Answer>;
  const admin = (method: string, url: string, body?: unknown) =>
    call('test-admin-token-0123456789abcdef', method, url, body);

  beforeAll(async () => {
    cpSync(join(repo, 'src'), join(copy, 'src'), { recursive: true });
    for (const shared of ['node_modules', 'migrations']) symlinkSync(join(repo, shared), join(copy, shared));
    cpSync(join(repo, 'package.json'), join(copy, 'package.json'));
    mkdirSync(join(copy, 'test'));
    writeFileSync(join(copy, 'src/domain/channels/pigeon.ts'), PIGEON_MODULE);
    const registry = join(copy, 'src/domain/channels/registry.ts');
    const before = readFileSync(registry, 'utf8');
    const after = before
      .replace(
        "import { sms } from './sms.js';",
        "import { pigeon } from './pigeon.js';\nimport { sms } from './sms.js';",
      )
      .replace(
        /export const CHANNEL_SPECS = \[([^\]]*)\] as const;/,
        'export const CHANNEL_SPECS = [$1, pigeon] as const;',
      );
    // The registry entry: its import and its place in the list, nothing more.
    expect(after.split('\n').length - before.split('\n').length).toBe(1);
    expect(after).toContain('pigeon] as const;');
    writeFileSync(registry, after);

    const { compose } = await import(pathToFileURL(join(copy, 'src/compose.ts')).href);
    const { loadConfig } = await import(pathToFileURL(join(copy, 'src/config/schema.ts')).href);
    const pino = (await import('pino')).default;
    service = await compose(
      loadConfig({
        DATABASE_URL: 'sqlite::memory:',
        ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
        CODE_SECRET: 'test-code-secret',
        LOG_LEVEL: 'silent',
      }),
      { logger: pino({ level: 'silent' }) },
    );
    call = async (token, method, url, body) => {
      const res = await service.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, body: res.body ? res.json() : null };
    };
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    rmSync(copy, { recursive: true, force: true });
  });

  it('type-checks and passes the layout lint with nothing else changed', () => {
    writeFileSync(
      join(copy, 'tsconfig.json'),
      readFileSync(join(repo, 'tsconfig.json'), 'utf8').replace(
        /"include": \[[^\]]*\]/,
        '"include": ["src"]',
      ),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repo, 'node_modules/typescript/bin/tsc'), '-p', copy, '--noEmit'],
      {
        encoding: 'utf8',
      },
    );
    expect(tsc.stdout + tsc.stderr, 'tsc').toBe('');
    expect(tsc.status).toBe(0);
    const lint = spawnSync(process.execPath, [join(repo, 'scripts/lint-layout.mjs'), `--root=${copy}`], {
      encoding: 'utf8',
    });
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
  }, 120_000);

  it('documents the channel, and sends and verifies codes on it through the outbox, alone and paired', async () => {
    const doc = await admin('GET', '/openapi.json');
    expect(doc.body.components.schemas.Channel.enum).toContain('PIGEON');
    expect(doc.body.components.schemas.Channel.description).toContain(
      '`PIGEON`, a pigeon that carries the code',
    );

    const created = await admin('POST', '/v1/admin/api-keys', {
      name: 'pigeons',
      channels: ['PIGEON', 'EMAIL'],
      test: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key: string = created.body.data.key;
    const api = (url: string, body: unknown) => call(key, 'POST', url, body);

    const missing = await api('/v1/contact/send-code', { channel: 'PIGEON' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(['phone']);

    const sent = await api('/v1/contact/send-code', { channel: 'PIGEON', phone: '+14155552671' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ channel: 'PIGEON', status: 'pending', to: '+1******2671' });
    const outbox = await admin('GET', '/v1/admin/outbox?to=%2B14155552671&limit=1');
    expect(outbox.body.data[0]).toMatchObject({ channel: 'PIGEON', requestId: sent.body.data.requestId });
    const code: string = outbox.body.data[0].code;
    expect(outbox.body.data[0].text).toContain(code);
    const verified = await api('/v1/contact/verify-code', {
      requestId: sent.body.data.requestId,
      otpCode: code,
    });
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'PIGEON', status: 'verified' });

    const dual = await api('/v1/contact/send-code', {
      channels: ['EMAIL', 'PIGEON'],
      email: 'pigeon@example.com',
      phone: '+14155552672',
    });
    expect(dual.status, JSON.stringify(dual.body)).toBe(200);
    expect(dual.body.data.map((e: { channel: string }) => e.channel)).toEqual(['EMAIL', 'PIGEON']);
    const pigeonCode = (await admin('GET', '/v1/admin/outbox?to=%2B14155552672&limit=1')).body.data[0].code;
    const either = await api('/v1/contact/verify-code', {
      requestId: dual.body.data[0].requestId,
      otpCode: pigeonCode,
    });
    expect(either.body.data).toMatchObject({ verified: true, channel: 'PIGEON' });
  });
});
