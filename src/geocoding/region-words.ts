import { normalizeName } from '../geodata/normalize-name.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { QueryReading } from './parse-query.js';

const cache = new WeakMap<GeodataPack, string[]>();

// Sorted normalized names and codes of every state, admin-1 area, county and country of the pack.
function regionWords(pack: GeodataPack): string[] {
  let words = cache.get(pack);
  if (!words) {
    const set = new Set<string>();
    const add = (s: string | undefined) => {
      const key = s ? normalizeName(s) : '';
      if (key) set.add(key);
    };
    for (const s of [...pack.states, ...pack.admin1]) {
      add(s.name);
      add(s.code);
    }
    for (const c of pack.counties) add(c.name);
    for (const c of pack.countries) {
      add(c.name);
      add(c.code);
      add(c.code3);
    }
    for (const name of Object.values(pack.localities.columns.admin1Names)) add(name);
    words = [...set].sort();
    cache.set(pack, words);
  }
  return words;
}

/**
 * Whether a normalized word names a state, county or country of the pack (or starts one, with `prefix`).
 * Readings whose qualifier names no area are dropped before any search: `san jose` is not San + `jose`.
 */
export function isRegionWord(pack: GeodataPack, word: string, prefix: boolean): boolean {
  const words = regionWords(pack);
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  const found = words[lo];
  return found !== undefined && (prefix ? found.startsWith(word) : found === word);
}

/** The readings whose qualifiers all name areas; `prefixLast` lets the last one be incomplete. */
export function plausibleReadings(pack: GeodataPack, readings: QueryReading[], prefixLast: boolean): QueryReading[] {
  return readings.filter((r) =>
    r.qualifiers.every((q, i) => isRegionWord(pack, q, prefixLast && i === r.qualifiers.length - 1)),
  );
}
