// 2^25 bits (4 MiB) over the ~2 million distinct prefixes of a world pack's names: about 11% of the bits
// set, so with two probes about 1.3% of absent prefixes pass.
const BITS_LOG2 = 25;
const MASK = (1 << BITS_LOG2) - 1;

/**
 * A Bloom filter over every prefix of a set of keys: `mayStartWith(s)` is false only when no key starts
 * with `s`, and true (rarely wrongly) otherwise. Autocomplete looks up hundreds of one-typo variants per
 * query, almost all of which start no name; this answers those in a few nanoseconds instead of two
 * binary searches over 300,000 strings.
 */
export class PrefixFilter {
  private readonly bits = new Uint32Array(1 << (BITS_LOG2 - 5));

  /** The hash state of the empty string; extend it one character at a time with {@link extend}. */
  static readonly EMPTY = 0x811c9dc5;

  constructor(keys: readonly string[]) {
    for (const key of keys) {
      let h = PrefixFilter.EMPTY;
      for (let i = 0; i < key.length; i++) {
        h = step(h, key.charCodeAt(i));
        this.set(h);
      }
    }
  }

  /** False when no key starts with `s`; true when one may. */
  mayStartWith(s: string): boolean {
    let h = PrefixFilter.EMPTY;
    for (let i = 0; i < s.length; i++) h = step(h, s.charCodeAt(i));
    return this.has(h);
  }

  /** The state of a string one character (UTF-16 code unit `code`) longer. */
  extend(state: number, code: number): number {
    return step(state, code);
  }

  /** Whether a non-empty string with this state may start a key (see {@link mayStartWith}). */
  has(state: number): boolean {
    const h2 = second(state);
    return (
      (this.bits[(state & MASK) >>> 5]! & (1 << (state & 31))) !== 0 && (this.bits[h2 >>> 5]! & (1 << (h2 & 31))) !== 0
    );
  }

  private set(h: number): void {
    const h2 = second(h);
    this.bits[(h & MASK) >>> 5]! |= 1 << (h & 31);
    this.bits[h2 >>> 5]! |= 1 << (h2 & 31);
  }
}

// FNV-1a over UTF-16 code units: the hash of a prefix extends to the next one in one step.
function step(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193) >>> 0;
}

// A second, independent-enough probe from the same hash (a murmur3 finalizer).
function second(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) & MASK;
}
