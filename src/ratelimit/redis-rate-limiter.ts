import { Redis } from 'ioredis';
import { HttpError } from '../http/http-error.js';
import type { RateDecision, RateLimiter, RateRule } from './rate-limiter.js';

/**
 * The same windows as MemoryRateLimiter (a window opens at a key's first request), checked and
 * counted in one Lua script so several API processes share the limits without races. A refused
 * request consumes nothing. All of a key's windows live in one hash (fields s<i>, c<i>: start and
 * count of rule i), read, written and given its expiry (when its longest window ends) by three
 * commands whatever the number of rules: a track checks three device windows. Returns {allowed,
 * rule index (1-based), remaining, resetMs}.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local n = (#ARGV - 1) / 2
local names = {}
for i = 1, n do names[2 * i - 1] = 's' .. i; names[2 * i] = 'c' .. i end
local v = redis.call('HMGET', KEYS[1], unpack(names))
local set = {}
local best_i, best_rem, best_reset = 1, nil, 0
local ttl = 0
for i = 1, n do
  local w = tonumber(ARGV[2 * i]); local max = tonumber(ARGV[2 * i + 1])
  local s = tonumber(v[2 * i - 1]); local c = tonumber(v[2 * i])
  if (not s) or now - s >= w then s = now; c = 0 end
  if max - c <= 0 then return {0, i, 0, s + w - now} end
  if best_rem == nil or max - c - 1 < best_rem then best_rem = max - c - 1; best_i = i; best_reset = s + w - now end
  if s + w - now > ttl then ttl = s + w - now end
  set[4 * i - 3] = 's' .. i; set[4 * i - 2] = s; set[4 * i - 1] = 'c' .. i; set[4 * i] = c + 1
end
redis.call('HSET', KEYS[1], unpack(set))
redis.call('PEXPIRE', KEYS[1], ttl)
return {1, best_i, best_rem, best_reset}
`;

/**
 * `refund`: takes one off each window that counted a request at ARGV[1] (opened by then, not ended
 * since); a window that request opened and nothing else counted in is removed, so the next request
 * opens its own. ARGV[1 + i]: rule i's window length.
 */
const REFUND_SCRIPT = `
local at = tonumber(ARGV[1])
for i = 1, #ARGV - 1 do
  local w = tonumber(ARGV[1 + i])
  local v = redis.call('HMGET', KEYS[1], 's' .. i, 'c' .. i)
  local s = tonumber(v[1]); local c = tonumber(v[2])
  if s and c and c > 0 and s <= at and at - s < w then
    if c == 1 and s == at then redis.call('HDEL', KEYS[1], 's' .. i, 'c' .. i)
    else redis.call('HSET', KEYS[1], 'c' .. i, c - 1) end
  end
end
return 0
`;

type Scripted = {
  consumeRate(n: number, ...a: Array<string | number>): Promise<number[]>;
  refundRate(n: number, ...a: Array<string | number>): Promise<number>;
};

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'whereabouts:rl2:',
  ) {
    // While Redis is unreachable a command waits for one reconnection attempt, then fails: requests
    // get a quick 503 instead of hanging (see `consume`).
    this.redis = new Redis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
      enableAutoPipelining: true,
    });
    // Connection errors surface through the commands that fail; the client keeps reconnecting.
    this.redis.on('error', () => {});
    this.redis.defineCommand('consumeRate', { lua: SCRIPT });
    this.redis.defineCommand('refundRate', { lua: REFUND_SCRIPT });
  }

  private get scripts(): Scripted {
    return this.redis as unknown as Scripted;
  }

  async consume(key: string, rules: readonly RateRule[], now: number): Promise<RateDecision> {
    const args: Array<string | number> = [`${this.prefix}${key}`, now];
    for (const r of rules) args.push(r.windowMs, r.max);
    let reply: number[];
    try {
      reply = await this.scripts.consumeRate(1, ...args);
    } catch (err) {
      // Fail closed: without the shared counters no process can tell whether a limit is reached.
      throw new HttpError(
        503,
        undefined,
        `Rate limiting is unavailable (Redis: ${(err as Error).message}); retry shortly.`,
        {
          'retry-after': '1',
        },
      );
    }
    const [allowed, index, remaining, resetMs] = reply;
    return { allowed: allowed === 1, rule: rules[(index ?? 1) - 1]!, remaining: remaining ?? 0, resetMs: resetMs ?? 0 };
  }

  /**
   * Fails quietly: a refund that cannot reach Redis leaves the request counted, which errs towards
   * the limit, and the request it belongs to has already been answered with its refusal.
   */
  async refund(key: string, rules: readonly RateRule[], at: number): Promise<void> {
    await this.scripts.refundRate(1, `${this.prefix}${key}`, at, ...rules.map((r) => r.windowMs)).catch(() => {});
  }

  /** Resolves when Redis answers (start-up check). */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
