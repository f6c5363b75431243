import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError } from './helpers/assertions.js';
import { haversineMeters } from './helpers/fixtures.js';
import { get } from './helpers/geodata.js';
import { osmServerSuite } from './helpers/osm-server.js';
import { ManualClock } from './helpers/server.js';
import { type LonLat, track, trackBody, typesOf } from './helpers/tracking.js';
import { startTrip, trackLater, tripEventsOf } from './helpers/trips.js';

// Oʻahu: downtown Honolulu to Kailua over the Pali, and a one-way street in Waikiki.
const DOWNTOWN: LonLat = [-157.8583, 21.3069];
const KAILUA: LonLat = [-157.7394, 21.3983];
/** On Kalakaua Avenue by Kuhio Beach (on the road, so every mode starts right here). */
const WAIKIKI: LonLat = [-157.8273, 21.2788];
/** Paoakalani Avenue, one-way north-east (OSM way 12206483): two points along it, in travel order. */
const ONEWAY_A: LonLat = [-157.82237, 21.27303];
const ONEWAY_B: LonLat = [-157.82011, 21.27519];
// Baltimore: Canton to Fells Point.
const CANTON: LonLat = [-76.5735, 39.2818];
const FELLS_POINT: LonLat = [-76.5932, 39.2833];
const BROOKLYN: LonLat = [-73.9867, 40.7039];

const q = (p: LonLat) => `${p[1]},${p[0]}`;
const FEET_PER_METER = 3.28084;

describe('routing on imported roads (Oʻahu and Baltimore)', () => {
  const clock = new ManualClock();
  const osm = osmServerSuite(['honolulu-oahu-hi-2018.osm.pbf', 'baltimore-md-2015.osm.pbf'], { clock });
  const distance = (origin: LonLat, destination: LonLat, extra: Record<string, string> = {}) =>
    get(osm.s, '/v1/route/distance', {
      origin: q(origin),
      destination: q(destination),
      modes: 'car',
      units: 'metric',
      ...extra,
    });
  /** `GET /v1/route/matrix` by car, in meters, from each of `origins` to each of `destinations`. */
  const matrix = (origins: LonLat[], destinations: LonLat[], extra: Record<string, string> = {}) =>
    get(osm.s, '/v1/route/matrix', {
      origins: origins.map(q).join('|'),
      destinations: destinations.map(q).join('|'),
      mode: 'car',
      units: 'metric',
      ...extra,
    });

  it('the import reports the road graphs it built', (t) => {
    if (osm.skipped(t)) return;
    const oahu = osm.pack.imports[0]!;
    assert.ok(oahu.counts.carEdges! > 50_000, `car edges ${oahu.counts.carEdges}`);
    assert.ok(oahu.counts.footEdges! > oahu.counts.carEdges! * 0.9);
    assert.ok(oahu.counts.turnRestrictions! > 0, 'car turn restrictions applied');
  });

  it('drives, cycles and walks from downtown Honolulu to Kailua: longer than the straight line, foot slowest', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(DOWNTOWN, KAILUA, { modes: 'car,bike,foot' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { geodesic, car, bike, foot } = res.body.routes;
    assert.deepEqual(Object.keys(geodesic), ['distance']);
    const straight = haversineMeters(DOWNTOWN, KAILUA);
    assert.ok(Math.abs(geodesic.distance.value - straight) < 1, `${geodesic.distance.value} vs ${straight}`);
    // Over the Pali Highway: about 19 km of road for 15.5 km of straight line.
    assert.ok(car.distance.value > straight * 1.1 && car.distance.value < straight * 1.5, car.distance.value);
    assert.match(car.distance.text, /^\d+(\.\d)? km$/);
    assert.ok(car.duration.value > 12 && car.duration.value < 35, `car ${car.duration.value} min`);
    assert.match(car.duration.text, /^\d+ mins?$/);
    assert.ok(bike.duration.value > car.duration.value, 'bike slower than car');
    assert.ok(foot.duration.value > bike.duration.value, 'foot slower than bike');
    assert.ok(foot.duration.value > 180, `foot ${foot.duration.value} min`);
    assert.match(foot.duration.text, /^\d+ hrs? \d+ mins?$|^\d+ hrs?$/);
  });

  it('imperial units give feet and miles for the same route', async (t) => {
    if (osm.skipped(t)) return;
    const metric = (await distance(DOWNTOWN, KAILUA)).body.routes.car;
    const res = await distance(DOWNTOWN, KAILUA, { units: 'imperial' });
    const car = res.body.routes.car;
    assert.ok(Math.abs(car.distance.value - metric.distance.value * FEET_PER_METER) < 1, car.distance.value);
    assert.equal(car.distance.text, `${Math.round((car.distance.value / 5280) * 10) / 10} mi`);
    assert.deepEqual(car.duration, metric.duration, 'durations are minutes in both');
    // Under a tenth of a mile (528 ft) the text is in feet; under 1 km in meters.
    const hop: LonLat = [ONEWAY_A[0] + 0.0003, ONEWAY_A[1] + 0.0003];
    const short = (await distance(ONEWAY_A, hop, { units: 'imperial' })).body.routes.car;
    assert.match(short.distance.text, /^\d+ ft$/);
    assert.equal(short.distance.text, `${Math.round(short.distance.value)} ft`);
    const shortMetric = (await distance(ONEWAY_A, ONEWAY_B)).body.routes.car;
    assert.match(shortMetric.distance.text, /^\d+ m$/);
  });

  it('respects one-way streets for cars but not for walkers', async (t) => {
    if (osm.skipped(t)) return;
    const straight = haversineMeters(ONEWAY_A, ONEWAY_B);
    const along = (await distance(ONEWAY_A, ONEWAY_B, { modes: 'car,foot' })).body.routes;
    const against = (await distance(ONEWAY_B, ONEWAY_A, { modes: 'car,foot' })).body.routes;
    assert.ok(along.car.distance.value < straight * 1.2, `with the flow ${along.car.distance.value} m`);
    assert.ok(against.car.distance.value > along.car.distance.value * 1.5, `against ${against.car.distance.value} m`);
    assert.ok(Math.abs(against.foot.distance.value - along.foot.distance.value) < 5, 'walkers go both ways');
  });

  it('routes in Baltimore too (a second imported region)', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(CANTON, FELLS_POINT, { modes: 'car,foot' });
    const straight = haversineMeters(CANTON, FELLS_POINT);
    const { car, foot } = res.body.routes;
    assert.ok(car.distance.value > straight && car.distance.value < straight * 1.6, car.distance.value);
    assert.ok(car.duration.value > 2 && car.duration.value < 15, `${car.duration.value} min`);
    assert.ok(foot.duration.value > car.duration.value);
  });

  it('adds the route line on request: LineString from origin to destination, or an encoded polyline', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(DOWNTOWN, KAILUA, { geometry: 'linestring' });
    const line = res.body.routes.car.geometry;
    assert.equal(line.type, 'LineString');
    assert.deepEqual(line.coordinates[0], DOWNTOWN);
    assert.deepEqual(line.coordinates.at(-1), KAILUA);
    let length = 0;
    for (let i = 1; i < line.coordinates.length; i++)
      length += haversineMeters(line.coordinates[i - 1], line.coordinates[i]);
    const routed = res.body.routes.car.distance.value;
    assert.ok(Math.abs(length - routed) / routed < 0.02, `line ${length} m vs route ${routed} m`);
    assert.equal(res.body.routes.geodesic.geometry, undefined);
    const poly = await distance(DOWNTOWN, KAILUA, { geometry: 'polyline6' });
    assert.equal(typeof poly.body.routes.car.geometry.polyline, 'string');
    assert.equal((await distance(DOWNTOWN, KAILUA)).body.routes.car.geometry, undefined, 'no line unless asked');
  });

  it('falls back to the estimate outside every imported graph, and between regions', async (t) => {
    if (osm.skipped(t)) return;
    const far: LonLat = [BROOKLYN[0] + 0.05, BROOKLYN[1] + 0.03];
    const res = await distance(BROOKLYN, far, { modes: 'car,foot' });
    assert.equal(res.status, 200);
    const straight = haversineMeters(BROOKLYN, far);
    assert.ok(Math.abs(res.body.routes.car.distance.value - straight * 1.3) < 1, 'car: straight line × 1.3');
    const minutes = (straight * 1.3) / (40_000 / 60);
    assert.ok(Math.abs(res.body.routes.car.duration.value - minutes) < 0.06, 'at 40 km/h');
    const across = await distance(DOWNTOWN, CANTON);
    assert.equal(across.status, 200);
    const straightAcross = haversineMeters(DOWNTOWN, CANTON);
    assert.ok(Math.abs(across.body.routes.car.distance.value - straightAcross * 1.3) < 10);
    // Five junctions of streets near Kapolei that the car graph does not connect to the rest of the island.
    const island: LonLat = [-158.101453, 21.396193];
    const cut = await distance(island, DOWNTOWN);
    assert.ok(Math.abs(cut.body.routes.car.distance.value - haversineMeters(island, DOWNTOWN) * 1.3) < 1);
    // Off the coast: 20 km out to sea is not snapped onto a road.
    const sea = await distance([-157.9, 21.05], DOWNTOWN);
    assert.ok(Math.abs(sea.body.routes.car.distance.value - haversineMeters([-157.9, 21.05], DOWNTOWN) * 1.3) < 1);
  });

  it('answers a matrix: rows per origin, cells with indexes, the same numbers as route distance', async (t) => {
    if (osm.skipped(t)) return;
    const origins = [DOWNTOWN, WAIKIKI];
    const destinations = [KAILUA, ONEWAY_A, DOWNTOWN];
    const res = await matrix(origins, destinations);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.origins,
      origins.map(([longitude, latitude]) => ({ latitude, longitude })),
    );
    assert.equal(res.body.destinations.length, 3);
    assert.equal(res.body.matrix.length, 2);
    for (const [i, row] of res.body.matrix.entries()) {
      assert.equal(row.length, 3);
      for (const [j, cell] of row.entries()) {
        assert.equal(cell.originIndex, i);
        assert.equal(cell.destinationIndex, j);
        assert.deepEqual(Object.keys(cell).sort(), ['destinationIndex', 'distance', 'duration', 'originIndex']);
      }
    }
    const single = (await distance(DOWNTOWN, KAILUA)).body.routes.car;
    assert.deepEqual(res.body.matrix[0][0].distance, single.distance);
    assert.deepEqual(res.body.matrix[0][0].duration, single.duration);
    assert.equal(res.body.matrix[0][2].distance.value, 0, 'a point to itself');
  });

  it('answers a matrix across two regions with the numbers of route distance for every cell', async (t) => {
    if (osm.skipped(t)) return;
    const origins = [DOWNTOWN, CANTON, ONEWAY_B];
    const destinations = [FELLS_POINT, ONEWAY_A, KAILUA, BROOKLYN];
    const res = await matrix(origins, destinations);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const [i, o] of origins.entries()) {
      for (const [j, d] of destinations.entries()) {
        const single = (await distance(o, d)).body.routes.car;
        assert.deepEqual(res.body.matrix[i][j].distance, single.distance, `${i}→${j}`);
        assert.deepEqual(res.body.matrix[i][j].duration, single.duration, `${i}→${j}`);
      }
    }
  });

  it('caps a matrix at 25 routes', async (t) => {
    if (osm.skipped(t)) return;
    const five = Array.from({ length: 5 }, (_, i): LonLat => [WAIKIKI[0] + i * 0.002, WAIKIKI[1]]);
    const ok = await matrix(five, five, { mode: 'foot', units: 'imperial' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.matrix.flat().length, 25);
    assertError(await matrix(five, [...five, DOWNTOWN]), 400, 'destinations', '25');
    assertError(await matrix([DOWNTOWN], Array(26).fill(KAILUA)), 400, 'destinations', '25');
  });

  describe('rejected parameters name themselves', () => {
    /** `[case, query, the parameter the 400 names, words its message holds]`. */
    type BadQuery = [string, Record<string, string>, string, string];
    /** A test a case: `GET path?query` answers 400 naming the parameter. */
    const refusesEach = (endpoint: string, path: string, cases: BadQuery[]) => {
      for (const [name, params, param, words] of cases) {
        it(`${endpoint}: ${name}`, async (t) => {
          if (osm.skipped(t)) return;
          assertError(await get(osm.s, path, params), 400, param, words);
        });
      }
    };
    const good = { origin: q(DOWNTOWN), destination: q(KAILUA), modes: 'car', units: 'metric' };
    const drop = (k: keyof typeof good) => {
      const { [k]: _, ...rest } = good;
      return rest;
    };
    refusesEach('distance', '/v1/route/distance', [
      ['origin missing', drop('origin'), 'origin', 'required'],
      ['origin not a point', { ...good, origin: 'here' }, 'origin', 'latitude,longitude'],
      ['origin latitude out of range', { ...good, origin: '91,0' }, 'origin', 'latitude'],
      ['destination missing', drop('destination'), 'destination', 'required'],
      ['destination not a point', { ...good, destination: '1,2,3' }, 'destination', 'latitude,longitude'],
      ['modes missing', drop('modes'), 'modes', 'required'],
      ['modes unknown', { ...good, modes: 'car,plane' }, 'modes', 'plane'],
      ['units missing', drop('units'), 'units', 'required'],
      ['units unknown', { ...good, units: 'furlongs' }, 'units', 'metric'],
      ['geometry unknown', { ...good, geometry: 'svg' }, 'geometry', 'linestring'],
      ['geometryPoints not a number', { ...good, geometryPoints: 'many' }, 'geometryPoints', 'integer'],
      ['avoid unknown', { ...good, avoid: 'potholes' }, 'avoid', 'potholes'],
    ]);
    const m = { origins: q(DOWNTOWN), destinations: `${q(KAILUA)}|${q(WAIKIKI)}`, mode: 'car', units: 'metric' };
    refusesEach('matrix', '/v1/route/matrix', [
      ['origins missing', { ...m, origins: '' }, 'origins', 'required'],
      ['origins with a bad point', { ...m, origins: `${q(DOWNTOWN)}|nowhere` }, 'origins', 'latitude,longitude'],
      ['destinations missing', { ...m, destinations: '' }, 'destinations', 'required'],
      ['destinations with a bad point', { ...m, destinations: '21.3,-200' }, 'destinations', 'longitude'],
      ['mode missing', { ...m, mode: '' }, 'mode', 'required'],
      ['mode unknown', { ...m, mode: 'boat' }, 'mode', 'foot'],
      ['mode as a list', { ...m, mode: 'car,foot' }, 'mode', 'foot'],
      ['units missing', { ...m, units: '' }, 'units', 'required'],
      ['units unknown', { ...m, units: 'miles' }, 'units', 'metric'],
      ['avoid unknown', { ...m, avoid: 'hills' }, 'avoid', 'hills'],
    ]);
    it('route endpoints need a key', async (t) => {
      if (osm.skipped(t)) return;
      const res = await osm.s.request(
        'GET',
        `/v1/route/distance?origin=${q(DOWNTOWN)}&destination=${q(KAILUA)}&modes=car&units=metric`,
        {
          key: null,
        },
      );
      assert.equal(res.status, 401);
    });
  });

  it('draws an isochrone geofence from the road network and fires events with it', async (t) => {
    if (osm.skipped(t)) return;
    const res = await osm.s.request('PUT', '/v1/geofences/iso/waikiki', {
      key: osm.s.keys.test.secret,
      json: { description: '5 minutes by car', type: 'isochrone', coordinates: WAIKIKI, radius: 5, mode: 'car' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const fence = res.body.geofence;
    assert.equal(fence.type, 'isochrone');
    assert.equal(fence.mode, 'car');
    assert.equal(fence.geometryRadius, 5);
    assert.deepEqual(fence.geometryCenter.coordinates, WAIKIKI);
    const ring: LonLat[] = fence.geometry.coordinates[0];
    assert.ok(ring.length >= 8, `${ring.length} vertices`);
    assert.deepEqual(ring[0], ring.at(-1));
    // Five minutes of driving reach farther than a walker's 400 m, and not to Kailua.
    const reach = Math.max(...ring.map((p) => haversineMeters(p, WAIKIKI)));
    assert.ok(reach > 800 && reach < 8000, `reach ${reach} m`);
    const walk = await osm.s.request('PUT', '/v1/geofences/iso/waikiki-foot', {
      key: osm.s.keys.test.secret,
      json: { description: '5 minutes on foot', type: 'isochrone', coordinates: WAIKIKI, radius: 5, mode: 'foot' },
    });
    const walkReach = Math.max(
      ...walk.body.geofence.geometry.coordinates[0].map((p: LonLat) => haversineMeters(p, WAIKIKI)),
    );
    assert.ok(walkReach < reach && walkReach < 600, `walk reach ${walkReach} m`);

    clock.advance(60_000);
    const outside = await track(osm.s, trackBody('iso-dev', KAILUA));
    assert.deepEqual(typesOf(outside), []);
    clock.advance(60_000);
    const inside = await track(osm.s, trackBody('iso-dev', [WAIKIKI[0] + 0.001, WAIKIKI[1]]));
    assert.deepEqual(typesOf(inside).sort(), ['user.entered_geofence', 'user.entered_geofence']);
    clock.advance(60_000);
    const left = await track(osm.s, trackBody('iso-dev', DOWNTOWN));
    assert.deepEqual(typesOf(left).sort(), ['user.exited_geofence', 'user.exited_geofence']);
  });

  it('gives trips road ETAs and turns them approaching from the route time', async (t) => {
    if (osm.skipped(t)) return;
    const put = await osm.s.request('PUT', '/v1/geofences/store/waikiki', {
      key: osm.s.keys.test.secret,
      json: { description: 'Waikiki store', type: 'circle', coordinates: WAIKIKI, radius: 100 },
    });
    assert.equal(put.status, 200);
    const start = await startTrip(osm.s, {
      userId: 'driver',
      externalId: 'oahu-trip',
      destinationGeofenceTag: 'store',
      destinationGeofenceExternalId: 'waikiki',
      mode: 'car',
      approachingThreshold: 3,
    });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const first = await trackLater(osm.s, clock, 'driver-dev', DOWNTOWN, { userId: 'driver' });
    const eta = first.body.user.trip.eta;
    const road = (await distance(DOWNTOWN, WAIKIKI)).body.routes.car;
    assert.ok(
      Math.abs(eta.distance - road.distance.value) < 1,
      `eta ${eta.distance} m vs route ${road.distance.value} m`,
    );
    assert.ok(Math.abs(eta.duration - road.duration.value) < 0.1, `eta ${eta.duration} min vs ${road.duration.value}`);
    assert.notEqual(
      Math.round(eta.distance),
      Math.round(haversineMeters(DOWNTOWN, WAIKIKI) * 1.3),
      'not the straight-line estimate',
    );
    assert.equal(first.body.user.trip.status, 'started');
    const near = await trackLater(osm.s, clock, 'driver-dev', [WAIKIKI[0] - 0.004, WAIKIKI[1] + 0.002], {
      userId: 'driver',
    });
    assert.ok(near.body.user.trip.eta.duration <= 3, `near eta ${near.body.user.trip.eta.duration}`);
    assert.equal(near.body.user.trip.status, 'approaching');
    assert.ok(tripEventsOf(near).includes('user.approaching_trip_destination'));
  });

  it('searches users by minutes of travel to a point', async (t) => {
    if (osm.skipped(t)) return;
    clock.advance(60_000);
    await track(osm.s, trackBody('near-user', [WAIKIKI[0] + 0.003, WAIKIKI[1] + 0.002], { userId: 'near-user' }));
    await track(osm.s, trackBody('far-user', KAILUA, { userId: 'far-user' }));
    const search = (mode: string, radius: string) =>
      get(osm.s, '/v1/search/users', { near: q(WAIKIKI), mode, radius }, osm.s.keys.test.secret);
    const byCar = await search('car', '10');
    assert.equal(byCar.status, 200, JSON.stringify(byCar.body));
    const ids = byCar.body.users.map((u: { userId: string }) => u.userId);
    assert.ok(ids.includes('near-user'));
    assert.ok(!ids.includes('far-user'), 'Kailua is more than 10 minutes from Waikiki');
    const longer = (await search('car', '40')).body.users.map((u: { userId: string }) => u.userId);
    assert.ok(longer.includes('far-user'), 'but less than 40');
    const onFoot = (await search('foot', '2')).body.users.map((u: { userId: string }) => u.userId);
    assert.ok(!onFoot.includes('near-user'), 'about 400 m is more than 2 minutes on foot');
  });
});
