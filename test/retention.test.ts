import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { DEFAULT_RETENTION } from '../src/domain/retention/retention.js';
import { assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';
import { startTrip } from './helpers/trips.js';

const DAY = 86_400_000;

/** Rows of `trip_locations` for the trip, read from the store's own tables (no API reads them alone). */
async function tripPointRows(s: TestServer, tripId: string): Promise<number> {
  if (s.deps.store.engine === 'postgres') {
    const client = new pg.Client({ connectionString: s.deps.config.databaseUrl! });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM trip_locations WHERE trip_id = $1', [tripId]);
      return rows[0].n;
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(s.dataDir, 'whereabouts.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM trip_locations WHERE trip_id = ?').get(tripId) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('data retention', () => {
  const clock = new ManualClock();
  let s: TestServer;
  const secret = () => s.keys.test.secret;
  const get = (path: string) => s.request('GET', path, { key: secret() });
  const eventDevices = async () => {
    const res = await get('/v1/events?limit=1000');
    assertOk(res);
    return (res.body.events as Array<{ _id: string; user: { deviceId: string } }>).map((e) => e.user.deviceId);
  };
  const center = offset(BROOKLYN, 3000, 3000);
  let oldUserId: string;
  let other: Awaited<ReturnType<TestServer['createProject']>>;

  before(async () => {
    s = await startServer({ clock });
    // Three overlapping fences: every first track inside makes three entry events.
    for (let f = 0; f < 3; f++) await putCircle(s, 'keep', `f${f}`, offset(center, f * 5, 0), 300);
    // 40 devices whose only update is 400 days old (their clients sent it late, in order).
    const longAgo = new Date(clock.now() - 400 * DAY).toISOString();
    for (let i = 0; i < 40; i++) {
      const res = await track(s, trackBody(`old-${i}`, center, { updatedAt: longAgo }));
      assertOk(res);
      assert.equal(res.body.events.length, 3);
      if (i === 0) oldUserId = res.body.user._id;
    }
    assertOk(await track(s, trackBody('recent', center, { userId: 'recent-user' })));
    // Another project that keeps everything, with its own device of 400 days ago.
    other = await s.createProject('keeps-all');
    await s.updateProject('keeps-all', (p) => ({
      ...p,
      retention: { eventsDays: null, tripsDays: null, usersDays: null },
    }));
    await putCircle(s, 'keep', 'f0', center, 300, {}, other.keys.test.secret);
    assertOk(await track(s, trackBody('old-0', center, { updatedAt: longAgo }), other.keys.test.publishable));
    // A stopped trip and an active one, both of the recent user.
    assertOk(await startTrip(s, { userId: 'recent-user', externalId: 'done-trip' }));
    clock.advance(30_000);
    assertOk(await track(s, trackBody('recent', offset(center, 50, 0), { userId: 'recent-user' })));
    const done = await s.request('PATCH', '/v1/trips/done-trip', {
      key: s.keys.test.publishable,
      json: { status: 'completed' },
    });
    assertOk(done);
  });
  after(() => s.close());

  it('projects keep events and users a year and stopped trips 90 days unless told otherwise', () => {
    assert.deepEqual(DEFAULT_RETENTION, { eventsDays: 365, tripsDays: 90, usersDays: 365 });
  });

  it('removes the events and users older than a year, in batches, and keeps the rest', async () => {
    // A search first, so that user search keeps the documents it confirmed.
    const nearQuery = `/v1/search/users?near=${center[1]},${center[0]}&radius=1000&limit=100`;
    assert.equal((await get(nearQuery)).body.users.length, 41);
    const all = await eventDevices();
    assert.equal(all.filter((d) => d.startsWith('old-')).length, 120);
    const removed = await s.deps.services.retention.sweep(7);
    assert.deepEqual(removed, { events: 120, trips: 0, users: 40 });
    const left = await eventDevices();
    assert.equal(left.length, all.length - 120);
    assert.ok(left.length >= 3 && left.every((d) => d === 'recent'), left.join());
    for (const id of [oldUserId, 'old-0', 'old-39']) assert.equal((await get(`/v1/users/${id}`)).status, 404, id);
    const users = await get('/v1/users?limit=100');
    assert.deepEqual(
      users.body.users.map((u: { deviceId: string }) => u.deviceId),
      ['recent'],
    );
    // Every index of users follows: the fence's members, user search near the fences.
    const fence = await get('/v1/geofences/keep/f0/users?limit=100');
    assertOk(fence);
    assert.deepEqual(
      fence.body.users.map((u: { deviceId: string }) => u.deviceId),
      ['recent'],
    );
    const near = await get(nearQuery);
    assertOk(near);
    assert.deepEqual(
      near.body.users.map((u: { deviceId: string }) => u.deviceId),
      ['recent'],
    );
    assert.deepEqual(await s.deps.services.retention.sweep(), { events: 0, trips: 0, users: 0 });
    // The other project's policy keeps its old device and event.
    const kept = await s.request('GET', '/v1/events', { key: other.keys.test.secret });
    assert.equal(kept.body.events.length, 1);
    assertOk(await s.request('GET', '/v1/users/old-0', { key: other.keys.test.secret }));
  });

  it('a device whose user was removed comes back as a new user that enters its fences again', async () => {
    const res = await track(s, trackBody('old-0', center));
    assertOk(res);
    assert.notEqual(res.body.user._id, oldUserId);
    assert.deepEqual(
      res.body.events.map((e: { type: string }) => e.type),
      ['user.entered_geofence', 'user.entered_geofence', 'user.entered_geofence'],
    );
  });

  it('removes stopped trips 90 days after their last update, with their points, and never an active one', async () => {
    const tenant = { projectId: s.projectId, live: false };
    const doneId = (await s.deps.store.trips.getByExternalId(tenant, 'done-trip'))!.id;
    assert.ok((await tripPointRows(s, doneId)) > 0, 'the stopped trip has tracked points');
    assertOk(await startTrip(s, { userId: 'recent-user', externalId: 'live-trip' }));
    // An expiry window longer than the policy: the untouched trip stays active, so it must stay.
    await s.updateProject('default', (p) => ({ ...p, tripExpiryMinutes: 100 * 24 * 60 }));
    clock.advance(89 * DAY);
    assert.equal((await s.deps.services.retention.sweep()).trips, 0);
    clock.advance(2 * DAY);
    assert.equal((await s.deps.services.retention.sweep()).trips, 1);
    assert.equal((await get('/v1/trips/done-trip')).status, 404);
    assert.equal(await tripPointRows(s, doneId), 0);
    assert.equal((await s.deps.store.trips.getByExternalId(tenant, 'live-trip'))?.status, 'started');
    // Back to a day's window: the trip abandoned 91 days ago expires, as a read would have done, and goes.
    await s.updateProject('default', (p) => ({ ...p, tripExpiryMinutes: 24 * 60 }));
    assert.equal((await s.deps.services.retention.sweep()).trips, 1);
    assert.equal((await get('/v1/trips/live-trip')).status, 404);
  });

  it('follows the project policy: forever keeps, fewer days remove sooner', async () => {
    await s.updateProject('default', (p) => ({ ...p, retention: { eventsDays: null, tripsDays: 90, usersDays: 30 } }));
    const before = await eventDevices();
    assert.ok(before.length > 0);
    clock.advance(400 * DAY);
    const removed = await s.deps.services.retention.sweep();
    assert.equal(removed.events, 0);
    assert.equal(removed.users, 2, 'the recent user and the returned old-0');
    assert.deepEqual(await eventDevices(), before);
    const users = await get('/v1/users?limit=100');
    assert.deepEqual(users.body.users, []);
  });
});
