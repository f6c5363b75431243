import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle } from './helpers/tracking.js';
import { getTrip, listTrips, patchTrip, startTrip, trackLater, tripEventsOf, updateTrip } from './helpers/trips.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('PATCH /v1/trips: every status, options, lookups', () => {
  let s: TestServer;
  const clock = new ManualClock();
  before(async () => {
    s = await startServer({ clock });
    await putCircle(s, 'store', 's1', BROOKLYN, 100);
    await putCircle(s, 'store', 's2', offset(BROOKLYN, 3000, 0), 100);
    await trackLater(s, clock, 'dev-s', offset(BROOKLYN, 0, 8000), { userId: 'user-s' });
    assertOk(
      await startTrip(s, {
        userId: 'user-s',
        externalId: 'st-1',
        destinationGeofenceTag: 'store',
        destinationGeofenceExternalId: 's1',
      }),
    );
  });
  after(() => s.close());

  it('walks a trip through each status with its event, by externalId and by _id', async () => {
    const id = (await getTrip(s, 'st-1')).body._id;
    const steps: Array<[string, string, string]> = [
      ['st-1', 'approaching', 'user.approaching_trip_destination'],
      [id, 'arrived', 'user.arrived_at_trip_destination'],
      ['st-1', 'started', 'user.updated_trip'],
      [id, 'canceled', 'user.stopped_trip:canceled'],
      ['st-1', 'started', 'user.started_trip'],
      [id, 'completed', 'user.stopped_trip:completed'],
    ];
    for (const [ref, status, event] of steps) {
      clock.advance(1000);
      const res = await patchTrip(s, ref, { status });
      assertOk(res);
      assert.equal(res.body.trip.status, status);
      assert.equal(res.body.trip._id, id);
      assert.deepEqual(tripEventsOf(res), [event], `${status} via ${ref}`);
      const ev = res.body.events[0];
      assert.equal(ev.trip.status, status);
      assert.deepEqual(
        ev.location,
        { type: 'Point', coordinates: offset(BROOKLYN, 0, 8000) },
        "an API change happens at the user's last location",
      );
      if (status === 'arrived') assert.equal(res.body.trip.arrivedAt, new Date(clock.now()).toISOString());
      if (status === 'completed' || status === 'canceled')
        assert.equal(res.body.trip.completedAt, new Date(clock.now()).toISOString());
      else assert.equal(res.body.trip.completedAt, undefined);
    }
  });

  it('setting the current status again changes nothing', async () => {
    const res = await patchTrip(s, 'st-1', { status: 'completed' });
    assertOk(res);
    assert.deepEqual(res.body.events, []);
  });

  it('takes status from the query string too, and from a form body', async () => {
    const q = await s.request('PATCH', '/v1/trips/st-1?status=started', { key: s.keys.test.publishable });
    assertOk(q);
    assert.equal(q.body.trip.status, 'started');
    const f = await s.request('PATCH', '/v1/trips/st-1', {
      key: s.keys.test.publishable,
      form: { status: 'canceled' },
    });
    assertOk(f);
    assert.equal(f.body.trip.status, 'canceled');
  });

  it('/update changes options (user.updated_trip) and recomputes the ETA for a new destination', async () => {
    assertOk(await patchTrip(s, 'st-1', { status: 'started' }));
    const res = await updateTrip(s, 'st-1', {
      externalId: 'st-1',
      destinationGeofenceTag: 'store',
      destinationGeofenceExternalId: 's2',
      mode: 'foot',
      metadata: { gate: 4 },
      approachingThreshold: '7',
    });
    assertOk(res);
    assert.deepEqual(tripEventsOf(res), ['user.updated_trip']);
    const trip = res.body.trip;
    assert.equal(trip.destinationGeofenceExternalId, 's2');
    assert.deepEqual(trip.destinationLocation.coordinates, offset(BROOKLYN, 3000, 0));
    assert.equal(trip.mode, 'foot');
    assert.deepEqual(trip.metadata, { gate: 4 });
    assert.equal(trip.approachingThreshold, 7);
    assert.ok(trip.eta.duration > 100, 'on foot, kilometres take hours');
    const same = await updateTrip(s, 'st-1', { externalId: 'st-1', mode: 'foot' });
    assert.deepEqual(same.body.events, [], 'unchanged options make no event');
  });

  it('/update completes and cancels with status, as completeTrip/cancelTrip send it', async () => {
    const res = await updateTrip(s, 'st-1', {
      status: 'completed',
      externalId: 'st-1',
      mode: 'foot',
      metadata: { gate: 4 },
      approachingThreshold: 7,
    });
    assertOk(res);
    assert.deepEqual(tripEventsOf(res), ['user.stopped_trip:completed']);
    assertOk(await patchTrip(s, 'st-1', { status: 'started' }));
    // The web SDK resends the options saved at startTrip: a trip being stopped keeps its own.
    const cancel = await updateTrip(s, 'st-1', { status: 'canceled', metadata: { gate: 5 }, mode: 'car' });
    assert.deepEqual(tripEventsOf(cancel), ['user.stopped_trip:canceled']);
    assert.deepEqual(cancel.body.trip.metadata, { gate: 4 });
    assert.equal(cancel.body.trip.mode, 'foot');
    assertOk(await patchTrip(s, 'st-1', { status: 'started' }));
    const both = await updateTrip(s, 'st-1', { status: 'approaching', metadata: { gate: 6 } });
    assert.deepEqual(tripEventsOf(both), ['user.updated_trip', 'user.approaching_trip_destination']);
    assertOk(await patchTrip(s, 'st-1', { status: 'canceled' }));
  });

  it('restarting a stopped trip cancels the trip its user has in progress', async () => {
    assertOk(await startTrip(s, { userId: 'user-s', externalId: 'st-2' }));
    const res = await patchTrip(s, 'st-1', { status: 'started' });
    assert.deepEqual(tripEventsOf(res), ['user.stopped_trip:canceled', 'user.started_trip']);
    assert.equal(res.body.events[0].trip.externalId, 'st-2');
    const tracked = await trackLater(s, clock, 'dev-s', BROOKLYN, { userId: 'user-s' });
    assert.equal(tracked.body.user.trip.externalId, 'st-1');
  });

  it('a restart refused for its destination changes nothing: the trip in progress goes on', async () => {
    // st-1 is in progress again and st-2 canceled (the test above).
    const before = (await getTrip(s, 'st-1')).body;
    assert.equal(before.status, 'started');
    const res = await updateTrip(s, 'st-2', {
      status: 'started',
      destinationGeofenceTag: 'store',
      destinationGeofenceExternalId: 'no-such-store',
    });
    assertError(res, 404, 'destinationGeofenceExternalId');
    assert.deepEqual((await getTrip(s, 'st-1')).body, before);
    assert.equal((await getTrip(s, 'st-2')).body.status, 'canceled');
  });

  it('rejects bad statuses and options, naming the parameter', async () => {
    assertError(await patchTrip(s, 'st-1', {}), 400, 'status');
    assertError(
      await patchTrip(s, 'st-1', { status: 'expired' }),
      400,
      'status',
      'started, approaching, arrived, completed, canceled',
    );
    assertError(await patchTrip(s, 'st-1', { status: 'flying' }), 400, 'status');
    assertError(await updateTrip(s, 'st-1', { status: 'pending' }), 400, 'status');
    assertError(await updateTrip(s, 'st-1', { mode: 'plane' }), 400, 'mode');
    assertError(await updateTrip(s, 'st-1', { approachingThreshold: 'soon' }), 400, 'approachingThreshold');
    assertError(await updateTrip(s, 'st-1', { approachingThreshold: 0 }), 400, 'approachingThreshold');
    assertError(await updateTrip(s, 'st-1', { scheduledArrivalAt: 'tomorrow' }), 400, 'scheduledArrivalAt');
    assertError(await updateTrip(s, 'st-1', { metadata: [1, 2] }), 400, 'metadata');
    assertError(
      await updateTrip(s, 'st-1', { destinationGeofenceExternalId: 'nope' }),
      404,
      'destinationGeofenceExternalId',
    );
  });

  it('answers 404 for an unknown trip, naming the path parameter', async () => {
    assertError(await patchTrip(s, 'no-such-trip', { status: 'completed' }), 404, 'id');
    assertError(await updateTrip(s, 'no-such-trip', { status: 'completed' }), 404, 'externalId');
    assertError(await getTrip(s, 'no-such-trip'), 404, 'id');
  });
});

describe('POST /v1/trips validation', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
    await putCircle(s, 'store', 's1', BROOKLYN, 100);
  });
  after(() => s.close());

  it('rejects every bad parameter with its name', async () => {
    const ok = { userId: 'u', externalId: 'e' };
    assertError(await startTrip(s, { userId: 'u' }), 400, 'externalId');
    assertError(await startTrip(s, { externalId: 'e' }), 400, 'userId');
    assertError(await startTrip(s, { ...ok, externalId: 'x'.repeat(257) }), 400, 'externalId');
    assertError(await startTrip(s, { ...ok, userId: { a: 1 } }), 400, 'userId');
    assertError(await startTrip(s, { ...ok, mode: 'plane' }), 400, 'mode', 'foot, bike, car, truck, motorbike');
    assertError(await startTrip(s, { ...ok, approachingThreshold: 'x' }), 400, 'approachingThreshold');
    assertError(await startTrip(s, { ...ok, approachingThreshold: 2000 }), 400, 'approachingThreshold');
    assertError(await startTrip(s, { ...ok, scheduledArrivalAt: '21/11/2026' }), 400, 'scheduledArrivalAt');
    assertError(await startTrip(s, { ...ok, metadata: 'not json' }), 400, 'metadata');
    assertError(await startTrip(s, { ...ok, metadata: { a: { b: 1 } } }), 400, 'metadata');
    assertError(await startTrip(s, { ...ok, destinationGeofenceTag: 'store' }), 400, 'destinationGeofenceExternalId');
    assertError(await startTrip(s, { ...ok, destinationGeofenceExternalId: 's1' }), 400, 'destinationGeofenceTag');
    assertError(
      await startTrip(s, { ...ok, destinationGeofenceTag: 'store', destinationGeofenceExternalId: 'zz' }),
      404,
      'destinationGeofenceExternalId',
    );
    assertError(await startTrip(s, ok, 'not-a-key'), 401, 'Authorization');
  });

  it('accepts what the SDKs send: nulls for unset options, numbers as strings, +0000 offsets', async () => {
    const res = await startTrip(s, {
      userId: 'sdk-user',
      externalId: 'sdk-1',
      destinationGeofenceTag: null,
      destinationGeofenceExternalId: null,
      mode: 'CAR',
      metadata: null,
      approachingThreshold: '2.5',
      scheduledArrivalAt: '2026-11-21T23:40:44.603+0000',
      legs: [],
    });
    assertOk(res);
    assert.equal(res.body.trip.mode, 'car');
    assert.equal(res.body.trip.approachingThreshold, 2.5);
    assert.equal(res.body.trip.scheduledArrivalAt, '2026-11-21T23:40:44.603Z');
  });

  it('rejects bad tripOptions on track with the nested parameter name, and changes nothing', async () => {
    let n = 0;
    // A device of its own per request: the per-device limit counts refused tracks too.
    const track = (tripOptions: unknown) =>
      s.request('POST', '/v1/track', {
        key: s.keys.test.publishable,
        json: { deviceId: `dev-bad-${n++}`, latitude: BROOKLYN[1], longitude: BROOKLYN[0], accuracy: 10, tripOptions },
      });
    assertError(await track({ mode: 'car' }), 400, 'tripOptions.externalId');
    assertError(await track({ externalId: 'e', mode: 'plane' }), 400, 'tripOptions.mode');
    assertError(await track({ externalId: 'e', approachingThreshold: 'x' }), 400, 'tripOptions.approachingThreshold');
    assertError(await track(42), 400, 'tripOptions');
    assertError(await track('{not json'), 400, 'tripOptions');
    assertError(await getTrip(s, 'e'), 404, 'id');
    assertError(await s.request('GET', '/v1/users/dev-bad-0', { key: s.keys.test.secret }), 404);
  });
});

describe('GET /v1/trips and /v1/trips/<id>', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const ids: Record<string, string> = {};
  before(async () => {
    s = await startServer({ clock });
    await putCircle(s, 'store', 's1', BROOKLYN, 100);
    await putCircle(s, 'hub', 'h1', offset(BROOKLYN, 0, -2000), 100);
    // Four users at different distances: ETAs sort them; one trip has no destination (no ETA).
    const plan: Array<[string, number, Record<string, unknown>]> = [
      ['far', 9000, { destinationGeofenceTag: 'store', destinationGeofenceExternalId: 's1' }],
      ['near', 2000, { destinationGeofenceTag: 'store', destinationGeofenceExternalId: 's1' }],
      ['nodest', 1000, {}],
      ['hub', 6000, { destinationGeofenceTag: 'hub', destinationGeofenceExternalId: 'h1' }],
    ];
    for (const [name, north, dest] of plan) {
      clock.advance(60_000);
      const res = await trackLater(s, clock, `dev-${name}`, offset(BROOKLYN, 0, north), {
        userId: `user-${name}`,
        tripOptions: { externalId: `l-${name}`, ...dest },
      });
      ids[name] = res.body.user.trip._id;
    }
    assertOk(await patchTrip(s, 'l-hub', { status: 'completed' }));
  });
  after(() => s.close());

  const names = (res: { body: { trips: Array<{ externalId: string }> } }) => res.body.trips.map((t) => t.externalId);

  it('gets a trip by _id or externalId with its fields at the top level beside meta', async () => {
    for (const ref of [ids.far!, 'l-far']) {
      const res = await getTrip(s, ref);
      assertOk(res);
      assert.equal(res.body.trip, undefined);
      assert.equal(res.body._id, ids.far);
      assert.equal(res.body.externalId, 'l-far');
      assert.equal(res.body.status, 'started');
      assert.equal(res.body.active, true);
      assert.equal(res.body.userId, 'user-far');
      assert.deepEqual(Object.keys(res.body.user).sort(), ['_id', 'deviceId', 'userId']);
      assert.equal(res.body.locations.length, 1);
      assert.match(res.body.locations[0].updatedAt, ISO_MS);
      for (const f of ['createdAt', 'startedAt', 'updatedAt']) assertIsoMs(res.body[f], f);
      assert.equal(typeof res.body.eta.distance, 'number');
      assert.equal(typeof res.body.eta.duration, 'number');
    }
  });

  it('lists soonest ETA first, trips without an ETA last', async () => {
    const res = await listTrips(s);
    assertOk(res);
    assert.deepEqual(names(res), ['l-near', 'l-hub', 'l-far', 'l-nodest']);
    assert.equal(res.body.meta.hasMore, false);
    assert.equal(res.body.trips[0].locations, undefined, 'paths only with includeLocations');
    const withPaths = await listTrips(s, 'includeLocations=true&limit=1');
    assert.equal(withPaths.body.trips[0].locations.length, 1);
  });

  it('filters by active, status, destination, user and creation time', async () => {
    assert.deepEqual(names(await listTrips(s, 'active=true')), ['l-near', 'l-far', 'l-nodest']);
    assert.deepEqual(names(await listTrips(s, 'active=false')), ['l-hub']);
    assert.deepEqual(names(await listTrips(s, 'status=completed,canceled')), ['l-hub']);
    assert.deepEqual(names(await listTrips(s, 'destinationGeofenceTag=store')), ['l-near', 'l-far']);
    assert.deepEqual(names(await listTrips(s, 'destinationGeofenceTag=store&destinationGeofenceExternalId=s1')), [
      'l-near',
      'l-far',
    ]);
    assert.deepEqual(names(await listTrips(s, 'destinationGeofenceExternalId=h1')), ['l-hub']);
    assert.deepEqual(names(await listTrips(s, 'userId=user-near')), ['l-near']);
    assert.deepEqual(names(await listTrips(s, 'userId=dev-far')), ['l-far']);
    const near = await getTrip(s, 'l-near');
    assert.deepEqual(names(await listTrips(s, `userId=${near.body.user._id}`)), ['l-near']);
    const cut = near.body.createdAt;
    assert.deepEqual(names(await listTrips(s, `createdBefore=${cut}`)), ['l-far']);
    assert.deepEqual(names(await listTrips(s, `createdAfter=${cut}`)), ['l-hub', 'l-nodest']);
  });

  it('pages with limit and hasMore; sortBy=createdAt pages newest first by cursor', async () => {
    const first = await listTrips(s, 'limit=2');
    assert.deepEqual(names(first), ['l-near', 'l-hub']);
    assert.equal(first.body.meta.hasMore, true);
    const byTime = await listTrips(s, 'sortBy=createdAt&limit=3');
    assert.deepEqual(names(byTime), ['l-hub', 'l-nodest', 'l-near']);
    assert.equal(byTime.body.meta.hasMore, true);
    const rest = await listTrips(s, `sortBy=createdAt&limit=3&createdBefore=${byTime.body.trips[2].createdAt}`);
    assert.deepEqual(names(rest), ['l-far']);
    assert.equal(rest.body.meta.hasMore, false);
  });

  it('rejects every bad list parameter with its name', async () => {
    for (const [q, param] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=ten', 'limit'],
      ['active=maybe', 'active'],
      ['status=flying', 'status'],
      ['createdBefore=yesterday', 'createdBefore'],
      ['createdAfter=2026-13-45', 'createdAfter'],
      ['sortBy=distance', 'sortBy'],
      ['includeLocations=perhaps', 'includeLocations'],
    ] as const) {
      assertError(await listTrips(s, q), 400, param);
    }
  });

  it('needs a secret key to read trips, a publishable one to change them', async () => {
    assertError(await listTrips(s, '', s.keys.test.publishable), 403, 'Authorization');
    assertError(await getTrip(s, 'l-far', s.keys.test.publishable), 403, 'Authorization');
    assertOk(await patchTrip(s, 'l-far', { status: 'started' }, s.keys.test.secret));
  });

  it('keeps tenants apart: other projects and the live environment see nothing', async () => {
    const other = await s.createProject('other');
    assert.deepEqual((await listTrips(s, '', other.keys.test.secret)).body.trips, []);
    assertError(await getTrip(s, 'l-far', other.keys.test.secret), 404, 'id');
    assertError(await patchTrip(s, 'l-far', { status: 'canceled' }, other.keys.test.publishable), 404, 'id');
    assertError(await updateTrip(s, 'l-far', { status: 'canceled' }, other.keys.test.publishable), 404, 'externalId');
    assert.deepEqual((await listTrips(s, '', s.keys.live.secret)).body.trips, []);
    assertError(await getTrip(s, ids.far!, s.keys.live.secret), 404, 'id');
    // The same externalId in another tenant is another trip; the first one is untouched.
    const mine = await startTrip(s, { userId: 'someone', externalId: 'l-far' }, other.keys.test.publishable);
    assertOk(mine);
    assert.notEqual(mine.body.trip._id, ids.far);
    assert.equal((await getTrip(s, 'l-far')).body.status, 'started');
    assert.equal((await getTrip(s, 'l-far')).body.userId, 'user-far');
  });
});
