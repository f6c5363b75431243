import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { LocationEvent } from '../events/event.js';
import { updateEvent } from '../events/update-event.js';
import type { BeaconStore } from '../ports/beacon-store.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import type { Beacon } from './beacon.js';
import { parseRangedBeacons, type RangedBeacon, rangeConfidence } from './ranged-beacons.js';

/** A beacon the user is in range of, as kept in `user.state.beacons`. */
interface InRange {
  id: string;
  enteredAt: number;
  confidence: 1 | 2 | 3;
  /** The beacon in wire shape, as at entry (for `user.beacons` and the exit event). */
  beacon: Record<string, unknown>;
}

/**
 * The radius the SDKs sync beacons within (`GET /v1/search/beacons`): a device farther than this
 * (plus its fix's accuracy) from a beacon cannot be ranging it, whatever its track says.
 */
export const BEACON_SYNC_RADIUS_METERS = 1000;

/**
 * Beacon events: a track carrying `beacons` (what the device ranged) enters each registered, enabled
 * beacon newly in it and exits each beacon no longer in it (`duration` in minutes). A track without
 * `beacons` says nothing of what was ranged, but a fix farther from an entered beacon than the sync
 * radius plus its accuracy exits it all the same: the device left without ranging again (its beacon
 * list went stale, or ranging stopped). Disabled or deleted beacons produce no events, entering or
 * leaving. Store reads happen only for tracks that carry beacons or leave a beacon that way.
 */
export class BeaconsTracker implements TrackParticipant {
  readonly name = 'beacons';

  constructor(
    private readonly beacons: BeaconStore,
    private readonly snapshot: (b: Beacon) => Record<string, unknown>,
  ) {}

  /** At once for a track that ranged nothing (most do): only ranged beacons need the store. */
  onTrack(u: TrackUpdate): TrackContribution | Promise<TrackContribution> {
    const before = inRange(u.user.state.beacons);
    const ranged = parseRangedBeacons(u.body.beacons);
    if (ranged) return this.ranged(u, before, ranged);
    if (before.length === 0) return { events: [] };
    const reach = BEACON_SYNC_RADIUS_METERS + u.accuracyMeters;
    const left = before.filter((b) => {
      const at = beaconPosition(b.beacon);
      return at !== null && distanceMeters(at, u.location) > reach;
    });
    if (left.length === 0) return { events: [], userFields: { beacons: before.map((b) => b.beacon) } };
    return this.leftBehind(u, before, left);
  }

  /** Exits the beacons the user is now out of reach of; keeps the others. */
  private async leftBehind(u: TrackUpdate, before: InRange[], left: InRange[]): Promise<TrackContribution> {
    const events: LocationEvent[] = [];
    for (const b of left) {
      const current = await this.beacons.get(u.tenant, b.id);
      if (current?.enabled) events.push(exitEvent(u, b));
    }
    const next = before.filter((b) => !left.includes(b));
    return { events, userFields: { beacons: next.map((b) => b.beacon) }, state: { beacons: next } };
  }

  private async ranged(u: TrackUpdate, before: InRange[], ranged: RangedBeacon[]): Promise<TrackContribution> {
    const seen = await this.resolve(u, ranged);
    const events: LocationEvent[] = [];
    const next: InRange[] = [];
    for (const b of before) {
      if (seen.has(b.id)) {
        next.push(b);
        continue;
      }
      const current = await this.beacons.get(u.tenant, b.id);
      if (current?.enabled) events.push(exitEvent(u, b));
    }
    for (const [id, { beacon, confidence }] of seen) {
      if (before.some((b) => b.id === id)) continue;
      const snapshot = this.snapshot(beacon);
      events.push(updateEvent(u, 'user.entered_beacon', confidence, { beacon: snapshot }));
      next.push({ id, enteredAt: u.at, confidence, beacon: snapshot });
    }
    return { events, userFields: { beacons: next.map((b) => b.beacon) }, state: { beacons: next } };
  }

  /** The registered, enabled beacons among those ranged, by id, with the best confidence seen. */
  private async resolve(u: TrackUpdate, ranged: RangedBeacon[]) {
    const out = new Map<string, { beacon: Beacon; confidence: 1 | 2 | 3 }>();
    const asked = new Set<string>();
    for (const r of ranged) {
      const key = `${r.uuid}|${r.major}|${r.minor}`;
      if (asked.has(key)) continue;
      asked.add(key);
      const beacon = await this.beacons.getByIdentifiers(u.tenant, r.uuid, r.major, r.minor);
      if (!beacon?.enabled) continue;
      const confidence = Math.max(
        rangeConfidence(r),
        ...ranged.filter((x) => `${x.uuid}|${x.major}|${x.minor}` === key).map(rangeConfidence),
      ) as 1 | 2 | 3;
      out.set(beacon.id, { beacon, confidence });
    }
    return out;
  }
}

function exitEvent(u: TrackUpdate, b: InRange): LocationEvent {
  return updateEvent(u, 'user.exited_beacon', b.confidence, { beacon: b.beacon }, (u.at - b.enteredAt) / 60_000);
}

/** `[lon, lat]` of a beacon snapshot's `geometry` (a GeoJSON Point), or null when it has none. */
function beaconPosition(snapshot: Record<string, unknown>): Position | null {
  const c = (snapshot.geometry as { coordinates?: unknown } | null | undefined)?.coordinates;
  return Array.isArray(c) && typeof c[0] === 'number' && typeof c[1] === 'number' ? [c[0], c[1]] : null;
}

function inRange(raw: unknown): InRange[] {
  return Array.isArray(raw) ? (raw as InRange[]).filter((b) => b && typeof b.id === 'string') : [];
}
