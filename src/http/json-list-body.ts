import { Readable } from 'node:stream';

/**
 * About how many characters of JSON are printed in one turn of the event loop. Printing a list answer
 * in one go held the loop for its whole length: 1,000 users with full metadata (16 MB) kept every other
 * request waiting over a second. A quarter megabyte prints in a few milliseconds.
 */
export const CHUNK_CHARS = 256 * 1024;

/**
 * `head` + the items joined by commas + `tail`, printed `CHUNK_CHARS` at a time. An answer that fits in
 * one chunk (the common case) comes back as a string, sent with a content-length as before; a longer one
 * as a stream that prints its next chunk only after the event loop has turned (`setImmediate`), so other
 * requests are served between chunks. The bytes are the same either way.
 */
export function jsonListBody(
  head: string,
  count: number,
  item: (i: number) => string,
  tail: string,
): string | Readable {
  let i = 0;
  const next = (): string => {
    let s = '';
    while (i < count && s.length < CHUNK_CHARS) {
      s += i === 0 ? item(0) : `,${item(i)}`;
      i++;
    }
    return s;
  };
  const first = head + next();
  if (i >= count) return first + tail;
  let pending: string | null = first;
  return new Readable({
    read() {
      if (pending !== null) {
        this.push(pending);
        pending = null;
        return;
      }
      setImmediate(() => {
        if (this.destroyed) return;
        try {
          const s = next();
          if (i < count) this.push(s);
          else {
            this.push(s + tail);
            this.push(null);
          }
        } catch (err) {
          this.destroy(err as Error);
        }
      });
    },
  });
}

/**
 * Printing item by item costs a short list 60% more than one JSON.stringify of the whole (8 µs for ten
 * events): a list under this many items is printed whole unless its first item, times their number,
 * passes a chunk (18 fences with 10,000-position outlines print 7 MB).
 */
const LONG_LIST = 32;

/**
 * The JSON of a route's answer object (`JSON.stringify(out)`, byte for byte) through `jsonListBody`
 * when one of its fields is a long array (a list or search answer), else undefined: the caller sends
 * the object as usual.
 */
export function listAnswerBody(out: Record<string, unknown>): string | Readable | undefined {
  const keys = Object.keys(out);
  const at = keys.findIndex((k) => Array.isArray(out[k]) && (out[k] as unknown[]).length >= 2);
  if (at < 0) return undefined;
  const list = out[keys[at]!] as unknown[];
  // In an array, a value with no JSON prints as null.
  const print = (i: number) => (JSON.stringify(list[i]) as string | undefined) ?? 'null';
  let first: string | undefined;
  if (list.length < LONG_LIST) {
    first = print(0);
    if (first.length * list.length < CHUNK_CHARS) return undefined;
  }
  const { head, tail } = around(out, keys, at, '[', ']');
  return jsonListBody(head, list.length, (i) => (i === 0 && first !== undefined ? first : print(i)), tail);
}

/**
 * The JSON of a route's answer object (`JSON.stringify(out)`, byte for byte) with the dictionary
 * `out[key]` printed an entry at a time through `jsonListBody`: place settings at their limits hold
 * 1,000 chains of metadata (4 MB), which took 10-15 ms to print and send in one turn.
 */
export function dictionaryAnswerBody(out: Record<string, unknown>, key: string): string | Readable {
  const dict = out[key];
  if (dict === null || typeof dict !== 'object' || Array.isArray(dict)) return JSON.stringify(out);
  // JSON.stringify leaves out entries whose value has no JSON; the dictionaries printed here hold data
  // read from JSON, where only undefined can stand for a missing value.
  const entries = Object.entries(dict).filter(([, v]) => v !== undefined);
  const keys = Object.keys(out);
  const { head, tail } = around(out, keys, keys.indexOf(key), '{', '}');
  const print = ([k, v]: [string, unknown]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`;
  return jsonListBody(head, entries.length, (i) => print(entries[i]!), tail);
}

/**
 * The JSON of `out` before and after the value of its field `keys[at]` (whose printing the caller
 * opens with `open` and closes with `close`), as `JSON.stringify(out)` prints it.
 */
function around(
  out: Record<string, unknown>,
  keys: string[],
  at: number,
  open: string,
  close: string,
): { head: string; tail: string } {
  const fields = (from: number, to: number, first: boolean) => {
    let s = '';
    for (let k = from; k < to; k++) {
      const text = JSON.stringify(out[keys[k]!]) as string | undefined;
      // JSON.stringify leaves out fields whose value has no JSON (undefined, functions).
      if (text === undefined) continue;
      s += `${first ? '' : ','}${JSON.stringify(keys[k])}:${text}`;
      first = false;
    }
    return s;
  };
  const before = fields(0, at, true);
  return {
    head: `{${before}${before ? ',' : ''}${JSON.stringify(keys[at])}:${open}`,
    tail: `${close}${fields(at + 1, keys.length, false)}}`,
  };
}
