import { LRUCache } from 'lru-cache';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';

// Autocomplete traffic repeats: every user typing `san f` sends it, a user deleting a letter sends the
// previous query again, and a debounce-less client sends each prefix twice. A miss costs a few hundred µs
// of name matching; a hit, a map lookup. Bounded in entries (a completion list is ~10 addresses, a few KB),
// least recently used evicted first.
const MAX_ENTRIES = 4_096;

// Keeping a completion list is not free: its ~10 addresses (10-15 KB with their JSON) outlive the young
// generation, so each one kept is copied by two scavenges and freed only by a major GC. Under traffic of
// mostly distinct queries (the bench's 10,000, or many users typing different names) keeping every answer
// promoted ~14 KB per query and made the scavenges that copy it the 5-15 ms pauses of the p99. So an
// answer is kept only when its query comes a second time within the last MAX_ENTRIES computed queries (a
// repeat from further back would have missed an LRU cache of that size anyway).

interface Recent {
  /** Completions by query key. */
  lists: LRUCache<string, GeocodeAddress[]>;
  /** The queries computed lately (the misses), the answers not kept. */
  seen: LRUCache<string, true>;
}

const byPack = new WeakMap<GeodataPack, Recent>();

/**
 * The completions computed for `key` on `pack` (or by `compute`, then kept if `key` was asked for
 * recently). A pack opened anew (a data update) starts empty. Callers get their own array; the address
 * objects are shared and must not be changed.
 */
export function recentCompletions(pack: GeodataPack, key: string, compute: () => GeocodeAddress[]): GeocodeAddress[] {
  let recent = byPack.get(pack);
  if (!recent) {
    recent = { lists: new LRUCache({ max: MAX_ENTRIES }), seen: new LRUCache({ max: MAX_ENTRIES }) };
    byPack.set(pack, recent);
  }
  const found = recent.lists.get(key);
  if (found) return found.slice();
  const computed = compute();
  if (recent.seen.delete(key)) recent.lists.set(key, computed);
  else recent.seen.set(key, true);
  return computed.slice();
}
