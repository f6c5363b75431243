import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, type TestServer } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';
import { BROOKLYN, offset, putCircle, typesOf } from './helpers/tracking.js';
import { expectedEta, getTrip, patchTrip, startTrip, trackLater, tripEventsOf } from './helpers/trips.js';

/** Puts the fence trips in these tests head for: tag `store`, externalId `s1`, at Brooklyn. */
const withStore = async (s: TestServer) => {
  await putCircle(s, 'store', 's1', BROOKLYN, 100);
};

const DESTINATION = { destinationGeofenceTag: 'store', destinationGeofenceExternalId: 's1' };

describe('trips through track: start, ETA, approaching, arrival, stop', () => {
  const clock = new ManualClock();
  const srv = serverSuite({ clock }, withStore);
  /** The options user-a's device tracks with, the same on every track while the trip is on. */
  const TRIP_A = {
    externalId: 'trip-a',
    ...DESTINATION,
    mode: 'car',
    metadata: { order: 'A1', items: 3 },
    approachingThreshold: 3,
  };

  it('starts a trip from tripOptions and answers user.trip with the ETA while it is active', async () => {
    const far = offset(BROOKLYN, 0, 5000);
    const res = await trackLater(srv.s, clock, 'dev-a', far, {
      userId: 'user-a',
      tripOptions: TRIP_A,
    });
    assert.deepEqual(tripEventsOf(res), ['user.started_trip']);
    const event = res.body.events.find((e: { type: string }) => e.type === 'user.started_trip');
    assert.equal(event.trip.externalId, 'trip-a');
    assert.deepEqual(event.location, { type: 'Point', coordinates: far });
    assert.equal(event.user.userId, 'user-a');
    assertIsoMs(event.createdAt);
    const trip = res.body.user.trip;
    assert.equal(trip.status, 'started');
    assert.equal(trip.externalId, 'trip-a');
    assert.equal(trip.mode, 'car');
    assert.equal(trip.active, true);
    assert.equal(trip.live, false);
    assert.deepEqual(trip.metadata, { order: 'A1', items: 3 });
    assert.equal(trip.approachingThreshold, 3);
    assert.deepEqual(trip.destinationLocation, { type: 'Point', coordinates: BROOKLYN });
    assert.deepEqual(trip.eta, expectedEta(far, BROOKLYN));
    assert.deepEqual(trip.user, { _id: res.body.user._id, userId: 'user-a', deviceId: 'dev-a' });
    for (const f of ['createdAt', 'startedAt', 'updatedAt']) assertIsoMs(trip[f], f);
    assert.equal(trip.locations, undefined, 'user.trip leaves the path out');
  });

  it('moves the trip on with each track: path, new ETA, no event while nothing changes', async () => {
    const nearer = offset(BROOKLYN, 0, 3000);
    const res = await trackLater(srv.s, clock, 'dev-a', nearer, {
      userId: 'user-a',
      tripOptions: TRIP_A,
    });
    assert.deepEqual(tripEventsOf(res), [], 'resent options of the trip in progress are not a new trip');
    assert.deepEqual(res.body.user.trip.eta, expectedEta(nearer, BROOKLYN));
    assert.equal(res.body.user.trip.updatedAt, new Date(clock.now()).toISOString());
    const got = await getTrip(srv.s, 'trip-a');
    assertOk(got);
    assert.equal(got.body.locations.length, 2);
    assert.deepEqual(got.body.locations[1], {
      type: 'Point',
      coordinates: nearer,
      updatedAt: new Date(clock.now()).toISOString(),
    });
  });

  it('updates the trip when the resent options change (user.updated_trip)', async () => {
    const res = await trackLater(srv.s, clock, 'dev-a', offset(BROOKLYN, 0, 2900), {
      userId: 'user-a',
      tripOptions: { version: '2', externalId: 'trip-a', metadata: { order: 'A1', items: 4 } },
    });
    assert.deepEqual(tripEventsOf(res), ['user.updated_trip']);
    assert.deepEqual(res.body.user.trip.metadata, { order: 'A1', items: 4 });
    assert.equal(res.body.user.trip.approachingThreshold, 3, 'options left out keep their value');
  });

  it('becomes approaching when the ETA falls to the threshold, once', async () => {
    // 1 km straight is 1.3 km by the car estimate: 1.95 minutes, under the 3-minute threshold.
    const near = offset(BROOKLYN, 0, 1000);
    const res = await trackLater(srv.s, clock, 'dev-a', near, { userId: 'user-a' });
    assert.deepEqual(tripEventsOf(res), ['user.approaching_trip_destination']);
    assert.equal(res.body.user.trip.status, 'approaching');
    assert.ok(res.body.user.trip.eta.duration <= 3);
    const again = await trackLater(srv.s, clock, 'dev-a', offset(BROOKLYN, 0, 900), { userId: 'user-a' });
    assert.deepEqual(tripEventsOf(again), []);
    assert.equal(again.body.user.trip.status, 'approaching');
  });

  it('arrives when the user enters the destination geofence, with arrivedAt', async () => {
    const res = await trackLater(srv.s, clock, 'dev-a', offset(BROOKLYN, 10, 10), { userId: 'user-a' });
    assert.deepEqual(typesOf(res), ['user.entered_geofence', 'user.arrived_at_trip_destination']);
    const trip = res.body.user.trip;
    assert.equal(trip.status, 'arrived');
    assert.equal(trip.arrivedAt, new Date(clock.now()).toISOString());
    assert.equal(trip.active, true);
    const still = await trackLater(srv.s, clock, 'dev-a', offset(BROOKLYN, 5, 5), { userId: 'user-a' });
    assert.deepEqual(tripEventsOf(still), []);
    assert.equal(still.body.user.trip.status, 'arrived');
  });

  it('drops user.trip once completed; resent options of the stopped trip do not restart it', async () => {
    const done = await patchTrip(srv.s, 'trip-a', { status: 'completed' });
    assertOk(done);
    assert.deepEqual(tripEventsOf(done), ['user.stopped_trip:completed']);
    assert.equal(done.body.trip.status, 'completed');
    assert.equal(done.body.trip.active, false);
    assertIsoMs(done.body.trip.completedAt, 'completedAt');
    const after = await trackLater(srv.s, clock, 'dev-a', BROOKLYN, {
      userId: 'user-a',
      tripOptions: { externalId: 'trip-a', ...DESTINATION },
    });
    assert.equal(after.body.user.trip, undefined);
    assert.deepEqual(tripEventsOf(after), []);
    assert.equal((await getTrip(srv.s, 'trip-a')).body.status, 'completed');
  });

  it('arrives at once when the trip starts with the user already inside the destination', async () => {
    await trackLater(srv.s, clock, 'dev-b', offset(BROOKLYN, 20, 0));
    const res = await trackLater(srv.s, clock, 'dev-b', offset(BROOKLYN, 25, 0), {
      tripOptions: { externalId: 'trip-b', ...DESTINATION, mode: 'foot' },
    });
    assert.deepEqual(tripEventsOf(res), ['user.started_trip', 'user.arrived_at_trip_destination']);
    assert.equal(res.body.user.trip.status, 'arrived');
    assert.equal(res.body.user.trip.mode, 'foot');
  });

  it('starting another trip cancels the one in progress', async () => {
    const far = offset(BROOKLYN, 4000, 0);
    await trackLater(srv.s, clock, 'dev-c', far, { tripOptions: { externalId: 'trip-c1', ...DESTINATION } });
    const res = await trackLater(srv.s, clock, 'dev-c', far, { tripOptions: { externalId: 'trip-c2' } });
    assert.deepEqual(tripEventsOf(res), ['user.stopped_trip:canceled', 'user.started_trip']);
    assert.equal(res.body.user.trip.externalId, 'trip-c2');
    assert.equal(res.body.user.trip.eta, undefined, 'a trip without a destination has no ETA');
    assert.equal((await getTrip(srv.s, 'trip-c1')).body.status, 'canceled');
  });

  it('stores the trip events of tracks and of API calls, readable through /v1/events', async () => {
    const res = await srv.s.request('GET', '/v1/events?type=user.stopped_trip', { key: srv.s.keys.test.secret });
    assertOk(res);
    const statuses = res.body.events.map(
      (e: { trip: { externalId: string; status: string } }) => `${e.trip.externalId}:${e.trip.status}`,
    );
    assert.deepEqual(statuses.sort(), ['trip-a:completed', 'trip-c1:canceled']);
  });

  it('follows a moved destination fence on the next track, and keeps its last place once it is deleted', async () => {
    await putCircle(srv.s, 'store', 'moving', BROOKLYN, 100);
    const at = offset(BROOKLYN, 0, 6000);
    const options = { externalId: 'trip-m', destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'moving' };
    const first = await trackLater(srv.s, clock, 'dev-m', at, { tripOptions: options });
    assert.deepEqual(tripEventsOf(first), ['user.started_trip']);
    assert.deepEqual(first.body.user.trip.eta, expectedEta(at, BROOKLYN));
    const moved = offset(BROOKLYN, 2000, 0);
    await putCircle(srv.s, 'store', 'moving', moved, 100);
    const next = await trackLater(srv.s, clock, 'dev-m', at, { tripOptions: options });
    assert.deepEqual(next.body.user.trip.destinationLocation, { type: 'Point', coordinates: moved });
    assert.deepEqual(next.body.user.trip.eta, expectedEta(at, moved));
    assertOk(await srv.s.request('DELETE', '/v1/geofences/store/moving', { key: srv.s.keys.test.secret }));
    const gone = await trackLater(srv.s, clock, 'dev-m', at, { tripOptions: options });
    assert.deepEqual(gone.body.user.trip.destinationLocation, { type: 'Point', coordinates: moved });
    const again = offset(BROOKLYN, -2000, 0);
    await putCircle(srv.s, 'store', 'moving', again, 100);
    const back = await trackLater(srv.s, clock, 'dev-m', at, { tripOptions: options });
    assert.deepEqual(back.body.user.trip.eta, expectedEta(at, again), 'a new fence under the same tag is followed');
  });

  it('reads tripOptions sent as JSON text in a form body', async () => {
    clock.advance(30_000);
    const res = await srv.s.request('POST', '/v1/track', {
      key: srv.s.keys.test.publishable,
      form: {
        deviceId: 'dev-form',
        latitude: String(BROOKLYN[1] + 0.05),
        longitude: String(BROOKLYN[0]),
        accuracy: '10',
        tripOptions: JSON.stringify({ externalId: 'trip-form', mode: 'bike' }),
      },
    });
    assertOk(res);
    assert.equal(res.body.user.trip.externalId, 'trip-form');
    assert.equal(res.body.user.trip.mode, 'bike');
  });
});

describe('trips through POST /v1/trips', () => {
  const clock = new ManualClock();
  const srv = serverSuite({ clock }, withStore);

  it('starts a trip for a known user at its last location: {meta, trip, events}', async () => {
    const at = offset(BROOKLYN, 3000, 0);
    const tracked = await trackLater(srv.s, clock, 'dev-p', at, { userId: 'user-p' });
    const res = await startTrip(srv.s, {
      userId: 'user-p',
      externalId: 'order-1',
      ...DESTINATION,
      mode: 'bike',
      metadata: { n: 1 },
      approachingThreshold: '4',
      scheduledArrivalAt: '2026-01-05T14:00:00.000+0000',
    });
    assertOk(res);
    assert.deepEqual(tripEventsOf(res), ['user.started_trip']);
    assert.deepEqual(res.body.events[0].location, { type: 'Point', coordinates: at });
    const trip = res.body.trip;
    assert.equal(trip.status, 'started');
    assert.equal(trip.mode, 'bike');
    assert.equal(trip.approachingThreshold, 4, 'a string threshold (iOS) reads as a number');
    assert.equal(trip.scheduledArrivalAt, '2026-01-05T14:00:00.000Z');
    assert.deepEqual(trip.eta, expectedEta(at, BROOKLYN, 'bike'));
    assert.deepEqual(trip.user, { _id: tracked.body.user._id, userId: 'user-p', deviceId: 'dev-p' });
    assert.equal(trip.userId, 'user-p');
    assert.deepEqual(trip.locations, []);
    const next = await trackLater(srv.s, clock, 'dev-p', at, { userId: 'user-p' });
    assert.equal(next.body.user.trip._id, trip._id);
    assert.deepEqual(tripEventsOf(next), []);
  });

  it('finds the user by deviceId too, and defaults the mode to car', async () => {
    await trackLater(srv.s, clock, 'dev-q', BROOKLYN);
    const res = await startTrip(srv.s, { deviceId: 'dev-q', externalId: 'order-q' });
    assertOk(res);
    assert.equal(res.body.trip.mode, 'car');
    assert.equal(res.body.trip.user.deviceId, 'dev-q');
    assert.deepEqual(tripEventsOf(res), ['user.started_trip']);
  });

  it('keeps a trip for a user not seen yet until its first track claims it', async () => {
    const res = await startTrip(srv.s, { userId: 'user-new', externalId: 'order-new', ...DESTINATION });
    assertOk(res);
    assert.deepEqual(res.body.events, []);
    assert.deepEqual(res.body.trip.user, { userId: 'user-new' });
    assert.equal(res.body.trip.eta, undefined);
    assert.deepEqual(res.body.trip.destinationLocation, { type: 'Point', coordinates: BROOKLYN });
    const at = offset(BROOKLYN, 0, 5000);
    const first = await trackLater(srv.s, clock, 'dev-new', at, { userId: 'user-new' });
    assert.deepEqual(tripEventsOf(first), ['user.started_trip']);
    assert.equal(first.body.user.trip._id, res.body.trip._id);
    assert.deepEqual(first.body.user.trip.user, { _id: first.body.user._id, userId: 'user-new', deviceId: 'dev-new' });
    assert.deepEqual(first.body.user.trip.eta, expectedEta(at, BROOKLYN));
  });

  it('restarts a trip started again with the same externalId: same _id, new options, fresh path', async () => {
    await trackLater(srv.s, clock, 'dev-p', offset(BROOKLYN, 2500, 0), { userId: 'user-p' });
    const before = await getTrip(srv.s, 'order-1');
    assert.ok(before.body.locations.length >= 2);
    await patchTrip(srv.s, 'order-1', { status: 'canceled' });
    const res = await startTrip(srv.s, { userId: 'user-p', externalId: 'order-1', mode: 'foot' });
    assertOk(res);
    assert.equal(res.body.trip._id, before.body._id);
    assert.equal(res.body.trip.status, 'started');
    assert.equal(res.body.trip.mode, 'foot');
    assert.equal(res.body.trip.destinationGeofenceTag, undefined);
    assert.equal(res.body.trip.completedAt, undefined);
    assert.deepEqual(res.body.trip.locations, []);
    assert.equal(res.body.trip.createdAt, before.body.createdAt);
    assert.equal(res.body.trip.startedAt, new Date(clock.now()).toISOString());
  });

  it('becomes approaching at 5 minutes of ETA when the trip sets no threshold', async () => {
    await trackLater(srv.s, clock, 'dev-t', offset(BROOKLYN, 0, -4000), { userId: 'user-t' });
    const res = await startTrip(srv.s, { userId: 'user-t', externalId: 'order-t', ...DESTINATION });
    assert.equal(res.body.trip.approachingThreshold, undefined);
    assert.ok(res.body.trip.eta.duration > 5);
    // 2.5 km straight is 3.25 km by the car estimate: 4.88 minutes.
    const near = await trackLater(srv.s, clock, 'dev-t', offset(BROOKLYN, 0, -2500), { userId: 'user-t' });
    assert.deepEqual(tripEventsOf(near), ['user.approaching_trip_destination']);
  });

  it('a PATCH racing a track of the same trip is never undone by it', async () => {
    await trackLater(srv.s, clock, 'dev-r', offset(BROOKLYN, 0, 7000), {
      tripOptions: { externalId: 'race', ...DESTINATION },
    });
    clock.advance(30_000);
    const [tracked, patched] = await Promise.all([
      srv.s.request('POST', '/v1/track', {
        key: srv.s.keys.test.publishable,
        json: { deviceId: 'dev-r', latitude: BROOKLYN[1] + 0.05, longitude: BROOKLYN[0], accuracy: 10 },
      }),
      patchTrip(srv.s, 'race', { status: 'completed' }),
    ]);
    assertOk(tracked);
    assertOk(patched);
    assert.equal((await getTrip(srv.s, 'race')).body.status, 'completed');
    const next = await trackLater(srv.s, clock, 'dev-r', offset(BROOKLYN, 0, 6000));
    assert.equal(next.body.user.trip, undefined);
  });

  it('starting a trip for a user on another trip cancels that one', async () => {
    const res = await startTrip(srv.s, { userId: 'user-p', externalId: 'order-2' });
    assertOk(res);
    assert.deepEqual(tripEventsOf(res), ['user.stopped_trip:canceled', 'user.started_trip']);
    assert.equal(res.body.events[0].trip.externalId, 'order-1');
    assert.equal((await getTrip(srv.s, 'order-1')).body.status, 'canceled');
  });
});

describe('trip expiry', () => {
  const clock = new ManualClock();
  const srv = serverSuite({ clock });

  it('expires a trip after 24 h without updates by default: reads, lists and tracks see it', async () => {
    await trackLater(srv.s, clock, 'dev-x', BROOKLYN, { tripOptions: { externalId: 'exp-1' } });
    clock.advance(24 * 3_600_000 - 60_000);
    assert.equal((await getTrip(srv.s, 'exp-1')).body.status, 'started');
    clock.advance(60_000);
    const got = await getTrip(srv.s, 'exp-1');
    assert.equal(got.body.status, 'expired');
    assert.equal(got.body.active, false);
    const res = await trackLater(srv.s, clock, 'dev-x', BROOKLYN, { tripOptions: { externalId: 'exp-1' } });
    assert.equal(res.body.user.trip, undefined, 'the SDK ends its trip when user.trip is missing');
    assert.deepEqual(tripEventsOf(res), []);
  });

  it("follows the project's expiry window, in lists as well", async () => {
    await srv.s.updateProject('default', (p) => ({ ...p, tripExpiryMinutes: 30 }));
    await trackLater(srv.s, clock, 'dev-y', BROOKLYN, { tripOptions: { externalId: 'exp-2' } });
    clock.advance(20 * 60_000);
    const kept = await trackLater(srv.s, clock, 'dev-y', BROOKLYN);
    assert.equal(kept.body.user.trip.status, 'started', 'an update restarts the window');
    clock.advance(30 * 60_000);
    const active = await srv.s.request('GET', '/v1/trips?active=true', { key: srv.s.keys.test.secret });
    assert.deepEqual(active.body.trips, []);
    const expired = await srv.s.request('GET', '/v1/trips?status=expired', { key: srv.s.keys.test.secret });
    assert.deepEqual(expired.body.trips.map((t: { externalId: string }) => t.externalId).sort(), ['exp-1', 'exp-2']);
  });

  it('a PATCH restarts an expired trip', async () => {
    const res = await patchTrip(srv.s, 'exp-2', { status: 'started' });
    assertOk(res);
    assert.equal(res.body.trip.status, 'started');
    assert.deepEqual(tripEventsOf(res), ['user.started_trip']);
    const tracked = await trackLater(srv.s, clock, 'dev-y', BROOKLYN);
    assert.equal(tracked.body.user.trip.externalId, 'exp-2');
  });
});
