import { NameFlag, type NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import { CandidateList } from './candidate-list.js';
import { entityCountryCode, entityLayer, entityQualifiers } from './entity.js';
import type { Entity } from './entity-ref.js';
import { keyRanges } from './key-ranges.js';
import type { GeocodeLayer } from './layers.js';
import { entryAreaSlots } from './locality-areas.js';
import { nextChars } from './next-chars.js';
import { qualifiedSlots } from './qualified-areas.js';
import { viableTypoVariants } from './typo-variants.js';

/**
 * How well a name matched, as a ranking weight: exact beats prefix beats a one-typo match, and a primary
 * name beats an alternate one by {@link ALTERNATE_PENALTY} (`san fr` is San Francisco before Quito, whose
 * alternate name is San Francisco de Quito).
 */
export const MatchWeight = { exact: 4, prefix: 2, typoExact: 1.6, typoPrefix: 1 } as const;
export const ALTERNATE_PENALTY = 1;

/** An entity whose name matched, with its score. */
export interface NameMatch extends Entity {
  score: number;
  /** Matched a code (`HI`, `LI`, `USA`) rather than a name. */
  byCode: boolean;
}

/** What {@link bestNameMatches} looks for and which entities it keeps. */
export interface MatchOptions {
  /** Keep entities of these layers only (all when absent). */
  layers?: Set<GeocodeLayer>;
  /** Keep entities in these countries only (ISO alpha-2, upper case). */
  country?: readonly string[] | undefined;
  /** Normalized words each of which must name the entity's state, county or country. */
  qualifiers: string[];
  /** Let the last qualifier be the start of such a word (autocomplete). */
  qualifierPrefix?: boolean;
  /** Also match names that start with `name` (autocomplete). */
  prefix?: boolean;
  /** Also match names one edit away from `name` (at least 4 letters) when fewer than `limit` match as typed. */
  typos?: boolean;
}

/** Scores a matched index entry from its match weight; higher is better. */
export type EntryScore = (entry: number, weight: number, byCode: boolean) => number;

// A typo reading such as `par` of `pari` could pull in thousands of names; they are a fallback, so only
// the first ones (in key order) are looked at.
const TYPO_PREFIX_SCAN = 200;
const TYPO_MIN_LENGTH = 4;
// Names matching at least this many keys have their places checked against qualifiers before scoring.
const EARLY_QUALIFIER_CHECK = 500;

/**
 * The `limit` best-scoring entities whose names match `name` (normalized) by the rules of `opts`, best first,
 * one per entity. Candidates are scored from typed arrays first and only the best are checked against the
 * layer, country and qualifier filters, so a one-letter prefix over 20,000 names stays at a few ms.
 */
export function bestNameMatches(
  pack: GeodataPack,
  name: string,
  opts: MatchOptions,
  score: EntryScore,
  limit: number,
): NameMatch[] {
  const { names } = pack;
  const list = shared;
  list.clear();
  const ranges = keyRanges(names);
  const [from, to] = ranges.exactRange(name);
  const [pFrom, pTo] = opts.prefix ? ranges.prefixRange(name) : [from, from];
  // With qualifiers (`san, j`), a name matching thousands of places drops those in no area the qualifiers
  // name before they are scored, most of them (the same verdict per area pair as `passing` gives). The
  // verdicts cost a pass over every area pair: a name with fewer places leaves the check to `pickBest`.
  const early = opts.qualifiers.length > 0 && Math.max(to - from, pTo - pFrom) >= EARLY_QUALIFIER_CHECK;
  const slots = early ? entryAreaSlots(pack) : undefined;
  const candidates = new Collector(pack, list, opts, score, slots);
  const flags = names.flags;
  for (let e = from; e < to; e++) candidates.entry(e, MatchWeight.exact);
  for (let e = pFrom; e < pTo; e++)
    if ((e < from || e >= to) && !isCode(flags, e)) candidates.entry(e, MatchWeight.prefix);
  // Typos are a fallback: a query that already matches enough names as typed is taken as typed.
  if (opts.typos && name.length >= TYPO_MIN_LENGTH && list.length + candidates.dropped < limit) {
    // Only the variants that may start a name: the others cannot match and are most of them.
    for (const variant of viableTypoVariants(name, nextChars(names))) {
      const { from: vFrom, exactTo, prefixTo } = ranges.ranges(variant, TYPO_PREFIX_SCAN);
      for (let e = vFrom; e < exactTo; e++) if (!isCode(flags, e)) candidates.entry(e, MatchWeight.typoExact);
      if (!opts.prefix || variant.length < TYPO_MIN_LENGTH) continue;
      for (let e = vFrom; e < prefixTo; e++) if (!isCode(flags, e)) candidates.entry(e, MatchWeight.typoPrefix);
    }
  }
  return pickBest(pack, list, opts, limit);
}

const shared = new CandidateList();

function isCode(flags: Uint8Array, entry: number): boolean {
  return (flags[entry]! & NameFlag.code) !== 0;
}

// Classes and module functions, not closures, on this per-query path: tsx's keepNames wraps each named
// closure in a defineProperty call (~0.4 µs) every time one is made.

/** Scores index entries into a candidate list, dropping places in no area the qualifiers name (`slots`). */
class Collector {
  /** Entries dropped by the qualifiers. */
  dropped = 0;
  // Made once a place is met: candidates that are all ZIP codes (`11427`) need no verdicts.
  private qualified: Uint8Array | undefined;

  constructor(
    private readonly pack: GeodataPack,
    private readonly list: CandidateList,
    private readonly opts: MatchOptions,
    private readonly score: EntryScore,
    private readonly slots: Int32Array | undefined,
  ) {}

  entry(entry: number, tierWeight: number): void {
    const { slots } = this;
    if (slots && slots[entry] !== 0) {
      this.qualified ??= qualifiedSlots(this.pack, this.opts.qualifiers, this.opts.qualifierPrefix === true);
      if (this.qualified[slots[entry]!] === 0) {
        this.dropped++;
        return;
      }
    }
    const flags = this.pack.names.flags[entry]!;
    const weight = flags & NameFlag.alternate ? tierWeight - ALTERNATE_PENALTY : tierWeight;
    this.list.push(entry, this.score(entry, weight, (flags & NameFlag.code) !== 0));
  }
}

/** The entities taken so far, best first, one per entity: those of the candidates that pass the filters. */
class Picked {
  readonly out = new Map<number, NameMatch>();
  private readonly seen = new Set<number>();
  readonly memo: QualifierMemo = new Map();

  constructor(
    private readonly pack: GeodataPack,
    private readonly list: CandidateList,
    private readonly opts: MatchOptions,
  ) {}

  /** Takes candidate `c` (a position in the list). */
  take(c: number): void {
    const { names } = this.pack;
    const entry = this.list.entries[c]!;
    const entity: Entity = { kind: names.kinds[entry] as NameKind, id: names.ids[entry]! };
    const key = entity.kind * 2 ** 25 + entity.id;
    const byCode = (names.flags[entry]! & NameFlag.code) !== 0;
    const previous = this.out.get(key);
    if (previous) previous.byCode ||= byCode;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    // Spelled out, not `{ ...entity, score, byCode }`: with the spread, ~1.8 KB per world query was promoted
    // out of the young generation (--trace-gc-nvp over the bench's 10,000 queries: 18 MB, spelled out 0),
    // freed only by a major GC, and the scavenges that copy it are the p99's pauses.
    if (accepts(this.pack, entity, this.opts, this.memo))
      this.out.set(key, { kind: entity.kind, id: entity.id, score: this.list.scores[c]!, byCode });
  }
}

// Takes candidates in score order until `limit` distinct entities pass the filters. Sorting only the top
// slice (grown when filters reject too many) keeps big candidate lists cheap.
function pickBest(pack: GeodataPack, list: CandidateList, opts: MatchOptions, limit: number): NameMatch[] {
  const { scores } = list;
  const picked = new Picked(pack, list, opts);
  const { out, memo } = picked;
  const filtered = opts.layers !== undefined || opts.country !== undefined || opts.qualifiers.length > 0;
  const order = list.resetOrder();
  let sorted = 0;
  let slice = Math.min(order.length, limit * 4 + 16);
  while (out.size < limit && sorted < order.length) {
    if (sorted > 0 && filtered) {
      // The filters rejected most of the best slice: check them once on every other candidate and rank
      // only those that pass (`san` in a state starting `jose`: sorting 8,000 mostly rejected names cost more).
      // They are taken best first from a heap: only the few that fill the list are ever ordered.
      const rest = passing(pack, list, order.subarray(sorted), opts, memo);
      const heap = new ScoreHeap(rest, scores);
      while (out.size < limit && heap.size > 0) picked.take(heap.pop());
      break;
    }
    selectTop(order, scores, sorted, slice);
    for (let k = sorted; k < slice && out.size < limit; k++) picked.take(order[k]!);
    sorted = slice;
    slice = Math.min(order.length, slice * 8);
  }
  return [...out.values()];
}

/**
 * Moves the best of `order[from..]` into `order[from..to)`, sorted by descending `scores[order[k]]`: a quickselect
 * partitions the rest in linear time, then only the slice is sorted. Exported for its tests.
 */
export function selectTop(order: Uint32Array, scores: ArrayLike<number>, from: number, to: number): void {
  let lo = from;
  let hi = order.length - 1;
  while (hi > lo && to - 1 < hi && to - 1 >= lo) {
    const pivot = scores[order[(lo + hi) >>> 1]!]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (scores[order[i]!]! > pivot) i++;
      while (scores[order[j]!]! < pivot) j--;
      if (i <= j) {
        const t = order[i]!;
        order[i++] = order[j]!;
        order[j--] = t;
      }
    }
    if (to - 1 <= j) hi = j;
    else if (to - 1 >= i) lo = i;
    else break;
  }
  const slice = Array.from(order.subarray(from, to));
  slice.sort((a, b) => scores[b]! - scores[a]!);
  order.set(slice, from);
}

/** The candidates of `from` (positions in `list`) whose entities pass the filters of `opts`, in order. */
function passing(
  pack: GeodataPack,
  list: CandidateList,
  from: Uint32Array,
  opts: MatchOptions,
  memo: QualifierMemo,
): Uint32Array {
  const { kinds, ids } = pack.names;
  const out = new Uint32Array(from.length);
  // One entity object for the whole scan: the filters read it and keep nothing of it.
  const entity: Entity = { kind: 0, id: 0 };
  // Most candidates are places, whose qualifier words depend only on their area pair: the qualifiers are
  // answered per pair from the words' postings, the layer and country filters per place when given.
  const slots = opts.qualifiers.length > 0 ? entryAreaSlots(pack) : undefined;
  // Made when the first place is met (see `bestNameMatches`): ZIP and area candidates need no verdicts.
  let qualified: Uint8Array | undefined;
  const perPlace = opts.layers !== undefined || opts.country !== undefined;
  let n = 0;
  for (let k = 0; k < from.length; k++) {
    const c = from[k]!;
    const entry = list.entries[c]!;
    entity.kind = kinds[entry] as NameKind;
    entity.id = ids[entry]!;
    const slot = slots ? slots[entry]! : 0;
    if (slot === 0) {
      if (accepts(pack, entity, opts, memo)) out[n++] = c;
      continue;
    }
    qualified ??= qualifiedSlots(pack, opts.qualifiers, opts.qualifierPrefix === true);
    if (qualified[slot] === 1 && (!perPlace || accepts(pack, entity, { ...opts, qualifiers: [] }, memo))) out[n++] = c;
  }
  return out.subarray(0, n);
}

/**
 * Candidates popped best score first, ties in their order in `items`: the order a stable sort by
 * descending score gives, without sorting the thousands of candidates that are never reached.
 */
class ScoreHeap {
  /** Indices into `items`, a binary heap whose top is the best. */
  private readonly heap: Uint32Array;
  size: number;

  constructor(
    private readonly items: Uint32Array,
    private readonly scores: Float64Array,
  ) {
    this.size = items.length;
    this.heap = new Uint32Array(this.size);
    for (let i = 0; i < this.size; i++) this.heap[i] = i;
    for (let i = (this.size >>> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The best remaining item. */
  pop(): number {
    const top = this.heap[0]!;
    this.heap[0] = this.heap[--this.size]!;
    this.down(0);
    return this.items[top]!;
  }

  private before(a: number, b: number): boolean {
    const sa = this.scores[this.items[a]!]!;
    const sb = this.scores[this.items[b]!]!;
    return sa > sb || (sa === sb && a < b);
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      const r = l + 1;
      const best = r < this.size && this.before(h[r]!, h[l]!) ? r : l;
      if (!this.before(h[best]!, h[i]!)) return;
      const t = h[i]!;
      h[i] = h[best]!;
      h[best] = t;
      i = best;
    }
  }
}

// Places of one area share one qualifier word list: the answer for a list holds for all of them.
type QualifierMemo = Map<string[], boolean>;

function accepts(pack: GeodataPack, e: Entity, opts: MatchOptions, memo: QualifierMemo): boolean {
  if (opts.layers && !opts.layers.has(entityLayer(pack, e))) return false;
  if (opts.country && !opts.country.includes(entityCountryCode(pack, e) ?? '')) return false;
  if (opts.qualifiers.length === 0) return true;
  const words = entityQualifiers(pack, e);
  let ok = memo.get(words);
  if (ok === undefined) {
    const last = opts.qualifiers.length - 1;
    ok = opts.qualifiers.every((q, i) =>
      words.some((w) => w === q || (opts.qualifierPrefix && i === last && w.startsWith(q))),
    );
    memo.set(words, ok);
  }
  return ok;
}
