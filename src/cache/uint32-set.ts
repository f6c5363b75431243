import { tableHome } from './table-home.js';

/**
 * A set of non-zero 32-bit numbers (hashes) in one typed array, open addressing with linear probing:
 * a few bytes per member and no object for the collector to trace, where a `Set` of a million
 * numbers costs tens of megabytes of heap that every major GC walks.
 */
export class Uint32Set {
  #slots: Uint32Array;
  #bits: number;
  #size = 0;

  constructor(initialBits = 10) {
    this.#bits = initialBits;
    this.#slots = new Uint32Array(1 << initialBits);
  }

  get size(): number {
    return this.#size;
  }

  /** Members are taken as unsigned: `x | 1` and `x >>> 0` name the same member. */
  has(member: number): boolean {
    member >>>= 0;
    return this.#slots[this.#slotOf(member)] === member;
  }

  /** `member` must not be 0 (the empty slot's mark). */
  add(member: number): void {
    member >>>= 0;
    if (member === 0) throw new RangeError('member must not be 0');
    // At most half full, so a miss ends within a couple of slots.
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow();
    if (this.#place(member)) this.#size++;
  }

  /** Puts `member` in its slot; false when it was there already. */
  #place(member: number): boolean {
    const slots = this.#slots;
    const i = this.#slotOf(member);
    if (slots[i] === member) return false;
    slots[i] = member;
    return true;
  }

  /** The slot that holds `member`, else the empty one where it would go. */
  #slotOf(member: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let i = tableHome(member, this.#bits);
    while (slots[i] !== member && slots[i] !== 0) i = (i + 1) & mask;
    return i;
  }

  #grow(): void {
    const old = this.#slots;
    this.#bits++;
    this.#slots = new Uint32Array(1 << this.#bits);
    for (const member of old) if (member !== 0) this.#place(member);
  }
}
