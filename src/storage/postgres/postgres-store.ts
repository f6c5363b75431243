import type pg from 'pg';
import type { Store, StoreChange } from '../../domain/ports/store.js';
import { ChangeNotifier } from './change-notifier.js';
import { createPool, migrate } from './open-pool.js';
import { PostgresBeaconStore } from './postgres-beacon-store.js';
import { PostgresDeliveryStore } from './postgres-delivery-store.js';
import { PostgresDeviceLogStore } from './postgres-device-log-store.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { PostgresGeofenceStore } from './postgres-geofence-store.js';
import { PostgresProjectStore } from './postgres-project-store.js';
import { PostgresSettingsStore, PostgresUsageStore } from './postgres-settings-store.js';
import { PostgresTripStore } from './postgres-trip-store.js';
import { PostgresUserStore } from './postgres-user-store.js';

/** The store over PostgreSQL + PostGIS, shared by any number of API processes. */
export class PostgresStore implements Store {
  readonly engine = 'postgres' as const;
  readonly projects: PostgresProjectStore;
  readonly users: PostgresUserStore;
  readonly geofences: PostgresGeofenceStore;
  readonly beacons: PostgresBeaconStore;
  readonly settings: PostgresSettingsStore;
  readonly usage: PostgresUsageStore;
  readonly events: PostgresEventStore;
  readonly trips: PostgresTripStore;
  readonly deliveries: PostgresDeliveryStore;
  readonly deviceLogs: PostgresDeviceLogStore;
  readonly notifier: ChangeNotifier;

  constructor(readonly pool: pg.Pool) {
    this.notifier = new ChangeNotifier(pool);
    this.projects = new PostgresProjectStore(pool, this.notifier);
    this.users = new PostgresUserStore(pool, this.notifier);
    this.geofences = new PostgresGeofenceStore(pool, this.notifier);
    this.beacons = new PostgresBeaconStore(pool);
    this.settings = new PostgresSettingsStore(pool, this.notifier);
    this.usage = new PostgresUsageStore(pool);
    this.events = new PostgresEventStore(pool);
    this.trips = new PostgresTripStore(pool);
    this.deliveries = new PostgresDeliveryStore(pool);
    this.deviceLogs = new PostgresDeviceLogStore(pool);
  }

  /** Connects, migrates, and starts listening for other processes' changes. */
  static async open(connectionString: string): Promise<PostgresStore> {
    const pool = createPool(connectionString);
    await migrate(pool);
    const store = new PostgresStore(pool);
    await store.notifier.ready();
    return store;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  onExternalChange(listener: (change: StoreChange) => void): () => void {
    return this.notifier.subscribe(listener);
  }

  syncExternalChanges(): void {
    // LISTEN/NOTIFY delivers other processes' changes as they commit.
  }

  async close(): Promise<void> {
    this.notifier.close();
    await this.pool.end();
  }
}
