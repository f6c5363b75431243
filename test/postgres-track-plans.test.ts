import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Tenant } from '../src/domain/tenant.js';
import { firstPageSql } from '../src/storage/postgres/paged-docs.js';
import { eventListQuery } from '../src/storage/postgres/postgres-event-store.js';
import { PostgresStore } from '../src/storage/postgres/postgres-store.js';
import { ensurePrepared, execute } from '../src/storage/postgres/prepared-statements.js';
import { lit } from '../src/storage/postgres/sql-batch.js';
import { engineEnv } from './helpers/engine.js';

/**
 * The track's generic plans are kept per connection until the tables' statistics change, and
 * without autovacuum they never do: a plan made while the users table was empty must still find a
 * candidate with one index probe once the tenant has thousands of users (migration 4's indexes),
 * not walk the tenant's users in updated_at order and filter them. The indexes a track adds to are
 * ascending (migration 9), and newest-first pages must still read them in order, not sort.
 * The third case adds to the events the second inserts (a suite's cases run in order).
 */
describe('PostgreSQL track and page plans', { skip: process.env.TEST_STORE !== 'postgres' }, () => {
  let store: PostgresStore;
  let client: pg.Client;
  let cleanup: () => Promise<void>;
  const tenant: Tenant = { projectId: 'plans', live: false };

  before(async () => {
    const engine = await engineEnv();
    store = await PostgresStore.open(engine.env.DATABASE_URL!);
    client = new pg.Client({ connectionString: engine.env.DATABASE_URL });
    await client.connect();
    cleanup = async () => {
      await client.end();
      await store.close();
      await engine.cleanup();
    };
  });
  after(() => cleanup?.());

  it('a generic plan made on an empty users table reads one index entry per candidate later', async () => {
    await ensurePrepared(client);
    await client.query('SET plan_cache_mode = force_generic_plan');
    const args = (deviceId: string, userId: string | null) =>
      [tenant.projectId, tenant.live, deviceId, userId].map(lit);
    // Made now, on an empty table, and kept: nothing analyses the table below.
    await client.query(`BEGIN; ${execute('wb_track_read', args('d-0', 'u-0'))}; COMMIT`);
    await client.query(
      `INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, doc)
       SELECT 'id-' || i, $1, $2, 'u-' || i, 'd-' || i, i, i, '{}' FROM generate_series(1, 3000) i`,
      [tenant.projectId, tenant.live],
    );
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF) ${execute('wb_track_read', args('d-1500', 'u-2500'))}`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.doesNotMatch(plan, /users_page/, plan);
    assert.doesNotMatch(plan, /Seq Scan on users/, plan);
    assert.doesNotMatch(plan, /Rows Removed by Filter: \d{2,}/, plan);
    assert.match(plan, /users_device_id_newest/, plan);
    assert.match(plan, /users_user_id_newest/, plan);
  });

  it('the indexes a track adds to are ascending, and newest-first pages read them backwards, unsorted', async () => {
    // Migration 9: a descending index takes every new row at the left end of its range.
    const written = [
      'events_page',
      'events_type_page',
      'events_user_pk_page',
      'events_user_id_page',
      'users_page',
      'users_user_id_newest',
      'users_device_id_newest',
      'user_geofences_page',
      'deliveries_page',
    ];
    const { rows: defs } = await client.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = ANY($1)',
      [written],
    );
    assert.equal(defs.length, written.length);
    for (const { indexdef } of defs) assert.doesNotMatch(indexdef, /DESC/, indexdef);
    // Migration 10: no spatial index on users, which no query reads (user search is in memory).
    const { rows: spatial } = await client.query(
      "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'users' AND indexdef ~ 'gist'",
    );
    assert.deepEqual(spatial, []);

    await client.query(
      `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
       SELECT 'ev-' || i, $1, $2, 'user.entered_geofence', 'id-' || (i % 50), NULL, i, '{}'
       FROM generate_series(1, 5000) i`,
      [tenant.projectId, tenant.live],
    );
    await client.query('ANALYZE events; ANALYZE users');
    const plans = {
      events_page: firstPageSql(eventListQuery(tenant, { limit: 10 })),
      // As PostgresUserStore.list pages.
      users_page: firstPageSql({
        from: 'FROM users WHERE project_id = $1 AND live = $2',
        params: [tenant.projectId, tenant.live],
        timeColumn: 'updated_at',
        idColumn: 'id',
        page: { limit: 10 },
      }),
    };
    for (const [index, { text, values }] of Object.entries(plans)) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${text}`, values);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      assert.match(plan, new RegExp(`Index Scan Backward using ${index}`), plan);
      assert.doesNotMatch(plan, /Sort/, plan);
    }
  });

  it("a page of one event type reads that type's index backwards, however rare the type", async () => {
    // 5,000 entries and 20 exits, with statistics: a list of types (`= ANY`) got every exit sorted.
    await client.query(
      `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
       SELECT 'exit-' || i, $1, $2, 'user.exited_geofence', 'id-1', NULL, 10 * i, '{}'
       FROM generate_series(1, 20) i`,
      [tenant.projectId, tenant.live],
    );
    await client.query('ANALYZE events');
    const { text, values } = firstPageSql(eventListQuery(tenant, { types: ['user.exited_geofence'], limit: 5 }));
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${text}`, values);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(plan, /Index Scan Backward using events_type_page/, plan);
    assert.doesNotMatch(plan, /Sort/, plan);
  });
});
