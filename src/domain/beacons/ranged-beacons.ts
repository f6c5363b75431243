import { invalid, invalidParam } from '../errors.js';

/** A beacon the device ranged, as sent in track's `beacons`. */
export interface RangedBeacon {
  /** Lower-case canonical UUID. */
  uuid: string;
  /** Decimal strings, as beacons are stored. */
  major: string;
  minor: string;
  /** dBm, negative. */
  rssi?: number;
  /** Meters, the SDK's estimate. */
  distance?: number;
}

export const MAX_RANGED_BEACONS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads track's `beacons`: an array of `{uuid, major, minor, rssi?, distance?}`, or that array as JSON
 * text (form-encoded bodies). Major and minor may be numbers or numeric strings. Throws an invalid-parameter error naming
 * `beacons`, with the item and field in the message; `undefined` when absent (the client did not range).
 */
export function parseRangedBeacons(raw: unknown, name = 'beacons'): RangedBeacon[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  let list = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      throw invalidParam(name, 'must be an array of {uuid, major, minor, rssi, distance} (or that array as JSON).');
    }
  }
  if (!Array.isArray(list))
    throw invalidParam(name, 'must be an array of {uuid, major, minor, rssi, distance} (or that array as JSON).');
  if (list.length > MAX_RANGED_BEACONS) throw invalidParam(name, `must have at most ${MAX_RANGED_BEACONS} items.`);
  return list.map((item, i) => rangedBeacon(item, `${name}[${i}]`, name));
}

function rangedBeacon(item: unknown, where: string, name: string): RangedBeacon {
  // The param is `beacons`; the message points at the item and field (`beacons[2].uuid must ...`).
  const fail = (rule: string) => invalid(name, `${where}${rule}`);
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw fail(' must be an object.');
  const b = item as Record<string, unknown>;
  if (typeof b.uuid !== 'string' || !UUID.test(b.uuid.trim())) throw fail('.uuid must be a UUID.');
  const out: RangedBeacon = {
    uuid: b.uuid.trim().toLowerCase(),
    major: uint16(b.major, fail, 'major'),
    minor: uint16(b.minor, fail, 'minor'),
  };
  if (b.rssi !== undefined && b.rssi !== null) {
    const rssi = Number(b.rssi);
    if (typeof b.rssi === 'boolean' || !Number.isFinite(rssi) || rssi > 0 || rssi < -200)
      throw fail('.rssi must be a number from -200 to 0 (dBm).');
    out.rssi = rssi;
  }
  if (b.distance !== undefined && b.distance !== null) {
    const distance = Number(b.distance);
    if (typeof b.distance === 'boolean' || !Number.isFinite(distance) || distance < 0)
      throw fail('.distance must be a number of meters, 0 or more.');
    out.distance = distance;
  }
  return out;
}

function uint16(raw: unknown, fail: (rule: string) => Error, field: string): string {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw fail(`.${field} must be an integer from 0 to 65535.`);
  return String(n);
}

/**
 * How sure the device is that it is at the beacon: 3 within about 2 m (or RSSI -70 dBm and stronger),
 * 2 within about 10 m (-85 dBm), else 1; 2 when the SDK sent neither.
 */
export function rangeConfidence(b: RangedBeacon): 1 | 2 | 3 {
  if (b.distance !== undefined) return b.distance <= 2 ? 3 : b.distance <= 10 ? 2 : 1;
  if (b.rssi !== undefined) return b.rssi >= -70 ? 3 : b.rssi >= -85 ? 2 : 1;
  return 2;
}
