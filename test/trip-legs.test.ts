import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newWebhook } from '../src/domain/webhooks/webhook.js';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, typesOf } from './helpers/tracking.js';
import { expectedEta, getTrip, startTrip, trackLater } from './helpers/trips.js';

type WireLeg = { _id: string; status: string; eta?: { distance: number; duration: number }; [k: string]: unknown };

/** Three stops 3 km apart going north; a user 1 km short of an ETA-1-minute approach is not approaching. */
const A = offset(BROOKLYN, 0, 3000);
const B = offset(BROOKLYN, 0, 6000);
const C = offset(BROOKLYN, 0, 9000);

const patchLeg = (s: TestServer, tripId: string, legId: string, body: Record<string, unknown>) =>
  s.request('PATCH', `/v1/trips/${encodeURIComponent(tripId)}/legs/${encodeURIComponent(legId)}`, {
    key: s.keys.test.publishable,
    json: body,
  });
const reorder = (s: TestServer, tripId: string, body: Record<string, unknown>) =>
  s.request('PUT', `/v1/trips/${encodeURIComponent(tripId)}/legs`, { key: s.keys.test.publishable, json: body });
const statuses = (trip: { legs: WireLeg[] }) => trip.legs.map((l) => l.status);
const legTypes = (res: { body: { events: Array<{ type: string }> } }) =>
  res.body.events.map((e) => e.type).filter((t) => t.includes('trip'));

describe('trip legs: multi-destination trips', () => {
  let s: TestServer;
  const clock = new ManualClock();
  let fenceA: string;
  let fenceB: string;
  const legEventTypes = [
    'user.started_trip_leg',
    'user.approaching_trip_leg_destination',
    'user.arrived_at_trip_leg_destination',
    'user.completed_trip_leg',
    'user.canceled_trip_leg',
  ];
  const hook = newWebhook({ url: 'http://127.0.0.1:9/legs', live: false, types: legEventTypes }, Date.now());

  before(async () => {
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    await s.updateProject('default', (p) => ({ ...p, webhooks: [hook] }));
    fenceA = await putCircle(s, 'stop', 'a', A, 100);
    fenceB = await putCircle(s, 'stop', 'b', B, 100);
    await putCircle(s, 'stop', 'c', C, 100);
  });
  after(() => s.close());

  it('walks a 3-leg trip: approach, arrival, stop duration, PATCH canceled, arrival at coordinates', async () => {
    await trackLater(s, clock, 'leg-dev', BROOKLYN, { userId: 'leg-user' });
    const start = await startTrip(s, {
      userId: 'leg-user',
      externalId: 'legs-1',
      approachingThreshold: 1,
      legs: [
        {
          destination: { destinationGeofenceTag: 'stop', destinationGeofenceExternalId: 'a' },
          stopDuration: 5,
          metadata: { parcel: 'small' },
        },
        { destinationGeofenceId: fenceB },
        { destination: { coordinates: C, arrivalRadius: 50 } },
      ],
    });
    assertOk(start);
    let trip = start.body.trip;
    assert.deepEqual(legTypes(start), ['user.started_trip', 'user.started_trip_leg']);
    assert.deepEqual(statuses(trip), ['started', 'pending', 'pending']);
    const [l0, l1, l2] = trip.legs as WireLeg[];
    assert.equal(trip.currentLeg, l0!._id);
    assert.equal(new Set([l0!._id, l1!._id, l2!._id]).size, 3);
    assert.deepEqual(l0!.destination, {
      type: 'geofence',
      source: { geofence: fenceA, data: { tag: 'stop', externalId: 'a' } },
      location: { type: 'Point', coordinates: A },
    });
    assert.deepEqual(l0!.eta, expectedEta(BROOKLYN, A));
    assert.deepEqual(trip.eta, expectedEta(BROOKLYN, A), "the trip's ETA is its current leg's");
    assert.equal(trip.destinationGeofenceExternalId, 'a');
    assert.equal(l0!.stopDuration, 5);
    assert.deepEqual(l0!.metadata, { parcel: 'small' });
    assert.deepEqual((l2!.destination as { location: unknown }).location, { type: 'Point', coordinates: C });
    for (const f of ['createdAt', 'updatedAt']) assertIsoMs(l0![f], f);

    // 1 km short of A: ETA 1.95 min, over the threshold of 1: still started.
    let res = await trackLater(s, clock, 'leg-dev', offset(A, 0, -1000), { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), []);
    assert.equal(res.body.user.trip.legs[0].status, 'started');
    res = await trackLater(s, clock, 'leg-dev', offset(A, 0, -300), { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), ['user.approaching_trip_leg_destination']);
    assert.equal(res.body.user.trip.legs[0].status, 'approaching');
    assert.equal(res.body.user.trip.status, 'started', 'an early leg approaching is not the trip approaching');

    res = await trackLater(s, clock, 'leg-dev', A, { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), ['user.arrived_at_trip_leg_destination']);
    trip = res.body.user.trip;
    assert.deepEqual(statuses(trip), ['arrived', 'pending', 'pending']);
    const arrived = res.body.events.find((e: { type: string }) => e.type === 'user.arrived_at_trip_leg_destination');
    assert.equal(arrived.leg._id, l0!._id);
    assert.equal(arrived.leg.status, 'arrived');
    assert.equal(arrived.trip._id, trip._id);

    // The stop takes 5 minutes: still there after 30 s, done after 5 more minutes.
    res = await trackLater(s, clock, 'leg-dev', A, { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), []);
    clock.advance(5 * 60_000);
    res = await trackLater(s, clock, 'leg-dev', A, { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), ['user.completed_trip_leg', 'user.started_trip_leg']);
    trip = res.body.user.trip;
    assert.deepEqual(statuses(trip), ['completed', 'started', 'pending']);
    assert.equal(trip.currentLeg, l1!._id);
    assert.deepEqual(trip.eta, expectedEta(A, B), 'the next leg gets its ETA at once');
    assert.equal(trip.legs[1].destination.source.geofence, fenceB);
    assert.deepEqual(trip.legs[1].destination.source.data, { tag: 'stop', externalId: 'b' });

    // Leg 1 canceled by the app: the last leg starts.
    res = await patchLeg(s, 'legs-1', l1!._id, { status: 'canceled' });
    assertOk(res);
    assert.deepEqual(legTypes(res), ['user.canceled_trip_leg', 'user.started_trip_leg']);
    assert.equal(res.body.leg._id, l1!._id);
    assert.equal(res.body.leg.status, 'canceled');
    assert.deepEqual(statuses(res.body.trip), ['completed', 'canceled', 'started']);
    assert.equal(res.body.trip.currentLeg, l2!._id);

    // Within 50 m of the last leg's coordinates: it arrives and (no stop duration) completes; so does the trip.
    res = await trackLater(s, clock, 'leg-dev', offset(C, 30, 0), { userId: 'leg-user' });
    assert.deepEqual(legTypes(res), [
      'user.arrived_at_trip_leg_destination',
      'user.arrived_at_trip_destination',
      'user.completed_trip_leg',
      'user.stopped_trip',
    ]);
    assert.equal(res.body.user.trip, undefined, 'a finished trip is no longer user.trip');
    const done = (await getTrip(s, 'legs-1')).body;
    assert.equal(done.status, 'completed');
    assert.deepEqual(statuses(done), ['completed', 'canceled', 'completed']);
    assert.equal(done.currentLeg, undefined);

    // The leg events are stored, readable in GET /v1/events, and owe the webhook a delivery each.
    const events = await s.request('GET', '/v1/events?limit=100', { key: s.keys.test.secret });
    assertOk(events);
    const stored = (events.body.events as Array<{ _id: string; type: string; leg?: WireLeg }>).filter((e) =>
      legEventTypes.includes(e.type),
    );
    assert.equal(stored.length, 9);
    assert.ok(stored.every((e) => e.leg && typeof e.leg._id === 'string'));
    const owed = await s.deps.store.deliveries.list(
      { projectId: s.projectId, live: false },
      {
        webhookId: hook.id,
        limit: 100,
      },
    );
    assert.deepEqual(new Set(owed.map((d) => d.eventId)), new Set(stored.map((e) => e._id)));
  });

  it('reorders legs: the current leg stays, the next pending one follows the new order', async () => {
    await trackLater(s, clock, 'leg-dev-2', BROOKLYN, { userId: 'leg-user-2' });
    const legs = ['a', 'b', 'c'].map((x) => ({ destinationGeofenceTag: 'stop', destinationGeofenceExternalId: x }));
    const start = await startTrip(s, { userId: 'leg-user-2', externalId: 'legs-2', legs });
    assertOk(start);
    const ids = (start.body.trip.legs as WireLeg[]).map((l) => l._id);
    const [l0, l1, l2] = ids as [string, string, string];

    // Refused orders change nothing.
    assertError(await reorder(s, 'legs-2', { legs: [l0, l2] }), 400, 'legs');
    assertError(await reorder(s, 'legs-2', { legs: [l0, l0, l1] }), 400, 'legs[1]');
    assertError(await reorder(s, 'legs-2', { legs: [l0, l1, 'nope'] }), 400, 'legs[2]');
    assertError(await reorder(s, 'legs-2', {}), 400, 'legs');
    assertError(await reorder(s, 'no-such-trip', { legs: ids }), 404, 'tripId');
    assert.deepEqual(
      ((await getTrip(s, 'legs-2')).body.legs as WireLeg[]).map((l) => l._id),
      ids,
    );

    const res = await reorder(s, start.body.trip._id, { legs: [l0, l2, l1] });
    assertOk(res);
    assert.deepEqual(legTypes(res), ['user.updated_trip']);
    assert.deepEqual(
      (res.body.trip.legs as WireLeg[]).map((l) => l._id),
      [l0, l2, l1],
    );
    assert.equal(res.body.trip.currentLeg, l0);

    const next = await patchLeg(s, 'legs-2', l0, { status: 'completed' });
    assertOk(next);
    assert.deepEqual(legTypes(next), ['user.completed_trip_leg', 'user.started_trip_leg']);
    assert.equal(next.body.trip.currentLeg, l2, 'c comes after a now');
    assert.deepEqual(statuses(next.body.trip), ['completed', 'started', 'pending']);
    assert.deepEqual(next.body.trip.destinationLocation, { type: 'Point', coordinates: C });

    // Starting a pending leg makes it current; the one in progress waits again.
    const jump = await patchLeg(s, 'legs-2', l1, { status: 'started' });
    assertOk(jump);
    assert.equal(jump.body.trip.currentLeg, l1);
    assert.deepEqual(statuses(jump.body.trip), ['completed', 'pending', 'started']);
    assertOk(await patchLeg(s, 'legs-2', l1, { status: 'started' }));

    // Bad leg requests.
    assertError(await patchLeg(s, 'legs-2', 'no-such-leg', { status: 'completed' }), 404, 'legId');
    assertError(await patchLeg(s, 'no-such-trip', l1, { status: 'completed' }), 404, 'tripId');
    assertError(await patchLeg(s, 'legs-2', l1, { status: 'pending' }), 400, 'status');
    assertError(await patchLeg(s, 'legs-2', l1, {}), 400, 'status');
    assert.deepEqual(statuses((await getTrip(s, 'legs-2')).body), ['completed', 'pending', 'started']);
  });

  it('starts a legged trip from track tripOptions; resent options leave the legs alone', async () => {
    const tripOptions = {
      externalId: 'legs-3',
      legs: [
        { destination: { destinationGeofenceTag: 'stop', destinationGeofenceExternalId: 'b' } },
        { destination: { destinationGeofenceTag: 'stop', destinationGeofenceExternalId: 'c' } },
      ],
    };
    let res = await trackLater(s, clock, 'leg-dev-3', BROOKLYN, { userId: 'leg-user-3', tripOptions });
    assert.deepEqual(legTypes(res), ['user.started_trip', 'user.started_trip_leg']);
    const trip = res.body.user.trip;
    assert.deepEqual(statuses(trip), ['started', 'pending']);
    assert.deepEqual(trip.eta, expectedEta(BROOKLYN, B));
    res = await trackLater(s, clock, 'leg-dev-3', BROOKLYN, { userId: 'leg-user-3', tripOptions });
    assert.deepEqual(legTypes(res), []);
    assert.deepEqual(
      (res.body.user.trip.legs as WireLeg[]).map((l) => l._id),
      (trip.legs as WireLeg[]).map((l) => l._id),
    );
    clock.advance(30_000);
    const refused = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: {
        deviceId: 'leg-dev-3',
        userId: 'leg-user-3',
        latitude: BROOKLYN[1],
        longitude: BROOKLYN[0],
        accuracy: 10,
        tripOptions: { externalId: 'legs-4', legs: [{ destination: { coordinates: [200, 0] } }] },
      },
    });
    assertError(refused, 400, 'tripOptions.legs[0].destination.coordinates');
  });

  it('refuses bad legs naming the parameter, and starts nothing', async () => {
    const post = (legs: unknown) => startTrip(s, { userId: 'leg-user-4', externalId: 'legs-bad', legs });
    const tagA = { destinationGeofenceTag: 'stop', destinationGeofenceExternalId: 'a' };
    assertError(await post([tagA, { destinationGeofenceExternalId: 'b' }]), 400, 'legs[1].destinationGeofenceTag');
    assertError(
      await post([tagA, { destination: { destinationGeofenceTag: 'stop' } }]),
      400,
      'legs[1].destination.destinationGeofenceExternalId',
    );
    assertError(await post([{ ...tagA, address: '1 Main St' }]), 400, 'legs[0]');
    assertError(await post([{ stopDuration: 3 }]), 400, 'legs[0]');
    assertError(await post([tagA, { ...tagA, stopDuration: -1 }]), 400, 'legs[1].stopDuration');
    assertError(await post([tagA, { coordinates: ['x', 1] }]), 400, 'legs[1].coordinates');
    assertError(await post('not json'), 400, 'legs');
    assertError(await post([tagA, 'leg']), 400, 'legs[1]');
    assertError(
      await post([tagA, tagA, { destinationGeofenceTag: 'stop', destinationGeofenceExternalId: 'zz' }]),
      404,
      'legs[2].destinationGeofenceExternalId',
    );
    assertError(await post([{ destinationGeofenceId: 'no-such-fence' }]), 404, 'legs[0].destinationGeofenceId');
    assertError(await getTrip(s, 'legs-bad'), 404);
  });

  it('a one-destination trip has no legs or currentLeg, and its legs cannot be changed', async () => {
    await trackLater(s, clock, 'leg-dev-5', BROOKLYN, { userId: 'leg-user-5' });
    const res = await startTrip(s, {
      userId: 'leg-user-5',
      externalId: 'single-1',
      destinationGeofenceTag: 'stop',
      destinationGeofenceExternalId: 'a',
    });
    assertOk(res);
    assert.equal(res.body.trip.legs, undefined);
    assert.equal(res.body.trip.currentLeg, undefined);
    assert.deepEqual(typesOf(res), ['user.started_trip']);
    assertError(await patchLeg(s, 'single-1', 'x', { status: 'completed' }), 404, 'legId');
    assertError(await reorder(s, 'single-1', { legs: ['x'] }), 404, 'tripId');
  });
});
