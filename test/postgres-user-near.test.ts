import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Tenant } from '../src/domain/tenant.js';
import type { Position } from '../src/geo/types.js';
import { USERS_CHANNEL } from '../src/storage/postgres/change-notifier.js';
import { PostgresStore } from '../src/storage/postgres/postgres-store.js';
import { userChangePrefix } from '../src/storage/postgres/user-near-cache.js';
import { engineEnv } from './helpers/engine.js';
import { makeUser } from './helpers/fixtures.js';

/**
 * Each process answers `users.near` from memory (user-near-cache.ts): two stores on one database
 * stand for two API processes. What one writes must reach the other's answers as PostgreSQL announces
 * it, and a late announcement of an older write must not undo a newer one.
 */
describe('PostgreSQL users.near across processes', { skip: process.env.TEST_STORE !== 'postgres' }, () => {
  let a: PostgresStore;
  let b: PostgresStore;
  let client: pg.Client;
  let cleanup: () => Promise<void>;
  const tenant: Tenant = { projectId: 'near', live: false };
  const P: Position = [-73.99, 40.7];
  const Q: Position = [-73.95, 40.72];
  const R: Position = [-73.9, 40.75];

  const idsNear = async (s: PostgresStore, p: Position) =>
    (await s.users.near(tenant, p, 200, 10, 0)).map((u) => `${u.id}:${u.description ?? ''}`);
  /** Polls `s` until `expected` (announcements travel asynchronously), then asserts it. */
  const eventually = async (s: PostgresStore, p: Position, expected: string[]) => {
    // Up to 5 s: CI runs two test files at once on two cores.
    for (let i = 0; i < 250; i++) {
      if (JSON.stringify(await idsNear(s, p)) === JSON.stringify(expected)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(await idsNear(s, p), expected);
  };

  before(async () => {
    const engine = await engineEnv();
    a = await PostgresStore.open(engine.env.DATABASE_URL!);
    b = await PostgresStore.open(engine.env.DATABASE_URL!);
    client = new pg.Client({ connectionString: engine.env.DATABASE_URL });
    await client.connect();
    cleanup = async () => {
      await client.end();
      await a.close();
      await b.close();
      await engine.cleanup();
    };
  });
  after(() => cleanup?.());

  it('sees users written before its first search, and its own writes at once', async () => {
    await a.users.save(makeUser(tenant, { id: 'u1', updatedAt: 1, location: P }));
    assert.deepEqual(await idsNear(b, P), ['u1:']);
    await b.users.save(makeUser(tenant, { id: 'u2', updatedAt: 1, location: Q }));
    assert.deepEqual(await idsNear(b, Q), ['u2:'], 'no wait for its own write');
  });

  it("follows the other process's moves, document changes and deletions", async () => {
    assert.deepEqual(await idsNear(a, P), ['u1:'], 'A keeps users too from here on');
    await a.users.save(makeUser(tenant, { id: 'u1', updatedAt: 2, location: Q, description: 'moved' }));
    await eventually(b, P, []);
    await eventually(b, Q, ['u1:moved', 'u2:']);
    await b.users.save(makeUser(tenant, { id: 'u2', updatedAt: 2, location: Q, description: 'renamed' }));
    await eventually(a, Q, ['u1:moved', 'u2:renamed']);
    assert.ok(await a.users.delete(tenant, 'u2'));
    await eventually(b, Q, ['u1:moved']);
  });

  it('a write announces itself only once some process keeps the tenant', async () => {
    const quiet: Tenant = { projectId: 'near-quiet', live: false };
    const heard: string[] = [];
    client.on('notification', (m) => heard.push(m.payload ?? ''));
    await client.query(`LISTEN ${USERS_CHANNEL}`);
    await a.users.save(makeUser(quiet, { id: 'q1', updatedAt: 1, location: P }));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(heard, [], 'no process keeps the tenant: nothing announced');
    assert.equal((await b.users.near(quiet, P, 200, 10, 0)).length, 1);
    await a.users.save(makeUser(quiet, { id: 'q1', updatedAt: 2, location: Q }));
    for (let i = 0; i < 250 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(
      heard.map((h) => JSON.parse(h)),
      [['near-quiet', false, 'q1', Q[0], Q[1], 1]],
    );
    await client.query(`UNLISTEN ${USERS_CHANNEL}`);
  });

  it('a late announcement of an older write does not move the user back', async () => {
    await a.users.save(makeUser(tenant, { id: 'u3', updatedAt: 3, location: P }));
    await a.users.save(makeUser(tenant, { id: 'u3', updatedAt: 4, location: R, description: 'newest' }));
    await eventually(b, R, ['u3:newest']);
    // Version 0 (u3's first write) at P, announced again after version 1: as another process's commit
    // can reach a process after its own later one.
    await client.query('SELECT pg_notify($1, $2)', [USERS_CHANNEL, `${userChangePrefix(tenant, 'u3', P)}0]`]);
    await a.users.save(makeUser(tenant, { id: 'u4', updatedAt: 4, location: P }));
    await eventually(b, P, ['u4:']);
    assert.deepEqual(await idsNear(b, R), ['u3:newest']);
  });
});
