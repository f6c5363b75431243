import type { Beacon } from '../domain/beacons/beacon.js';
import type { Geofence } from '../domain/geofences/geofence.js';
import type { Page, PageQuery } from '../domain/pagination.js';
import type { KeyLevel, Project, ResolvedKey } from '../domain/projects/project.js';
import type { PlaceSettings } from '../domain/settings/place-settings.js';
import type { Tenant } from '../domain/tenant.js';
import type { User } from '../domain/users/user.js';

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
}

export interface GeofenceListQuery extends PageQuery {
  tag?: string;
  /** Fences whose deleteAfter is at or before this time are left out (epoch ms). */
  now: number;
}

export interface GeofenceStore {
  /** Inserts, or replaces the fence with the same tag + externalId, keeping its id and createdAt. */
  upsert(geofence: Geofence): Promise<Geofence>;
  get(tenant: Tenant, id: string): Promise<Geofence | null>;
  getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence | null>;
  /** Newest `createdAt` first. */
  list(tenant: Tenant, query: GeofenceListQuery): Promise<Page<Geofence>>;
  /** Every fence of a tenant, for building its spatial index. */
  all(tenant: Tenant): Promise<Geofence[]>;
  delete(tenant: Tenant, id: string): Promise<boolean>;
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

export interface UsageStore {
  /** Adds request counts, keyed by project, environment, endpoint and month (`YYYY-MM`). */
  add(rows: Array<{ projectId: string; live: boolean; endpoint: string; month: string; count: number }>): Promise<void>;
  /** The project's total for the month, both environments. */
  monthTotal(projectId: string, month: string): Promise<number>;
  monthTable(projectId: string, month: string): Promise<Array<{ live: boolean; endpoint: string; count: number }>>;
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
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Calls `listener` soon after another process (the CLI, another API process) has written to the
   * store, so caches of keys, projects and geofence indexes can be dropped. Returns an unsubscribe.
   */
  onExternalChange(listener: () => void): () => void;
  close(): Promise<void>;
}
