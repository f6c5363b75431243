import type { GeofenceMembership } from '../users/user.js';
import { isGeofenceEnabled, isGeofenceLive } from './geofence.js';
import { containsPoint, type PreparedGeofence, signedBoundaryDistanceMeters } from './prepared-geofence.js';

/** One location update of one user, as geofence detection needs it (the change record). */
export interface LocationChange {
  /** Epoch ms of this update (its updatedAt). */
  at: number;
  /** `[lon, lat]` in degrees. */
  location: [number, number];
  accuracyMeters: number;
  stopped: boolean;
  /** The track's userId, for userId-restricted fences. */
  appUserId: string | null;
  /** The user's fences before this update. */
  memberships: GeofenceMembership[];
}

export type GeofenceConfidence = 1 | 2 | 3;

/** What an update changed. Emit `exited` before `entered`; each list is sorted by geofence id. */
export interface GeofenceTransitions {
  entered: Array<{ geofence: PreparedGeofence; confidence: GeofenceConfidence }>;
  exited: Array<{ geofence: PreparedGeofence; confidence: GeofenceConfidence; durationMinutes: number }>;
  dwelled: Array<{ geofence: PreparedGeofence; confidence: GeofenceConfidence; durationMinutes: number }>;
  /** The new state to persist, sorted by geofenceId. */
  memberships: GeofenceMembership[];
  /** Fences the user is in after this update (exactly those of `memberships`), for user.geofences. */
  inside: PreparedGeofence[];
}

// Fixes worse than this still get a 100 m band: a 2 km cell-tower fix must not pin a user in a fence.
const MAX_JITTER_METERS = 100;
const MINUTE_MS = 60_000;

/**
 * Geofence transitions of one update: a pure function of the change record, the candidate fences
 * at the point (a superset of the fences containing it, e.g. `GeofenceIndex.candidatesAt`), a lookup
 * for the fences of current memberships, and `now` (epoch ms) for enabled/deleted checks.
 *
 * - A fence deleted (`deleteAfter` <= now), disabled (`enabled` false or `disableAfter` <= now),
 *   missing from `lookup`, or restricted to another `userId` yields no event; a membership in it is
 *   dropped silently.
 * - Entry: the point is inside (boundary included) and the user is not a member; a fence with
 *   `stopDetection` waits for a `stopped` update. Entry never dwells on the same update.
 * - Exit: a member whose point is outside by more than min(accuracy, 100) m; within that band the
 *   user stays a member with no event. `durationMinutes` = (at - enteredAt) / 60000, at least 0.
 * - Dwell: once per stay, on the first update at least `dwellThreshold` minutes after entry.
 * - Confidence: 1 when the accuracy radius exceeds the fence's size; else 3 when the accuracy
 *   circle lies wholly on the event's side of the boundary (inside for entry/dwell, outside for
 *   exit), else 2. A non-finite or negative accuracy counts as 0 m.
 */
export function detectTransitions(
  change: LocationChange,
  candidates: PreparedGeofence[],
  lookup: (id: string) => PreparedGeofence | undefined,
  now: number,
): GeofenceTransitions {
  const [lon, lat] = change.location;
  const accuracy = Number.isFinite(change.accuracyMeters) && change.accuracyMeters > 0 ? change.accuracyMeters : 0;
  const band = Math.min(accuracy, MAX_JITTER_METERS);
  const out: GeofenceTransitions = { entered: [], exited: [], dwelled: [], memberships: [], inside: [] };
  const seen = new Set<string>();
  for (const m of change.memberships) {
    if (seen.has(m.geofenceId)) continue;
    seen.add(m.geofenceId);
    const pg = lookup(m.geofenceId);
    if (pg === undefined || !isApplicable(pg, change.appUserId, now)) continue;
    // A member still inside stays, and needs its distance to the boundary only for a dwell's
    // confidence: the distance walks every edge of a polygon, the containment test far fewer.
    const inside = containsPoint(pg, lon, lat);
    const signed = inside ? undefined : signedBoundaryDistanceMeters(pg, lon, lat, false);
    const durationMinutes = Math.max(0, change.at - m.enteredAt) / MINUTE_MS;
    if (signed !== undefined && signed < -band) {
      out.exited.push({ geofence: pg, confidence: confidenceOf(pg, -signed, accuracy), durationMinutes });
      continue;
    }
    const threshold = pg.geofence.dwellThreshold;
    const dwellsNow = !m.dwelled && threshold !== null && change.at - m.enteredAt >= threshold * MINUTE_MS;
    if (dwellsNow) {
      const confidence = confidenceOf(pg, signed ?? signedBoundaryDistanceMeters(pg, lon, lat, true), accuracy);
      out.dwelled.push({ geofence: pg, confidence, durationMinutes });
    }
    out.memberships.push(dwellsNow ? { ...m, dwelled: true } : m);
    out.inside.push(pg);
  }
  for (const pg of candidates) {
    // Shape first: most candidates only share a box with the point, and the shape test reads the
    // prepared object alone, while the checks below reach into the Geofence record elsewhere in memory.
    if (!containsPoint(pg, lon, lat)) continue;
    const id = pg.geofence.id;
    if (seen.has(id)) continue;
    seen.add(id);
    if (!isApplicable(pg, change.appUserId, now)) continue;
    if (pg.geofence.stopDetection === true && !change.stopped) continue;
    const confidence = confidenceOf(pg, signedBoundaryDistanceMeters(pg, lon, lat, true), accuracy);
    out.entered.push({ geofence: pg, confidence });
    out.memberships.push({ geofenceId: id, enteredAt: change.at, dwelled: false });
    out.inside.push(pg);
  }
  sortShort(out.entered, byFenceId);
  sortShort(out.exited, byFenceId);
  sortShort(out.dwelled, byFenceId);
  sortShort(out.memberships, byMembershipId);
  sortShort(out.inside, byPreparedId);
  return out;
}

/** Live, enabled, and either unrestricted or restricted to this app user. */
function isApplicable({ geofence: g }: PreparedGeofence, appUserId: string | null, now: number): boolean {
  return isGeofenceLive(g, now) && isGeofenceEnabled(g, now) && (g.userId === null || g.userId === appUserId);
}

/** 1 when the fix is coarser than the fence; else 3 when its circle lies wholly on the event's side. */
function confidenceOf(pg: PreparedGeofence, metersOnEventSide: number, accuracy: number): GeofenceConfidence {
  if (accuracy > pg.sizeMeters) return 1;
  return metersOnEventSide >= accuracy ? 3 : 2;
}

const byFenceId = (a: { geofence: PreparedGeofence }, b: { geofence: PreparedGeofence }) =>
  compareIds(a.geofence.geofence.id, b.geofence.geofence.id);
const byMembershipId = (a: GeofenceMembership, b: GeofenceMembership) => compareIds(a.geofenceId, b.geofenceId);
const byPreparedId = (a: PreparedGeofence, b: PreparedGeofence) => compareIds(a.geofence.id, b.geofence.id);

// Longer lists go to Array.prototype.sort.
const SHORT = 16;

/**
 * Sorts in place, stably, as `list.sort(compare)` does. V8's sort allocates its state and a copy of
 * any list of two or more, and a track sorts five lists of a few fences each: 3.4% of the bytes a
 * new-device track allocated (2026-11-29 allocation profile), each a little more for the scavenges
 * that pause the event loop. Memberships arrive sorted but for the fences entered, so insertion
 * sort moves few items.
 */
function sortShort<T>(list: T[], compare: (a: T, b: T) => number): void {
  if (list.length > SHORT) {
    list.sort(compare);
    return;
  }
  for (let i = 1; i < list.length; i++) {
    const item = list[i]!;
    let j = i - 1;
    for (; j >= 0 && compare(list[j]!, item) > 0; j--) list[j + 1] = list[j]!;
    list[j + 1] = item;
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
