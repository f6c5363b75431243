import type { Position } from '../../geo/types.js';
import type { Router } from '../../routing/router.js';
import type { Clock } from '../clock.js';
import type { Destination } from '../destinations/destination.js';
import type { LocationEvent } from '../events/event.js';
import type { GeofenceStore } from '../ports/geofence-store.js';
import type { TrackUnit } from '../ports/track-unit.js';
import type { TripStore, TripWrite } from '../ports/trip-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import { deliveriesFor, type Webhook } from '../webhooks/webhook.js';
import { isTripActive, isTripStale, type Trip, type TripOptions } from './trip.js';
import { type EventOrigin, legChangeEvents, tripEvents } from './trip-events.js';
import { expiredTrip, startedTrip, type TripOwner, withStatus } from './trip-lifecycle.js';
import { type FenceByTag, TripNavigator } from './trip-navigator.js';

/** Who asks, and the project's expiry window (minutes without an update before a trip expires). */
export interface TripContext {
  tenant: Tenant;
  expiryMinutes: number;
  /** The project's webhooks: events of API changes owe them deliveries (a track's own are the track's). */
  webhooks?: readonly Webhook[];
  /** The project's destinations, likewise. */
  destinations?: readonly Destination[];
  /** Set when a track makes the change: trip writes and locks then join that track's transaction. */
  unit?: TrackUnit;
}

export interface TripDeps {
  trips: TripStore;
  users: UserStore;
  geofences: GeofenceStore;
  router: Router;
  /**
   * Where each track finds its trip's destination fence: the in-memory geofence index, so that an
   * ETA costs no store read. Without it, or when it answers null, the store (`geofences`) is read;
   * API checks always read the store.
   */
  fenceByTag?: FenceByTag;
  clock: Clock;
  /**
   * The point of an address, for trip legs that go to one (the reference pack's forward geocoder);
   * null when unknown. Without it address legs have no point.
   */
  locate?: (address: string) => Position | null;
  /** The trip in wire shape, for `user.trip` and event snapshots (the HTTP presenter, injected). */
  snapshot: (trip: Trip) => Record<string, unknown>;
}

/** A trip after a change, with the events the change produced. */
export interface TripChange {
  trip: Trip;
  events: LocationEvent[];
}

/**
 * The trip engine shared by the API (`TripService`) and the track participant (`TripTracker`): starting,
 * stopping, expiring, and the per-trip lock every read-modify-write of a trip takes.
 */
export class TripEngine {
  readonly navigator: TripNavigator;
  constructor(readonly deps: TripDeps) {
    this.navigator = new TripNavigator(deps.geofences, deps.router, deps.fenceByTag);
  }

  /**
   * Runs `fn` holding the lock of one trip (by externalId, which names it from before it exists): the
   * store's (`TripStore.exclusive`), which a track's change holds until the track commits.
   */
  locked<T>(ctx: Pick<TripContext, 'tenant' | 'unit'>, externalId: string, fn: () => Promise<T>): Promise<T> {
    return this.deps.trips.exclusive(ctx.tenant, externalId, fn, ctx.unit);
  }

  /** The trip, expired first when its window has passed (lazily: nothing runs in the background). */
  async fresh(ctx: TripContext, trip: Trip): Promise<Trip> {
    const now = this.deps.clock.now();
    if (!isTripStale(trip, now, ctx.expiryMinutes)) return trip;
    // A conditional update, not a save of `trip`: a track that just moved the trip on must not be undone.
    await this.deps.trips.expireStale(ctx.tenant, now - ctx.expiryMinutes * 60_000);
    return (await this.deps.trips.get(ctx.tenant, trip.id)) ?? expiredTrip(trip);
  }

  /** The owner's active trip: the user's own, else one waiting for its app ids; expired ones are not. */
  async currentTrip(ctx: TripContext, owner: TripOwner): Promise<Trip | null> {
    const trip = await this.deps.trips.activeFor(ctx.tenant, owner);
    if (!trip) return null;
    const current = await this.fresh(ctx, trip);
    return current.status === 'expired' ? null : current;
  }

  /**
   * Starts a trip for `owner` with ETA from `from` (`[lon, lat]`, when known). A user makes one trip
   * at a time: a different trip in progress is canceled first. A trip with the same externalId is
   * restarted in place (same `_id`, new options, its tracked points dropped).
   */
  async start(
    ctx: TripContext,
    owner: TripOwner,
    options: TripOptions,
    origin: EventOrigin | null,
    from: Position | null,
  ): Promise<TripChange> {
    const events: LocationEvent[] = [];
    const current = await this.currentTrip(ctx, owner);
    if (current && current.externalId !== options.externalId) events.push(...(await this.cancel(ctx, current, origin)));
    const started = await this.locked(ctx, options.externalId, async () => {
      const now = this.deps.clock.now();
      const existing = await this.deps.trips.getByExternalId(ctx.tenant, options.externalId);
      const trip = await this.navigator.withEta(
        ctx.tenant,
        startedTrip(ctx.tenant, owner, options, now, existing, this.deps.locate),
        from,
        now,
      );
      // A multi-destination trip starts its first leg too.
      const first = trip.legs?.[0];
      const made = legChangeEvents(
        [{ type: 'user.started_trip' }, ...(first ? [{ type: 'user.started_trip_leg', leg: first }] : [])],
        trip,
        this.deps.snapshot,
        origin,
      );
      await this.deps.trips.save(
        trip,
        { resetLocations: existing !== null, ...this.stored(ctx, made, origin) },
        ctx.unit,
      );
      return { trip, events: made };
    });
    return { trip: started.trip, events: [...events, ...started.events] };
  }

  /** Events to store with a trip write, and their deliveries: those of API changes (a track stores its own). */
  stored(
    ctx: Pick<TripContext, 'webhooks' | 'destinations'>,
    events: LocationEvent[],
    origin: EventOrigin | null,
  ): Pick<TripWrite, 'events' | 'deliveries'> {
    if (!origin || origin.byTrack) return {};
    return { events, deliveries: deliveriesFor(ctx, events, this.deps.clock.now()) };
  }

  /** Cancels a trip in progress because its user starts another. */
  async cancel(ctx: TripContext, trip: Trip, origin: EventOrigin | null): Promise<LocationEvent[]> {
    return this.locked(ctx, trip.externalId, async () => {
      const latest = await this.deps.trips.get(ctx.tenant, trip.id);
      if (!latest || !isTripActive(latest)) return [];
      const { trip: stopped, event } = withStatus(latest, 'canceled', this.deps.clock.now());
      const made = tripEvents(event ? [event] : [], this.deps.snapshot(stopped), origin);
      await this.deps.trips.save(stopped, this.stored(ctx, made, origin), ctx.unit);
      return made;
    });
  }
}
