/**
 * Numbered, append-only PostgreSQL migrations, the same tables as SQLite plus PostGIS columns with
 * GiST indexes. Times are epoch milliseconds (bigint), like the domain; the record lives in `doc`.
 */
export const PG_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'core',
    sql: `
      CREATE EXTENSION IF NOT EXISTS postgis SCHEMA public;
      CREATE TABLE projects (id text PRIMARY KEY, name text NOT NULL UNIQUE, doc jsonb NOT NULL, created_at bigint NOT NULL);
      CREATE TABLE api_keys (
        key_hash text PRIMARY KEY, project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        level text NOT NULL, live boolean NOT NULL, created_at bigint NOT NULL);
      CREATE TABLE users (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, user_id text, device_id text,
        created_at bigint NOT NULL, updated_at bigint NOT NULL, location geography(Point, 4326), doc jsonb NOT NULL);
      CREATE INDEX users_page ON users(project_id, live, updated_at DESC, id DESC);
      CREATE INDEX users_user_id ON users(project_id, live, user_id);
      CREATE INDEX users_device_id ON users(project_id, live, device_id);
      CREATE INDEX users_location ON users USING gist(location);
      CREATE TABLE user_geofences (
        project_id text NOT NULL, live boolean NOT NULL, geofence_id text NOT NULL, user_pk text NOT NULL,
        updated_at bigint NOT NULL, PRIMARY KEY (geofence_id, user_pk));
      CREATE INDEX user_geofences_page ON user_geofences(project_id, live, geofence_id, updated_at DESC, user_pk DESC);
      CREATE INDEX user_geofences_user ON user_geofences(user_pk);
      CREATE TABLE geofences (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, tag text, external_id text,
        delete_after bigint, created_at bigint NOT NULL, geom geometry(Geometry, 4326), doc jsonb NOT NULL);
      CREATE UNIQUE INDEX geofences_tag ON geofences(project_id, live, tag, external_id);
      CREATE INDEX geofences_page ON geofences(project_id, live, created_at DESC, id DESC);
      CREATE INDEX geofences_tag_page ON geofences(project_id, live, tag, created_at DESC, id DESC);
      CREATE INDEX geofences_geom ON geofences USING gist(geom);
      CREATE TABLE beacons (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, tag text, external_id text,
        uuid text NOT NULL, major text NOT NULL, minor text NOT NULL, created_at bigint NOT NULL, doc jsonb NOT NULL);
      CREATE UNIQUE INDEX beacons_identifiers ON beacons(project_id, live, uuid, major, minor);
      CREATE UNIQUE INDEX beacons_tag ON beacons(project_id, live, tag, external_id);
      CREATE INDEX beacons_page ON beacons(project_id, live, created_at DESC, id DESC);
      CREATE TABLE place_settings (project_id text NOT NULL, live boolean NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (project_id, live));
      CREATE TABLE usage (
        project_id text NOT NULL, live boolean NOT NULL, endpoint text NOT NULL, month text NOT NULL,
        count bigint NOT NULL, PRIMARY KEY (project_id, month, live, endpoint));
    `,
  },
  {
    version: 2,
    name: 'events',
    // user_pk and user_id are snapshots: deleting a user leaves its events readable.
    sql: `
      CREATE TABLE events (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, type text NOT NULL,
        user_pk text NOT NULL, user_id text, created_at bigint NOT NULL, doc jsonb NOT NULL);
      CREATE INDEX events_page ON events(project_id, live, created_at DESC, id DESC);
      CREATE INDEX events_type_page ON events(project_id, live, type, created_at DESC, id DESC);
      CREATE INDEX events_user_pk_page ON events(project_id, live, user_pk, created_at DESC, id DESC);
      CREATE INDEX events_user_id_page ON events(project_id, live, user_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 3,
    name: 'trips',
    // As in SQLite: one row per externalId and tenant; tracked points in their own table.
    sql: `
      CREATE TABLE trips (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, external_id text NOT NULL,
        user_pk text, user_id text, device_id text, status text NOT NULL, active boolean NOT NULL,
        destination_tag text, destination_external_id text, eta_duration double precision,
        created_at bigint NOT NULL, updated_at bigint NOT NULL, doc jsonb NOT NULL);
      CREATE UNIQUE INDEX trips_external_id ON trips(project_id, live, external_id);
      CREATE INDEX trips_page ON trips(project_id, live, created_at DESC, id DESC);
      CREATE INDEX trips_eta ON trips(project_id, live, eta_duration ASC NULLS LAST, created_at DESC, id DESC);
      CREATE INDEX trips_user_active ON trips(project_id, live, user_pk) WHERE active;
      CREATE INDEX trips_waiting ON trips(project_id, live, user_id, device_id) WHERE active AND user_pk IS NULL;
      CREATE INDEX trips_active_updated ON trips(project_id, live, updated_at) WHERE active;
      CREATE TABLE trip_locations (
        id bigserial PRIMARY KEY, trip_id text NOT NULL, updated_at bigint NOT NULL,
        lon double precision NOT NULL, lat double precision NOT NULL);
      CREATE INDEX trip_locations_trip ON trip_locations(trip_id, id);
    `,
  },
  {
    version: 4,
    name: 'track-lookup-indexes',
    // A track reads the newest user with a userId or deviceId: with updated_at in the index that is
    // one index probe whatever the planner's statistics say. The old indexes let a generic plan built
    // while the table was small (never analysed) walk users_page and filter, reading every user of
    // the tenant on each track. Null ids (most tracks name no userId) are left out of the indexes:
    // nothing looks them up, and a track writes one index entry fewer per user and per event.
    sql: `
      CREATE INDEX users_user_id_newest ON users(project_id, live, user_id, updated_at DESC) WHERE user_id IS NOT NULL;
      CREATE INDEX users_device_id_newest ON users(project_id, live, device_id, updated_at DESC)
        WHERE device_id IS NOT NULL;
      DROP INDEX users_user_id;
      DROP INDEX users_device_id;
      DROP INDEX events_user_id_page;
      CREATE INDEX events_user_id_page ON events(project_id, live, user_id, created_at DESC, id DESC)
        WHERE user_id IS NOT NULL;
    `,
  },
  {
    version: 5,
    name: 'user-geofences-by-user',
    // Memberships are written per user (every track replaces its user's) and read per fence through
    // the tenant's page index: keyed by (user_pk, geofence_id), the primary key also serves the
    // per-user reads and deletes, and a membership costs two index entries instead of three. Fence
    // deletions name the tenant, so they use the page index.
    sql: `
      ALTER TABLE user_geofences DROP CONSTRAINT user_geofences_pkey;
      ALTER TABLE user_geofences ADD CONSTRAINT user_geofences_pkey PRIMARY KEY (user_pk, geofence_id);
      DROP INDEX user_geofences_user;
    `,
  },
  {
    version: 6,
    name: 'user-versions',
    // Bumped by every write of the row (under its row lock, so in the order the writes commit): a
    // process that keeps users in memory (user-near-cache.ts) applies a write it hears of only when it
    // is newer than the one it has, whatever order its own commits and others' notifications arrive in.
    sql: `ALTER TABLE users ADD COLUMN version bigint NOT NULL DEFAULT 0;`,
  },
  {
    version: 7,
    name: 'user-watchers',
    // The tenants whose user writes some process keeps in memory, by the backend that LISTENs for it:
    // a user write announces itself only when its tenant has a watcher (an announcement wakes every
    // listening backend and cost a track ~0.2 ms of PostgreSQL CPU and as much of the API's).
    sql: `CREATE TABLE user_watchers (project_id text NOT NULL, live boolean NOT NULL, pid int NOT NULL,
      PRIMARY KEY (project_id, live, pid));`,
  },
  {
    version: 8,
    name: 'deliveries',
    // The webhook outbox, as in SQLite: one row per event and webhook, written in the event's transaction.
    sql: `
      CREATE TABLE deliveries (
        id text PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, webhook_id text NOT NULL,
        event_id text NOT NULL, status text NOT NULL, attempts int NOT NULL, next_attempt_at bigint,
        last_status int, last_error text, created_at bigint NOT NULL, updated_at bigint NOT NULL);
      CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_page ON deliveries(project_id, live, created_at DESC, id DESC);
    `,
  },
  {
    version: 9,
    name: 'ascending-write-indexes',
    // The indexes every track (and every delivery) adds to, in ascending order; the newest-first reads
    // scan them backwards. A descending index takes each new row at the left end of its tenant's (or
    // fence's, device's) range: every insert descends the tree, and a full leaf splits in half, so
    // the index grows twice as fast, half empty, and each split writes a page more to the WAL. At the
    // right end PostgreSQL inserts into the cached rightmost leaf without a descent, and splits a leaf
    // that new keys fill from the left where the new key goes, leaving the old page full.
    sql: `
      DROP INDEX events_page;
      CREATE INDEX events_page ON events(project_id, live, created_at, id);
      DROP INDEX events_type_page;
      CREATE INDEX events_type_page ON events(project_id, live, type, created_at, id);
      DROP INDEX events_user_pk_page;
      CREATE INDEX events_user_pk_page ON events(project_id, live, user_pk, created_at, id);
      DROP INDEX events_user_id_page;
      CREATE INDEX events_user_id_page ON events(project_id, live, user_id, created_at, id) WHERE user_id IS NOT NULL;
      DROP INDEX users_page;
      CREATE INDEX users_page ON users(project_id, live, updated_at, id);
      DROP INDEX users_user_id_newest;
      CREATE INDEX users_user_id_newest ON users(project_id, live, user_id, updated_at) WHERE user_id IS NOT NULL;
      DROP INDEX users_device_id_newest;
      CREATE INDEX users_device_id_newest ON users(project_id, live, device_id, updated_at) WHERE device_id IS NOT NULL;
      DROP INDEX user_geofences_page;
      CREATE INDEX user_geofences_page ON user_geofences(project_id, live, geofence_id, updated_at, user_pk);
      DROP INDEX deliveries_page;
      CREATE INDEX deliveries_page ON deliveries(project_id, live, created_at, id);
    `,
  },
  {
    version: 10,
    name: 'no-user-location-index',
    // Nothing reads users by location in SQL: user search answers from each process's memory
    // (user-near-cache.ts), which loads a tenant's users by a plain scan. Every user write still paid
    // a GiST insert into this index (2.7% of PostgreSQL's time in the new-device track row).
    sql: 'DROP INDEX users_location;',
  },
  {
    version: 11,
    name: 'sdk-settings-and-signing-keys',
    // What the mobile SDKs take from the server per project and environment (remote tracking options,
    // SDK configuration, feature settings), and each environment's key for verified location tokens:
    // one key per environment, the first process to make it wins (INSERT ... ON CONFLICT DO NOTHING).
    sql: `
      CREATE TABLE sdk_settings (project_id text NOT NULL, live boolean NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (project_id, live));
      CREATE TABLE signing_keys (
        project_id text NOT NULL, live boolean NOT NULL, kid text NOT NULL, private_jwk jsonb NOT NULL,
        public_jwk jsonb NOT NULL, created_at bigint NOT NULL, PRIMARY KEY (project_id, live));
    `,
  },
  {
    version: 12,
    name: 'conversion-days-and-device-logs',
    // As in SQLite: conversions counted per name and UTC day with their event; device logs, the newest
    // lines per device, ordered by their serial id.
    sql: `
      CREATE TABLE conversion_days (
        project_id text NOT NULL, live boolean NOT NULL, day text NOT NULL, name text NOT NULL,
        count bigint NOT NULL, revenue double precision NOT NULL, PRIMARY KEY (project_id, live, day, name));
      CREATE TABLE device_logs (
        id bigserial PRIMARY KEY, project_id text NOT NULL, live boolean NOT NULL, device_id text NOT NULL,
        doc jsonb NOT NULL);
      CREATE INDEX device_logs_device ON device_logs(project_id, live, device_id, id);
    `,
  },
  {
    version: 13,
    name: 'users-install-id',
    // As in SQLite: users by the installId of their last track, indexed on the document's field.
    sql: `CREATE INDEX users_install_id ON users(project_id, live, (doc->>'installId'), updated_at)
      WHERE doc->>'installId' IS NOT NULL;`,
  },
  {
    version: 14,
    name: 'events-stream',
    // The event stream (GET /v1/events/stream) reads a tenant's events after a cursor in commit order,
    // across processes. A serial alone is not that order: a transaction can take number 10, another 11
    // and commit first, and a reader past 11 never sees 10. Each row keeps its transaction's id, and a
    // reader takes only rows of transactions older than its snapshot's xmin, every one of which has
    // ended: no row can appear later below the cursor (tx, seq).
    sql: `
      ALTER TABLE events ADD COLUMN tx xid8 NOT NULL DEFAULT pg_current_xact_id();
      ALTER TABLE events ADD COLUMN seq bigserial;
      CREATE INDEX events_stream ON events(project_id, live, tx, seq);
    `,
  },
];
