import type { Tenant } from '../tenant.js';
import type { BeaconStore } from './beacon-store.js';
import type { DeliveryStore } from './delivery-store.js';
import type { DeviceLogStore } from './device-log-store.js';
import type { EventStore } from './event-store.js';
import type { GeofenceStore } from './geofence-store.js';
import type { ProjectStore } from './project-store.js';
import type { SettingsStore } from './settings-store.js';
import type { TripStore } from './trip-store.js';
import type { UsageStore } from './usage-store.js';
import type { UserStore } from './user-store.js';

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

/**
 * The tenant data store: the ports the domain reads and writes through, one engine behind them all.
 * SQLite by default; PostgreSQL + PostGIS when DATABASE_URL is set (src/storage implements both).
 */
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
  readonly deviceLogs: DeviceLogStore;
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
