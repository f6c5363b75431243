import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createdBeforeSql } from './delete-oldest.js';
import { MEMBERSHIPS_AFTER } from './fence-members.js';
import { openDatabase } from './open-database.js';
import { STOPPED_TRIPS_BEFORE } from './sqlite-trip-store.js';
import { USER_BY_ANY_ID, USERS_UPDATED_BEFORE } from './sqlite-user-store.js';

/** The plan SQLite picks, one line per step. */
function plan(sql: string, params: Record<string, unknown>): string[] {
  const db = openDatabase(':memory:');
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail);
  } finally {
    db.close();
  }
}

describe('SQLite query plans', () => {
  it('a user by any identity is three index searches, not a scan of the tenant', () => {
    const steps = plan(USER_BY_ANY_ID, { p: 'p', l: 0, id: 'x' });
    assert.equal(steps.filter((s) => /^SEARCH users USING INDEX/.test(s)).length, 3, steps.join('\n'));
    assert.ok(!steps.some((s) => /^SCAN users/.test(s)), steps.join('\n'));
  });

  it('the userId indexes leave out rows without a userId and still serve userId lookups', () => {
    const steps = plan(
      'SELECT doc FROM events WHERE project_id = @p AND live = @l AND user_id = @u ORDER BY created_at DESC, id DESC',
      { p: 'p', l: 0, u: 'u' },
    );
    assert.deepEqual(steps, ['SEARCH events USING INDEX events_user_id_page (project_id=? AND live=? AND user_id=?)']);
    const db = openDatabase(':memory:');
    try {
      const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name IN ('users_user_id', 'events_user_id_page')");
      for (const row of sql.all() as Array<{ sql: string }>) assert.match(row.sql, /WHERE user_id IS NOT NULL/);
    } finally {
      db.close();
    }
  });

  it('memberships are found by their key, user first; who is in a fence is read for memory in key-ordered chunks', () => {
    assert.deepEqual(plan('DELETE FROM user_geofences WHERE user_pk = @u', { u: 'u' }), [
      'SEARCH user_geofences USING PRIMARY KEY (user_pk=?)',
    ]);
    assert.deepEqual(plan('DELETE FROM user_geofences WHERE user_pk = @u AND geofence_id = @g', { u: 'u', g: 'g' }), [
      'SEARCH user_geofences USING PRIMARY KEY (user_pk=? AND geofence_id=?)',
    ]);
    assert.deepEqual(plan(MEMBERSHIPS_AFTER.replace(/\?/g, "'x'"), {}), [
      'SEARCH m USING PRIMARY KEY ((user_pk,geofence_id)>(?,?))',
      'SEARCH u USING INDEX sqlite_autoindex_users_1 (id=?)',
    ]);
  });

  it("the retention sweep's batches walk the tenant's time indexes from the oldest, without a sort", () => {
    const cases = [
      [createdBeforeSql('events'), 'events_page'],
      [createdBeforeSql('deliveries'), 'deliveries_page'],
      [USERS_UPDATED_BEFORE, 'users_page'],
      [STOPPED_TRIPS_BEFORE, 'trips_page'],
    ] as const;
    for (const [sql, index] of cases) {
      const positional = sql.replace(/@\w+/g, '?');
      const steps = plan(positional.replace(/\?/g, '1'), {});
      assert.ok(
        steps.some((st) => st.includes(`INDEX ${index} (project_id=? AND live=?`)),
        steps.join('\n'),
      );
      assert.ok(!steps.some((st) => /^SCAN \w+$|TEMP B-TREE/.test(st)), steps.join('\n'));
    }
  });
});
