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
 * client that backs off is not punished twice. In-memory and Redis implementations share this
 * (docs/adr/rate-limiting.md says why they are ours and not a library's).
 *
 * A window opens at a key's first request (not on clock boundaries), so "1 per second" means one
 * request, then nothing for a full second: deterministic for clients and tests alike.
 */
export interface RateLimiter {
  /**
   * Checks every window and, only when all allow, counts the request in each, in one step (no other
   * request of the key between the check and the count). The in-memory limiter answers synchronously,
   * which keeps the per-request auth hook synchronous.
   */
  consume(key: string, rules: readonly RateRule[], now: number): RateDecision | Promise<RateDecision>;
  /**
   * Gives back what an allowed `consume(key, rules, at)` counted, for a request refused after it was
   * counted (a track whose body fails deeper inside). Windows opened after `at` are left alone; a
   * window that request opened and nothing else counted in is closed again, so the next request opens
   * its own.
   */
  refund(key: string, rules: readonly RateRule[], at: number): void | Promise<void>;
  /** Resolves when the limiter can count (readiness); rejects saying why not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
