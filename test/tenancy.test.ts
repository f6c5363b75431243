import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Tenant } from '../src/domain/tenant.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { circleBody, makeUser } from './helpers/fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

const UUID = '8492e75f-4fd6-469d-b132-043fe94921d8';
const SETTINGS = {
  chainMetadata: { starbucks: { owner: 'a-live' } },
  chainMappings: { starbucks: 'a-live-sb' },
  placeFilters: { chain: ['starbucks'], category: ['food-beverage'] },
};

/**
 * Project A's live environment owns a geofence, a beacon, a user inside the geofence and place
 * settings. A's test key and both keys of project B must neither see nor change any of it, through
 * any endpoint, even when they use the same tag, externalId, uuid/major/minor or userId.
 */
describe('tenant isolation', () => {
  let s: TestServer;
  let owner: string;
  let others: Array<[string, string]>;
  let geofenceId: string;
  let beaconId: string;
  const USER_ID = 'a0000000000000000000000a';
  before(async () => {
    s = await startServer();
    owner = s.keys.live.secret;
    const b = await s.createProject('project-b');
    others = [
      ['A test', s.keys.test.secret],
      ['B live', b.keys.live.secret],
      ['B test', b.keys.test.secret],
    ];
    const g = await s.request('PUT', '/v1/geofences/shared/g1', {
      key: owner,
      json: circleBody({ description: 'A live fence' }),
    });
    assertOk(g);
    geofenceId = g.body.geofence._id;
    const beacon = await s.request('POST', '/v1/beacons', {
      key: owner,
      json: {
        description: 'A live beacon',
        type: 'ibeacon',
        uuid: UUID,
        major: '1',
        minor: '1',
        tag: 'shared',
        externalId: 'b1',
        coordinates: [0, 0],
        enabled: true,
        metadata: { owner: 'a' },
      },
    });
    assertOk(beacon);
    beaconId = beacon.body.beacon._id;
    const tenant: Tenant = { projectId: s.projectId, live: true };
    await s.deps.store.users.save(
      makeUser(tenant, {
        id: USER_ID,
        userId: 'shared-user',
        deviceId: 'shared-device',
        updatedAt: Date.now(),
        geofences: [{ geofenceId, enteredAt: Date.now(), dwelled: false }],
      }),
    );
    assertOk(await s.request('PATCH', '/v1/settings', { key: owner, json: SETTINGS }));
  });
  after(() => s.close());

  it('geofences: other tenants list none, get and delete 404 by _id and tag/externalId', async () => {
    for (const [who, key] of others) {
      const list = await s.request('GET', '/v1/geofences?limit=1000', { key });
      assertOk(list);
      assert.deepEqual(list.body.geofences, [], who);
      assertError(await s.request('GET', `/v1/geofences/${geofenceId}`, { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/shared/g1', { key }), 404);
      assertError(await s.request('GET', '/v1/geofences/shared/g1/users', { key }), 404);
      assertError(await s.request('DELETE', `/v1/geofences/${geofenceId}`, { key }), 404);
      assertError(await s.request('DELETE', '/v1/geofences/shared/g1', { key }), 404);
    }
  });

  it('beacons: other tenants list none, get and delete 404 by _id and uuid/major/minor', async () => {
    for (const [who, key] of others) {
      const list = await s.request('GET', '/v1/beacons?limit=1000', { key });
      assertOk(list);
      assert.deepEqual(list.body.beacons, [], who);
      for (const q of ['tag=shared', 'externalId=b1']) {
        assert.deepEqual((await s.request('GET', `/v1/beacons?${q}`, { key })).body.beacons, [], `${who} ${q}`);
      }
      assertError(await s.request('GET', `/v1/beacons/${beaconId}`, { key }), 404);
      assertError(await s.request('GET', `/v1/beacons/${UUID}/1/1`, { key }), 404);
      assertError(await s.request('GET', '/v1/beacons/shared/b1', { key }), 404);
      assertError(await s.request('DELETE', `/v1/beacons/${beaconId}`, { key }), 404);
      assertError(await s.request('DELETE', `/v1/beacons/${UUID}/1/1`, { key }), 404);
    }
  });

  it('users: other tenants list none, get and delete 404 by _id, userId and deviceId', async () => {
    for (const [who, key] of others) {
      const list = await s.request('GET', '/v1/users?limit=1000', { key });
      assertOk(list);
      assert.deepEqual(list.body.users, [], who);
      for (const id of [USER_ID, 'shared-user', 'shared-device']) {
        assertError(await s.request('GET', `/v1/users/${id}`, { key }), 404);
        assertError(await s.request('DELETE', `/v1/users/${id}`, { key }), 404);
      }
    }
  });

  it('settings: other tenants read defaults', async () => {
    for (const [who, key] of others) {
      const res = await s.request('GET', '/v1/settings', { key });
      assertOk(res);
      assert.deepEqual(res.body.chainMappings, {}, who);
      assert.deepEqual(res.body.chainMetadata, {}, who);
      assert.deepEqual(res.body.placeFilters, { chain: [], category: [] }, who);
    }
  });

  it('writes with the same names create separate records in each tenant', async () => {
    for (const [who, key] of others) {
      const g = await s.request('PUT', '/v1/geofences/shared/g1', { key, json: circleBody({ description: who }) });
      assertOk(g);
      assert.notEqual(g.body.geofence._id, geofenceId);
      // Users in "their" shared/g1 are their own (none), not A live's user.
      const inside = await s.request('GET', '/v1/geofences/shared/g1/users', { key });
      assertOk(inside);
      assert.deepEqual(inside.body.users, [], who);

      const beaconBody = { description: who, type: 'ibeacon', uuid: UUID, major: '1', minor: '1', coordinates: [1, 1] };
      const created = await s.request('POST', '/v1/beacons', {
        key,
        json: { ...beaconBody, enabled: true, metadata: {} },
      });
      assertOk(created);
      assert.notEqual(created.body.beacon._id, beaconId, 'the same uuid/major/minor is free in another tenant');
      const upserted = await s.request('PUT', '/v1/beacons/shared/b1', { key, json: { ...beaconBody, minor: '2' } });
      assertOk(upserted);
      assert.notEqual(upserted.body.beacon._id, beaconId);

      const patched = await s.request('PATCH', '/v1/settings', { key, json: { chainMappings: { starbucks: who } } });
      assertOk(patched);
      assert.deepEqual(patched.body.chainMetadata, {}, 'a PATCH starts from the tenant’s own settings');

      // Their deletes reach only their own records.
      assertOk(await s.request('DELETE', '/v1/geofences/shared/g1', { key }));
      assertOk(await s.request('DELETE', `/v1/beacons/${UUID}/1/1`, { key }));
    }
  });

  it('the same userId in two tenants stays two users', async () => {
    const test: Tenant = { projectId: s.projectId, live: false };
    await s.deps.store.users.save(
      makeUser(test, { id: 'b0000000000000000000000b', userId: 'shared-user', updatedAt: Date.now() }),
    );
    const mine = await s.request('GET', '/v1/users/shared-user', { key: s.keys.test.secret });
    assert.equal(mine.body.user._id, 'b0000000000000000000000b');
    assert.equal(mine.body.user.live, false);
    assertOk(await s.request('DELETE', '/v1/users/shared-user', { key: s.keys.test.secret }));
    assertError(await s.request('GET', '/v1/users/shared-user', { key: s.keys.test.secret }), 404);
  });

  it('the owner still has everything, unchanged', async () => {
    const g = await s.request('GET', '/v1/geofences/shared/g1', { key: owner });
    assertOk(g);
    assert.equal(g.body.geofence._id, geofenceId);
    assert.equal(g.body.geofence.description, 'A live fence');
    assert.equal(g.body.geofence.live, true);
    assert.equal((await s.request('GET', '/v1/geofences', { key: owner })).body.geofences.length, 1);

    const inside = await s.request('GET', '/v1/geofences/shared/g1/users', { key: owner });
    assert.deepEqual(
      inside.body.users.map((u: { _id: string }) => u._id),
      [USER_ID],
    );

    const b = await s.request('GET', `/v1/beacons/${UUID}/1/1`, { key: owner });
    assertOk(b);
    assert.equal(b.body.beacon._id, beaconId);
    assert.equal(b.body.beacon.description, 'A live beacon');
    assert.equal(b.body.beacon.minor, '1');
    assert.equal((await s.request('GET', '/v1/beacons', { key: owner })).body.beacons.length, 1);

    const u = await s.request('GET', '/v1/users/shared-user', { key: owner });
    assertOk(u);
    assert.equal(u.body.user._id, USER_ID);
    assert.equal(u.body.user.live, true);
    assert.deepEqual(
      u.body.user.geofences.map((x: { _id: string }) => x._id),
      [geofenceId],
    );

    const settings = await s.request('GET', '/v1/settings', { key: owner });
    // Project features and segments are the project's, not a tenant's settings (test/regions.test.ts).
    const { meta: _meta, features: _features, segments: _segments, ...rest } = settings.body;
    assert.deepEqual(rest, SETTINGS);
  });
});
