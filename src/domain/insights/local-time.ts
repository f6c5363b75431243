import tzLookup from '@photostructure/tz-lookup';
import type { Position } from '../../geo/types.js';

/** A moment as a user at some place reads it on their wall clock. */
export interface LocalTime {
  /** 0-23. */
  hour: number;
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
  /** Days since 1970-01-01 of the local calendar date: a compact, comparable day id. */
  day: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The IANA time zone at a point (offline polygons: about a microsecond, no I/O). */
export function timeZoneAt([lon, lat]: Position): string {
  try {
    return tzLookup(lat, lon);
  } catch {
    return 'UTC';
  }
}

/** The local wall-clock time at `position` of the instant `ms` (epoch ms), DST included. */
export function localTimeAt(position: Position, ms: number): LocalTime {
  const localMs = ms + utcOffsetMs(timeZoneAt(position), ms);
  const d = new Date(localMs);
  return { hour: d.getUTCHours(), weekday: d.getUTCDay(), day: Math.floor(localMs / DAY_MS) };
}

// Offsets change only on the hour (or half hour) in every zone: one Intl call per zone and UTC hour.
const offsets = new Map<string, number>();
const HOUR_MS = 3_600_000;

/** Milliseconds to add to UTC to read the zone's wall clock at `ms`. */
function utcOffsetMs(zone: string, ms: number): number {
  const key = `${zone}|${Math.floor(ms / (HOUR_MS / 2))}`;
  const hit = offsets.get(key);
  if (hit !== undefined) return hit;
  if (offsets.size > 50_000) offsets.clear();
  const offset = intlOffsetMs(zone, ms);
  offsets.set(key, offset);
  return offset;
}

function intlOffsetMs(zone: string, ms: number): number {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
  return wall - Math.floor(ms / 60_000) * 60_000;
}
