/** One limit: at most `max` requests per `windowMs`. */
export interface RateRule {
  windowMs: number;
  max: number;
  /** Names the limit in the 429 message, e.g. "10 requests per second per key". */
  label: string;
}

export interface RateDecision {
  allowed: boolean;
  /** The rule that decided: the one that refused, or the one closest to refusing. */
  rule: RateRule;
  remaining: number;
  /** Milliseconds until that rule's window resets. */
  resetMs: number;
}

/**
 * Counts requests per key against several windows at once. A refused request consumes nothing, so a
 * client that backs off is not punished twice. In-memory and Redis implementations share this.
 */
export interface RateLimiter {
  /** The in-memory limiter answers synchronously, which keeps the per-request auth hook synchronous. */
  consume(key: string, rules: readonly RateRule[], now: number): RateDecision | Promise<RateDecision>;
  /** Resolves when the limiter can count (readiness); rejects saying why not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
