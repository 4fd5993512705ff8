import { readFileSync } from 'node:fs';
import net from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { fencedBlocks } from './markdown.js';
import { postJson, runToExit } from './process.js';

/**
 * The rehearsals of docs/operations.md run its commands as written: each line or block in `sh`,
 * in the checkout, with the PATH of an operator's shell (node and the system's tools; nothing of
 * node_modules/.bin, and no `contact-verify`: the doc says `npx contact-verify`, which runs the
 * package's own bin, dist/cli.js, as an install builds it).
 */

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const OPERATIONS_DOC = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

/** dist/ as `npm install` leaves it (its prepare step): rebuilt when a source is newer. */
export async function freshInstall(): Promise<void> {
  const built = await runToExit(process.execPath, ['scripts/ensure-built.mjs'], {
    cwd: ROOT,
    env: process.env,
  });
  expect(built.code, built.output).toBe(0);
}

/** The PATH of an operator's shell: node's folder and the system's, without node_modules/.bin. */
export const OPERATOR_PATH = [
  dirname(process.execPath),
  ...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !dir.includes('node_modules')),
].join(delimiter);

/** The code of the fenced block of docs/operations.md that holds `line` (a whole line of it). */
export function documentedBlock(line: string): string {
  const block = fencedBlocks(OPERATIONS_DOC).find((b) => b.code.split('\n').some((l) => l.trim() === line));
  if (!block) throw new Error(`docs/operations.md has no code block with the line: ${line}`);
  // A block in a list item is indented with it.
  const lines = block.code.split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)?.[0].length ?? 0));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/**
 * Runs a command of docs/operations.md (it must be there, verbatim: a line, or a block from
 * documentedBlock) in sh, in the checkout, with `env` over the operator's PATH and HOME.
 */
export async function runDocumented(
  command: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  expect(OPERATIONS_DOC.replace(/^ +/gm, ''), `docs/operations.md shows: ${command}`).toContain(
    command.replace(/^ +/gm, '').trim(),
  );
  return runToExit('sh', ['-c', command], {
    cwd: ROOT,
    env: {
      PATH: OPERATOR_PATH,
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
