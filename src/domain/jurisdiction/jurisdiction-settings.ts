import { invalid, invalidParam } from '../errors.js';

/**
 * Where a project's app may serve its users, per environment (`PATCH /v1/settings` `jurisdiction`).
 * An empty list means no restriction of that kind.
 */
export interface JurisdictionSettings {
  /** ISO 3166-1 alpha-2 codes refused with 451. */
  blockedCountries: string[];
  /** When not empty, every other country is refused with 451. */
  allowedCountries: string[];
  /** ISO 3166-2 codes (`US-NJ`); when not empty, other states answer `state.allowed: false`. */
  allowedStates: string[];
  /** Inside an allowed state but closer than this to its border: `state.inBufferZone`. */
  bufferMeters: number;
  /** The tag of the project's geofences that are exclusion zones; null for none. */
  exclusionTag: string | null;
}

const MAX_CODES = 300;
const COUNTRY = /^[A-Z]{2}$/;
const STATE = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
const MAX_BUFFER_METERS = 100_000;
const FIELDS = ['blockedCountries', 'allowedCountries', 'allowedStates', 'bufferMeters', 'exclusionTag'];

/** Reads `jurisdiction` as PATCH /v1/settings and the CLI take it; codes are kept upper case. */
export function parseJurisdiction(raw: unknown, name: string): JurisdictionSettings {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParam(name, 'must be an object.');
  const v = raw as Record<string, unknown>;
  const extra = Object.keys(v).find((k) => !FIELDS.includes(k));
  if (extra !== undefined) throw invalid(name, `${name}.${extra} is not a jurisdiction field (${FIELDS.join(', ')}).`);
  const buffer = v.bufferMeters ?? 0;
  if (typeof buffer !== 'number' || !Number.isFinite(buffer) || buffer < 0 || buffer > MAX_BUFFER_METERS)
    throw invalid(name, `${name}.bufferMeters must be a number of meters from 0 to ${MAX_BUFFER_METERS}.`);
  const tag = v.exclusionTag ?? null;
  if (tag !== null && (typeof tag !== 'string' || tag.length === 0 || tag.length > 256))
    throw invalid(name, `${name}.exclusionTag must be a geofence tag (a string) or null.`);
  return {
    blockedCountries: codes(
      v.blockedCountries,
      `${name}.blockedCountries`,
      name,
      COUNTRY,
      'ISO 3166-1 alpha-2 codes such as "CU"',
    ),
    allowedCountries: codes(
      v.allowedCountries,
      `${name}.allowedCountries`,
      name,
      COUNTRY,
      'ISO 3166-1 alpha-2 codes such as "US"',
    ),
    allowedStates: codes(v.allowedStates, `${name}.allowedStates`, name, STATE, 'ISO 3166-2 codes such as "US-NJ"'),
    bufferMeters: buffer,
    exclusionTag: tag,
  };
}

function codes(raw: unknown, path: string, name: string, pattern: RegExp, what: string): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > MAX_CODES)
    throw invalid(name, `${path} must be an array of at most ${MAX_CODES} ${what}.`);
  const out = raw.map((c) => (typeof c === 'string' ? c.trim().toUpperCase() : ''));
  const bad = out.findIndex((c) => !pattern.test(c));
  if (bad >= 0) throw invalid(name, `${path}[${bad}] must be one of ${what}.`);
  return [...new Set(out)];
}

/** Whether any list or zone is set: without one, tracks answer no jurisdiction fields. */
export function hasJurisdiction(j: JurisdictionSettings | null | undefined): j is JurisdictionSettings {
  return (
    !!j &&
    (j.blockedCountries.length > 0 ||
      j.allowedCountries.length > 0 ||
      j.allowedStates.length > 0 ||
      j.exclusionTag !== null)
  );
}
