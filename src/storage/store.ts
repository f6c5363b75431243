import type { Beacon } from '../domain/beacons/beacon.js';
import type { LocationEvent } from '../domain/events/event.js';
import type { Geofence } from '../domain/geofences/geofence.js';
import type { Metadata } from '../domain/metadata.js';
import type { Page, PageQuery } from '../domain/pagination.js';
import type { KeyLevel, Project, ResolvedKey } from '../domain/projects/project.js';
import type { PlaceSettings } from '../domain/settings/place-settings.js';
import type { Tenant } from '../domain/tenant.js';
import type { Trip, TripLocation, TripStatus } from '../domain/trips/trip.js';
import type { User } from '../domain/users/user.js';
import type { Delivery } from '../domain/webhooks/webhook.js';
import type { Position } from '../geo/types.js';

/** Projects and their hashed keys. Not tenant-scoped: this is where tenants come from. */
export interface ProjectStore {
  create(project: Project, keys: Array<{ keyHash: string; level: KeyLevel; live: boolean }>): Promise<void>;
  findByName(name: string): Promise<Project | null>;
  list(): Promise<Project[]>;
  update(project: Project): Promise<void>;
  resolveKey(keyHash: string): Promise<ResolvedKey | null>;
}

export interface UserStore {
  /** Newest `updatedAt` first. */
  list(tenant: Tenant, page: PageQuery): Promise<Page<User>>;
  /** By `_id`, then `userId`, then `deviceId`. */
  get(tenant: Tenant, id: string): Promise<User | null>;
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
 * A track's transaction as `trackUpdate` hands it to `compute`, opaque to the domain, which only
 * passes it on to the trip store: writes given it commit with the track's user and events, or not
 * at all, and trip locks taken with it are held until then.
 */
export interface TrackUnit {
  readonly trackUnit: true;
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

export interface EventListQuery extends PageQuery {
  /** Event types to keep (any when absent). */
  types?: string[];
  /** Matches the user's `_id` or app `userId`. */
  userId?: string;
}

/** Events are written only by `UserStore.trackUpdate`, in the same transaction as their user. */
export interface EventStore {
  /** Newest `createdAt` first. */
  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>>;
  get(tenant: Tenant, id: string): Promise<LocationEvent | null>;
  /** Deletes up to `limit` events created before `before` (epoch ms), oldest first; returns how many. */
  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
}

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

export interface GeofenceListQuery extends PageQuery {
  tag?: string;
  /** Fences whose deleteAfter is at or before this time are left out (epoch ms). */
  now: number;
}

/** What an upsert wrote. */
export interface GeofenceUpsert {
  /** The fence as stored: under the id and createdAt of the live fence that held its tag + externalId. */
  geofence: Geofence;
  /** A fence past its deleteAfter that held the tag + externalId, deleted (with its memberships) for this one. */
  replacedId: string | null;
}

export interface GeofenceStore {
  /**
   * Inserts, or replaces the fence with the same tag + externalId, keeping its id and createdAt. A fence
   * whose deleteAfter is at or before `now` is gone for every read, so it is not brought back: it is
   * deleted and the fence is inserted under its own id and createdAt.
   */
  upsert(geofence: Geofence, now: number): Promise<GeofenceUpsert>;
  get(tenant: Tenant, id: string): Promise<Geofence | null>;
  getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence | null>;
  /** Newest `createdAt` first. */
  list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>>;
  /** Every fence of a tenant, for building its spatial index. */
  all(tenant: Tenant): Promise<Geofence[]>;
  delete(tenant: Tenant, id: string): Promise<boolean>;
  /** Deletes every fence (any tenant) whose deleteAfter is at or before `now`; returns what went. */
  deleteExpired(now: number): Promise<Array<{ tenant: Tenant; id: string }>>;
}

export interface BeaconListQuery extends PageQuery {
  tag?: string;
  externalId?: string;
}

export interface BeaconStore {
  /** Inserts a new beacon; rejects with `BeaconConflict` when uuid/major/minor is taken. */
  insert(beacon: Beacon): Promise<void>;
  /** Replaces the beacon with the same id. Rejects with `BeaconConflict` on a uuid/major/minor clash. */
  replace(beacon: Beacon): Promise<void>;
  get(tenant: Tenant, id: string): Promise<Beacon | null>;
  getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Beacon | null>;
  getByIdentifiers(tenant: Tenant, uuid: string, major: string, minor: string): Promise<Beacon | null>;
  list(tenant: Tenant, query: BeaconListQuery): Promise<Page<Beacon>>;
  delete(tenant: Tenant, id: string): Promise<boolean>;
}

/** Raised by a BeaconStore when another beacon of the tenant has the same uuid, major and minor. */
export class BeaconConflict extends Error {}

export interface SettingsStore {
  get(tenant: Tenant): Promise<PlaceSettings>;
  put(tenant: Tenant, settings: PlaceSettings): Promise<void>;
}

/** An outbox row handed to a sender: the delivery, its attempts so far and its event (null once gone). */
export interface DueDelivery {
  id: string;
  projectId: string;
  live: boolean;
  webhookId: string;
  attempts: number;
  event: LocationEvent | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as its log shows it. Times are epoch ms. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  /** When it is tried next (pending only). */
  nextAttemptAt: number | null;
  /** The receiver's HTTP status at the last attempt, when it answered. */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What an attempt leaves on its delivery (`at`: when, epoch ms). */
export interface DeliveryOutcome {
  /** The delivery's id. */
  id: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  at: number;
}

/** The webhook outbox: rows are written with their events (`TrackWrite`, `TripWrite`), sent from here. */
export interface DeliveryStore {
  /**
   * Up to `limit` pending deliveries due at `now`, oldest due first, each held for `leaseMs` (pushed
   * past `now`) so that no other process sends it meanwhile; a sender that dies leaves it to be sent
   * again when the lease ends (at least once).
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]>;
  /** Records attempts (one transaction for all): delivered, failed for good, or pending again at `nextAttemptAt`. */
  settle(outcomes: readonly DeliveryOutcome[]): Promise<void>;
  /** The tenant's deliveries, newest first, of one webhook when named. */
  list(tenant: Tenant, query: { webhookId?: string; limit: number }): Promise<DeliveryRecord[]>;
  /** Deletes up to `limit` deliveries created before `before` (the events' retention); returns how many. */
  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
}

export interface UsageStore {
  /** Adds request counts, keyed by project, environment, endpoint and month (`YYYY-MM`). */
  add(rows: Array<{ projectId: string; live: boolean; endpoint: string; month: string; count: number }>): Promise<void>;
  /** The project's total for the month, both environments. */
  monthTotal(projectId: string, month: string): Promise<number>;
  monthTable(projectId: string, month: string): Promise<Array<{ live: boolean; endpoint: string; count: number }>>;
}

/**
 * What another process changed: PostgreSQL notifications name the kind, the tenant and often the
 * record; `kind: 'unknown'` (SQLite, which sees only that another connection committed): drop everything.
 */
export interface StoreChange {
  kind: 'unknown' | 'projects' | 'geofences' | 'users' | 'beacons' | 'settings';
  tenant?: Tenant;
  /** The one record that changed, when known: caches then refresh just that record. */
  id?: string;
}

/** The tenant data store. SQLite by default; PostgreSQL + PostGIS when DATABASE_URL is set. */
export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly projects: ProjectStore;
  readonly users: UserStore;
  readonly geofences: GeofenceStore;
  readonly beacons: BeaconStore;
  readonly settings: SettingsStore;
  readonly usage: UsageStore;
  readonly events: EventStore;
  readonly trips: TripStore;
  readonly deliveries: DeliveryStore;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `listener` soon after another process (the CLI, another API process) has written to the
   * store, so caches of keys, projects and geofence indexes can be dropped. Returns an unsubscribe.
   */
  onExternalChange(listener: (change: StoreChange) => void): () => void;
  /**
   * Delivers, now and synchronously, any external change the store can see at once (SQLite: another
   * connection's commit), so a cache consulted right after is exact. PostgreSQL's notifications
   * arrive by themselves; there it does nothing.
   */
  syncExternalChanges(): void;
  close(): Promise<void>;
}
