import { setBounded } from '../cache/bounded-map.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';

// Autocomplete traffic repeats: every user typing `san f` sends it, a user deleting a letter sends the
// previous query again, and a debounce-less client sends each prefix twice. A miss costs a few hundred µs
// of name matching; a hit, a map lookup. Bounded in entries (a completion list is ~10 addresses, a few KB),
// least recently used evicted first.
const MAX_ENTRIES = 4_096;

/** The recent completions of one pack, least recently used first (a Map keeps insertion order). */
const byPack = new WeakMap<GeodataPack, Map<string, GeocodeAddress[]>>();

/**
 * The completions computed for `key` on `pack` (or by `compute`, then kept). A pack opened anew (a data
 * update) starts empty. Callers get their own array; the address objects are shared and must not be
 * changed.
 */
export function recentCompletions(pack: GeodataPack, key: string, compute: () => GeocodeAddress[]): GeocodeAddress[] {
  let recent = byPack.get(pack);
  if (!recent) {
    recent = new Map();
    byPack.set(pack, recent);
  }
  let found = recent.get(key);
  // A hit is deleted and set again: it becomes the most recent entry.
  if (found) recent.delete(key);
  else found = compute();
  setBounded(recent, key, found, MAX_ENTRIES);
  return found.slice();
}
