import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installBrowserShims } from './helpers/browser-shims.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle } from './helpers/tracking.js';

interface SdkGeofence {
  _id: string;
  tag?: string;
  externalId?: string;
  geometry?: { type: string };
}
interface SdkTrip {
  _id: string;
  externalId: string;
  status: string;
  mode?: string;
  metadata?: Record<string, unknown>;
  eta?: { duration: number; distance: number };
}
interface SdkEvent {
  type: string;
  geofence?: SdkGeofence;
  trip?: SdkTrip;
}
interface SdkUser {
  _id: string;
  userId?: string;
  location: { type: string; coordinates: number[] };
  geofences?: SdkGeofence[];
  trip?: SdkTrip;
}
type SdkLocation = { latitude: number; longitude: number; accuracy?: number };
type SdkTripOptions = Record<string, unknown> & { externalId: string };
type SdkTripResponse = { trip: SdkTrip; events: SdkEvent[] };

/**
 * The part of radar-sdk-js 5.x these tests drive, with the result shapes its `types.d.ts` documents
 * (the package's declarations use extensionless imports, which NodeNext resolution cannot follow).
 */
interface RadarSdk {
  initialize(publishableKey: string, options: Record<string, unknown>): void;
  setUserId(userId?: string): void;
  trackOnce(params?: SdkLocation): Promise<{ user: SdkUser; events: SdkEvent[]; location: SdkLocation }>;
  getContext(location: Partial<SdkLocation>): Promise<{ geofences?: SdkGeofence[] }>;
  searchGeofences(params: Record<string, unknown>): Promise<{ geofences: SdkGeofence[] }>;
  startTrip(options: SdkTripOptions): Promise<SdkTripResponse>;
  updateTrip(options: SdkTripOptions): Promise<SdkTripResponse>;
  completeTrip(): Promise<SdkTripResponse>;
  cancelTrip(): Promise<SdkTripResponse>;
  getTripOptions(): SdkTripOptions | null;
}

/** Where the shimmed `navigator.geolocation` says the device is. */
let devicePosition: LonLat = BROOKLYN;

describe('radar-sdk-js 5.x against a running server', () => {
  let s: TestServer;
  // The server's clock moves 30 s before each track, as a device tracking every half minute would.
  const clock = new ManualClock(Date.now());
  let Radar: RadarSdk;
  const far = offset(BROOKLYN, 0, 6000);
  const latLng = (p: LonLat) => ({ latitude: p[1], longitude: p[0] });

  before(async () => {
    s = await startServer({ clock });
    await putCircle(s, 'store', 'sdk-1', BROOKLYN, 100, { metadata: { kind: 'flagship' } });
    installBrowserShims(() => devicePosition);
    Radar = (await import('radar-sdk-js')).default as RadarSdk;
    Radar.initialize(s.keys.test.publishable, { host: s.url, logLevel: 'none' });
    Radar.setUserId('sdk-user');
  });
  after(() => s.close());

  it('trackOnce with the position the device reports: user and events, no error', async () => {
    devicePosition = far;
    clock.advance(30_000);
    const res = await Radar.trackOnce();
    assert.ok(res.user, 'user');
    assert.equal(res.user.userId, 'sdk-user');
    assert.match(res.user._id, /^[0-9a-f]{24}$/);
    assert.deepEqual(res.user.location, { type: 'Point', coordinates: far });
    assert.ok(Array.isArray(res.events));
    assert.deepEqual(res.location, { ...latLng(far), accuracy: 12 });
  });

  it('trackOnce with a given position enters the geofence there', async () => {
    clock.advance(30_000);
    const res = await Radar.trackOnce({ ...latLng(BROOKLYN), accuracy: 10 });
    assert.deepEqual(
      res.events.map((e) => e.type),
      ['user.entered_geofence'],
    );
    assert.equal(res.events[0]?.geofence?.externalId, 'sdk-1');
    assert.equal(res.user.geofences?.[0]?.tag, 'store');
  });

  it('getContext: the geofences at a point, at the top level where the SDK reads them', async () => {
    const res = await Radar.getContext(latLng(BROOKLYN));
    assert.deepEqual(
      res.geofences?.map((g) => g.externalId),
      ['sdk-1'],
    );
    devicePosition = far;
    const none = await Radar.getContext({});
    assert.deepEqual(none.geofences, []);
  });

  it('searchGeofences: near a point, by tag, with the metadata the SDK mangles', async () => {
    const res = await Radar.searchGeofences({
      near: latLng(offset(BROOKLYN, 300, 0)),
      radius: 1000,
      tags: ['store'],
      metadata: { kind: 'flagship' },
      limit: 10,
      includeGeometry: true,
    });
    assert.deepEqual(
      res.geofences.map((g) => g.externalId),
      ['sdk-1'],
    );
    assert.equal(res.geofences[0]?.geometry?.type, 'Polygon');
  });

  it('startTrip: the trip and its events', async () => {
    clock.advance(30_000);
    await Radar.trackOnce({ ...latLng(far), accuracy: 10 });
    const res = await Radar.startTrip({
      externalId: 'sdk-trip',
      destinationGeofenceTag: 'store',
      destinationGeofenceExternalId: 'sdk-1',
      mode: 'car',
      metadata: { order: 'A-1' },
      approachingThreshold: 3,
      scheduledArrivalAt: new Date(clock.now() + 3_600_000),
    });
    assert.equal(res.trip.externalId, 'sdk-trip');
    assert.equal(res.trip.status, 'started');
    assert.equal(res.trip.mode, 'car');
    assert.deepEqual(res.trip.metadata, { order: 'A-1' });
    assert.ok(res.trip.eta && res.trip.eta.duration > 3 && res.trip.eta.distance > 6000);
    assert.deepEqual(
      res.events.map((e) => e.type),
      ['user.started_trip'],
    );
    assert.equal(Radar.getTripOptions()?.externalId, 'sdk-trip', 'the SDK keeps the options for later tracks');
  });

  it('trackOnce on the trip sends the stored options back and gets user.trip', async () => {
    clock.advance(30_000);
    const res = await Radar.trackOnce({ ...latLng(offset(BROOKLYN, 0, 4000)), accuracy: 10 });
    assert.equal(res.user.trip?.externalId, 'sdk-trip');
    assert.equal(res.user.trip?.status, 'started');
    assert.deepEqual(res.events, []);
  });

  it('updateTrip: new options, user.updated_trip', async () => {
    const res = await Radar.updateTrip({ externalId: 'sdk-trip', metadata: { order: 'A-1', gate: 2 }, mode: 'bike' });
    assert.equal(res.trip.mode, 'bike');
    assert.deepEqual(res.trip.metadata, { order: 'A-1', gate: 2 });
    assert.deepEqual(
      res.events.map((e) => e.type),
      ['user.updated_trip'],
    );
  });

  it('completeTrip: completed, user.stopped_trip, and the SDK forgets the trip', async () => {
    const res = await Radar.completeTrip();
    assert.equal(res.trip.status, 'completed');
    assert.equal(res.trip.mode, 'bike', 'the stale options completeTrip resends do not undo updateTrip');
    assert.deepEqual(
      res.events.map((e) => [e.type, e.trip?.status]),
      [['user.stopped_trip', 'completed']],
    );
    assert.equal(Radar.getTripOptions(), null);
    clock.advance(30_000);
    const tracked = await Radar.trackOnce({ ...latLng(far), accuracy: 10 });
    assert.equal(tracked.user.trip, undefined);
  });

  it('cancelTrip: canceled, user.stopped_trip', async () => {
    await Radar.startTrip({
      externalId: 'sdk-trip-2',
      destinationGeofenceTag: 'store',
      destinationGeofenceExternalId: 'sdk-1',
    });
    const res = await Radar.cancelTrip();
    assert.equal(res.trip.status, 'canceled');
    assert.equal(res.trip.externalId, 'sdk-trip-2');
    assert.deepEqual(
      res.events.map((e) => [e.type, e.trip?.status]),
      [['user.stopped_trip', 'canceled']],
    );
  });

  it('maps a refused request to the SDK error with the server message', async () => {
    await assert.rejects(
      Radar.startTrip({
        externalId: 'sdk-bad',
        destinationGeofenceTag: 'store',
        destinationGeofenceExternalId: 'nowhere',
      }),
      (err: Error) => err.name === 'RadarNotFoundError' && err.message.startsWith('destinationGeofenceExternalId'),
    );
  });
});
