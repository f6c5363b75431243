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

// Qualifiers repeat across queries (`…, ca`, the last word typed so far): their verdicts are kept.
const MAX_KEPT = 64;
const kept = new WeakMap<GeodataPack, Map<string, Uint8Array>>();

/**
 * Per area pair (slot, see `entryAreaSlots`): 1 when every one of `qualifiers` names one of its places'
 * areas (the last one may only start such a word with `prefixLast`), else 0. The same answer as checking
 * each place's qualifier words, computed from the words' postings instead of from thousands of places.
 */
export function qualifiedSlots(pack: GeodataPack, qualifiers: string[], prefixLast: boolean): Uint8Array {
  let cache = kept.get(pack);
  if (!cache) {
    cache = new Map();
    kept.set(pack, cache);
  }
  const key = `${prefixLast ? 1 : 0}\u0001${qualifiers.join('\u0001')}`;
  let verdict = cache.get(key);
  if (verdict) return verdict;
  const { words, slots, maxSlot } = areaWordIndex(pack);
  // matched[slot] = how many qualifiers, in order, it has passed so far.
  const matched = new Int32Array(maxSlot + 1);
  const last = qualifiers.length - 1;
  qualifiers.forEach((q, i) => {
    let j = lowerBound(words, q);
    for (; j < words.length && (words[j] === q || (prefixLast && i === last && words[j]!.startsWith(q))); j++) {
      for (const slot of slots[j]!) if (matched[slot] === i) matched[slot] = i + 1;
    }
  });
  verdict = new Uint8Array(maxSlot + 1);
  for (let s = 0; s <= maxSlot; s++) verdict[s] = matched[s] === qualifiers.length ? 1 : 0;
  if (cache.size >= MAX_KEPT) cache.clear();
  cache.set(key, verdict);
  return verdict;
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
