/**
 * Runs clients/scenario.json with this library against a running service (see clients/README.md).
 * Exits 0 when every step passed.
 */
import { readFileSync } from 'node:fs';
import { ContactVerify, ContactVerifyError, type SendCodeRequest, TestOutbox } from './dist/index.js';

interface Step {
  name: string;
  op:
    | 'health'
    | 'sendCode'
    | 'verifyCode'
    | 'getVerification'
    | 'cancelVerification'
    | 'latestOutboxCode'
    | 'outboxCode';
  client?: 'default' | 'badKey' | 'stub' | 'test';
  retries?: number;
  args?: Record<string, unknown>;
  expect?: {
    ok?: unknown;
    present?: string[];
    error?: { status: number; code: string; retryAfterAtLeast?: number };
  };
  save?: Record<string, string>;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const scenario = JSON.parse(readFileSync(env('CV_SCENARIO'), 'utf8')) as {
  codePattern: string;
  vars: Record<string, string>;
  steps: Step[];
};
const vars: Record<string, string> = { lang: 'typescript', runId: env('CV_RUN_ID') };
const expand = (value: unknown): unknown => {
  if (typeof value === 'string')
    return value.replace(/\{(\w+)\}/g, (_, name: string) => vars[name] ?? `{${name}}`);
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  return value;
};
for (const [name, value] of Object.entries(scenario.vars)) vars[name] = expand(value) as string;

const clients = {
  default: new ContactVerify({ baseUrl: env('CV_BASE_URL'), apiKey: env('CV_API_KEY') }),
  badKey: new ContactVerify({ baseUrl: env('CV_BASE_URL'), apiKey: 'cv_live_not_a_real_key_000000000000' }),
  stub: new ContactVerify({ baseUrl: env('CV_STUB_URL'), apiKey: env('CV_API_KEY') }),
  test: new ContactVerify({ baseUrl: env('CV_BASE_URL'), apiKey: env('CV_TEST_API_KEY') }),
};
const outbox = new TestOutbox({ baseUrl: env('CV_BASE_URL'), adminToken: env('CV_ADMIN_TOKEN') });

/** Where `expected` is a subset of `actual` (lists element by element, same length); else a reason. */
function mismatch(expected: unknown, actual: unknown, at = 'data'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return `${at}: expected a list of ${expected.length}, got ${JSON.stringify(actual)}`;
    for (const [i, e] of expected.entries()) {
      const m = mismatch(e, actual[i], `${at}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object')
      return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [k, e] of Object.entries(expected)) {
      const m = mismatch(e, (actual as Record<string, unknown>)[k], `${at}.${k}`);
      if (m) return m;
    }
    return null;
  }
  return expected === actual
    ? null
    : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** `requestId`, `[1].requestId`: a path into the answer's data. */
function pick(data: unknown, path: string): unknown {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], data);
}

async function outboxCode(to: string): Promise<{ code: string }> {
  const res = await fetch(`${env('CV_BASE_URL')}/v1/admin/outbox?to=${encodeURIComponent(to)}`, {
    headers: { authorization: `Bearer ${env('CV_ADMIN_TOKEN')}` },
  });
  const body = (await res.json()) as { data: Array<{ text: string }> };
  const match = new RegExp(scenario.codePattern).exec(body.data[0]?.text ?? '');
  if (!match?.[1]) throw new Error(`no code in the outbox for ${to}`);
  return { code: match[1] };
}

async function run(step: Step): Promise<void> {
  const client = clients[step.client ?? 'default'];
  const args = expand(step.args ?? {}) as Record<string, string>;
  const options = step.retries === undefined ? {} : { maxRetries: step.retries };
  let data: unknown;
  try {
    if (step.op === 'health') data = await client.health(options);
    else if (step.op === 'sendCode') {
      // The caller's own key is an option of the call, not a field of the request.
      const { idempotencyKey, ...request } = args;
      data = await client.sendCode(request as unknown as SendCodeRequest, {
        ...options,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    } else if (step.op === 'verifyCode')
      // No otpCode: a SILENT request's check, by its id alone.
      data = await client.verifyCode(
        {
          requestId: args.requestId ?? '',
          ...(args.otpCode === undefined ? {} : { otpCode: args.otpCode }),
        },
        options,
      );
    else if (step.op === 'getVerification')
      data = await client.getVerification(args.requestId ?? '', options);
    else if (step.op === 'cancelVerification')
      data = await client.cancelVerification(args.requestId ?? '', options);
    else if (step.op === 'latestOutboxCode') data = { code: await outbox.latestOutboxCode(args.to ?? '') };
    else data = await outboxCode(args.to ?? '');
  } catch (err) {
    const want = step.expect?.error;
    if (!want || !(err instanceof ContactVerifyError)) throw err;
    if (err.status !== want.status || err.code !== want.code)
      throw new Error(`expected ${want.status} ${want.code}, got ${err.status} ${err.code}: ${err.message}`);
    if (want.retryAfterAtLeast !== undefined && (err.retryAfter ?? 0) < want.retryAfterAtLeast)
      throw new Error(`expected retryAfter >= ${want.retryAfterAtLeast}, got ${err.retryAfter}`);
    return;
  }
  if (step.expect?.error) throw new Error(`expected ${step.expect.error.code}, got an answer`);
  if (step.expect?.ok !== undefined) {
    const m = mismatch(expand(step.expect.ok), data);
    if (m) throw new Error(m);
  }
  for (const path of step.expect?.present ?? [])
    if (pick(data, path) === undefined || pick(data, path) === null)
      throw new Error(`data.${path}: expected a value, got none`);
  for (const [name, path] of Object.entries(step.save ?? {})) vars[name] = String(pick(data, path));
}

let failed = 0;
for (const step of scenario.steps) {
  try {
    await run(step);
    console.log(`ok   ${step.name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${step.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
console.log(`${scenario.steps.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
