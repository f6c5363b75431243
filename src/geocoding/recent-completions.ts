import { getRecent, setBounded } from '../cache/bounded-map.js';
import { fnv1a } from '../cache/fnv1a.js';
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
// repeat from further back would have missed an LRU cache of that size anyway). Sightings are kept per
// hash of the query in twice as many slots, with when they were made.
const SEEN_SLOTS = 8_192;

interface Recent {
  /** Completions by query key, least recently used first (a Map keeps insertion order). */
  lists: Map<string, GeocodeAddress[]>;
  /** Per slot (hash of a key modulo SEEN_SLOTS), the hash of the key last seen there, made odd (0: none). */
  seen: Uint32Array;
  /** Per slot, the value of `computed` when that key was seen. */
  seenAt: Float64Array;
  /** Queries computed so far (misses). */
  computed: number;
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
    recent = { lists: new Map(), seen: new Uint32Array(SEEN_SLOTS), seenAt: new Float64Array(SEEN_SLOTS), computed: 0 };
    byPack.set(pack, recent);
  }
  const { lists, seen, seenAt } = recent;
  const found = getRecent(lists, key);
  if (found) return found.slice();
  const computed = compute();
  const hash = fnv1a(key);
  const slot = hash & (SEEN_SLOTS - 1);
  const tag = (hash | 1) >>> 0;
  const now = ++recent.computed;
  if (seen[slot] === tag && now - seenAt[slot]! <= MAX_ENTRIES) setBounded(lists, key, computed, MAX_ENTRIES);
  else {
    seen[slot] = tag;
    seenAt[slot] = now;
  }
  return computed.slice();
}
