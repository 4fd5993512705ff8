/**
 * The cost of holding a JSON body to I-JSON (src/http/json-body.ts), per body, beside JSON.parse
 * itself and the depth check it replaced: µs per call, the median of 7 rounds, for the bodies of
 * send-code, verify-code and a settings change, and a 6.5 KB body of many small objects.
 *
 *   node --import tsx bench/json-body.ts
 *
 * `jsonc-parser visit` is the library's full pass (what the check does only once a problem is
 * certain, to name the fields), for comparison.
 */
import { visit } from 'jsonc-parser';
import { jsonBodyProblem } from '../src/http/json-body.js';

/** The check before (src/http/json-depth.ts): nesting depth only, over Object.values. */
function depthOnly(value: unknown, max = 32): boolean {
  if (value === null || typeof value !== 'object') return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const node = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

const BODIES: Record<string, string> = {
  'send-code': JSON.stringify({
    channel: 'EMAIL',
    email: 'jane.doe+signup@example.com',
    purpose: 'signup',
    locale: 'en',
  }),
  'verify-code': JSON.stringify({ requestId: '0190f7d2-5a5e-7c3b-9d1e-0a1b2c3d4e5f', otpCode: '123456' }),
  settings: JSON.stringify({
    branding: {
      brandName: 'Shop',
      primaryColor: '#112233',
      emailFooter: 'Thanks\nThe "team"',
      templates: { text: 'Your code is {code}', SMS: '{code} is your code', WHATSAPP: '{code}' },
    },
    codeTtlSeconds: 600,
    allowedCountries: ['US', 'GB', 'FR'],
  }),
  '300 objects': JSON.stringify({ list: Array.from({ length: 300 }, (_, i) => ({ k: `v${i}`, n: i })) }),
};

function microseconds(fn: () => unknown, calls: number): number {
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  return rounds.sort((a, b) => a - b)[3] as number;
}

const rows = Object.entries(BODIES).map(([name, text]) => {
  const value = JSON.parse(text);
  if (jsonBodyProblem(text, value) !== null) throw new Error(`${name} was refused`);
  const calls = text.length > 1000 ? 2_000 : 100_000;
  return {
    body: name,
    bytes: text.length,
    'JSON.parse': microseconds(() => JSON.parse(text), calls),
    'depth check (before)': microseconds(() => depthOnly(value), calls),
    'jsonBodyProblem (now)': microseconds(() => jsonBodyProblem(text, value), calls),
    'jsonc-parser visit': microseconds(() => visit(text, { onObjectProperty: () => {} }), calls / 4),
  };
});
console.table(
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, typeof v === 'number' && k !== 'bytes' ? v.toFixed(2) : v]),
    ),
  ),
);
