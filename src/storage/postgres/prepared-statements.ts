import type pg from 'pg';
import { announceUserWrite } from './user-near-cache.js';

/**
 * SQL-level prepared statements (`PREPARE` once per connection, `EXECUTE` with literal arguments) for
 * the statements of the track transaction's batches. A batch is one simple query, and PostgreSQL
 * parses and plans every statement of a simple query each time: planning the track's reads (the
 * trips read above all) cost it more CPU than running them. `EXECUTE` in a batch keeps the one round
 * trip and plans once per connection (or reuses a generic plan).
 */
const STATEMENTS = {
  // The track transaction's session setting and its locks, in one statement of their own: every
  // later statement reads after they are held. First the tenant's watch lock, shared (`watchLockKey`:
  // a new watcher waits for the writes in flight), then every track's identity keys in array order,
  // which `trackBeginSql` sorts (device keys before user keys: two transactions never wait on each
  // other crosswise).
  wb_track_begin: `(text, text[]) AS
    SELECT set_config('plan_cache_mode', 'force_generic_plan', true),
      pg_advisory_xact_lock_shared(hashtextextended($1, 0)),
      (SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($2) AS k)`,
  // Every read of a track, in one statement; rows are told apart by k.
  // 'u', 'd': the candidates, newest first, locked: by userId; by deviceId only when no user has the
  //   userId (a null userId: always), so a track never locks a second user's row (two tracks doing
  //   so crosswise would deadlock). Each is one probe of an index ending in updated_at (migration 4).
  // 'r': the users the identity reaches (`_id` as user_pk, and user_id).
  // 't': the active trips any of them, or a new user with these ids, could own: their own trips by
  //   index one user at a time (LATERAL; OFFSET 0 keeps the planner from flattening it), trips
  //   waiting for this device, and trips waiting for one of the reachable (or given) userIds (few:
  //   trips created for a user not tracked yet).
  // Params: project, live, deviceId, userId (null matches nothing).
  wb_track_read: `(text, boolean, text, text) AS
    WITH by_user AS MATERIALIZED (
      SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND user_id = $4
      ORDER BY updated_at DESC LIMIT 1 FOR UPDATE),
    by_device AS MATERIALIZED (
      SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND device_id = $3
        AND NOT EXISTS (SELECT 1 FROM by_user)
      ORDER BY updated_at DESC LIMIT 1 FOR UPDATE),
    reachable AS MATERIALIZED (
      SELECT id, user_id FROM users WHERE project_id = $1 AND live = $2 AND device_id = $3
      UNION SELECT id, user_id FROM users WHERE project_id = $1 AND live = $2 AND user_id = $4)
    SELECT 'u' AS k, doc, NULL::text AS user_pk, NULL::text AS user_id, NULL::text AS device_id,
      NULL::bigint AS created_at FROM by_user
    UNION ALL
    SELECT 'd', doc, NULL, NULL, NULL, NULL FROM by_device
    UNION ALL
    SELECT 'r', NULL, id, user_id, NULL, NULL FROM reachable
    UNION ALL
    SELECT 't', t.doc, t.user_pk, t.user_id, t.device_id, t.created_at FROM reachable r,
      LATERAL (SELECT * FROM trips WHERE project_id = $1 AND live = $2 AND active AND user_pk = r.id OFFSET 0) t
    UNION ALL
    SELECT 't', doc, user_pk, user_id, device_id, created_at FROM trips
    WHERE project_id = $1 AND live = $2 AND active AND user_pk IS NULL AND user_id IS NULL AND device_id = $3
    UNION ALL
    SELECT 't', doc, user_pk, user_id, device_id, created_at FROM trips
    WHERE project_id = $1 AND live = $2 AND active AND user_pk IS NULL
      AND user_id IN (SELECT user_id FROM reachable UNION SELECT $4)`,
  // Every write of a track, in one statement: the user row; its memberships (those it left deleted,
  // the others inserted or given the user's new updated_at; the two sets are disjoint, so the order
  // in which PostgreSQL runs the parts does not matter); its events. Memberships come from the
  // user's document and events from one JSON array, so the API quotes each document once. It returns
  // the row's new version and announces it to the processes that keep users (user-near-cache.ts).
  // Params: id, project, live, userId, deviceId, createdAt, updatedAt, location, user doc, events,
  // the announcement without its version (`userChangePrefix`).
  wb_track_write: `(text, text, boolean, text, text, bigint, bigint, geography, jsonb, jsonb, text) AS
    WITH upsert AS (
      INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, location, doc)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, device_id = excluded.device_id,
        updated_at = excluded.updated_at, location = excluded.location, doc = excluded.doc,
        version = users.version + 1
      RETURNING version),
    memberships AS (SELECT DISTINCT m->>'geofenceId' AS geofence_id FROM jsonb_array_elements($9->'geofences') m),
    left_fences AS (
      DELETE FROM user_geofences WHERE user_pk = $1
        AND geofence_id <> ALL (ARRAY(SELECT geofence_id FROM memberships))),
    kept AS (
      INSERT INTO user_geofences (project_id, live, geofence_id, user_pk, updated_at)
      SELECT $2, $3, geofence_id, $1, $7 FROM memberships
      ON CONFLICT (user_pk, geofence_id) DO UPDATE SET project_id = excluded.project_id, live = excluded.live,
        updated_at = excluded.updated_at),
    written AS (
      INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
      SELECT e->>'id', e->>'projectId', (e->>'live')::boolean, e->>'type', e->'user'->>'id', e->'user'->>'userId',
        (e->>'createdAt')::bigint, e
      FROM jsonb_array_elements($10) e)
    SELECT version, ${announceUserWrite('$2', '$3', "$11 || version || ']'")} AS announced FROM upsert`,
} as const;

export type PreparedName = keyof typeof STATEMENTS;

/** Per connection: tracks run since its statements were prepared, and when to rebuild their plans. */
const prepared = new WeakMap<pg.ClientBase, { uses: number; replanAt: number }>();

/** First rebuild of a connection's plans after this many tracks, then after twice as many, and so on. */
const FIRST_REPLAN = 64;
const MAX_REPLAN_INTERVAL = 65_536;

/**
 * Prepares the statements on this connection unless it has them. It asks the connection first, so a
 * preparation that failed half-way is completed instead of failing on "already exists".
 */
export async function ensurePrepared(c: pg.ClientBase): Promise<void> {
  if (prepared.has(c)) return;
  const { rows } = await c.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'wb\\_%'");
  const have = new Set(rows.map((r) => r.name));
  const missing = Object.entries(STATEMENTS).filter(([name]) => !have.has(name));
  if (missing.length > 0) await c.query(missing.map(([name, sql]) => `PREPARE ${name} ${sql}`).join(';\n'));
  prepared.set(c, { uses: 0, replanAt: FIRST_REPLAN });
}

/**
 * `DISCARD PLANS` (for the head of a track's first batch) when this connection's generic plans are
 * due for rebuilding, else nothing. A generic plan is kept until the tables' statistics change, and
 * without autovacuum (or before it runs) they never do: plans made while a table was nearly empty
 * would read it as if it still were once it has grown. Rebuilding at 64, 128, 256, ... tracks keeps
 * each plan within a doubling of the data it was made for, at a cost of one planning per doubling.
 */
export function replanIfDue(c: pg.ClientBase): string[] {
  const state = prepared.get(c);
  if (!state || ++state.uses < state.replanAt) return [];
  state.replanAt += Math.min(state.replanAt, MAX_REPLAN_INTERVAL);
  return ['DISCARD PLANS'];
}

/** `EXECUTE name(args)`, for a batch on a connection `ensurePrepared` has seen; arguments are literals. */
export function execute(name: PreparedName, args: readonly string[]): string {
  return `EXECUTE ${name}(${args.join(', ')})`;
}
