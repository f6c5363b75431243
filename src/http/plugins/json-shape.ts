/**
 * Most arrays and objects, and most values, one JSON body may hold. The largest bodies a client
 * sends are a 10,000-position polygon (10,002 arrays, 20,000 values) and a replay of 1,000 fixes
 * (about 2,000 objects and 30,000 values with metadata); these limits leave room above both. A body
 * of 5 MB (the size limit) holds up to 870,000 arrays (`[0,0],`), which took `JSON.parse`, the
 * text check and the collections after them about a second of the event loop: every other request
 * waited.
 */
export const MAX_JSON_CONTAINERS = 25_000;
export const MAX_JSON_VALUES = 250_000;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const COMMA = 44;

/**
 * Why `bytes` (JSON, not yet parsed) holds too many arrays, objects or values, or undefined when
 * within the limits. One pass that stops at the first count past a limit, no allocation: outside strings byte by byte, across a string in jumps
 * from quote to quote (`indexOf`, native): a few ms for 5 MB, against about a second for parsing
 * 5 MB of small arrays.
 */
export function jsonTooLarge(bytes: Buffer): string | undefined {
  let containers = 0;
  let commas = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      // The closing quote: the next one not escaped by an odd run of backslashes before it.
      let end = bytes.indexOf(QUOTE, i + 1);
      while (end > 0 && escaped(bytes, end)) end = bytes.indexOf(QUOTE, end + 1);
      if (end < 0) break;
      i = end;
    } else if (c === COMMA) {
      // Stop at the first value past a limit: a refused body is not read to its end.
      if (++commas >= MAX_JSON_VALUES) break;
    } else if ((c === OPEN_ARRAY || c === OPEN_OBJECT) && ++containers > MAX_JSON_CONTAINERS) break;
  }
  if (containers > MAX_JSON_CONTAINERS) {
    return `body must hold at most ${MAX_JSON_CONTAINERS} arrays and objects.`;
  }
  if (commas >= MAX_JSON_VALUES) return `body must hold at most ${MAX_JSON_VALUES} values.`;
  return undefined;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function escaped(bytes: Buffer, at: number): boolean {
  let run = 0;
  while (bytes[at - 1 - run] === BACKSLASH) run++;
  return run % 2 === 1;
}

/** Most fields of a form body: forms carry the track fields, a few dozen at most. */
export const MAX_FORM_FIELDS = 1000;

/** Counts the fields of a form body before it is parsed. */
export function formTooLarge(text: string): string | undefined {
  let fields = 1;
  for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', at + 1)) {
    if (++fields > MAX_FORM_FIELDS) return `body must hold at most ${MAX_FORM_FIELDS} fields.`;
  }
  return undefined;
}
