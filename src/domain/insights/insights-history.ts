import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { LocalTime } from './local-time.js';

/**
 * The compact history Insights keeps per user (in `user.state.insights.spots`): the places where the
 * user was stopped, each with the distinct local days that put it forward as home (overnight) or office
 * (weekday working hours). Bounded: at most MAX_SPOTS spots of at most MAX_DAYS days per kind, so one
 * update costs a scan of a few dozen numbers whatever the user's age.
 */
export interface Spot {
  /** Running mean of the stopped fixes that joined the spot, `[lon, lat]`. */
  lon: number;
  lat: number;
  /** Fixes in the mean (capped, so an old spot still follows a slowly corrected position). */
  n: number;
  /** Distinct local days (days since epoch) with an overnight stop here, the night named by its evening. */
  nights: number[];
  /** Distinct local weekdays with a stop here during working hours. */
  workdays: number[];
  /** Last stopped fix here, epoch ms. */
  last: number;
}

/** A stopped fix joins the nearest spot within this distance; farther, it starts a new spot. */
export const SPOT_RADIUS_METERS = 150;
export const MAX_SPOTS = 24;
export const MAX_DAYS = 14;
const MAX_MEAN_WEIGHT = 50;
/** Overnight: 22:00 to 05:59 local. */
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 6;
/** Working hours: Monday to Friday, 09:00 to 16:59 local. */
export const WORK_START_HOUR = 9;
export const WORK_END_HOUR = 17;
/** Fixes less accurate than this say too little about where the user sleeps or works. */
export const MAX_ACCURACY_METERS = 200;

/** Which insight a stopped fix at this local time supports, if any. */
export function supportOf(t: LocalTime): { kind: 'nights' | 'workdays'; day: number } | null {
  if (t.hour >= NIGHT_START_HOUR) return { kind: 'nights', day: t.day };
  if (t.hour < NIGHT_END_HOUR) return { kind: 'nights', day: t.day - 1 };
  const weekday = t.weekday >= 1 && t.weekday <= 5;
  if (weekday && t.hour >= WORK_START_HOUR && t.hour < WORK_END_HOUR) return { kind: 'workdays', day: t.day };
  return null;
}

/**
 * The spots after one stopped fix, and whether a day set changed (home and office need inferring
 * again). Copy on write: only the spot the fix joins is copied, the others are shared with `spots`.
 * `keep(spot)` says which spots eviction must spare (the current home and office); asked only when
 * a new spot overflows MAX_SPOTS.
 */
export function addStop(
  spots: readonly Spot[],
  p: Position,
  at: number,
  t: LocalTime,
  keep: (s: Spot) => boolean = () => false,
): { spots: Spot[]; changed: boolean } {
  let index = -1;
  let bestDistance = SPOT_RADIUS_METERS;
  for (let i = 0; i < spots.length; i++) {
    const s = spots[i]!;
    const d = distanceMeters([s.lon, s.lat], p);
    if (d <= bestDistance) {
      index = i;
      bestDistance = d;
    }
  }
  const out = spots.slice();
  const base = index >= 0 ? spots[index]! : { lon: p[0], lat: p[1], n: 0, nights: [], workdays: [], last: at };
  const n = Math.min(base.n + 1, MAX_MEAN_WEIGHT);
  const spot: Spot = {
    ...base,
    n,
    lon: base.lon + (p[0] - base.lon) / n,
    lat: base.lat + (p[1] - base.lat) / n,
    last: at,
  };
  if (index >= 0) out[index] = spot;
  else {
    out.push(spot);
    if (out.length > MAX_SPOTS) evict(out, (s) => s === spot || keep(s));
  }
  const support = supportOf(t);
  if (!support || spot[support.kind].includes(support.day)) return { spots: out, changed: false };
  const days = [...spot[support.kind], support.day].sort((a, b) => a - b);
  if (days.length > MAX_DAYS) days.shift();
  spot[support.kind] = days;
  return { spots: out, changed: true };
}

/** Drops the least supported spot (then the longest unseen) that is not kept. */
function evict(spots: Spot[], keep: (s: Spot) => boolean): void {
  let worst = -1;
  for (let i = 0; i < spots.length; i++) {
    const s = spots[i]!;
    if (keep(s)) continue;
    const w = spots[worst];
    const score = s.nights.length + s.workdays.length;
    const worstScore = w ? w.nights.length + w.workdays.length : Number.POSITIVE_INFINITY;
    if (score < worstScore || (score === worstScore && w && s.last < w.last)) worst = i;
  }
  if (worst >= 0) spots.splice(worst, 1);
}

/** Distinct supporting days needed for an inference, and for each confidence. */
export const MIN_DAYS = 2;
export function confidenceOf(days: number): 1 | 2 | 3 {
  return days >= 5 ? 3 : days >= 3 ? 2 : 1;
}

/** An office closer than this to home is the same place: working from home gives no office. */
export const MIN_HOME_OFFICE_METERS = 300;

/**
 * Home: the spot with the most distinct overnight days (at least MIN_DAYS; ties to the most recent).
 * Office: the spot, away from home, with the most distinct working days (at least MIN_DAYS).
 */
export function inferAnchors(spots: readonly Spot[]): { home: Spot | null; office: Spot | null } {
  const home = most(spots, 'nights', () => true);
  const office = most(
    spots,
    'workdays',
    (s) => !home || distanceMeters([s.lon, s.lat], [home.lon, home.lat]) >= MIN_HOME_OFFICE_METERS,
  );
  return { home, office };
}

function most(spots: readonly Spot[], kind: 'nights' | 'workdays', ok: (s: Spot) => boolean): Spot | null {
  let best: Spot | null = null;
  for (const s of spots) {
    if (s[kind].length < MIN_DAYS || !ok(s)) continue;
    if (!best || s[kind].length > best[kind].length || (s[kind].length === best[kind].length && s.last > best.last))
      best = s;
  }
  return best;
}
