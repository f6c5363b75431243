import { Redis } from 'ioredis';
import { ApiError } from '../domain/errors.js';
import type { RateDecision, RateLimiter, RateRule } from './rate-limiter.js';

/**
 * The same windows as MemoryRateLimiter (a window opens at a key's first request), checked and
 * counted in one Lua script so several API processes share the limits without races. A refused
 * request consumes nothing. Returns {allowed, rule index (1-based), remaining, resetMs}.
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local starts, counts = {}, {}
local best_i, best_rem, best_reset = 1, nil, 0
for i = 1, #KEYS do
  local w = tonumber(ARGV[2 * i]); local max = tonumber(ARGV[2 * i + 1])
  local v = redis.call('HMGET', KEYS[i], 's', 'c')
  local s = tonumber(v[1]); local c = tonumber(v[2])
  if (not s) or now - s >= w then s = now; c = 0 end
  starts[i] = s; counts[i] = c
  if max - c <= 0 then return {0, i, 0, s + w - now} end
  if best_rem == nil or max - c - 1 < best_rem then best_rem = max - c - 1; best_i = i; best_reset = s + w - now end
end
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], 's', starts[i], 'c', counts[i] + 1)
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return {1, best_i, best_rem, best_reset}
`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'whereabouts:rl:',
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
  }

  async consume(key: string, rules: readonly RateRule[], now: number): Promise<RateDecision> {
    const keys = rules.map((_, i) => `${this.prefix}${key}:${i}`);
    const args = [now, ...rules.flatMap((r) => [r.windowMs, r.max])];
    const run = (this.redis as unknown as { consumeRate(n: number, ...a: Array<string | number>): Promise<number[]> })
      .consumeRate;
    let reply: number[];
    try {
      reply = await run.call(this.redis, keys.length, ...keys, ...args);
    } catch (err) {
      // Fail closed: without the shared counters no process can tell whether a limit is reached.
      throw new ApiError(
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

  /** Resolves when Redis answers (start-up check). */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
