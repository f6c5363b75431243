import { fnv1a } from './fnv1a.js';
import { tableHome } from './table-home.js';

/** Slots come in blocks of this many (`BLOCK_SLOTS`): the callers' per-slot arrays grow in the same steps. */
export const BLOCK_BITS = 12;
export const BLOCK_SLOTS = 1 << BLOCK_BITS;
const IN_BLOCK = BLOCK_SLOTS - 1;
/** The longest key kept off the heap, in characters (each below U+0100, one byte each). */
export const CELL_CHARS = 96;
// Each shard is a table of its own, rebuilt alone when it fills: a rebuild moves a 256th of the keys.
const SHARD_BITS = 8;
const SHARD_MASK = (1 << SHARD_BITS) - 1;
const MIN_TABLE_BITS = 4;
// Table entries: the slot plus one; 0 never used, -1 a deleted entry (probes go on past it).
const EMPTY = 0;
const DELETED = -1;

/**
 * String keys numbered by dense slots (0, 1, …; a deleted key's slot is given out again), with the
 * keys themselves off the JavaScript heap: their characters in byte cells, their lookup in
 * open-addressed `Int32Array`s. For keys that live long and come in numbers, such as a rate limiter's
 * one per device seen in a day: as strings in a `Map`, each was a string and a table entry that the
 * first scavenge after its request promoted and every major collection then marked (a day of a
 * million devices, a million of each). A key longer than `CELL_CHARS` or with a character past U+00FF
 * is kept in a `Map` instead (device ids of that kind are rare).
 */
export class KeySlots {
  /** Per block: each slot's characters, at slot * CELL_CHARS. */
  readonly #cells: Uint8Array[] = [];
  /** Per block: each slot's key length plus one in its cell (0: no cell; the slot is free or its key long). */
  readonly #lengths: Uint8Array[] = [];
  readonly #hashes: Uint32Array[] = [];
  readonly #tables: Int32Array[] = [];
  /** Per shard: entries in use or deleted, which a probe walks, and the table's size as a power of two. */
  readonly #filled = new Uint32Array(SHARD_MASK + 1);
  readonly #bits = new Uint8Array(SHARD_MASK + 1);
  readonly #long = new Map<string, number>();
  readonly #longBySlot = new Map<number, string>();
  readonly #free: number[] = [];
  #slotCount = 0;
  #size = 0;

  constructor() {
    for (let s = 0; s <= SHARD_MASK; s++) {
      this.#tables.push(new Int32Array(1 << MIN_TABLE_BITS));
      this.#bits[s] = MIN_TABLE_BITS;
    }
  }

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /** One past the highest slot ever given out: every key's slot is below it. */
  get slotCount(): number {
    return this.#slotCount;
  }

  /** The slot of `key`, or -1. */
  get(key: string): number {
    return this.#find(key, hashOf(key));
  }

  /** Takes a slot for `key`, which must not be held (`get` is -1). */
  add(key: string): number {
    return this.#add(key, hashOf(key));
  }

  /** The slot of `key`, taken for it if it has none: `get`, then `add`, hashing the key once. */
  take(key: string): number {
    const hash = hashOf(key);
    const slot = this.#find(key, hash);
    return slot >= 0 ? slot : this.#add(key, hash);
  }

  /** `hash`: the key's `hashOf`. */
  #find(key: string, hash: number): number {
    if (key.length <= CELL_CHARS) {
      const shard = hash & SHARD_MASK;
      const table = this.#tables[shard]!;
      const mask = table.length - 1;
      for (let i = tableHome(hash, this.#bits[shard]!); ; i = (i + 1) & mask) {
        const entry = table[i]!;
        if (entry === EMPTY) break;
        if (entry !== DELETED && this.#holds(entry - 1, key, hash)) return entry - 1;
      }
    }
    return this.#long.size === 0 ? -1 : (this.#long.get(key) ?? -1);
  }

  #add(key: string, hash: number): number {
    const slot = this.#free.pop() ?? this.#newSlot();
    this.#size++;
    if (!fitsCell(key)) {
      this.#long.set(key, slot);
      this.#longBySlot.set(slot, key);
      return slot;
    }
    const block = slot >>> BLOCK_BITS;
    const at = slot & IN_BLOCK;
    const cells = this.#cells[block]!;
    const base = at * CELL_CHARS;
    for (let i = 0; i < key.length; i++) cells[base + i] = key.charCodeAt(i);
    this.#lengths[block]![at] = key.length + 1;
    this.#hashes[block]![at] = hash;
    const shard = hash & SHARD_MASK;
    // At most half full with deleted entries counted, so a miss ends within a few entries.
    if ((this.#filled[shard]! + 1) * 2 > this.#tables[shard]!.length) this.#rebuild(shard);
    this.#place(shard, hash, slot);
    this.#filled[shard]!++;
    return slot;
  }

  /** Lets go of `slot`'s key; the slot may be given to the next key added. */
  delete(slot: number): void {
    const block = slot >>> BLOCK_BITS;
    const at = slot & IN_BLOCK;
    if (slot < 0 || slot >= this.#slotCount) return;
    const lengths = this.#lengths[block]!;
    if (lengths[at] === 0) {
      const key = this.#longBySlot.get(slot);
      if (key === undefined) return;
      this.#longBySlot.delete(slot);
      this.#long.delete(key);
    } else {
      const hash = this.#hashes[block]![at]!;
      const shard = hash & SHARD_MASK;
      const table = this.#tables[shard]!;
      const mask = table.length - 1;
      let i = tableHome(hash, this.#bits[shard]!);
      while (table[i] !== slot + 1) i = (i + 1) & mask;
      // Still counted in #filled: probes for other keys walk past it until the next rebuild.
      table[i] = DELETED;
      lengths[at] = 0;
    }
    this.#free.push(slot);
    this.#size--;
  }

  #newSlot(): number {
    const slot = this.#slotCount++;
    if (slot >>> BLOCK_BITS === this.#cells.length) {
      this.#cells.push(new Uint8Array(BLOCK_SLOTS * CELL_CHARS));
      this.#lengths.push(new Uint8Array(BLOCK_SLOTS));
      this.#hashes.push(new Uint32Array(BLOCK_SLOTS));
    }
    return slot;
  }

  #holds(slot: number, key: string, hash: number): boolean {
    const block = slot >>> BLOCK_BITS;
    const at = slot & IN_BLOCK;
    if (this.#hashes[block]![at] !== hash || this.#lengths[block]![at] !== key.length + 1) return false;
    const cells = this.#cells[block]!;
    const base = at * CELL_CHARS;
    for (let i = 0; i < key.length; i++) if (cells[base + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  #place(shard: number, hash: number, slot: number): void {
    const table = this.#tables[shard]!;
    const mask = table.length - 1;
    let i = tableHome(hash, this.#bits[shard]!);
    while (table[i] !== EMPTY) i = (i + 1) & mask;
    table[i] = slot + 1;
  }

  /** A new table for `shard`, without its deleted entries, a quarter full at most. */
  #rebuild(shard: number): void {
    const old = this.#tables[shard]!;
    let live = 0;
    for (const entry of old) if (entry > 0) live++;
    let bits = MIN_TABLE_BITS;
    while (1 << bits < (live + 1) * 4) bits++;
    this.#tables[shard] = new Int32Array(1 << bits);
    this.#bits[shard] = bits;
    this.#filled[shard] = live;
    for (const entry of old) {
      if (entry <= 0) continue;
      const slot = entry - 1;
      this.#place(shard, this.#hashes[slot >>> BLOCK_BITS]![slot & IN_BLOCK]!, slot);
    }
  }
}

function fitsCell(key: string): boolean {
  if (key.length > CELL_CHARS) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0xff) return false;
  return true;
}

/** What a key is looked up by: its `fnv1a`, when it may be in a cell (the cells' keys alone are hashed). */
function hashOf(key: string): number {
  return key.length <= CELL_CHARS ? fnv1a(key) : 0;
}
