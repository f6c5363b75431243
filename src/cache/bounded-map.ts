/**
 * Sets `key` in a map used as a bounded cache: when a new key would take it past `maxEntries`, the
 * entry inserted first goes (a Map iterates in insertion order; delete and set again to keep an entry
 * recent).
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
  if (map.size >= maxEntries && !map.has(key)) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
