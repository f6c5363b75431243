import type pg from 'pg';

/**
 * SQL-level prepared statements (`PREPARE` once per connection, `EXECUTE` with literal arguments) for
 * the statements of the track transaction's batches. A batch is one simple query, and PostgreSQL
 * parses and plans every statement of a simple query each time: planning the track's reads (the
 * trips read above all) cost it more CPU than running them. `EXECUTE` in a batch keeps the one round
 * trip and plans once per connection (or reuses a generic plan).
 */
const STATEMENTS = {
  wb_track_candidate_user_id: `(text, boolean, text) AS
    SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND user_id = $3
    ORDER BY updated_at DESC LIMIT 1 FOR UPDATE`,
  wb_track_candidate_device_id: `(text, boolean, text) AS
    SELECT doc FROM users WHERE project_id = $1 AND live = $2 AND device_id = $3
    ORDER BY updated_at DESC LIMIT 1 FOR UPDATE`,
  // Params: project, live, deviceId, userId (null matches nothing, as `= NULL` does).
  wb_track_reachable: `(text, boolean, text, text) AS
    SELECT id, user_id FROM users WHERE project_id = $1 AND live = $2 AND (device_id = $3 OR user_id = $4)`,
  // Two halves (a trip has a user_pk or none) whose generic plans are the right ones: the reachable
  // users' own trips by index, one user at a time (LATERAL), then those waiting for a user with these
  // ids (few: trips created for a user not tracked yet). OFFSET 0 keeps the planner from flattening it.
  wb_track_trips: `(text, boolean, text, text) AS
    SELECT t.doc, t.user_pk, t.user_id, t.device_id, t.created_at
    FROM (SELECT id FROM users WHERE project_id = $1 AND live = $2 AND (device_id = $3 OR user_id = $4)) u,
      LATERAL (SELECT * FROM trips WHERE project_id = $1 AND live = $2 AND active AND user_pk = u.id OFFSET 0) t
    UNION ALL
    SELECT doc, user_pk, user_id, device_id, created_at FROM trips
    WHERE project_id = $1 AND live = $2 AND active AND user_pk IS NULL AND (device_id = $3 OR user_id = $4
      OR user_id IN (SELECT user_id FROM users WHERE project_id = $1 AND live = $2
        AND (device_id = $3 OR user_id = $4)))`,
  wb_xact_lock: '(text) AS SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  wb_user_upsert: `(text, text, boolean, text, text, bigint, bigint, geography, jsonb) AS
    INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, location, doc)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, device_id = excluded.device_id,
      updated_at = excluded.updated_at, location = excluded.location, doc = excluded.doc`,
  wb_user_geofences_clear: '(text) AS DELETE FROM user_geofences WHERE user_pk = $1',
} as const;

export type PreparedName = keyof typeof STATEMENTS;

const ready = new WeakSet<pg.ClientBase>();

/**
 * Prepares the statements on this connection unless it has them. It asks the connection first, so a
 * preparation that failed half-way is completed instead of failing on "already exists".
 */
export async function ensurePrepared(c: pg.ClientBase): Promise<void> {
  if (ready.has(c)) return;
  const { rows } = await c.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'wb\\_%'");
  const have = new Set(rows.map((r) => r.name));
  const missing = Object.entries(STATEMENTS).filter(([name]) => !have.has(name));
  if (missing.length > 0) await c.query(missing.map(([name, sql]) => `PREPARE ${name} ${sql}`).join(';\n'));
  ready.add(c);
}

/** `EXECUTE name(args)`, for a batch on a connection `ensurePrepared` has seen; arguments are literals. */
export function execute(name: PreparedName, args: readonly string[]): string {
  return `EXECUTE ${name}(${args.join(', ')})`;
}
