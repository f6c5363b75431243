import { StringColumn } from './string-column.js';

/** What an entry of the {@link NameIndex} points at; `id` is the row in that table of the pack. */
export const NameKind = {
  locality: 0,
  zip: 1,
  postalArea: 2,
  county: 3,
  state: 4,
  admin1: 5,
  country: 6,
} as const;
export type NameKind = (typeof NameKind)[keyof typeof NameKind];

/** Bits of an entry's flags. */
export const NameFlag = {
  /** A code (`hi`, `li`, `usa`): answers a query equal to it, but is no prefix match (`l` ≠ LI). */
  code: 1,
  /** An alternate name (`muenchen`, `san francisco de quito`): ranks below the primary name. */
  alternate: 2,
} as const;

/** A {@link NameIndex} as stored in the pack. */
export interface NameIndexData {
  keys: StringColumn;
  kinds: Uint8Array;
  ids: Uint32Array;
  flags: Uint8Array;
}

// Above every character a normalized key can hold ([a-z0-9 ]), so `prefix + END` bounds a prefix range.
const END = '\u007f';
// Sorts before ' ', so `key + SEP + n` sorts exactly as `key` does.
const SEP = '\u0001';

/** Normalized names sorted for prefix search: `keys[i]` names row `ids[i]` of table `kinds[i]`. */
export class NameIndex {
  readonly keys: StringColumn;
  readonly kinds: Uint8Array;
  readonly ids: Uint32Array;
  readonly flags: Uint8Array;

  private constructor({ keys, kinds, ids, flags }: NameIndexData) {
    this.keys = keys;
    this.kinds = kinds;
    this.ids = ids;
    this.flags = flags;
  }

  /** Builds the index from `add(key, kind, id, flags)` calls; empty keys are ignored. */
  static build(fill: (add: (key: string, kind: NameKind, id: number, flags?: number) => void) => void): NameIndex {
    const tagged: string[] = [];
    const kinds: number[] = [];
    const ids: number[] = [];
    const flags: number[] = [];
    fill((key, kind, id, flag = 0) => {
      if (!key) return;
      tagged.push(key + SEP + kinds.length);
      kinds.push(kind);
      ids.push(id);
      flags.push(flag);
    });
    // The native sort of plain strings is several times faster than sorting indices with a comparator.
    tagged.sort();
    const n = tagged.length;
    const keys = new Array<string>(n);
    const data = { kinds: new Uint8Array(n), ids: new Uint32Array(n), flags: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const t = tagged[i]!;
      const cut = t.lastIndexOf(SEP);
      const from = Number(t.slice(cut + 1));
      keys[i] = t.slice(0, cut);
      data.kinds[i] = kinds[from]!;
      data.ids[i] = ids[from]!;
      data.flags[i] = flags[from]!;
    }
    return new NameIndex({ keys: StringColumn.of(keys), ...data });
  }

  /** The index as columns, to store in the pack. */
  toData(): NameIndexData {
    return { keys: this.keys, kinds: this.kinds, ids: this.ids, flags: this.flags };
  }

  /** An index from {@link toData} output; the keys must already be sorted. */
  static fromData(data: NameIndexData): NameIndex {
    return new NameIndex(data);
  }

  /** One index holding the entries of both, in key order (a linear merge of two sorted lists). */
  static merge(a: NameIndex, b: NameIndex): NameIndex {
    if (b.size === 0) return a;
    if (a.size === 0) return b;
    const n = a.size + b.size;
    const keys = new Array<string>(n);
    const data = { kinds: new Uint8Array(n), ids: new Uint32Array(n), flags: new Uint8Array(n) };
    let i = 0;
    let j = 0;
    let keyA = a.keys.get(0);
    let keyB = b.keys.get(0);
    for (let k = 0; k < n; k++) {
      const fromA = keyB === undefined || (keyA !== undefined && keyA <= keyB);
      const src = fromA ? a : b;
      const at = fromA ? i++ : j++;
      keys[k] = (fromA ? keyA : keyB)!;
      if (fromA) keyA = a.keys.get(i);
      else keyB = b.keys.get(j);
      data.kinds[k] = src.kinds[at]!;
      data.ids[k] = src.ids[at]!;
      data.flags[k] = src.flags[at]!;
    }
    return new NameIndex({ keys: StringColumn.of(keys), ...data });
  }

  get size(): number {
    return this.keys.length;
  }

  /** `[from, to)` of the entries whose key starts with `prefix` (normalized). */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    // Most lookups (typo variants) find nothing: one binary search tells, the second is then skipped.
    if (!this.keys.startsWith(from, prefix)) return [from, from];
    return [from, this.lowerBound(prefix + END)];
  }

  /** `[from, to)` of the entries whose key equals `key` (normalized). */
  exactRange(key: string): [number, number] {
    const from = this.lowerBound(key);
    if (!this.keys.equals(from, key)) return [from, from];
    let to = from + 1;
    while (this.keys.equals(to, key)) to++;
    return [from, to];
  }

  private lowerBound(s: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys.lessThan(mid, s)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
