import type { Beacon } from '../beacons/beacon.js';
import type { Page, PageQuery } from '../pagination.js';
import type { Tenant } from '../tenant.js';

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
