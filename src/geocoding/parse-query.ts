import { normalizeName } from '../geodata/normalize-name.js';

/** One way to read a query: the name to look up and the words that must qualify it (state, country …). */
export interface QueryReading {
  name: string;
  qualifiers: string[];
}

// `paris tx`, `san jose costa rica`: the qualifier is the last one to three words.
const MAX_QUALIFIER_WORDS = 3;

/**
 * The readings of a free-text query, normalized: with commas, the first part is the name and the rest
 * qualify it (`paris, tx`); without, the whole query is one reading and each split of its last one to three
 * words into a qualifier is another (`paris tx` → `paris tx` | `paris` + `tx`), as are those words taken one
 * qualifier each (`paris texas us` → `paris` + `texas`, `us`). A ZIP+4 keeps its ZIP.
 */
export function queryReadings(query: string): QueryReading[] {
  const zip = /^\s*(\d{5})-\d{4}\s*$/.exec(query);
  if (zip?.[1]) return [{ name: zip[1], qualifiers: [] }];
  const parts = query.split(',').map(normalizeName).filter(Boolean);
  const [first, ...rest] = parts;
  if (!first) return [];
  if (rest.length > 0) return [{ name: first, qualifiers: rest }];
  const words = first.split(' ');
  const readings: QueryReading[] = [{ name: first, qualifiers: [] }];
  for (let k = words.length - 1; k >= Math.max(1, words.length - MAX_QUALIFIER_WORDS); k--) {
    const name = words.slice(0, k).join(' ');
    const tail = words.slice(k);
    readings.push({ name, qualifiers: [tail.join(' ')] });
    // `paris texas us`: the trailing words may also be one qualifier each.
    if (tail.length > 1) readings.push({ name, qualifiers: tail });
  }
  return readings;
}
