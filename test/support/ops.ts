import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { postJson, runToExit } from './process.js';

/**
 * The rehearsals of docs/operations.md run its commands as written, in a shell whose PATH has a
 * `contact-verify` that runs the CLI from source (as `npx contact-verify` does after a build).
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OPERATIONS_DOC = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

const tsxLoader = join(
  dirname(createRequire(import.meta.url).resolve('tsx/package.json')),
  'dist/loader.mjs',
);

/** A directory holding the `contact-verify` command, for PATH. */
export function cliOnPath(scratch: string): string {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, 'contact-verify');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" --import "${tsxLoader}" "${join(ROOT, 'src/cli.ts')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return bin;
}

/**
 * Runs one command of docs/operations.md (it must be there, verbatim) in sh, in the repository,
 * with `env` over a bare PATH (the CLI first) and HOME.
 */
export async function runDocumented(
  command: string,
  bin: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  expect(OPERATIONS_DOC, `docs/operations.md shows: ${command}`).toContain(command);
  return runToExit('sh', ['-c', command], {
    cwd: ROOT,
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? '/root',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

/** A port no one listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const ADMIN_TOKEN = 'ops-rehearsal-admin-token-0123456789abcdef';

/** A test key (its messages always go to the outbox) made with the admin API. */
export async function testKey(url: string, token = ADMIN_TOKEN): Promise<string> {
  const res = await postJson(
    `${url}/v1/admin/api-keys`,
    { name: 'ops', channels: ['EMAIL'], test: true },
    token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.key as string;
}

/** Sends a code to `email`; resolves its request id and the code, read back from the outbox. */
export async function sendCode(
  url: string,
  key: string,
  email: string,
  token = ADMIN_TOKEN,
): Promise<{ requestId: string; code: string }> {
  const sent = await postJson(`${url}/v1/contact/send-code`, { channel: 'EMAIL', email }, key);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const requestId = sent.body.data.requestId as string;
  const outbox = await fetch(`${url}/v1/admin/outbox?to=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const items = ((await outbox.json()) as { data: Array<{ requestId: string; text: string }> }).data;
  // The message as the recipient reads it: "… verification code is: 549464 …".
  const code = /\b(\d{4,10})\b/.exec(items.find((m) => m.requestId === requestId)?.text ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${requestId}`);
  return { requestId, code };
}

/** verify-code's answer: its status and `data.verified` (or the error code). */
export async function verifyCode(
  url: string,
  key: string,
  requestId: string,
  code: string,
): Promise<{ status: number; verified: boolean | undefined; error: string | undefined }> {
  const res = await postJson(`${url}/v1/contact/verify-code`, { requestId, otpCode: code }, key);
  return { status: res.status, verified: res.body?.data?.verified, error: res.body?.error?.code };
}
