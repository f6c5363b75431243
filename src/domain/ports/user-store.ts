import type { Position } from '../../geo/types.js';
import type { LocationEvent } from '../events/event.js';
import type { Metadata } from '../metadata.js';
import type { Page, PageQuery } from '../pagination.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import type { Delivery } from '../webhooks/webhook.js';
import type { TrackUnit } from './track-unit.js';

export interface UserStore {
  /** Newest `updatedAt` first. */
  list(tenant: Tenant, page: PageQuery): Promise<Page<User>>;
  /** By `_id`, then `userId`, then `deviceId`. */
  get(tenant: Tenant, id: string): Promise<User | null>;
  /**
   * The most recently updated user whose last track carried this `installId` (the SDKs' id of one
   * install of the app), for requests that name the user by nothing else.
   */
  getByInstallId(tenant: Tenant, installId: string): Promise<User | null>;
  /** Inserts or replaces the user and its geofence memberships. */
  save(user: User): Promise<void>;
  delete(tenant: Tenant, id: string): Promise<boolean>;
  /** Users whose memberships include the geofence, newest `updatedAt` first. */
  listInGeofence(tenant: Tenant, geofenceId: string, page: PageQuery): Promise<Page<User>>;
  /**
   * True when `trackUpdate` alone keeps tracks of one user from interleaving, in every process
   * (PostgreSQL: locks in its transaction); the tracking engine then skips its in-process lock and
   * the read that lock needs.
   */
  readonly serialisesTracks?: boolean;
  /** The users a track with this identity may act on (see `TrackCandidates`). */
  findTrackCandidates(tenant: Tenant, identity: TrackIdentity): Promise<TrackCandidates>;
  /**
   * One track's read-modify-write of one user: reads the candidates, awaits `compute`, then writes
   * the user it returns (with memberships) and its events in one transaction. No other track of the
   * same user may interleave: SQLite relies on the caller's in-process per-user lock and writes in one
   * IMMEDIATE transaction; PostgreSQL runs it all in one transaction that reads with
   * `SELECT ... FOR UPDATE` (plus an advisory lock on the identity when no row exists yet).
   * `compute` may itself read through the store (track participants do, and the geofence index
   * loads through it): an engine that holds a pooled connection during `compute` must cap concurrent
   * track transactions below its pool size, or a burst of tracks of different users holds every
   * connection while each waits for one more. `known`: the candidates the caller read under its own
   * per-user lock, which the store then need not read again (engines that lock themselves ignore it).
   * `unit` stands for the track's transaction: trip writes and trip locks given it (`TripStore.save`,
   * `TripStore.exclusive`) join it, so one track is one transaction, trips included.
   */
  trackUpdate<T>(
    tenant: Tenant,
    identity: TrackIdentity,
    compute: (found: TrackCandidates, unit: TrackUnit) => Promise<TrackWrite<T>>,
    known?: TrackCandidates,
  ): Promise<T>;
  /** Users by `_id`, in no particular order; missing ids are left out. */
  getMany(tenant: Tenant, ids: string[]): Promise<User[]>;
  /**
   * Located users within `radiusMeters` of `near` (`[lon, lat]`), nearest first, `limit` from `offset`.
   * Engines several processes share implement it, and user search then asks the store instead of its
   * in-memory index, which moves only with this process's tracks.
   */
  near?(tenant: Tenant, near: Position, radiusMeters: number, limit: number, offset: number): Promise<User[]>;
  /** Every located user of a tenant (for the in-memory search index): `_id`, `[lon, lat]`, metadata. */
  locations(tenant: Tenant): Promise<UserLocation[]>;
  /**
   * `_id`s of up to `limit` users last updated before `before` (epoch ms), oldest first: the
   * retention sweep then removes each through `delete`, which keeps every cache of users right.
   */
  idsUpdatedBefore(tenant: Tenant, before: number, limit: number): Promise<string[]>;
}

/** The app identifiers a track names. */
export interface TrackIdentity {
  userId: string | null;
  deviceId: string;
}

/**
 * `byUserId`: the user with that `userId` (null when none or not given). `byDeviceId`: the most
 * recently updated user with that `deviceId`, read only when `byUserId` is null.
 */
export interface TrackCandidates {
  byUserId: User | null;
  byDeviceId: User | null;
}

/**
 * What a track writes: the user as it is now (created or updated), the events it produced and the
 * webhook deliveries those events owe (outbox rows, committed with them or not at all).
 */
export interface TrackWrite<T> {
  user: User;
  events: LocationEvent[];
  deliveries?: Delivery[];
  result: T;
}

export interface UserLocation {
  id: string;
  location: Position;
  metadata: Metadata | null;
}
