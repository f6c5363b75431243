import type { RateDecision, RateLimiter, RateRule } from './rate-limiter.js';

interface Window {
  start: number;
  count: number;
}

/**
 * Windows open at a key's first request (not on clock boundaries), so "1 per second" means one
 * request, then nothing for a full second: deterministic for clients and tests alike.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepEveryMs = 60_000) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), sweepEveryMs);
    this.sweeper.unref();
  }

  consume(key: string, rules: readonly RateRule[], now: number): RateDecision {
    let ws = this.windows.get(key);
    if (!ws || ws.length !== rules.length) {
      ws = rules.map(() => ({ start: now, count: 0 }));
      this.windows.set(key, ws);
    }
    let tightest: RateDecision | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const w = ws[i]!;
      if (now - w.start >= rule.windowMs) {
        w.start = now;
        w.count = 0;
      }
      const remaining = rule.max - w.count;
      const resetMs = w.start + rule.windowMs - now;
      if (remaining <= 0) return { allowed: false, rule, remaining: 0, resetMs };
      if (!tightest || remaining - 1 < tightest.remaining)
        tightest = { allowed: true, rule, remaining: remaining - 1, resetMs };
    }
    for (const w of ws) w.count++;
    return tightest!;
  }

  private sweep(now: number): void {
    for (const [key, ws] of this.windows) {
      if (ws.every((w) => now - w.start > 86_400_000)) this.windows.delete(key);
    }
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
