import type { NameIndex } from '../geodata/name-index.js';
import type { StringColumn } from '../geodata/string-column.js';

// Rank of a character among those a key can start with, in code-unit order: 0 is the end of the string,
// then ' ', '0'–'9', 'a'–'z', and 38 the `END` bound that closes a prefix range.
const RANKS = 39;
const RANK = new Int8Array(128).fill(-1);
' 0123456789abcdefghijklmnopqrstuvwxyz'.split('').forEach((c, i) => {
  RANK[c.charCodeAt(0)] = i + 1;
});
// Above every character a normalized key can hold ([a-z0-9 ]), so `prefix + END` bounds a prefix range.
const END = '\u007f';
RANK[END.charCodeAt(0)] = RANKS - 1;
// Characters of a key packed into its code: 39^6 < 2^32, so a code fits a Uint32Array slot.
const CODE_CHARS = 6;

/**
 * Range lookups over a name index's sorted keys, the same answers as `NameIndex.exactRange` and
 * `prefixRange`: a table of where each two-character start begins narrows every binary search to its
 * bucket (a few hundred keys instead of 300,000), which saves most of the cache misses of a lookup.
 * Within the bucket the search runs over each key's first six characters packed into a number, in one
 * typed array, and compares strings only among keys that share those: each string compared is a cache
 * miss, and a typo variant (a dozen per autocomplete query) used to cost a dozen of them.
 */
export class KeyRanges {
  private readonly keys: StringColumn;
  /** `starts[b]`: the first key whose two-character bucket is `b` or later. */
  private readonly starts = new Uint32Array(RANKS * RANKS + 1);

  constructor(keys: StringColumn) {
    this.keys = keys;
    // One pass reads each key once: a row of the column is a new string each time it is read.
    const buckets = new Int32Array(keys.length);
    let codes: Uint32Array | undefined = new Uint32Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys.get(i)!;
      buckets[i] = bucketOf(key);
      if (codes) {
        const code = codeOf(key);
        if (code < 0) codes = undefined;
        else codes[i] = code;
      }
    }
    let k = 0;
    for (let b = 0; b < RANKS * RANKS; b++) {
      while (k < keys.length && buckets[k]! < b) k++;
      this.starts[b] = k;
    }
    this.starts[RANKS * RANKS] = keys.length;
    // Normalized keys are `[a-z0-9 ]`: any other character at a key's start leaves the table unused.
    this.whole = buckets.some((bucket) => bucket < 0);
    this.codes = codes;
  }

  private readonly whole: boolean;
  /** Per key, {@link codeOf}; absent when a key holds another character in its first six. */
  private readonly codes: Uint32Array | undefined;

  /** The first key not below `s`. */
  lowerBound(s: string): number {
    const b = this.whole ? -1 : bucketOf(s);
    // A string outside the buckets' characters (never a normalized query) searches every key.
    return b < 0 ? search(this.keys, s, 0, this.keys.length) : this.within(s, this.starts[b]!, this.starts[b + 1]!);
  }

  /** The first key of `[lo, hi)` not below `s`, given that it lies in that range. */
  private within(s: string, lo: number, hi: number): number {
    const code = this.codes ? codeOf(s) : -1;
    if (code < 0) return search(this.keys, s, lo, hi);
    const codes = this.codes!;
    const first = searchCode(codes, code, lo, hi);
    // A string shorter than the code is all in it: the keys of the same code are equal to it.
    if (s.length < CODE_CHARS || first === hi || codes[first] !== code) return first;
    return search(this.keys, s, first, searchCode(codes, code + 1, first, hi));
  }

  /** `[from, to)` of the keys equal to `key`. */
  exactRange(key: string): [number, number] {
    const from = this.lowerBound(key);
    let to = from;
    while (this.keys.equals(to, key)) to++;
    return [from, to];
  }

  /** `[from, to)` of the keys starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    // Most lookups (typo variants) find nothing: one binary search tells, the second is then skipped.
    if (!this.keys.startsWith(from, prefix)) return [from, from];
    return [from, this.lowerBound(prefix + END)];
  }

  /**
   * The keys equal to `s` (`exact`) and, at most `cap` of them, starting with it (`prefix`, from the same
   * first key): both ranges of a typo variant from one search.
   */
  ranges(s: string, cap: number): { from: number; exactTo: number; prefixTo: number } {
    const from = this.lowerBound(s);
    let exactTo = from;
    while (this.keys.equals(exactTo, s)) exactTo++;
    let prefixTo = from;
    if (this.keys.startsWith(from, s)) {
      const last = Math.min(this.keys.length, from + cap);
      // Within the cap: the bound of the prefix, or the cap itself when the prefix runs past it.
      prefixTo = this.keys.startsWith(last - 1, s) ? last : this.within(s + END, from, last);
    }
    return { from, exactTo, prefixTo };
  }
}

/** The bucket of a string's first two characters, or -1 when one of them has no rank. */
function bucketOf(s: string): number {
  if (s.length === 0) return 0;
  const c0 = s.charCodeAt(0);
  const r0 = c0 < 128 ? RANK[c0]! : -1;
  if (r0 <= 0) return -1;
  if (s.length === 1) return r0 * RANKS;
  const c1 = s.charCodeAt(1);
  const r1 = c1 < 128 ? RANK[c1]! : -1;
  if (r1 <= 0) return -1;
  return r0 * RANKS + r1;
}

/**
 * The first `CODE_CHARS` characters of `s` as a number that orders as the strings do: their ranks as
 * digits, 0 past the end. -1 when one of them has no rank.
 */
function codeOf(s: string): number {
  let code = 0;
  for (let i = 0; i < CODE_CHARS; i++) {
    let r = 0;
    if (i < s.length) {
      const c = s.charCodeAt(i);
      r = c < 128 ? RANK[c]! : -1;
      if (r <= 0) return -1;
    }
    code = code * RANKS + r;
  }
  return code;
}

/** The first position of `[lo, hi)` whose code is not below `code`. */
function searchCode(codes: Uint32Array, code: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (codes[mid]! < code) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function search(keys: StringColumn, s: string, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys.lessThan(mid, s)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const built = new WeakMap<NameIndex, KeyRanges>();

/** The range lookups of a name index, built on first use (see `prepareGeocoding`) and kept. */
export function keyRanges(names: NameIndex): KeyRanges {
  let found = built.get(names);
  if (!found) {
    found = new KeyRanges(names.keys);
    built.set(names, found);
  }
  return found;
}
