/**
 * Where each bounded map's eviction got to: a live iterator over its keys, so that finding the oldest
 * entry skips only the slots deleted since the last eviction. A fresh `map.keys().next()` starts at the
 * table's first slot, and V8 leaves a deleted entry's slot in place until the table is rehashed: in a
 * full cache that evicts on every insert, that was a walk over up to tens of thousands of empty slots
 * per insert (7.5 µs of each geofence PUT, with the 50,000-entry document cache full).
 */
const cursors = new WeakMap<Map<unknown, unknown>, Iterator<unknown>>();

/**
 * Sets `key` in a map used as a bounded cache: when a new key would take it past `maxEntries`, the
 * entry inserted first goes (a Map iterates in insertion order; delete and set again to keep an entry
 * recent).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  if (map.size >= maxEntries && !map.has(key)) deleteOldest(map);
  map.set(key, value);
}

/** The value under `key`, made the newest entry (deleted and set again) so that eviction takes it last. */
export function getRecent<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  map.delete(key);
  map.set(key, value);
  return value;
}

/** Deletes the entry inserted first and returns it (undefined when the map is empty). */
export function takeOldest<K, V>(map: Map<K, V>): [K, V] | undefined {
  const key = oldestKey(map);
  if (key === undefined) return undefined;
  const value = map.get(key) as V;
  map.delete(key);
  return [key, value];
}

function deleteOldest<K, V>(map: Map<K, V>): void {
  const key = oldestKey(map);
  if (key !== undefined) map.delete(key);
}

/** The oldest key, found through the map's cursor; the caller deletes it before the map's next eviction. */
function oldestKey<K, V>(map: Map<K, V>): K | undefined {
  // A Map iterator is live: it goes on to keys set after it was made, skips keys deleted before it
  // reaches them, and, having passed only keys it deleted, always stands before the oldest entry.
  let cursor = cursors.get(map as Map<unknown, unknown>) as Iterator<K> | undefined;
  let next = cursor?.next();
  if (cursor === undefined || next!.done) {
    cursor = map.keys();
    cursors.set(map as Map<unknown, unknown>, cursor);
    next = cursor.next();
  }
  return next!.done ? undefined : next!.value;
}
