import { invalidParam, notFound } from '../errors.js';
import type { EventType } from '../events/event.js';
import type { Page } from '../pagination.js';
import type { TripListQuery } from '../ports/trip-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import { isTripActive, type SettableTripStatus, type Trip, type TripLocation, type TripOptions } from './trip.js';
import type { TripChange, TripContext, TripEngine } from './trip-engine.js';
import { apiOrigin, legChangeEvents, tripEvents } from './trip-events.js';
import type { SettableLegStatus, TripLeg } from './trip-leg.js';
import { currentLeg, type LegsChange, reorderedLegs, withLegStatus } from './trip-legs.js';
import { ownerOf, withOptions, withStatus } from './trip-lifecycle.js';

/** What `PATCH /v1/trips/<id>` and `.../update` may change. */
export interface TripUpdate {
  options?: Partial<Omit<TripOptions, 'externalId'>>;
  status?: SettableTripStatus | undefined;
}

/**
 * Trips through the API: start, update, read, list. Events of these changes carry the user's last
 * known location and are stored with the trip.
 */
export class TripService {
  constructor(private readonly engine: TripEngine) {}

  /**
   * Starts a trip for the user named by `userId` (else `deviceId`). A user not seen yet gets the
   * trip all the same: it waits for that user's first track, which claims it and emits
   * `user.started_trip` (an event needs a location; the SDKs may start a trip before tracking).
   */
  async start(
    ctx: TripContext,
    who: { userId?: string | undefined; deviceId?: string | undefined },
    options: TripOptions,
  ): Promise<TripChange> {
    const { clock, users } = this.engine.deps;
    const now = clock.now();
    await this.engine.navigator.requireDestination(
      ctx.tenant,
      options.destinationGeofenceTag ?? null,
      options.destinationGeofenceExternalId ?? null,
      now,
    );
    await this.engine.navigator.requireLegDestinations(ctx.tenant, options.legs, now);
    let user: User | null = null;
    if (who.userId !== undefined) user = await users.get(ctx.tenant, who.userId);
    if (!user && who.deviceId !== undefined) user = await users.get(ctx.tenant, who.deviceId);
    const owner = user ? ownerOf(user) : { userPk: null, userId: who.userId ?? null, deviceId: who.deviceId ?? null };
    return this.engine.start(ctx, owner, options, apiOrigin(user, now), user?.location ?? null);
  }

  /**
   * Changes options and/or sets a status (PATCH). Setting an active status on a stopped trip
   * restarts it, canceling whatever other trip its user has in progress.
   */
  async update(ctx: TripContext, id: string, param: string, change: TripUpdate): Promise<TripChange> {
    const { deps, navigator } = this.engine;
    const found = await this.find(ctx.tenant, id, param);
    const other: TripChange['events'] = [];
    if (change.status && !isTripActive(found) && isTripActive({ status: change.status })) {
      const current = await this.engine.currentTrip(ctx, found);
      const user = found.userPk !== null ? await deps.users.get(ctx.tenant, found.userPk) : null;
      if (current && current.id !== found.id) {
        // The cancel is written before the lock below: a restart refused for its destination must not make it.
        await this.requireMovedDestination(ctx.tenant, found, change);
        other.push(...(await this.engine.cancel(ctx, current, apiOrigin(user, deps.clock.now()))));
      }
    }
    const changed = await this.engine.locked(ctx, found.externalId, async () => {
      const now = deps.clock.now();
      let trip = await this.engine.fresh(ctx, (await deps.trips.get(ctx.tenant, found.id)) ?? found);
      const user = trip.userPk !== null ? await deps.users.get(ctx.tenant, trip.userPk) : null;
      const types: EventType[] = [];
      if (change.options) {
        const next = withOptions(trip, change.options);
        if (next.changed) {
          if (movesDestination(trip, next.trip)) {
            await navigator.requireDestination(
              ctx.tenant,
              next.trip.destinationGeofenceTag,
              next.trip.destinationGeofenceExternalId,
              now,
            );
          }
          trip = { ...next.trip, updatedAt: now };
          if (next.rerouted) trip = await navigator.withEta(ctx.tenant, trip, user?.location ?? null, now);
          types.push('user.updated_trip');
        }
      }
      if (change.status) {
        const next = withStatus(trip, change.status, now);
        trip = next.trip;
        if (next.event) types.push(next.event);
      }
      const origin = apiOrigin(user, now);
      const events = tripEvents(types, deps.snapshot(trip), origin);
      if (types.length > 0) await deps.trips.save(trip, this.engine.stored(ctx, events, origin));
      return { trip, events };
    });
    return { trip: changed.trip, events: [...other, ...changed.events] };
  }

  /**
   * Sets one leg's status (`PATCH /v1/trips/<tripId>/legs/<legId>`); see `withLegStatus`. The trip
   * must be a multi-destination one and still in progress.
   */
  async updateLeg(
    ctx: TripContext,
    tripId: string,
    legId: string,
    status: SettableLegStatus,
  ): Promise<TripChange & { leg: TripLeg }> {
    const changed = await this.changeLegs(ctx, tripId, legId, (trip, now) => withLegStatus(trip, legId, status, now));
    return { ...changed, leg: changed.trip.legs!.find((l) => l.id === legId)! };
  }

  /**
   * Puts the legs in a new order (`PUT /v1/trips/<tripId>/legs`): `legIds` names every leg once. The
   * leg in progress stays current; the order says which pending leg comes next.
   */
  async reorderLegs(ctx: TripContext, tripId: string, legIds: string[]): Promise<TripChange> {
    return this.changeLegs(ctx, tripId, null, (trip, now) => {
      const known = new Set(trip.legs!.map((l) => l.id));
      const seen = new Set<string>();
      for (const [i, id] of legIds.entries()) {
        if (!known.has(id)) throw invalidParam(`legs[${i}]`, `is not a leg of this trip (${id}).`);
        if (seen.has(id)) throw invalidParam(`legs[${i}]`, `names leg ${id} a second time.`);
        seen.add(id);
      }
      if (seen.size !== known.size) throw invalidParam('legs', `must name every leg of the trip once (${known.size}).`);
      if (legIds.every((id, i) => trip.legs![i]!.id === id)) return { trip, events: [] };
      return { trip: reorderedLegs(trip, legIds, now), events: [{ type: 'user.updated_trip' }] };
    });
  }

  /**
   * A legs change under the trip's lock: the latest trip (by `_id` or externalId), checked to be in
   * progress with legs (and, given `legId`, to have that leg), changed by `change` and saved with its events.
   */
  private async changeLegs(
    ctx: TripContext,
    tripId: string,
    legId: string | null,
    change: (trip: Trip, now: number) => LegsChange,
  ): Promise<TripChange> {
    const { deps, navigator } = this.engine;
    const found = await this.find(ctx.tenant, tripId, 'tripId');
    return this.engine.locked(ctx, found.externalId, async () => {
      const now = deps.clock.now();
      const trip = await this.engine.fresh(ctx, (await deps.trips.get(ctx.tenant, found.id)) ?? found);
      if (!trip.legs?.length) throw notFound('leg', legId === null ? 'tripId' : 'legId');
      if (legId !== null && !trip.legs.some((l) => l.id === legId)) throw notFound('leg', 'legId');
      if (!isTripActive(trip))
        throw invalidParam('tripId', `names a trip that is ${trip.status}; its legs no longer change.`);
      const changed = change(trip, now);
      if (changed.events.length === 0) return { trip, events: [] };
      const user = trip.userPk !== null ? await deps.users.get(ctx.tenant, trip.userPk) : null;
      let next = changed.trip;
      // A leg that became current gets its ETA from the user's last location.
      if (isTripActive(next) && currentLeg(next)?.id !== trip.currentLegId)
        next = await navigator.withEta(ctx.tenant, next, user?.location ?? null, now);
      const origin = apiOrigin(user, now);
      const events = legChangeEvents(changed.events, next, deps.snapshot, origin);
      await deps.trips.save(next, this.engine.stored(ctx, events, origin));
      return { trip: next, events };
    });
  }

  /** By `_id` or `externalId`; an active trip past the project's expiry window reads as expired. */
  async get(ctx: TripContext, id: string, param: string): Promise<Trip> {
    return this.engine.fresh(ctx, await this.find(ctx.tenant, id, param));
  }

  /** Lists trips after expiring the stale ones, so `active` and `status` filters see the truth. */
  async list(ctx: TripContext, query: TripListQuery): Promise<Page<Trip>> {
    const { trips, clock } = this.engine.deps;
    await trips.expireStale(ctx.tenant, clock.now() - ctx.expiryMinutes * 60_000);
    return trips.list(ctx.tenant, query);
  }

  /** Tracked points of each trip, oldest first. */
  locations(tenant: Tenant, trips: Trip[]): Promise<Map<string, TripLocation[]>> {
    return this.engine.deps.trips.locations(
      tenant,
      trips.map((t) => t.id),
    );
  }

  /** The destination an options change would give `trip`, when it differs, must be a live fence. */
  private async requireMovedDestination(tenant: Tenant, trip: Trip, change: TripUpdate): Promise<void> {
    if (!change.options) return;
    const next = withOptions(trip, change.options).trip;
    if (!movesDestination(trip, next)) return;
    await this.engine.navigator.requireDestination(
      tenant,
      next.destinationGeofenceTag,
      next.destinationGeofenceExternalId,
      this.engine.deps.clock.now(),
    );
  }

  private async find(tenant: Tenant, id: string, param: string): Promise<Trip> {
    const trip = await this.engine.deps.trips.get(tenant, id);
    if (!trip) throw notFound('trip', param);
    return trip;
  }
}

function movesDestination(trip: Trip, next: Trip): boolean {
  return (
    next.destinationGeofenceTag !== trip.destinationGeofenceTag ||
    next.destinationGeofenceExternalId !== trip.destinationGeofenceExternalId
  );
}
