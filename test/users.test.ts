import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Tenant } from '../src/domain/tenant.js';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { assertExactlyOnce, assertNewestFirst, circleBody, makeUser, pageThrough } from './helpers/fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');

describe('users', () => {
  let s: TestServer;
  let key: string;
  let tenant: Tenant;
  before(async () => {
    s = await startServer();
    key = s.keys.test.secret;
    tenant = { projectId: s.projectId, live: false };
    // u0..u4 updated one second apart; u4 is the most recent.
    for (let i = 0; i < 5; i++) {
      await s.deps.store.users.save(
        makeUser(tenant, {
          id: `a0000000000000000000000${i}`,
          userId: `user-${i}`,
          deviceId: `device-${i}`,
          description: `User ${i}`,
          metadata: { n: i },
          updatedAt: T0 + i * 1000,
          createdAt: T0 - 60_000,
        }),
      );
    }
  });
  after(() => s.close());
  const userIds = (res: { body: { users: Array<{ userId: string }> } }) => res.body.users.map((u) => u.userId);

  it('lists users sorted by updatedAt descending', async () => {
    const res = await s.request('GET', '/v1/users', { key });
    assertOk(res);
    assert.equal(res.body.meta.hasMore, false);
    assert.deepEqual(userIds(res), ['user-4', 'user-3', 'user-2', 'user-1', 'user-0']);
    const u = res.body.users[0];
    assert.equal(u._id, 'a00000000000000000000004');
    assert.equal(u.live, false);
    assert.equal(u.deviceId, 'device-4');
    assert.equal(u.description, 'User 4');
    assert.deepEqual(u.metadata, { n: 4 });
    assert.deepEqual(u.location, { type: 'Point', coordinates: [-73.9867, 40.7039] });
    assert.equal(u.updatedAt, new Date(T0 + 4000).toISOString());
    assertIsoMs(u.createdAt);
    assert.deepEqual(u.geofences, []);
  });

  it('honours limit with hasMore', async () => {
    const res = await s.request('GET', '/v1/users?limit=2', { key });
    assertOk(res);
    assert.equal(res.body.meta.hasMore, true);
    assert.deepEqual(userIds(res), ['user-4', 'user-3']);
    const exact = await s.request('GET', '/v1/users?limit=5', { key });
    assert.equal(exact.body.meta.hasMore, false);
  });

  it('filters by updatedBefore and updatedAfter (exclusive), datetimes or dates', async () => {
    const iso = (i: number) => encodeURIComponent(new Date(T0 + i * 1000).toISOString());
    assert.deepEqual(userIds(await s.request('GET', `/v1/users?updatedBefore=${iso(2)}`, { key })), [
      'user-1',
      'user-0',
    ]);
    assert.deepEqual(userIds(await s.request('GET', `/v1/users?updatedAfter=${iso(2)}`, { key })), [
      'user-4',
      'user-3',
    ]);
    const between = await s.request('GET', `/v1/users?updatedAfter=${iso(0)}&updatedBefore=${iso(4)}&limit=2`, { key });
    assert.deepEqual(userIds(between), ['user-3', 'user-2']);
    assert.equal(between.body.meta.hasMore, true);
    // iOS writes offsets without a colon; a date alone means midnight UTC.
    assert.deepEqual(userIds(await s.request('GET', '/v1/users?updatedAfter=2026-03-01T11:00:02%2B0100', { key })), [
      'user-4',
      'user-3',
    ]);
    assert.deepEqual(userIds(await s.request('GET', '/v1/users?updatedBefore=2026-03-01', { key })), []);
    assert.equal((await s.request('GET', '/v1/users?updatedAfter=2026-03-01', { key })).body.users.length, 5);
  });

  it('gets a user by _id, userId or deviceId', async () => {
    for (const id of ['a00000000000000000000002', 'user-2', 'device-2']) {
      const res = await s.request('GET', `/v1/users/${id}`, { key });
      assertOk(res);
      assert.equal(res.body.user._id, 'a00000000000000000000002');
      assert.equal(res.body.user.userId, 'user-2');
    }
  });

  it('shows the geofences a user is in', async () => {
    const g = (await s.request('PUT', '/v1/geofences/users-test/home', { key, json: circleBody() })).body.geofence;
    await s.deps.store.users.save(
      makeUser(tenant, {
        id: 'b00000000000000000000001',
        userId: 'fenced',
        updatedAt: T0 - 5000,
        geofences: [{ geofenceId: g._id, enteredAt: T0 - 5000, dwelled: false }],
      }),
    );
    const res = await s.request('GET', '/v1/users/fenced', { key });
    assertOk(res);
    assert.equal(res.body.user.geofences.length, 1);
    assert.equal(res.body.user.geofences[0]._id, g._id);
    assert.equal(res.body.user.geofences[0].externalId, 'home');
  });

  it('404s an unknown user', async () => {
    assertError(await s.request('GET', '/v1/users/nobody', { key }), 404);
    assertError(await s.request('DELETE', '/v1/users/nobody', { key }), 404);
  });

  it('deletes a user by userId, then 404 by every id', async () => {
    await s.deps.store.users.save(
      makeUser(tenant, {
        id: 'c00000000000000000000001',
        userId: 'doomed',
        deviceId: 'doomed-device',
        updatedAt: T0 - 9000,
      }),
    );
    assertOk(await s.request('DELETE', '/v1/users/doomed', { key }));
    for (const id of ['c00000000000000000000001', 'doomed', 'doomed-device']) {
      assertError(await s.request('GET', `/v1/users/${id}`, { key }), 404);
    }
    const list = await s.request('GET', '/v1/users?limit=1000', { key });
    assert.ok(!list.body.users.some((u: { userId: string }) => u.userId === 'doomed'));
  });

  it('deletes by _id and by deviceId', async () => {
    for (const [id, by] of [
      ['d00000000000000000000001', 'd00000000000000000000001'],
      ['d00000000000000000000002', 'dev-d2'],
    ] as const) {
      await s.deps.store.users.save(
        makeUser(tenant, { id, deviceId: `dev-${id === by ? 'd1' : 'd2'}`, updatedAt: T0 - 20_000 }),
      );
      assertOk(await s.request('DELETE', `/v1/users/${by}`, { key }));
      assertError(await s.request('GET', `/v1/users/${id}`, { key }), 404);
    }
  });

  it('answers unreadable paths in the error shape, with CORS and a request id', async () => {
    for (const path of [`/v1/users/${'x'.repeat(600)}`, '/v1/users/%E0%A4%A', `/v1/geofences/${'t'.repeat(600)}/e`]) {
      const res = await s.request('GET', path, { key, headers: { origin: 'http://app.example' } });
      assertError(res, 400, 'path');
      assert.equal(res.headers.get('access-control-allow-origin'), 'http://app.example');
      assert.ok(res.headers.get('x-request-id'));
    }
  });

  it('rejects bad list parameters', async () => {
    assertError(await s.request('GET', '/v1/users?limit=0', { key }), 400, 'limit');
    assertError(await s.request('GET', '/v1/users?limit=1001', { key }), 400, 'limit');
    assertError(await s.request('GET', '/v1/users?limit=ten', { key }), 400, 'limit');
    assertError(await s.request('GET', '/v1/users?limit=-5', { key }), 400, 'limit');
    assertError(await s.request('GET', '/v1/users?updatedBefore=soon', { key }), 400, 'updatedBefore');
    assertError(await s.request('GET', '/v1/users?updatedAfter=2026-02-29', { key }), 400, 'updatedAfter');
    assertError(await s.request('GET', `/v1/users/${'x'.repeat(257)}`, { key }), 400, 'id');
  });
});

describe('user pagination exactness', () => {
  it('pages 230 users sharing milliseconds with limit=50 and the last updatedAt: each exactly once, newest first', async () => {
    const s = await startServer();
    try {
      const tenant = { projectId: s.projectId, live: true };
      const ids: string[] = [];
      for (let i = 0; i < 230; i++) {
        const id = `e${String(i).padStart(23, '0')}`;
        ids.push(id);
        // Runs of 1 to 13 users per millisecond, as many devices tracking at once would make.
        await s.deps.store.users.save(
          makeUser(tenant, { id, userId: `p-${i}`, updatedAt: T0 + Math.floor(i / 13) + (i % 3) }),
        );
      }
      const items = await pageThrough(s, s.keys.live.secret, {
        path: '/v1/users',
        field: 'users',
        timeField: 'updatedAt',
        cursor: 'updatedBefore',
        limit: 50,
      });
      assertExactlyOnce(items, ids);
      assertNewestFirst(items, 'updatedAt');
    } finally {
      await s.close();
    }
  });
});
