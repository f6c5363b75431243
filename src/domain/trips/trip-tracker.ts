import { distanceMeters } from '../../geo/distance-meters.js';
import type { EventType, LocationEvent } from '../events/event.js';
import type { TrackContribution, TrackParticipant, TrackUpdate } from '../tracking/track-participant.js';
import { hasDestination, hasLegs, isTripActive, type Trip, type TripOptions } from './trip.js';
import type { TripChange, TripContext, TripEngine } from './trip-engine.js';
import { type EventOrigin, legChangeEvents, tripEvents } from './trip-events.js';
import { DEFAULT_ARRIVAL_RADIUS_METERS } from './trip-leg.js';
import { advancedLegs, currentLeg } from './trip-legs.js';
import { advancedTrip, ownerOf, withOptions } from './trip-lifecycle.js';

/** Reads track's `tripOptions` (null when absent); throws an invalid `DomainError` on a bad value. */
export type TripOptionsReader = (raw: unknown) => TripOptions | null;

/**
 * The trips step of every track: starts a trip from `tripOptions`, then moves the user's active trip
 * on with the update (path, ETA, approaching, arrived) and answers `user.trip` while it is active,
 * because the mobile SDKs end their trip when `user.trip` is missing.
 */
export class TripTracker implements TrackParticipant {
  readonly name = 'trips';

  constructor(
    private readonly engine: TripEngine,
    private readonly readOptions: TripOptionsReader,
  ) {}

  /**
   * `tripOptions` start a trip only when no trip has that externalId yet. The SDKs resend the
   * options of the trip in progress on every track, so for that trip they update it; for a trip that
   * was stopped or expired they are a stale copy and are ignored (the response then has no
   * `user.trip` and the SDK ends its trip). Restarting a trip is `POST /v1/trips` or PATCH.
   */
  async onTrack(update: TrackUpdate): Promise<TrackContribution> {
    const options = this.readOptions(update.body.tripOptions);
    const ctx: TripContext = {
      tenant: update.tenant,
      expiryMinutes: update.project.tripExpiryMinutes,
      unit: update.unit,
    };
    const origin: EventOrigin = {
      user: update.user,
      location: update.location,
      accuracyMeters: update.accuracyMeters,
      at: update.at,
      now: update.now,
      replayed: update.replayed,
      byTrack: true,
    };
    const events: LocationEvent[] = [];
    let trip = await this.engine.currentTrip(ctx, ownerOf(update.user));
    let resent = options && trip?.externalId === options.externalId ? options : undefined;
    let started: Trip | undefined;
    if (options && !resent && !(await this.engine.deps.trips.getByExternalId(ctx.tenant, options.externalId))) {
      const start = await this.engine.start(ctx, ownerOf(update.user), options, origin, update.location);
      events.push(...start.events);
      trip = started = start.trip;
      resent = undefined;
    }
    if (!trip) return { events };
    const moved = await this.follow(ctx, trip, update, origin, resent, started);
    events.push(...moved.events);
    return isTripActive(moved.trip)
      ? { events, userFields: { trip: this.engine.deps.snapshot(moved.trip) } }
      : { events };
  }

  /**
   * Claims a waiting trip, applies resent options, then appends the point and advances the status.
   * `started`: the trip this track has just started, which is the latest (its write commits with the
   * track, so the store does not have it yet, and its lock is still this track's).
   */
  private follow(
    ctx: TripContext,
    trip: Trip,
    update: TrackUpdate,
    origin: EventOrigin,
    options: TripOptions | undefined,
    started: Trip | undefined,
  ): Promise<TripChange> {
    const { deps, navigator } = this.engine;
    return this.engine.locked(ctx, trip.externalId, async () => {
      const latest = started ?? (await deps.trips.get(ctx.tenant, trip.id));
      const mine = latest && (latest.userPk === null || latest.userPk === update.user.id);
      if (!latest || !mine || !isTripActive(latest)) return { trip: latest ?? trip, events: [] };
      const types: EventType[] = latest.userPk === null ? ['user.started_trip'] : [];
      let next: Trip = {
        ...latest,
        userPk: update.user.id,
        userId: update.user.userId,
        deviceId: update.user.deviceId,
      };
      if (options) {
        const changed = withOptions(next, options);
        next = changed.trip;
        if (changed.changed) types.push('user.updated_trip');
      }
      next = await navigator.withEta(ctx.tenant, next, update.location, update.now);
      if (hasLegs(next)) {
        const legs = advancedLegs(next, {
          eta: next.eta,
          atDestination: isAtLegDestination(next, update),
          at: update.at,
        });
        next = legs.trip;
        // A leg started by this update gets its ETA now, not one update late.
        if (next.currentLegId !== latest.currentLegId && isTripActive(next))
          next = await navigator.withEta(ctx.tenant, next, update.location, update.now);
        next = { ...next, updatedAt: update.now };
        await deps.trips.save(next, { location: { coordinates: update.location, updatedAt: update.at } }, ctx.unit);
        const made = [
          ...tripEvents(types, deps.snapshot(next), origin),
          ...legChangeEvents(legs.events, next, deps.snapshot, origin),
        ];
        return { trip: next, events: types.length + legs.events.length > 0 ? made : [] };
      }
      const advanced = advancedTrip(next, {
        eta: next.eta,
        atDestination: isAtDestination(next, update),
        now: update.at,
      });
      next = { ...advanced.trip, updatedAt: update.now };
      types.push(...advanced.events);
      await deps.trips.save(next, { location: { coordinates: update.location, updatedAt: update.at } }, ctx.unit);
      // Most updates change nothing a trip event reports: no snapshot for them (user.trip makes its own).
      return { trip: next, events: types.length > 0 ? tripEvents(types, deps.snapshot(next), origin) : [] };
    });
  }
}

/** Whether the update has the user in the trip's destination geofence (by tag and externalId). */
function isAtDestination(trip: Trip, update: TrackUpdate): boolean {
  if (!hasDestination(trip)) return false;
  const matches = (g: { tag: string | null; externalId: string | null }) =>
    g.tag === trip.destinationGeofenceTag && g.externalId === trip.destinationGeofenceExternalId;
  return update.enteredGeofences.some(matches) || update.insideGeofences.some(matches);
}

/**
 * Whether the update has the user at the current leg's destination: in its geofence (by `_id`, or tag
 * and externalId), or within its arrival radius of a point (coordinates, or a located address).
 */
function isAtLegDestination(trip: Trip, update: TrackUpdate): boolean {
  const leg = currentLeg(trip);
  if (!leg) return false;
  const d = leg.destination;
  if (d.type === 'geofence') {
    const matches = (g: { id: string; tag: string | null; externalId: string | null }) =>
      d.geofenceId !== null ? g.id === d.geofenceId : g.tag === d.geofenceTag && g.externalId === d.geofenceExternalId;
    return update.enteredGeofences.some(matches) || update.insideGeofences.some(matches);
  }
  if (!d.location) return false;
  return distanceMeters(update.location, d.location) <= (d.arrivalRadius ?? DEFAULT_ARRIVAL_RADIUS_METERS);
}
