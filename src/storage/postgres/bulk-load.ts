import type { Geofence } from '../../domain/geofences/geofence.js';
import type { Tenant } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';
import type { PostgresStore } from './postgres-store.js';

/**
 * Bulk loads for seeding (the bench, large imports): one statement per batch instead of one per
 * record, and one notification per tenant at the end, so running API processes reload the tenant
 * once instead of re-reading every record. New records only (no upsert by tag + externalId).
 */
export async function insertGeofences(
  store: PostgresStore,
  tenant: Tenant,
  fences: readonly Geofence[],
): Promise<void> {
  await store.pool.query(
    `INSERT INTO geofences (id, project_id, live, tag, external_id, delete_after, created_at, geom, doc)
     SELECT id, $1, $2, tag, external_id, delete_after, created_at, ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326), doc
     FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::jsonb[])
       AS t(id, tag, external_id, delete_after, created_at, geometry, doc)`,
    [
      tenant.projectId,
      tenant.live,
      fences.map((g) => g.id),
      fences.map((g) => g.tag),
      fences.map((g) => g.externalId),
      fences.map((g) => g.deleteAfter),
      fences.map((g) => g.createdAt),
      fences.map((g) => JSON.stringify(g.geometry)),
      fences.map((g) => JSON.stringify(g)),
    ],
  );
}

/** Users without geofence memberships (a seeded population). */
export async function insertUsers(store: PostgresStore, tenant: Tenant, users: readonly User[]): Promise<void> {
  await store.pool.query(
    `INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, location, doc)
     SELECT id, $1, $2, user_id, device_id, created_at, updated_at, location::geography, doc
     FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::text[], $9::jsonb[])
       AS t(id, user_id, device_id, created_at, updated_at, location, doc)`,
    [
      tenant.projectId,
      tenant.live,
      users.map((u) => u.id),
      users.map((u) => u.userId),
      users.map((u) => u.deviceId),
      users.map((u) => u.createdAt),
      users.map((u) => u.updatedAt),
      users.map((u) => (u.location ? `SRID=4326;POINT(${u.location[0]} ${u.location[1]})` : null)),
      users.map((u) => JSON.stringify(u)),
    ],
  );
}

/**
 * Refreshes the table's planner statistics (a table that grew from empty is otherwise read by
 * sequential scans and sorts until autovacuum gets to it), then tells every API process that the
 * tenant's `kind` records changed wholesale (they reload it).
 */
export async function announceBulkLoad(
  store: PostgresStore,
  tenant: Tenant,
  kind: 'geofences' | 'users',
): Promise<void> {
  await store.pool.query(`ANALYZE ${kind}`);
  await store.notifier.notify(store.pool, kind, tenant);
}
