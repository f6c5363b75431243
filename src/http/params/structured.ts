import { invalidParam } from '../../domain/errors.js';
import {
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  type Metadata,
} from '../../domain/metadata.js';
import type { Position } from '../../geo/types.js';
import { param } from './param.js';
import { toBoolean, toNumber } from './scalars.js';

/** `latitude,longitude` as the spec writes query coordinates; returned as `[lon, lat]`. */
export function latLng() {
  return param(
    { type: 'string', pattern: '^-?\\d+(\\.\\d+)?,-?\\d+(\\.\\d+)?$', example: '40.7039,-73.9867' },
    (raw, name) => parseLatLng(raw, name),
  );
}

export function parseLatLng(raw: unknown, name: string): Position {
  const rule = 'must be "latitude,longitude" with latitude between -90 and 90 and longitude between -180 and 180.';
  if (typeof raw !== 'string') throw invalidParam(name, rule);
  const parts = raw.split(',');
  if (parts.length !== 2) throw invalidParam(name, rule);
  const lat = toNumber(parts[0]);
  const lon = toNumber(parts[1]);
  if (lat === null || lon === null || lat < -90 || lat > 90 || lon < -180 || lon > 180) throw invalidParam(name, rule);
  return [lon, lat];
}

/** Longest item of a comma-separated list unless a route says otherwise: ids and tags are at most 256. */
export const MAX_LIST_ITEM_LENGTH = 256;

/**
 * A comma-separated list (or an array), trimmed, empties dropped; `values` restricts the items, `max`
 * their number (100 unless given), `maxItemLength` the length of each (256 unless given).
 */
export function commaList<T extends string = string>(
  opts: { values?: readonly T[]; max?: number; maxItemLength?: number } = {},
) {
  const max = opts.max ?? 100;
  const maxItemLength = opts.maxItemLength ?? MAX_LIST_ITEM_LENGTH;
  const schema = { type: 'string', description: 'comma-separated list', ...(opts.values ? { enum: opts.values } : {}) };
  return param(schema, (raw, name): T[] => {
    const items = (Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : null)
      ?.map((s) => s.trim())
      .filter((s) => s !== '');
    if (!items) throw invalidParam(name, 'must be a comma-separated list.');
    if (items.length > max) throw invalidParam(name, `must list at most ${max} items.`);
    if (items.some((i) => i.length > maxItemLength)) {
      throw invalidParam(name, `items must be at most ${maxItemLength} characters long.`);
    }
    if (opts.values) {
      const bad = items.find((i) => !opts.values!.includes(i as T));
      if (bad !== undefined)
        throw invalidParam(name, `must be a comma-separated list of ${opts.values.join(', ')} ("${bad}" is not one).`);
    }
    return items as T[];
  });
}

/**
 * A metadata dictionary: an object, a JSON string of one, or `metadata[key]=value` bracket keys.
 * Up to 16 keys of at most 256 characters; values string (at most 1,000 characters), boolean or
 * number. With `inferTypes`, string values from query strings
 * become booleans or numbers when they read as such (search filters match typed metadata).
 * `ignoreGarbage` drops what the web SDK sends by mistake (`[object Object]`) instead of failing.
 */
export function metadata(opts: { inferTypes?: boolean; ignoreGarbage?: boolean } = {}) {
  const schema = {
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean'] },
    maxProperties: MAX_METADATA_KEYS,
  };
  return param(
    schema,
    (raw, name): Metadata | undefined => {
      let value = raw;
      if (typeof value === 'string') {
        if (opts.ignoreGarbage && value.startsWith('[object ')) return undefined;
        value = parseJson(value, name, 'must be a dictionary or a JSON string of one.');
      }
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw invalidParam(name, 'must be a dictionary.');
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length > MAX_METADATA_KEYS) throw invalidParam(name, `must have at most ${MAX_METADATA_KEYS} keys.`);
      const out: Metadata = {};
      for (const [k, v] of entries) {
        if (k.length > MAX_METADATA_KEY_LENGTH) {
          throw invalidParam(name, `keys must be at most ${MAX_METADATA_KEY_LENGTH} characters long.`);
        }
        if (typeof v === 'string' && v.length > MAX_METADATA_VALUE_LENGTH) {
          throw invalidParam(
            name,
            `values must be at most ${MAX_METADATA_VALUE_LENGTH} characters long ("${k}" is longer).`,
          );
        }
        if (typeof v === 'string') out[k] = opts.inferTypes ? inferScalar(v) : v;
        else if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
        else throw invalidParam(name, `values must be strings, booleans or numbers ("${k}" is not).`);
      }
      return out;
    },
    true,
  );
}

/** A JSON value given as itself or as a JSON string (form bodies carry arrays as JSON text). */
export function jsonValue(schema: Record<string, unknown>) {
  return param(schema, (raw, name) => (typeof raw === 'string' ? parseJson(raw, name, 'must be valid JSON.') : raw));
}

/** Reads `"v"` (mobile SDKs quote chainMetadata values), `true`, `12.5` as their types. */
export function inferScalar(s: string): string | number | boolean {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return t.slice(1, -1);
  const b = toBoolean(t);
  if (b !== null && (t === 'true' || t === 'false')) return b;
  const n = toNumber(t);
  return n !== null && /^-?\d/.test(t) ? n : t;
}

function parseJson(s: string, name: string, rule: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    throw invalidParam(name, rule);
  }
}
