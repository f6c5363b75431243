import type { LocationEvent } from '../events/event.js';
import type { Page } from '../pagination.js';
import type { Tenant } from '../tenant.js';
import type { Trip, TripLocation, TripStatus } from '../trips/trip.js';
import type { Delivery } from '../webhooks/webhook.js';
import type { TrackUnit } from './track-unit.js';

export interface TripListQuery {
  limit: number;
  createdBefore?: number | undefined;
  createdAfter?: number | undefined;
  /** true: started, approaching or arrived; false: any other status. */
  active?: boolean | undefined;
  statuses?: TripStatus[] | undefined;
  destinationGeofenceTag?: string | undefined;
  destinationGeofenceExternalId?: string | undefined;
  /** Matches the user's `_id`, `userId` or `deviceId`. */
  user?: string | undefined;
  /** `eta`: soonest ETA first, trips without one last; `createdAt`: newest first, exact cursors. */
  sortBy: 'eta' | 'createdAt';
}

/** What one trip write adds besides the trip, in the same transaction. */
export interface TripWrite {
  /** A point tracked while the trip is active, appended to its path. */
  location?: TripLocation;
  /** Drop the tracked points first (a restarted trip starts a new path). */
  resetLocations?: boolean;
  /** Events of a change made outside a track (POST/PATCH trip), stored with the trip. */
  events?: LocationEvent[];
  /** The webhook deliveries those events owe. */
  deliveries?: Delivery[];
}

/** Trips. `externalId` is unique per tenant; tracked points are kept beside the trip. */
export interface TripStore {
  /** By `_id`, else by `externalId`. */
  get(tenant: Tenant, id: string): Promise<Trip | null>;
  getByExternalId(tenant: Tenant, externalId: string): Promise<Trip | null>;
  /**
   * The active trip of a user, in this order: the user's own (`userPk`), else one still waiting for
   * its user's first track, by app `userId`, else (a trip named by no userId) by `deviceId`. Runs on
   * every track, so it is one statement.
   */
  activeFor(
    tenant: Tenant,
    owner: { userPk: string | null; userId: string | null; deviceId: string | null },
  ): Promise<Trip | null>;
  /**
   * Inserts or replaces the trip by `_id`. With `unit` (a track's), the write joins that track's
   * transaction: it resolves at once and is committed with the track's user, or not at all.
   */
  save(trip: Trip, write?: TripWrite, unit?: TrackUnit): Promise<void>;
  /** Tracked points per trip id, oldest first. */
  locations(tenant: Tenant, tripIds: string[]): Promise<Map<string, TripLocation[]>>;
  /** Sets `expired` on active trips last updated at or before `updatedAtOrBefore` (epoch ms). */
  expireStale(tenant: Tenant, updatedAtOrBefore: number): Promise<number>;
  list(tenant: Tenant, query: TripListQuery): Promise<Page<Trip>>;
  /**
   * Runs `fn` holding one trip's lock (by externalId, which names it before it exists) against every
   * other holder in every process sharing the store, so a PATCH and a track of the trip never
   * interleave their read-modify-writes (PostgreSQL: an advisory lock; SQLite, one API process: an
   * in-process lock).
   * With `unit` (a track's) the lock is held until that track's transaction ends, since the trip
   * writes made under it commit only then; taken again with the same unit, it is already held.
   */
  exclusive<T>(tenant: Tenant, externalId: string, fn: () => Promise<T>, unit?: TrackUnit): Promise<T>;
  /**
   * Deletes up to `limit` stopped trips (not active) last updated before `before` (epoch ms), with
   * their tracked points; returns how many trips went.
   */
  deleteStoppedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
}
