import { BLOCK_BITS, BLOCK_SLOTS, KeySlots } from '../cache/key-slots.js';
import type { RateDecision, RateLimiter, RateRule } from './rate-limiter.js';

/** Windows one key keeps at most: as many as the limit with the most rules has (a device's: 3). */
export const MAX_RULES_PER_KEY = 4;
/** A key none of whose windows opened within this long is forgotten by the sweep. */
const FORGET_AFTER_MS = 86_400_000;
const IN_BLOCK = BLOCK_SLOTS - 1;
// Slots a timed sweep looks at per turn of the event loop: ~1 ms of it (a million in 12 ms, none stale).
const SWEEP_PART_SLOTS = 65_536;

/**
 * Windows open at a key's first request (not on clock boundaries), so "1 per second" means one
 * request, then nothing for a full second: deterministic for clients and tests alike.
 *
 * A key's windows live in typed arrays, at its slot: a device is remembered for a day (its daily
 * limit), so a fleet leaves one entry per device seen that day, and as an array of window objects
 * each cost ~180 bytes in seven objects that the collector promoted on the device's first track and
 * marked on every major collection after (with a new device a track, ~400 bytes a track promoted,
 * 2026-11-29). The keys, too, are off the heap (`KeySlots`): a key costs ~170 bytes of typed arrays
 * (its cell, its windows, its table entry) and nothing for the collector to trace. Slots are in
 * blocks of 4,096, each block's windows in typed arrays of their own: a new block is all that growing
 * allocates (doubling one set of arrays copied them all at once, 10.6 ms at 262,144 keys).
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly keys = new KeySlots();
  /** Per block, per slot: how many windows its key has (0: free). */
  private readonly ruleCounts: Uint8Array[] = [];
  /** Per block, per slot, `MAX_RULES_PER_KEY` windows each: when the window opened (epoch ms), and its count. */
  private readonly starts: Float64Array[] = [];
  private readonly counts: Uint32Array[] = [];
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(sweepEveryMs = 60_000) {
    this.sweeper = setInterval(() => this.sweepInParts(Date.now(), 0), sweepEveryMs);
    this.sweeper.unref();
  }

  consume(key: string, rules: readonly RateRule[], now: number): RateDecision {
    // At least one: a held key's rule count is never 0, which marks a free slot for the sweep.
    if (rules.length === 0 || rules.length > MAX_RULES_PER_KEY)
      throw new Error(`a rate limit has 1 to ${MAX_RULES_PER_KEY} rules; this one has ${rules.length}`);
    const slot = this.keys.take(key);
    const block = slot >>> BLOCK_BITS;
    // A new key's windows start afresh below: a free slot's rule count is 0.
    if (block === this.ruleCounts.length) this.addBlock();
    const starts = this.starts[block]!;
    const counts = this.counts[block]!;
    const ruleCounts = this.ruleCounts[block]!;
    const at = slot & IN_BLOCK;
    const base = at * MAX_RULES_PER_KEY;
    if (ruleCounts[at] !== rules.length) {
      ruleCounts[at] = rules.length;
      starts.fill(now, base, base + rules.length);
      counts.fill(0, base, base + rules.length);
    }
    let tightest: RateDecision | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!;
      const w = base + i;
      if (now - starts[w]! >= rule.windowMs) {
        starts[w] = now;
        counts[w] = 0;
      }
      const remaining = rule.max - counts[w]!;
      const resetMs = starts[w]! + rule.windowMs - now;
      if (remaining <= 0) return { allowed: false, rule, remaining: 0, resetMs };
      if (!tightest || remaining - 1 < tightest.remaining)
        tightest = { allowed: true, rule, remaining: remaining - 1, resetMs };
    }
    for (let i = 0; i < rules.length; i++) counts[base + i]!++;
    return tightest!;
  }

  /** Keys seen so far and not yet swept (for tests). */
  get size(): number {
    return this.keys.size;
  }

  /** Forgets the keys whose every window opened more than a day before `now`. */
  sweep(now: number): void {
    this.sweepSlots(now, 0, this.keys.slotCount);
  }

  /**
   * `sweep` a part at a time, one a turn of the event loop: over a million keys at once it held the
   * loop for 12 ms when none was stale and 107 ms when half were (2026-11-29).
   */
  private sweepInParts(now: number, from: number): void {
    if (this.closed) return;
    const to = Math.min(from + SWEEP_PART_SLOTS, this.keys.slotCount);
    this.sweepSlots(now, from, to);
    if (to < this.keys.slotCount) setImmediate(() => this.sweepInParts(now, to)).unref();
  }

  private sweepSlots(now: number, from: number, to: number): void {
    for (let slot = from; slot < to; slot++) {
      const block = slot >>> BLOCK_BITS;
      const ruleCounts = this.ruleCounts[block]!;
      const at = slot & IN_BLOCK;
      // 0: a free slot (its key forgotten before, or never given out).
      if (ruleCounts[at] === 0) continue;
      const starts = this.starts[block]!;
      const base = at * MAX_RULES_PER_KEY;
      let stale = true;
      for (let i = 0; i < ruleCounts[at]! && stale; i++) stale = now - starts[base + i]! > FORGET_AFTER_MS;
      if (!stale) continue;
      this.keys.delete(slot);
      ruleCounts[at] = 0;
    }
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
  }

  private addBlock(): void {
    this.ruleCounts.push(new Uint8Array(BLOCK_SLOTS));
    this.starts.push(new Float64Array(BLOCK_SLOTS * MAX_RULES_PER_KEY));
    this.counts.push(new Uint32Array(BLOCK_SLOTS * MAX_RULES_PER_KEY));
  }
}
