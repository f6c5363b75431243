import type { RateDecision, RateLimiter, RateRule } from './rate-limiter.js';

const DAY_MS = 86_400_000;

/**
 * The limits of one API process, in two plain maps. Per key, rule i's window is two numbers of an
 * array: `[2i]` when it opened (epoch ms), `[2i + 1]` what it counted.
 *
 * Keys are forgotten by generations instead of a sweep: every `keepMs` (by the clock the requests
 * bring), the keys not used since the previous turn are dropped and the rest become the old
 * generation. A key is kept at least `keepMs` after its last request, so no window that is still open
 * is lost, and at most twice that; no pass over every key holds the event loop.
 */
export class MemoryRateLimiter implements RateLimiter {
  private current = new Map<string, number[]>();
  /** Keys not used since the last turn: moved back to `current` when used, dropped at the next turn. */
  private previous = new Map<string, number[]>();
  private turnedAt: number | undefined;

  /** @param keepMs the longest window any rule may have (the device limit's day). */
  constructor(private readonly keepMs = DAY_MS) {}

  consume(key: string, rules: readonly RateRule[], now: number): RateDecision {
    if (rules.length === 0) throw new Error('a rate limit has at least one rule');
    this.turn(now);
    let w = this.windowsOf(key);
    // A key first seen, or used with another number of rules, starts afresh.
    if (w === undefined || w.length !== 2 * rules.length) {
      w = [];
      for (const rule of rules) {
        // Longer windows would outlive their key (see the class comment).
        if (rule.windowMs > this.keepMs)
          throw new Error(`a window is at most ${this.keepMs} ms; "${rule.label}" is longer`);
        w.push(Number.NEGATIVE_INFINITY, 0);
      }
      this.current.set(key, w);
    }
    let tightest: RateDecision | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      // A window that has ended counts as opening now; it is written only if the request is allowed.
      const open = now - w[2 * i]! < rule.windowMs;
      const remaining = rule.max - (open ? w[2 * i + 1]! : 0);
      const resetMs = (open ? w[2 * i]! : now) + rule.windowMs - now;
      if (remaining <= 0) return { allowed: false, rule, remaining: 0, resetMs };
      if (!tightest || remaining - 1 < tightest.remaining)
        tightest = { allowed: true, rule, remaining: remaining - 1, resetMs };
    }
    for (let i = 0; i < rules.length; i++) {
      if (now - w[2 * i]! < rules[i]!.windowMs) w[2 * i + 1]!++;
      else {
        w[2 * i] = now;
        w[2 * i + 1] = 1;
      }
    }
    return tightest!;
  }

  refund(key: string, rules: readonly RateRule[], at: number): void {
    const w = this.current.get(key) ?? this.previous.get(key);
    if (w === undefined || w.length !== 2 * rules.length) return;
    for (let i = 0; i < rules.length; i++) {
      const start = w[2 * i]!;
      const count = w[2 * i + 1]!;
      // Only the window that counted the request: opened by `at` and not ended since.
      if (count === 0 || start > at || at - start >= rules[i]!.windowMs) continue;
      w[2 * i + 1] = count - 1;
      if (count === 1 && start === at) w[2 * i] = Number.NEGATIVE_INFINITY;
    }
  }

  /** Keys remembered (for tests). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private windowsOf(key: string): number[] | undefined {
    const w = this.current.get(key);
    if (w !== undefined) return w;
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.previous.delete(key);
      this.current.set(key, old);
    }
    return old;
  }

  private turn(now: number): void {
    if (this.turnedAt === undefined) this.turnedAt = now;
    if (now - this.turnedAt < this.keepMs) return;
    this.previous = this.current;
    this.current = new Map();
    this.turnedAt = now;
  }
}
