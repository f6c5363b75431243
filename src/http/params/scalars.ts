import { invalidParam } from '../../domain/errors.js';
import { param } from './param.js';

/** A string; numbers and booleans are taken as their text. */
export function str(opts: { maxLength?: number; pattern?: RegExp; patternRule?: string } = {}) {
  const max = opts.maxLength ?? 1000;
  return param({ type: 'string', maxLength: max }, (raw, name) => {
    if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
    if (typeof raw !== 'string') throw invalidParam(name, 'must be a string.');
    const s = raw.trim();
    if (s.length > max) throw invalidParam(name, `must be at most ${max} characters.`);
    if (opts.pattern && !opts.pattern.test(s)) throw invalidParam(name, opts.patternRule ?? 'is not valid.');
    return s;
  });
}

/** A number (a numeric string is accepted). Bounds are inclusive unless `exclusiveMin`. */
export function num(opts: { min?: number; max?: number; exclusiveMin?: boolean; integer?: boolean } = {}) {
  const { min, max, exclusiveMin, integer } = opts;
  const kind = integer ? 'an integer' : 'a number';
  const rule =
    min !== undefined && max !== undefined
      ? `must be ${kind} between ${min} and ${max}.`
      : min !== undefined
        ? `must be ${kind} ${exclusiveMin ? 'greater than' : 'of at least'} ${min}.`
        : max !== undefined
          ? `must be ${kind} of at most ${max}.`
          : `must be ${kind}.`;
  const schema = { type: integer ? 'integer' : 'number', minimum: min, maximum: max, exclusiveMinimum: exclusiveMin };
  return param(schema, (raw, name) => {
    const n = toNumber(raw);
    if (n === null || (integer && !Number.isInteger(n))) throw invalidParam(name, rule);
    if (min !== undefined && (exclusiveMin ? n <= min : n < min)) throw invalidParam(name, rule);
    if (max !== undefined && n > max) throw invalidParam(name, rule);
    return n;
  });
}

/** A boolean: true/false, "true"/"false", 1/0 (iOS sends booleans as numbers in some bodies). */
export function bool() {
  return param({ type: 'boolean' }, (raw, name) => {
    const b = toBoolean(raw);
    if (b === null) throw invalidParam(name, 'must be a boolean (true or false).');
    return b;
  });
}

/** One of a fixed set of strings; `caseInsensitive` maps `IOS` to `iOS`. */
export function oneOf<T extends string>(values: readonly T[], opts: { caseInsensitive?: boolean } = {}) {
  return param({ type: 'string', enum: values }, (raw, name): T => {
    if (typeof raw !== 'string') throw invalidParam(name, `must be one of ${values.join(', ')}.`);
    const s = raw.trim();
    const hit = values.find((v) => v === s || (opts.caseInsensitive && v.toLowerCase() === s.toLowerCase()));
    if (!hit) throw invalidParam(name, `must be one of ${values.join(', ')}.`);
    return hit;
  });
}

/**
 * A datetime as epoch milliseconds: any ISO 8601 form (also `+0000` offsets as iOS writes them) or a
 * plain date, which means midnight UTC.
 */
export function datetime() {
  return param({ type: 'string', format: 'date-time' }, (raw, name) => {
    const ms = toEpochMs(raw);
    if (ms === null) throw invalidParam(name, 'must be an ISO 8601 datetime or date, e.g. 2026-11-21T17:31:18.454Z.');
    return ms;
  });
}

export function toNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && raw.trim() !== '') {
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toBoolean(raw: unknown): boolean | null {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    const s = raw.trim().toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  return null;
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

export function toEpochMs(raw: unknown): number | null {
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (!ISO_LIKE.test(s) || !isCalendarDate(s)) return null;
  // Date.parse does not read "+0000" offsets without a colon, nor a date-time without a zone as UTC.
  let normal = s.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/i.test(normal)) normal += 'Z';
  const ms = Date.parse(normal);
  return Number.isFinite(ms) ? ms : null;
}

/** Date.parse rolls impossible days over (2026-02-30 reads as March 2), so the day is checked here. */
function isCalendarDate(s: string): boolean {
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
