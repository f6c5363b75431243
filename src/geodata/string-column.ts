/**
 * A column of a pack table's strings, held as one string and where each row starts: one object for
 * the garbage collector instead of one per row. The world pack's name keys, locality names and ZIP
 * fields were ~1 million strings, and every major GC of a server marked them all again: a forced full
 * GC of an opened pack marked for 49 ms with them as arrays and 18 ms as columns. A row read with
 * `get` is a new short-lived string; `equals`, `startsWith` and `lessThan` compare in place.
 */
export class StringColumn implements Iterable<string> {
  readonly length: number;
  readonly #text: string;
  // Row i is #text[#starts[i], #starts[i + 1] - 1): one separator character follows each row, the
  // last one's only virtually (#starts[length] is #text.length + 1).
  readonly #starts: Uint32Array;

  private constructor(text: string, starts: Uint32Array) {
    this.#text = text;
    this.#starts = starts;
    this.length = starts.length - 1;
  }

  /** A column of these values. */
  static of(values: readonly string[]): StringColumn {
    const starts = new Uint32Array(values.length + 1);
    for (let i = 0; i < values.length; i++) starts[i + 1] = starts[i]! + values[i]!.length + 1;
    return new StringColumn(values.join('\n'), starts);
  }

  /**
   * The `count` rows of `text`, separated by `separator` (a single character the rows do not hold);
   * throws when `text` holds another number of rows.
   */
  static split(text: string, count: number, separator: string): StringColumn {
    const starts = new Uint32Array(count + 1);
    let at = -1;
    for (let i = 1; i < count; i++) {
      at = text.indexOf(separator, at + 1);
      if (at < 0) throw new Error(`string column holds fewer than ${count} rows`);
      starts[i] = at + 1;
    }
    if (count > 0 && text.indexOf(separator, at + 1) >= 0)
      throw new Error(`string column holds more than ${count} rows`);
    starts[count] = text.length + 1;
    return new StringColumn(count > 0 ? text : '', starts);
  }

  #has(i: number): boolean {
    return i >>> 0 === i && i < this.length;
  }

  /** Row `i`; undefined outside `[0, length)`, as an array's index would be. */
  get(i: number): string | undefined {
    if (!this.#has(i)) return undefined;
    return this.#text.slice(this.#starts[i], this.#starts[i + 1]! - 1);
  }

  /** Whether row `i` is `s`. */
  equals(i: number, s: string): boolean {
    if (!this.#has(i)) return false;
    const start = this.#starts[i]!;
    return this.#starts[i + 1]! - 1 - start === s.length && this.#text.startsWith(s, start);
  }

  /** Whether row `i` starts with `prefix`. */
  startsWith(i: number, prefix: string): boolean {
    if (!this.#has(i)) return false;
    const start = this.#starts[i]!;
    return this.#starts[i + 1]! - 1 - start >= prefix.length && this.#text.startsWith(prefix, start);
  }

  /** Whether row `i` sorts before `s` (code-unit order, as `<` on strings). */
  lessThan(i: number, s: string): boolean {
    const start = this.#starts[i]!;
    const length = this.#starts[i + 1]! - 1 - start;
    const n = Math.min(length, s.length);
    for (let k = 0; k < n; k++) {
      const a = this.#text.charCodeAt(start + k);
      const b = s.charCodeAt(k);
      if (a !== b) return a < b;
    }
    return length < s.length;
  }

  /** The first row equal to `s`, or -1. */
  indexOf(s: string): number {
    for (let i = 0; i < this.length; i++) if (this.equals(i, s)) return i;
    return -1;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.length; i++) yield this.get(i)!;
  }

  /** The rows as an array of strings (one object each again: for small columns). */
  toArray(): string[] {
    return Array.from(this);
  }
}
