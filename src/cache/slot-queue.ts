import { grown } from './grown.js';

/**
 * Slots (of `KeySlots`) in the order they were queued, for a cache that lets its oldest key go first;
 * in `Int32Array`s, not on the JavaScript heap. `drop` takes a slot out wherever it is, in O(1): each
 * slot has a generation, bumped by `drop`, and an entry queued under an older generation is skipped
 * (so a slot dropped and queued again for a newer key comes out in the newer key's place only).
 */
export class SlotQueue {
  #slots: Int32Array;
  #gens: Int32Array;
  /** Per slot: its generation (entries under another are stale). */
  #gen: Int32Array;
  /** Where the oldest entry is, and how many are queued, stale ones included. */
  #head = 0;
  #count = 0;
  /** Slots queued and not dropped. */
  #live = 0;

  constructor(expectedSlots = 16) {
    const room = Math.max(16, 2 * expectedSlots);
    this.#slots = new Int32Array(room);
    this.#gens = new Int32Array(room);
    this.#gen = new Int32Array(Math.max(16, expectedSlots));
  }

  /** Slots queued and not dropped. */
  get size(): number {
    return this.#live;
  }

  /** Entries it has room for before it compacts (stale ones included). */
  get room(): number {
    return this.#slots.length;
  }

  /** Queues `slot` as the newest; it must not be queued already. */
  push(slot: number): void {
    if (slot >= this.#gen.length) this.#gen = grown(this.#gen, slot + 1);
    if (this.#count === this.#slots.length) this.#compact();
    const at = (this.#head + this.#count) % this.#slots.length;
    this.#slots[at] = slot;
    this.#gens[at] = this.#gen[slot]!;
    this.#count++;
    this.#live++;
  }

  /** Takes `slot` out of the queue; it must be queued. */
  drop(slot: number): void {
    this.#gen[slot]!++;
    this.#live--;
  }

  /** Takes the oldest slot off the queue and returns it; -1 when the queue is empty. */
  shift(): number {
    while (this.#count > 0) {
      const slot = this.#slots[this.#head]!;
      const live = this.#gens[this.#head] === this.#gen[slot];
      this.#head = (this.#head + 1) % this.#slots.length;
      this.#count--;
      if (live) {
        this.#gen[slot]!++;
        this.#live--;
        return slot;
      }
    }
    return -1;
  }

  clear(): void {
    // New generations for every slot: whatever was queued is stale.
    for (let i = 0; i < this.#gen.length; i++) this.#gen[i]!++;
    this.#head = 0;
    this.#count = 0;
    this.#live = 0;
  }

  /**
   * Leaves out the stale entries, in order, and doubles the room if that freed less than half of it:
   * each compaction then follows at least as many pushes as it moves entries.
   */
  #compact(): void {
    const size = this.#slots.length;
    const room = this.#live * 2 > size ? size * 2 : size;
    const slots = new Int32Array(room);
    const gens = new Int32Array(room);
    let n = 0;
    for (let i = 0; i < this.#count; i++) {
      const at = (this.#head + i) % size;
      const slot = this.#slots[at]!;
      if (this.#gens[at] !== this.#gen[slot]) continue;
      slots[n] = slot;
      gens[n++] = this.#gens[at]!;
    }
    this.#slots = slots;
    this.#gens = gens;
    this.#head = 0;
    this.#count = n;
  }
}
