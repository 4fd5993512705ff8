import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  type CounterPlan,
  type CounterRef,
  type CounterSpec,
  type LimitDecision,
  LimitStoreUnavailable,
  type PlanOutcome,
  type RateLimitStore,
} from '../domain/ports/rate-limits.js';
import { redisConnection } from '../redis-connection.js';
import { consumeWith, familyId, peekWith } from './memory-store.js';

/**
 * rate-limiter-flexible's own increment script, with one change: a refund (negative points) never
 * takes a counter below zero and never opens a window. Without it, a refund that lands just after
 * its window ended would create a counter at -1 and grant an extra send in the next window.
 */
const INCR_TTL_SCRIPT = `
local points = tonumber(ARGV[1])
if points < 0 then
  local current = tonumber(redis.call('get', KEYS[1]))
  if current == nil then return {0, 0} end
  if current + points < 0 then points = -current end
end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], points)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}
`;

/** How a counter changes, shared by both scripts below: INCR_TTL_SCRIPT's steps, as functions. */
const COUNTER_FUNCTIONS = `
local function add(i, points, window)
  redis.call('set', KEYS[i], 0, 'EX', window, 'NX')
  local consumed = redis.call('incrby', KEYS[i], points)
  local ttl = redis.call('pttl', KEYS[i])
  if ttl == -1 then
    redis.call('expire', KEYS[i], window)
    ttl = 1000 * tonumber(window)
  end
  return consumed, ttl
end
local function giveBack(i, points, window)
  local current = tonumber(redis.call('get', KEYS[i]))
  if current == nil then return end
  if current - points < 0 then points = current end
  add(i, -points, window)
end
`;

/**
 * A CounterPlan in one call (see CounterPlan for its steps; runPlanNow is the same run over
 * single operations). KEYS: the counters of addsFirst, reads, rate, budgets, takes (group after
 * group) and adds; ARGV: how many of each (addsFirst, reads, rate 0 or 1, budgets, groups, adds),
 * each group's size, then each counter's limit and window. It answers the reads' points, then the
 * rate (0 none, 1 allowed, 2 refused; remaining; ms to its window's end), the first used-up budget
 * (1-based, 0 none; ms), then each refused take as group, step (1-based) and ms.
 */
const PLAN_SCRIPT = `${COUNTER_FUNCTIONS}
local nFirst, nReads, nRate, nBudgets, nGroups, nAdds = tonumber(ARGV[1]), tonumber(ARGV[2]),
  tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local base = 6 + nGroups
local function limit(i) return tonumber(ARGV[base + 2 * i - 1]) end
local function window(i) return ARGV[base + 2 * i] end
local out = {}
local k = 0
for _ = 1, nFirst do
  k = k + 1
  add(k, 1, window(k))
end
for _ = 1, nReads do
  k = k + 1
  out[#out + 1] = tonumber(redis.call('get', KEYS[k])) or 0
end
local rateState, rateRemaining, rateTtl = 0, 0, 0
if nRate == 1 then
  k = k + 1
  local consumed, ttl = add(k, 1, window(k))
  if consumed > limit(k) then
    giveBack(k, 1, window(k))
    rateState, rateTtl = 2, ttl
  else
    rateState, rateRemaining = 1, math.max(limit(k) - consumed, 0)
  end
end
out[#out + 1] = rateState
out[#out + 1] = rateRemaining
out[#out + 1] = rateTtl
if rateState == 2 then
  out[#out + 1] = 0
  out[#out + 1] = 0
  return out
end
for j = 1, nBudgets do
  k = k + 1
  local used = tonumber(redis.call('get', KEYS[k])) or 0
  if used >= limit(k) then
    out[#out + 1] = j
    out[#out + 1] = redis.call('pttl', KEYS[k])
    return out
  end
end
out[#out + 1] = 0
out[#out + 1] = 0
local taken = {}
local refused = false
for g = 1, nGroups do
  local size = tonumber(ARGV[6 + g])
  local first = k
  for step = 1, size do
    local i = first + step
    local consumed, ttl = add(i, 1, window(i))
    if consumed > limit(i) then
      giveBack(i, 1, window(i))
      out[#out + 1] = g
      out[#out + 1] = step
      out[#out + 1] = ttl
      refused = true
      break
    end
    taken[#taken + 1] = i
  end
  k = first + size
end
if refused then
  for _, i in ipairs(taken) do giveBack(i, 1, window(i)) end
  return out
end
for _ = 1, nAdds do
  k = k + 1
  add(k, 1, window(k))
end
return out
`;

/** Gives back one point of each counter in KEYS (ARGV: each one's window). */
const GIVE_BACK_SCRIPT = `${COUNTER_FUNCTIONS}
for i = 1, #KEYS do giveBack(i, 1, ARGV[i]) end
return 0
`;

/** The connection with the two scripts defined (EVALSHA, loaded again by ioredis on NOSCRIPT). */
type ScriptedRedis = Redis & {
  cvCounterPlan(...args: Array<string | number>): Promise<number[]>;
  cvGiveBack(...args: Array<string | number>): Promise<number>;
};

/** Options for tests and operators; production uses the defaults. */
export interface RedisStoreOptions {
  /** Namespaces every key (tests use one of their own). */
  prefix?: string;
  /** A command that gets no answer within this time fails (a hung Redis answers 503, not never). */
  commandTimeoutMs?: number;
}

/**
 * Counters shared by every instance, in Redis. Each counter changes in one atomic Lua script, so
 * concurrent requests on many instances count exactly. When Redis cannot be reached every
 * operation fails with LimitStoreUnavailable: sends AND verifies fail closed (503 with
 * Retry-After) rather than run without limits, since the verify limits are what stops guessing.
 * ioredis reconnects by itself; the first command after it is back succeeds.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis' as const;
  private readonly limiters = new Map<string, RateLimiterRedis>();

  private readonly redis: ScriptedRedis;

  private constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    // Defined once per connection: each call is an EVALSHA, and ioredis sends the script itself
    // when Redis answers NOSCRIPT (a restarted or flushed Redis).
    redis.defineCommand('cvCounterPlan', { lua: PLAN_SCRIPT });
    redis.defineCommand('cvGiveBack', { lua: GIVE_BACK_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  /** A counter's Redis key, as rate-limiter-flexible names it (keyPrefix, then the key). */
  private keyOf(ref: CounterRef): string {
    return `${this.prefix}:${familyId(ref.spec)}:${ref.key}`;
  }

  /** Connects, but starts even when Redis is away: /health shows it down until it is back. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisRateLimitStore> {
    // Failures are reported through check() and LimitStoreUnavailable.
    const redis = redisConnection(url, options.commandTimeoutMs ?? 1000);
    try {
      await redis.connect();
    } catch {
      // Start anyway: requests answer 503 until the reconnect loop reaches Redis.
    }
    return new RedisRateLimitStore(redis, options.prefix ?? 'cv');
  }

  private limiter(spec: CounterSpec): RateLimiterRedis {
    const id = `${spec.name}:${spec.limit}:${spec.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}:${id}`,
        points: spec.limit,
        duration: spec.windowSeconds,
        rejectIfRedisNotReady: true,
        customIncrTtlLuaScript: INCR_TTL_SCRIPT,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new LimitStoreUnavailable(
        `rate-limit store unavailable: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  consume(spec: CounterSpec, key: string, points = 1): Promise<LimitDecision> {
    return this.guard(() => consumeWith(this.limiter(spec), key, points));
  }

  async refund(spec: CounterSpec, key: string, points = 1): Promise<void> {
    await this.guard(() => this.limiter(spec).reward(key, points));
  }

  async penalize(spec: CounterSpec, key: string, points = 1): Promise<void> {
    await this.guard(() => this.limiter(spec).penalty(key, points));
  }

  peek(spec: CounterSpec, key: string): Promise<LimitDecision> {
    return this.guard(() => peekWith(this.limiter(spec), spec, key));
  }

  count(spec: CounterSpec, key: string): Promise<number> {
    return this.guard(async () => (await this.limiter(spec).get(key))?.consumedPoints ?? 0);
  }

  async run(plan: CounterPlan): Promise<PlanOutcome> {
    const first = plan.addsFirst ?? [];
    const reads = plan.reads ?? [];
    const budgets = plan.budgets ?? [];
    const groups = plan.takes ?? [];
    const adds = plan.adds ?? [];
    const rate = plan.rate ? [plan.rate] : [];
    const refs = [...first, ...reads, ...rate, ...budgets, ...groups.flat(), ...adds];
    const args: Array<string | number> = [refs.length, ...refs.map((r) => this.keyOf(r))];
    args.push(first.length, reads.length, rate.length, budgets.length, groups.length, adds.length);
    for (const g of groups) args.push(g.length);
    for (const r of refs) args.push(r.spec.limit, r.spec.windowSeconds);
    const out = await this.guard(() => this.redis.cvCounterPlan(...args));
    return planOutcome(plan, out.map(Number));
  }

  async giveBack(counters: CounterRef[]): Promise<void> {
    if (counters.length === 0) return;
    await this.guard(() =>
      this.redis.cvGiveBack(
        counters.length,
        ...counters.map((r) => this.keyOf(r)),
        ...counters.map((r) => r.spec.windowSeconds),
      ),
    );
  }

  async check(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** Deletes every key under this store's prefix (tests clean up with it). */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}

const waitOf = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** Reads PLAN_SCRIPT's answer into the outcome runPlanNow would give. */
function planOutcome(plan: CounterPlan, out: number[]): PlanOutcome {
  const reads = plan.reads ?? [];
  const at = (i: number): number => out[i] ?? 0;
  let i = reads.length;
  const outcome: PlanOutcome = { reads: out.slice(0, i), rate: null, budget: null, refused: [], charged: [] };
  const [rateState, rateRemaining, rateTtl] = [at(i), at(i + 1), at(i + 2)];
  i += 3;
  if (plan.rate) {
    outcome.rate =
      rateState === 1
        ? { allowed: true, remaining: rateRemaining, retryAfterSeconds: 0 }
        : { allowed: false, remaining: 0, retryAfterSeconds: waitOf(rateTtl) };
    if (rateState !== 1) return outcome;
    outcome.charged.push(plan.rate);
  }
  const [budget, budgetTtl] = [at(i), at(i + 1)];
  i += 2;
  if (budget > 0) {
    outcome.budget = { index: budget - 1, retryAfterSeconds: waitOf(budgetTtl) };
    return outcome;
  }
  for (; i < out.length; i += 3)
    outcome.refused.push({ group: at(i) - 1, step: at(i + 1) - 1, retryAfterSeconds: waitOf(at(i + 2)) });
  if (outcome.refused.length > 0) return outcome;
  outcome.charged.push(...(plan.takes ?? []).flat(), ...(plan.adds ?? []));
  return outcome;
}
