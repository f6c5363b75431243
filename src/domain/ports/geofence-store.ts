import type { Geofence } from '../geofences/geofence.js';
import type { Page, PageQuery } from '../pagination.js';
import type { Tenant } from '../tenant.js';

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
  /**
   * `upsert` of each fence (all of one tenant, no tag + externalId twice) in one transaction: a bulk
   * import's batch. Answers in the order given; `created` says whether no live fence held the tag.
   */
  upsertMany(geofences: readonly Geofence[], now: number): Promise<Array<GeofenceUpsert & { created: boolean }>>;
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
