import type { Position } from '../../geo/types.js';

/** ISO 8601 with milliseconds and Z, as every SDK parses it. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | undefined;
export function iso(ms: number | null): string | undefined {
  if (ms === null) return undefined;
  if (ms === lastIso.ms) return lastIso.text;
  // Date#toISOString costs about four times this arithmetic, and responses print two per document.
  if (!(ms >= 0 && ms < YEAR_10000_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // The proleptic Gregorian date of a day number (H. Hinnant's civil_from_days), in 400-year eras from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const yyyy = year < 1000 ? String(year).padStart(4, '0') : String(year);
  const sss = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : String(millis);
  lastIso.ms = ms;
  lastIso.text = `${yyyy}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${sss}Z`;
  return lastIso.text;
}

/**
 * The last time printed: a track's answer prints its own time several times over (the user's
 * `updatedAt`, each event's `createdAt` and `actualCreatedAt`), and each printing allocated a dozen
 * string pieces (2.9% of the bytes a new-device track allocated, 2026-11-29 allocation profile).
 */
const lastIso = { ms: Number.NaN, text: '' };

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on toISOString prints six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function point(p: Position): { type: 'Point'; coordinates: Position } {
  return { type: 'Point', coordinates: p };
}

/** `JSON.stringify(point(p))`. */
export function pointJson(p: Position | undefined): string {
  return p === undefined ? '{"type":"Point"}' : `{"type":"Point","coordinates":${JSON.stringify(p)}}`;
}

/**
 * `,"name":value`, or nothing where `compact` and JSON.stringify would leave the field out: for
 * presenters that print a document field by field instead of building the object `compact` copies.
 * Names are the code's own, none needing escapes.
 */
export function jsonField(name: string, value: unknown): string {
  // Booleans and numbers print without a JSON.stringify call, whose fixed cost is most of a small value's.
  if (typeof value === 'boolean') return `,"${name}":${value}`;
  if (typeof value === 'number') return `,"${name}":${Number.isFinite(value) ? value : 'null'}`;
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? '' : `,"${name}":${text}`;
}

/** `jsonField(name, iso(ms))`: an ISO time needs no escapes. */
export function isoField(name: string, ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : `,"${name}":"${iso(ms)}"`;
}

/**
 * `o` without its null and undefined fields: unset fields are left out of responses rather than sent as
 * null. A copy, not `delete`: an object that lost properties goes to dictionary mode, which JSON.stringify
 * prints a third slower.
 */
export function compact<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) {
    const v = o[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out as T;
}
