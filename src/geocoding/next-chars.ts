import type { NameIndex } from '../geodata/name-index.js';

/** The characters a normalized key is made of, in the order typo variants try them. */
export const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789 ';
const BIT = new Int8Array(128).fill(-1);
for (let b = 0; b < ALPHABET.length; b++) BIT[ALPHABET.charCodeAt(b)] = b;

// 2^21 slots of 64 bits (16 MiB) for the ~2 million distinct prefixes of a world pack's names.
const SLOTS_LOG2 = 21;
const MASK = (1 << SLOTS_LOG2) - 1;

/**
 * For every prefix of a set of keys, the characters that follow it in some key, hashed: `follows(h, c)`
 * is false only when no key starts with the prefix (hash state `h`) followed by `c`, and rarely true
 * wrongly (slots are shared). One slot answers all 37 possible next characters of a prefix, so checking
 * a query's one-typo variants touches a few dozen memory words, where a Bloom filter over the prefixes
 * probes two random words per variant.
 */
export class NextChars {
  /** Per slot, bits 0–31 and 32–36 of the next-character set. */
  private readonly low_ = new Uint32Array(1 << SLOTS_LOG2);
  private readonly high_ = new Uint32Array(1 << SLOTS_LOG2);

  /** The hash state of the empty prefix. */
  static readonly EMPTY = 0x811c9dc5;

  constructor(keys: Iterable<string>) {
    for (const key of keys) {
      let h = NextChars.EMPTY;
      for (let i = 0; i < key.length; i++) {
        const code = key.charCodeAt(i);
        const bit = code < 128 ? BIT[code]! : -1;
        // A character outside the alphabet is never typed in a normalized query: no bit needed.
        if (bit >= 0) {
          const slot = h & MASK;
          if (bit < 32) this.low_[slot]! |= 1 << bit;
          else this.high_[slot]! |= 1 << (bit - 32);
        }
        h = step(h, code);
      }
    }
  }

  /** The state of the prefix one character (code `code`) longer. */
  static extend(h: number, code: number): number {
    return step(h, code);
  }

  /** The next characters of the prefix of state `h` as bits (bit `b` is `ALPHABET[b]`): bits 0–31. */
  low(h: number): number {
    return this.low_[h & MASK]!;
  }

  /** Bits 32–36 of the set, shifted down by 32. */
  high(h: number): number {
    return this.high_[h & MASK]!;
  }

  /** Whether some key may start with the prefix of state `h` followed by character `code`. */
  follows(h: number, code: number): boolean {
    const bit = code < 128 ? BIT[code]! : -1;
    if (bit < 0) return false;
    const slot = h & MASK;
    return bit < 32 ? (this.low_[slot]! & (1 << bit)) !== 0 : (this.high_[slot]! & (1 << (bit - 32))) !== 0;
  }
}

// FNV-1a over UTF-16 code units: the state of a prefix extends to the next one in one step.
function step(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193) >>> 0;
}

const built = new WeakMap<NameIndex, NextChars>();

/** The next-character sets of a name index's keys, built on first use (see `prepareGeocoding`) and kept. */
export function nextChars(names: NameIndex): NextChars {
  let found = built.get(names);
  if (!found) {
    found = new NextChars(names.keys);
    built.set(names, found);
  }
  return found;
}
