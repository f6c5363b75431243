/**
 * Numbered, append-only schema migrations. Tenant rows carry project_id and live; each table keeps
 * the domain record as JSON in `doc` and copies into columns only what queries filter or sort on.
 */
export const SQLITE_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'core',
    sql: `
      CREATE TABLE projects (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY, project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        level TEXT NOT NULL, live INTEGER NOT NULL, created_at INTEGER NOT NULL);
      CREATE TABLE users (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, user_id TEXT, device_id TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX users_page ON users(project_id, live, updated_at DESC, id DESC);
      CREATE INDEX users_user_id ON users(project_id, live, user_id);
      CREATE INDEX users_device_id ON users(project_id, live, device_id);
      CREATE TABLE user_geofences (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, geofence_id TEXT NOT NULL, user_pk TEXT NOT NULL,
        updated_at INTEGER NOT NULL, PRIMARY KEY (geofence_id, user_pk));
      CREATE INDEX user_geofences_page ON user_geofences(project_id, live, geofence_id, updated_at DESC, user_pk DESC);
      CREATE INDEX user_geofences_user ON user_geofences(user_pk);
      CREATE TABLE geofences (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, tag TEXT, external_id TEXT,
        delete_after INTEGER, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE UNIQUE INDEX geofences_tag ON geofences(project_id, live, tag, external_id);
      CREATE INDEX geofences_page ON geofences(project_id, live, created_at DESC, id DESC);
      CREATE INDEX geofences_tag_page ON geofences(project_id, live, tag, created_at DESC, id DESC);
      CREATE INDEX geofences_delete_after ON geofences(delete_after) WHERE delete_after IS NOT NULL;
      CREATE TABLE beacons (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, tag TEXT, external_id TEXT,
        uuid TEXT NOT NULL, major TEXT NOT NULL, minor TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE UNIQUE INDEX beacons_identifiers ON beacons(project_id, live, uuid, major, minor);
      CREATE UNIQUE INDEX beacons_tag ON beacons(project_id, live, tag, external_id);
      CREATE INDEX beacons_page ON beacons(project_id, live, created_at DESC, id DESC);
      CREATE TABLE place_settings (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (project_id, live));
      CREATE TABLE usage (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, endpoint TEXT NOT NULL, month TEXT NOT NULL,
        count INTEGER NOT NULL, PRIMARY KEY (project_id, month, live, endpoint));
    `,
  },
  {
    version: 2,
    name: 'events',
    // user_pk and user_id are snapshots: deleting a user leaves its events readable.
    sql: `
      CREATE TABLE IF NOT EXISTS events (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, type TEXT NOT NULL,
        user_pk TEXT NOT NULL, user_id TEXT, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS events_page ON events(project_id, live, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS events_type_page ON events(project_id, live, type, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS events_user_pk_page ON events(project_id, live, user_pk, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS events_user_id_page ON events(project_id, live, user_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 3,
    name: 'trips',
    // One row per externalId and tenant: starting a trip with a known externalId restarts that row.
    // Tracked points get their own table so an update appends a row instead of rewriting the path.
    sql: `
      CREATE TABLE IF NOT EXISTS trips (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, external_id TEXT NOT NULL,
        user_pk TEXT, user_id TEXT, device_id TEXT, status TEXT NOT NULL, active INTEGER NOT NULL,
        destination_tag TEXT, destination_external_id TEXT, eta_duration REAL,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, doc TEXT NOT NULL);
      CREATE UNIQUE INDEX IF NOT EXISTS trips_external_id ON trips(project_id, live, external_id);
      CREATE INDEX IF NOT EXISTS trips_page ON trips(project_id, live, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS trips_eta ON trips(project_id, live, eta_duration, created_at DESC, id DESC);
      CREATE INDEX IF NOT EXISTS trips_user_active ON trips(project_id, live, user_pk) WHERE active = 1;
      CREATE INDEX IF NOT EXISTS trips_waiting ON trips(project_id, live, user_id, device_id)
        WHERE active = 1 AND user_pk IS NULL;
      CREATE INDEX IF NOT EXISTS trips_active_updated ON trips(project_id, live, updated_at) WHERE active = 1;
      CREATE TABLE IF NOT EXISTS trip_locations (
        trip_id TEXT NOT NULL, updated_at INTEGER NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL);
      CREATE INDEX IF NOT EXISTS trip_locations_trip ON trip_locations(trip_id);
    `,
  },
  {
    version: 4,
    name: 'commit_log',
    // Who committed what, for several API processes on one file; dropped by migration 10.
    sql: `
      CREATE TABLE IF NOT EXISTS commit_log (seq INTEGER PRIMARY KEY, writer TEXT NOT NULL, at INTEGER NOT NULL);
    `,
  },
  {
    version: 5,
    name: 'partial_user_id_indexes',
    // Most SDK users track without a userId: leaving those rows out of the userId indexes saves a
    // B-tree write per track and per event. `user_id = ?` implies NOT NULL, so lookups still use them.
    sql: `
      DROP INDEX IF EXISTS users_user_id;
      CREATE INDEX users_user_id ON users(project_id, live, user_id) WHERE user_id IS NOT NULL;
      DROP INDEX IF EXISTS events_user_id_page;
      CREATE INDEX events_user_id_page ON events(project_id, live, user_id, created_at DESC, id DESC)
        WHERE user_id IS NOT NULL;
    `,
  },
  {
    version: 6,
    name: 'user_geofences_by_user',
    // Memberships clustered by user (WITHOUT ROWID, keyed user then fence): a new user's rows append
    // to one leaf, and the table is two B-trees instead of four (rowid, key, page, user). A track of a
    // new user in three fences wrote twelve B-tree entries here, six of them on random pages.
    sql: `
      CREATE TABLE user_geofences_by_user (
        user_pk TEXT NOT NULL, geofence_id TEXT NOT NULL, project_id TEXT NOT NULL, live INTEGER NOT NULL,
        updated_at INTEGER NOT NULL, PRIMARY KEY (user_pk, geofence_id)) WITHOUT ROWID;
      INSERT INTO user_geofences_by_user (user_pk, geofence_id, project_id, live, updated_at)
        SELECT user_pk, geofence_id, project_id, live, updated_at FROM user_geofences;
      DROP TABLE user_geofences;
      ALTER TABLE user_geofences_by_user RENAME TO user_geofences;
      CREATE INDEX user_geofences_page ON user_geofences(project_id, live, geofence_id, updated_at DESC, user_pk DESC);
    `,
  },
  {
    version: 7,
    name: 'commit_log_changes',
    // What each commit changed, so that API processes sharing the file refreshed just those records.
    sql: 'ALTER TABLE commit_log ADD COLUMN changes TEXT;',
  },
  {
    version: 8,
    name: 'user_geofences_by_user_only',
    // Memberships keyed by user alone: who is in a fence is kept in memory (fence-members.ts). The
    // index by fence and time cost each track a random leaf per membership (about half of a track's
    // WAL frames), and each known device's track a re-stamp of its rows.
    sql: `
      CREATE TABLE user_geofences_v8 (
        user_pk TEXT NOT NULL, geofence_id TEXT NOT NULL, PRIMARY KEY (user_pk, geofence_id)) WITHOUT ROWID;
      INSERT INTO user_geofences_v8 (user_pk, geofence_id) SELECT user_pk, geofence_id FROM user_geofences;
      DROP TABLE user_geofences;
      ALTER TABLE user_geofences_v8 RENAME TO user_geofences;
    `,
  },
  {
    version: 9,
    name: 'deliveries',
    // The webhook outbox: one row per event and webhook, written in the event's transaction. Senders
    // find due rows through the partial index, which holds only pending ones.
    sql: `
      CREATE TABLE deliveries (
        id TEXT PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, webhook_id TEXT NOT NULL,
        event_id TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, next_attempt_at INTEGER,
        last_status INTEGER, last_error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_page ON deliveries(project_id, live, created_at DESC, id DESC);
    `,
  },
  {
    version: 10,
    name: 'sdk_settings_and_signing_keys',
    // What the mobile SDKs take from the server per project and environment (remote tracking options,
    // SDK configuration, feature settings), and each environment's key for verified location tokens:
    // one key per environment, the first process to make it wins (INSERT ... ON CONFLICT DO NOTHING).
    sql: `
      CREATE TABLE sdk_settings (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (project_id, live));
      CREATE TABLE signing_keys (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, kid TEXT NOT NULL, private_jwk TEXT NOT NULL,
        public_jwk TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (project_id, live));
    `,
  },
  {
    version: 11,
    name: 'conversion_days_and_device_logs',
    // Conversions counted per name and UTC day, in the transaction that stores the event: the summary
    // reads a row per day and name instead of walking every event of the range. Device logs keep the
    // newest lines per device; the rowid orders them as they arrived.
    sql: `
      CREATE TABLE conversion_days (
        project_id TEXT NOT NULL, live INTEGER NOT NULL, day TEXT NOT NULL, name TEXT NOT NULL,
        count INTEGER NOT NULL, revenue REAL NOT NULL, PRIMARY KEY (project_id, live, day, name)) WITHOUT ROWID;
      CREATE TABLE device_logs (
        id INTEGER PRIMARY KEY, project_id TEXT NOT NULL, live INTEGER NOT NULL, device_id TEXT NOT NULL,
        doc TEXT NOT NULL);
      CREATE INDEX device_logs_device ON device_logs(project_id, live, device_id, id);
    `,
  },
  {
    version: 12,
    name: 'drop_commit_log',
    // One API process per SQLite file (docs/adr/sqlite-one-process.md): no other process reads the log.
    sql: 'DROP TABLE IF EXISTS commit_log;',
  },
  {
    version: 13,
    name: 'users_install_id',
    // Requests that name the user by its installId alone (a track without deviceId, a conversion). An
    // index on the document's field: no column to keep on every track write.
    sql: `CREATE INDEX users_install_id ON users(project_id, live, json_extract(doc, '$.installId'), updated_at)
      WHERE json_extract(doc, '$.installId') IS NOT NULL;`,
  },
  {
    version: 14,
    name: 'events_stream',
    // The event stream (GET /v1/events/stream) reads a tenant's events after a cursor in commit order:
    // the rowid, which one writer assigns in commit order (max + 1; retention deletes the oldest). The
    // index holds (project_id, live, rowid).
    sql: 'CREATE INDEX events_stream ON events(project_id, live);',
  },
];
