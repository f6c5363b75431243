import { LRUCache } from 'lru-cache';
import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import { entityQualifiers } from './entity.js';
import { localityAreaSlot } from './locality-areas.js';

/** Every qualifier word of the pack's places, sorted, with the area pairs (slots) whose places it names. */
interface AreaWordIndex {
  words: string[];
  slots: Uint32Array[];
  /** The highest slot number. */
  maxSlot: number;
}

const indexes = new WeakMap<GeodataPack, AreaWordIndex>();

/**
 * The inverted index of the places' qualifier words (state, county, country names and codes), built on
 * first use (once per pack, see `prepareGeocoding`) from the same word lists the per-candidate check reads.
 */
function areaWordIndex(pack: GeodataPack): AreaWordIndex {
  let index = indexes.get(pack);
  if (!index) {
    const bySlot = new Map<string, number[]>();
    let maxSlot = 0;
    const done = new Set<number>();
    for (let id = 0; id < pack.localities.count; id++) {
      const slot = localityAreaSlot(pack, id);
      if (done.has(slot)) continue;
      done.add(slot);
      maxSlot = Math.max(maxSlot, slot);
      for (const w of new Set(entityQualifiers(pack, { kind: NameKind.locality, id }))) {
        const list = bySlot.get(w);
        if (list) list.push(slot);
        else bySlot.set(w, [slot]);
      }
    }
    const words = [...bySlot.keys()].sort();
    index = { words, slots: words.map((w) => Uint32Array.from(bySlot.get(w)!)), maxSlot };
    indexes.set(pack, index);
  }
  return index;
}

// Qualifiers repeat across queries (`…, ca`, the last word typed so far): their verdicts are kept, the
// least recently used dropped first. One-letter qualifiers (`san j`) are the most frequent and, with the
// postings of every word they start, the dearest: emptying the whole cache when full dropped them too.
const MAX_KEPT = 64;
const kept = new WeakMap<GeodataPack, LRUCache<string, Uint8Array>>();

/**
 * Per area pair (slot, see `entryAreaSlots`): 1 when every one of `qualifiers` names one of its places'
 * areas (the last one may only start such a word with `prefixLast`), else 0. The same answer as checking
 * each place's qualifier words, computed from the words' postings instead of from thousands of places.
 */
export function qualifiedSlots(pack: GeodataPack, qualifiers: string[], prefixLast: boolean): Uint8Array {
  let cache = kept.get(pack);
  if (!cache) {
    cache = new LRUCache({ max: MAX_KEPT });
    kept.set(pack, cache);
  }
  const key = `${prefixLast ? 1 : 0}\u0001${qualifiers.join('\u0001')}`;
  let verdict = cache.get(key);
  if (verdict) return verdict;
  verdict = computeVerdicts(areaWordIndex(pack), qualifiers, prefixLast);
  cache.set(key, verdict);
  return verdict;
}

// Per slot, how many qualifiers (in order) it has passed so far, while one verdict is computed; all zero
// between calls. Shared: a fresh array per query was 120 KB of garbage (30,000 slots in a world pack).
const passedBy = new WeakMap<AreaWordIndex, Int32Array>();

/**
 * The verdicts of {@link qualifiedSlots}, touching only the slots in the qualifiers' postings: a pass
 * over every slot cost more than the postings of a typical qualifier (`…, ca`).
 */
function computeVerdicts(index: AreaWordIndex, qualifiers: string[], prefixLast: boolean): Uint8Array {
  const { slots, maxSlot } = index;
  const verdict = new Uint8Array(maxSlot + 1);
  if (qualifiers.length === 0) return verdict.fill(1);
  let passed = passedBy.get(index);
  if (!passed) {
    passed = new Int32Array(maxSlot + 1);
    passedBy.set(index, passed);
  }
  const last = qualifiers.length - 1;
  const firstRange = wordRange(index.words, qualifiers[0]!, prefixLast && last === 0);
  for (let i = 0; i <= last; i++) {
    const [from, to] = i === 0 ? firstRange : wordRange(index.words, qualifiers[i]!, prefixLast && i === last);
    for (let j = from; j < to; j++) {
      for (const slot of slots[j]!) {
        if (passed[slot] !== i) continue;
        passed[slot] = i + 1;
        if (i === last) verdict[slot] = 1;
      }
    }
  }
  // Only slots of the first qualifier's postings can have moved from zero: they are set back.
  for (let j = firstRange[0]; j < firstRange[1]; j++) for (const slot of slots[j]!) passed[slot] = 0;
  return verdict;
}

/** `[from, to)` of the sorted words equal to `q`, or starting with it when `prefix`. */
function wordRange(words: string[], q: string, prefix: boolean): [number, number] {
  const from = lowerBound(words, q);
  let to = from;
  while (to < words.length && (words[to] === q || (prefix && words[to]!.startsWith(q)))) to++;
  return [from, to];
}

function lowerBound(sorted: string[], s: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
