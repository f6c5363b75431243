import { setImmediate as nextTurn } from 'node:timers/promises';
import { invalidParam } from '../../domain/errors.js';
import { MAX_IMPORT_ROWS } from '../../domain/geofences/geofence-import.js';
import { HttpError } from '../http-error.js';
import { rejectIllFormedText } from '../params/well-formed-text.js';
import { noRows, type RawRow, READ_CHUNK_BYTES, tooManyRows } from './raw-row.js';

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

const NOT_A_COLLECTION = 'body must be a GeoJSON FeatureCollection.';

/**
 * The features of a GeoJSON FeatureCollection, each parsed on its own. `JSON.parse` of a 30 MB
 * collection holds the event loop for half a second; instead one pass over the bytes (a chunk per
 * turn) finds where each element of the top-level `features` array starts and ends, and the features
 * are parsed one at a time as their rows are read. The rest of the document (its `type`) is parsed
 * with `features` emptied.
 */
export async function readGeoJsonRows(body: Buffer, maxRows = MAX_IMPORT_ROWS): Promise<RawRow[]> {
  const spans = await featureSpans(body, maxRows);
  if (!spans) throw new HttpError(400, 'body', NOT_A_COLLECTION);
  let top: unknown;
  try {
    top = JSON.parse(`${body.toString('utf8', 0, spans.open)}[]${body.toString('utf8', spans.close + 1)}`) as unknown;
  } catch {
    throw new HttpError(400, 'body', 'body must be valid JSON.');
  }
  if (!top || typeof top !== 'object' || (top as { type?: unknown }).type !== 'FeatureCollection') {
    throw new HttpError(400, 'body', NOT_A_COLLECTION);
  }
  if (spans.features.length === 0) throw noRows();
  return spans.features.map(([start, end], i) => ({
    row: i + 1,
    read: () => {
      let feature: unknown;
      try {
        feature = JSON.parse(body.toString('utf8', start, end));
      } catch {
        throw invalidParam('feature', 'must be valid JSON.');
      }
      return featureFields(feature);
    },
  }));
}

/** A Feature's fields as a PUT names them: a Point is a circle (radius in its properties), a Polygon a polygon. */
function featureFields(feature: unknown): Record<string, unknown> {
  if (!feature || typeof feature !== 'object' || (feature as { type?: unknown }).type !== 'Feature') {
    throw invalidParam('feature', 'must be a GeoJSON Feature.');
  }
  const { geometry, properties } = feature as { geometry?: unknown; properties?: unknown };
  const props = properties && typeof properties === 'object' && !Array.isArray(properties) ? properties : {};
  rejectIllFormedText(props);
  const g = geometry as { type?: unknown; coordinates?: unknown } | null | undefined;
  const type = g?.type === 'Point' ? 'circle' : g?.type === 'Polygon' ? 'polygon' : undefined;
  if (!type) throw invalidParam('geometry', 'must be a Point (a circle, with properties.radius) or a Polygon.');
  return { ...props, type, coordinates: g!.coordinates };
}

interface Spans {
  /** Where the `features` array opens and closes. */
  open: number;
  close: number;
  /** Each element's [start, end) in the bytes. */
  features: Array<[number, number]>;
}

/**
 * Where the top-level object's `features` array and each of its elements are: a walk over the bytes
 * that counts nesting outside strings and jumps across strings from quote to quote. Undefined when
 * the body has no such array. Malformed JSON elsewhere is left to the parses that follow.
 */
async function featureSpans(body: Buffer, maxRows: number): Promise<Spans | undefined> {
  let depth = 0;
  let key: string | undefined;
  let expectKey = false;
  let open = -1;
  let start = -1;
  const features: Array<[number, number]> = [];
  const push = (end: number) => {
    if (body.subarray(start, end).toString('latin1').trim() === '') return;
    if (features.length >= maxRows) throw tooManyRows(maxRows);
    features.push([start, end]);
  };
  let pauseAt = READ_CHUNK_BYTES * 8;
  for (let i = 0; i < body.length; i++) {
    if (i >= pauseAt) {
      await nextTurn();
      pauseAt += READ_CHUNK_BYTES * 8;
    }
    const c = body[i]!;
    if (c === QUOTE) {
      let end = body.indexOf(QUOTE, i + 1);
      while (end > 0 && escaped(body, end)) end = body.indexOf(QUOTE, end + 1);
      if (end < 0) return undefined;
      if (depth === 1 && expectKey) key = body.toString('utf8', i + 1, end);
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth === 1) expectKey = c === OPEN_OBJECT;
      else if (depth === 2 && c === OPEN_ARRAY && key === 'features' && open < 0) {
        open = i;
        start = i + 1;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 1 && c === CLOSE_ARRAY && open >= 0 && start >= 0) {
        push(i);
        return { open, close: i, features };
      }
    } else if (c === COMMA) {
      if (depth === 1) expectKey = true;
      else if (depth === 2 && open >= 0) {
        push(i);
        start = i + 1;
      }
    } else if (c === COLON && depth === 1) expectKey = false;
  }
  return undefined;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(bytes: Buffer, at: number): boolean {
  let n = 0;
  for (let j = at - 1; j >= 0 && bytes[j] === BACKSLASH; j--) n++;
  return n % 2 === 1;
}
