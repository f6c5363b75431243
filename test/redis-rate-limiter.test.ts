import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { MemoryRateLimiter } from '../src/ratelimit/memory-rate-limiter.js';
import type { RateRule } from '../src/ratelimit/rate-limiter.js';
import { RedisRateLimiter } from '../src/ratelimit/redis-rate-limiter.js';

/**
 * The Redis limiter (every window of a key in one hash, one script call) decides exactly as the
 * in-memory one, request by request. Runs where a Redis is given (TEST_REDIS_URL: the PostgreSQL run).
 */
describe('Redis rate limiter', { skip: !process.env.TEST_REDIS_URL }, () => {
  const redis = new RedisRateLimiter(
    process.env.TEST_REDIS_URL ?? '',
    `whereabouts:test:${randomBytes(4).toString('hex')}:`,
  );
  const memory = new MemoryRateLimiter();
  after(async () => {
    await redis.close();
    await memory.close();
  });

  const rules: RateRule[] = [
    { windowMs: 1000, max: 2, label: 'second' },
    { windowMs: 10_000, max: 5, label: 'ten seconds' },
    { windowMs: 60_000, max: 8, label: 'minute' },
  ];

  /** Consumes `key` of both limiters at `now` and asserts they decide alike; the memory limiter's answer. */
  const consumeBoth = async (key: string, now: number, what: string) => {
    const want = memory.consume(key, rules, now);
    const got = await redis.consume(key, rules, now);
    assert.deepEqual({ ...got, rule: got.rule.label }, { ...want, rule: want.rule.label }, what);
    return want;
  };

  it('decides as MemoryRateLimiter on a sequence that fills and reopens each of three windows', async () => {
    let now = 1_000_000;
    for (let i = 0; i < 60; i++) {
      now += [0, 150, 400, 1000][i % 4]!;
      for (const key of ['a', 'b']) {
        await consumeBoth(key, now, `request ${i} of ${key} at ${now}`);
      }
    }
  });

  it('gives back as MemoryRateLimiter does: refunds of every other allowed request, some after their window ended', async () => {
    let now = 5_000_000;
    const allowedAt: Record<string, number[]> = { c: [], d: [] };
    for (let i = 0; i < 80; i++) {
      now += [0, 300, 700, 1000, 2500][i % 5]!;
      for (const key of ['c', 'd']) {
        const want = await consumeBoth(key, now, `request ${i} of ${key} at ${now}`);
        if (want.allowed) allowedAt[key]!.push(now);
        // Give back one in three of the allowed ones, sometimes the latest, sometimes an older one.
        if (i % 3 === 0 && allowedAt[key]!.length > 0) {
          const at = allowedAt[key]!.splice(i % 2 === 0 ? -1 : 0, 1)[0]!;
          memory.refund(key, rules, at);
          await redis.refund(key, rules, at);
        }
      }
    }
  });
});
