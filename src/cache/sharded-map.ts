import { fnv1a } from './fnv1a.js';

// Keys are hashed on their last characters only: a cache's keys share a long prefix (the tenant's),
// and what tells them apart (a device id, a user id) sits at the end.
const HASHED_CHARS = 16;

/**
 * A `Map<string, V>` spread over several maps by a hash of the key. V8 moves a whole Map to a new
 * table, on the event loop and all at once, when it grows and when deleted slots have filled it (a
 * cache that evicts one entry per insert): at 130,000–500,000 keys that took 13–39 ms here, and a
 * 50,000-key cache evicting on every insert paused 19–34 ms every ~80,000 inserts (2026-11-29). A
 * shard's rehash moves only its share of the keys. Iteration order is per shard.
 */
export class ShardedMap<V> {
  readonly #shards: Array<Map<string, V>>;
  readonly #mask: number;

  /** `shards` is rounded down to a power of two (at least 1). */
  constructor(shards: number) {
    const count = 2 ** Math.floor(Math.log2(Math.max(1, shards)));
    this.#shards = Array.from({ length: count }, () => new Map<string, V>());
    this.#mask = count - 1;
  }

  /**
   * The number of the shard that holds `key`: the same in every ShardedMap of as many shards, so maps
   * that share their keys hash each key once (`shard`).
   */
  indexOf(key: string): number {
    return this.#mask === 0 ? 0 : fnv1a(key, Math.max(0, key.length - HASHED_CHARS)) & this.#mask;
  }

  /** Shard number `index`, for callers that bound each shard (`setBounded`, `takeOldest`). */
  shard(index: number): Map<string, V> {
    return this.#shards[index]!;
  }

  /** The map that holds `key`. */
  shardOf(key: string): Map<string, V> {
    return this.#shards[this.indexOf(key)]!;
  }

  get(key: string): V | undefined {
    return this.shardOf(key).get(key);
  }

  has(key: string): boolean {
    return this.shardOf(key).has(key);
  }

  set(key: string, value: V): this {
    this.shardOf(key).set(key, value);
    return this;
  }

  delete(key: string): boolean {
    return this.shardOf(key).delete(key);
  }

  clear(): void {
    for (const shard of this.#shards) shard.clear();
  }

  get size(): number {
    let size = 0;
    for (const shard of this.#shards) size += shard.size;
    return size;
  }

  get shardCount(): number {
    return this.#shards.length;
  }

  *[Symbol.iterator](): IterableIterator<[string, V]> {
    for (const shard of this.#shards) yield* shard;
  }
}
