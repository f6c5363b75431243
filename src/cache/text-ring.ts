/**
 * Texts kept outside the JavaScript heap, as UTF-8 in one ring buffer that holds the newest
 * `capacity` bytes of them; each is reached through a small integer handle. A cache that keeps
 * thousands of texts and replaces them all the time (a user's row text on every track) promoted each
 * one to the old generation and left it there as garbage when replaced: 40% of what a new device's
 * track promoted, and the major collections that came of it (2026-11-29, docs/performance-log.md).
 * Here a text is bytes the collector never sees, and a read makes a short-lived string.
 *
 * A handle reads its text until the ring has taken `capacity` more bytes since it was written (then
 * `get` answers undefined) or until every reference to it is released: `put` gives one and `retain`
 * one more (one text kept under several keys is written once). A handle with none left may be given
 * out again, so a caller releases each reference once and reads through it no more after.
 */
export class TextRing {
  readonly #buf: Buffer;
  /** Bytes taken so far, counted from the start (a position in the buffer is this modulo capacity). */
  #head = 0;
  /** Per handle: where its text starts (as `#head` counts), and its length in bytes. */
  readonly #start: Float64Array;
  readonly #length: Int32Array;
  /** Per handle: the references to it not yet released. */
  readonly #refs: Uint32Array;
  /** Handles not in use, as a stack. */
  readonly #free: Int32Array;
  #freeCount: number;

  constructor(
    readonly capacity: number,
    /** How many texts may be held at once. */
    handles: number,
  ) {
    this.#buf = Buffer.allocUnsafeSlow(capacity);
    this.#start = new Float64Array(handles);
    this.#length = new Int32Array(handles);
    this.#refs = new Uint32Array(handles);
    this.#free = Int32Array.from({ length: handles }, (_, i) => handles - 1 - i);
    this.#freeCount = handles;
  }

  /** Keeps `text`; its handle, or -1 when no handle is free or it is longer than the whole ring. */
  put(text: string): number {
    const length = Buffer.byteLength(text, 'utf8');
    if (length > this.capacity || this.#freeCount === 0) return -1;
    // A text is never split across the end: one that would be starts the next turn of the ring.
    let at = this.#head % this.capacity;
    if (at + length > this.capacity) {
      this.#head += this.capacity - at;
      at = 0;
    }
    this.#buf.write(text, at, length, 'utf8');
    const handle = this.#free[--this.#freeCount]!;
    this.#start[handle] = this.#head;
    this.#length[handle] = length;
    this.#refs[handle] = 1;
    this.#head += length;
    return handle;
  }

  /** One more reference to `handle`'s text; returns the handle. */
  retain(handle: number): number {
    this.#refs[handle]!++;
    return handle;
  }

  /** The text of `handle`, or undefined when the ring has written over it since. */
  get(handle: number): string | undefined {
    const start = this.#start[handle]!;
    if (this.#head - start > this.capacity) return undefined;
    const at = start % this.capacity;
    return this.#buf.toString('utf8', at, at + this.#length[handle]!);
  }

  /** Gives back one reference to `handle`; with the last, the handle may be handed out again. */
  release(handle: number): void {
    if (--this.#refs[handle]! === 0) this.#free[this.#freeCount++] = handle;
  }

  /** Releases every handle. */
  clear(): void {
    const handles = this.#free.length;
    for (let i = 0; i < handles; i++) this.#free[i] = handles - 1 - i;
    this.#freeCount = handles;
    this.#refs.fill(0);
  }
}
