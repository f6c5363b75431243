import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError } from './helpers/assertions.js';
import { haversineMeters } from './helpers/fixtures.js';
import { get } from './helpers/geodata.js';
import { osmServerSuite } from './helpers/osm-server.js';
import { type LonLat, putCircle, track, trackBody } from './helpers/tracking.js';

// Oʻahu: Kamehameha Highway (HI 99) eastbound at Waiawa, over a bridge tagged `maxweight=14.5` (OSM way
// 500378786, one-way as half of the divided highway). A car crosses it; the default 18 t truck cannot.
const BEFORE_BRIDGE: LonLat = [-158.0135, 21.4282];
const AFTER_BRIDGE: LonLat = [-158.0095, 21.4262];
const DOWNTOWN: LonLat = [-157.8583, 21.3069];
const KAILUA: LonLat = [-157.7394, 21.3983];
/** Kansas: no imported roads anywhere near. */
const KANSAS: LonLat = [-98.5, 38.5];
const KANSAS_EAST: LonLat = [-98.45, 38.52];

const q = (p: LonLat) => `${p[1]},${p[0]}`;

describe('truck and motorbike routes (Oʻahu)', () => {
  const osm = osmServerSuite(['honolulu-oahu-hi-2018.osm.pbf']);
  const distance = (origin: LonLat, destination: LonLat, modes: string) =>
    get(osm.s, '/v1/route/distance', { origin: q(origin), destination: q(destination), modes, units: 'metric' });
  const matrix = (origins: LonLat[], destinations: LonLat[], mode: string) =>
    get(osm.s, '/v1/route/matrix', {
      origins: origins.map(q).join('|'),
      destinations: destinations.map(q).join('|'),
      mode,
      units: 'metric',
    });

  it('builds a truck graph at import, without the ways trucks may not use', (t) => {
    if (osm.skipped(t)) return;
    const { counts } = osm.pack.imports[0]!;
    assert.ok(counts.truckEdges! > 50_000, `truck edges ${counts.truckEdges}`);
    assert.ok(counts.truckEdges! < counts.carEdges!, `truck ${counts.truckEdges} car ${counts.carEdges}`);
  });

  it('sends the truck round a bridge its weight limit closes, where the car crosses it', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(BEFORE_BRIDGE, AFTER_BRIDGE, 'car,truck');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { car, truck } = res.body.routes;
    // The car: about 2.2 km along the highway; the truck: back round by the H-1, several times as far.
    assert.ok(car.distance.value < 3000, `car ${car.distance.value} m`);
    assert.ok(truck.distance.value > car.distance.value * 3, `truck ${truck.distance.value} m`);
    assert.ok(truck.duration.value > car.duration.value * 2, `truck ${truck.duration.value} min`);
  });

  it('drives a truck slower than a car over the same roads, and a motorbike a little quicker', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(DOWNTOWN, KAILUA, 'car,truck,motorbike');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { car, truck, motorbike } = res.body.routes;
    assert.ok(Math.abs(truck.distance.value - car.distance.value) < car.distance.value * 0.1, 'about the same roads');
    assert.ok(
      truck.duration.value > car.duration.value * 1.05,
      `truck ${truck.duration.value} car ${car.duration.value}`,
    );
    // The motorbike rides the car's route: the same meters, at most 10% less time (town roads).
    assert.equal(motorbike.distance.value, car.distance.value);
    assert.ok(motorbike.duration.value < car.duration.value, `motorbike ${motorbike.duration.value}`);
    assert.ok(motorbike.duration.value >= car.duration.value * 0.9 - 0.1, `motorbike ${motorbike.duration.value}`);
  });

  it('answers truck and motorbike matrices with the routes of route distance', async (t) => {
    if (osm.skipped(t)) return;
    const points = [BEFORE_BRIDGE, AFTER_BRIDGE, DOWNTOWN];
    for (const mode of ['truck', 'motorbike']) {
      const res = await matrix(points, [AFTER_BRIDGE, KAILUA], mode);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.matrix.length, 3);
      for (const row of res.body.matrix) {
        for (const cell of row) {
          const one = await distance(points[cell.originIndex]!, [AFTER_BRIDGE, KAILUA][cell.destinationIndex]!, mode);
          const r = one.body.routes[mode];
          assert.equal(cell.distance.value, r.distance.value, `${mode} ${cell.originIndex}→${cell.destinationIndex}`);
          assert.equal(cell.duration.value, r.duration.value, `${mode} ${cell.originIndex}→${cell.destinationIndex}`);
        }
      }
      if (mode === 'truck') assert.ok(res.body.matrix[0][0].distance.value > 6000, 'the truck goes round the bridge');
    }
  });

  it('estimates truck and motorbike routes outside road coverage at their own speeds', async (t) => {
    if (osm.skipped(t)) return;
    const res = await distance(KANSAS, KANSAS_EAST, 'car,truck,motorbike');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const straight = haversineMeters(KANSAS, KANSAS_EAST);
    const { truck, motorbike } = res.body.routes;
    for (const [r, kmh] of [
      [truck, 35],
      [motorbike, 45],
    ] as const) {
      assert.ok(Math.abs(r.distance.value - straight * 1.3) < 1, `${r.distance.value}`);
      assert.ok(Math.abs(r.duration.value - (straight * 1.3) / ((kmh * 1000) / 60)) < 0.1, `${r.duration.value}`);
    }
  });

  it('gives trips in truck and motorbike mode the ETA of their own routes', async (t) => {
    if (osm.skipped(t)) return;
    await putCircle(osm.s, 'depot', 'past-bridge', AFTER_BRIDGE, 50);
    const etas: Record<string, { distance: number; duration: number }> = {};
    for (const mode of ['car', 'truck', 'motorbike']) {
      // As the mobile SDKs send it: the stored trip options, mode among them, on the track.
      const res = await track(
        osm.s,
        trackBody(`trip-${mode}`, BEFORE_BRIDGE, {
          userId: `driver-${mode}`,
          tripOptions: {
            externalId: `run-${mode}`,
            destinationGeofenceTag: 'depot',
            destinationGeofenceExternalId: 'past-bridge',
            mode,
            version: '2',
          },
        }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const trip = res.body.user.trip;
      assert.equal(trip.mode, mode);
      const route = (await distance(BEFORE_BRIDGE, AFTER_BRIDGE, mode)).body.routes[mode];
      assert.ok(Math.abs(trip.eta.distance - route.distance.value) <= 1, `${mode} ${trip.eta.distance}`);
      assert.ok(Math.abs(trip.eta.duration - route.duration.value) <= 0.1, `${mode} ${trip.eta.duration}`);
      etas[mode] = trip.eta;
    }
    assert.ok(etas.truck!.distance > etas.car!.distance * 3, 'the truck trip goes round the bridge');
    assert.equal(etas.motorbike!.distance, etas.car!.distance);
    assert.ok(etas.motorbike!.duration < etas.car!.duration);
    // POST /v1/trips takes the modes too; anything else is refused and starts nothing.
    const started = await osm.s.request('POST', '/v1/trips', {
      key: osm.s.keys.test.publishable,
      json: { userId: 'driver-truck-2', externalId: 'run-truck-2', mode: 'truck' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.trip.mode, 'truck');
    const json = { userId: 'driver-plane', externalId: 'run-plane', mode: 'plane' };
    assertError(await osm.s.request('POST', '/v1/trips', { key: osm.s.keys.test.publishable, json }), 400, 'mode');
    const gone = await osm.s.request('GET', '/v1/trips/run-plane', { key: osm.s.keys.test.secret });
    assert.equal(gone.status, 404);
  });

  it('refuses a mode it does not know, naming the parameter', async (t) => {
    if (osm.skipped(t)) return;
    assertError(await distance(DOWNTOWN, KAILUA, 'car,plane'), 400, 'modes');
    assertError(await matrix([DOWNTOWN], [KAILUA], 'plane'), 400, 'mode');
  });
});
