import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/**
 * The load generator, run as its own process so that it never shares an event loop with the
 * server. Reads one job as JSON from argv, prints one result as JSON on stdout.
 */
export interface LoadJob {
  url: string;
  /** Several services taking the load together (autocannon spreads the connections over them). */
  urls?: string[];
  kind: 'send' | 'verify' | 'bare';
  connections: number;
  durationSeconds: number;
  token?: string;
  /** Makes every destination of this measurement unique. */
  tag: string;
  /** verify: a JSON file of [requestId, code] pairs, used from `poolOffset` on. */
  poolFile?: string;
  poolOffset?: number;
  /** verify: wrong codes sent for each id before its right one. */
  wrongPerRight?: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** verify: pool entries used (past the pool's end ids repeat and answer "already verified"). */
  poolUsed?: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
let counter = 0;

// A distinct address per request, so per-destination limits and supersede never kick in. The
// multiplicative hash (a bijection on 32 bits) scatters them over the index as real ones are.
const scatter = (n: number) => (Math.imul(n, 2654435761) >>> 0).toString(16).padStart(8, '0');
const sendBody = () =>
  JSON.stringify({ channel: 'EMAIL', email: `${scatter(counter++)}-${job.tag}@example.com` });

/**
 * Each id gets `wrongPerRight` wrong codes, then its right one, as a person would: one after the
 * other, never two at once. The ids are taken in blocks of BLOCK, a round of guesses over the
 * whole block at a time, so that the concurrent requests always address different ids.
 */
const BLOCK = 1000;
let highestIndex = -1;

function verifyBody(): () => string {
  const pool = JSON.parse(readFileSync(job.poolFile as string, 'utf8')) as Array<[string, string]>;
  const perId = (job.wrongPerRight ?? 3) + 1;
  return () => {
    const n = counter++;
    const within = n % (BLOCK * perId);
    const guess = Math.floor(within / BLOCK);
    const index = (job.poolOffset ?? 0) + Math.floor(n / (BLOCK * perId)) * BLOCK + (within % BLOCK);
    highestIndex = Math.max(highestIndex, index);
    const [requestId, code] = pool[index % pool.length] as [string, string];
    // Past the pool's end ids repeat: only right codes then, so that no id runs out of attempts.
    const right = guess === perId - 1 || index >= pool.length;
    // A wrong code differs from the right one in its last digit.
    const otpCode = right ? code : code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10);
    return JSON.stringify({ requestId, otpCode });
  };
}

const body = job.kind === 'verify' ? verifyBody() : sendBody;
const path =
  job.kind === 'send' ? '/v1/contact/send-code' : job.kind === 'verify' ? '/v1/contact/verify-code' : '/';
const headers: Record<string, string> = { 'content-type': 'application/json' };
if (job.token) headers.authorization = `Bearer ${job.token}`;

const result = await autocannon({
  url: job.urls ?? job.url,
  connections: job.connections,
  duration: job.durationSeconds,
  timeout: 10,
  headers,
  requests: [{ method: 'POST', path, setupRequest: (req) => ({ ...req, body: body() }) }],
});

const statusCodes: Record<string, number> = {};
for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count;
const out: LoadResult = {
  requests: result.requests.total,
  requestsPerSecond: result.requests.total / result.duration,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  statusCodes,
};
if (job.kind === 'verify') out.poolUsed = highestIndex + 1 - (job.poolOffset ?? 0);
process.stdout.write(`${JSON.stringify(out)}\n`);
