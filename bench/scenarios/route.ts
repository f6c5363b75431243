import { existsSync } from 'node:fs';
import path from 'node:path';
import { importOsm } from '../../src/geodata/osm/import-osm.js';
import { copyOfSharedTestPack, fixturesDir } from '../../src/geodata/test-pack.js';
import { auth, measure, sendAll } from '../lib/load.js';
import { startServerProcess } from '../lib/server-process.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

const OAHU = 'honolulu-oahu-hi-2018.osm.pbf';
/** Honolulu's urban strip, from Pearl City to Hawaiʻi Kai (where trips and routes mostly are). */
const AREA = { west: -158.0, east: -157.7, south: 21.27, north: 21.42 };
/** Waikiki, the trips' destination. */
const STORE: [number, number] = [-157.8273, 21.2788];

const point = (): [number, number] => [
  AREA.west + random() * (AREA.east - AREA.west),
  AREA.south + random() * (AREA.north - AREA.south),
];
const q = ([lon, lat]: [number, number]) => `${lat.toFixed(6)},${lon.toFixed(6)}`;

/**
 * Issue 7 budgets, with Oʻahu imported (into a copy of the world pack; the import time, CH build
 * included, is printed): GET /v1/route/distance p50 <= 3 ms; a 5×5 matrix p99 <= 10 ms; POST /v1/track
 * with an active trip (a road ETA on every update) >= 5,000 req/s. Route latencies are measured at a fixed
 * rate (at saturation they are mostly queueing); the track row is saturated.
 */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const fixtures = fixturesDir();
  const pbf = path.join(fixtures.dir, 'osm', OAHU);
  if (!existsSync(pbf)) throw new Error(`route bench needs ${pbf} (GEODATA_FIXTURES)`);
  const pack = await copyOfSharedTestPack();
  const started = Date.now();
  const summary = await importOsm(pack.dataDir, pbf);
  process.stderr.write(
    `route: imported Oʻahu in ${((Date.now() - started) / 1000).toFixed(1)} s (${summary.counts.carEdges} car edges, ${summary.counts.carShortcuts} shortcuts)\n`,
  );
  const server = await startServerProcess({ GEODATA_DIR: pack.dataDir });
  try {
    const created = JSON.parse(await server.cli(['projects', 'create', 'bench', '--json'])) as {
      keys: { test: { publishable: string; secret: string } };
    };
    await server.cli(['projects', 'set', 'bench', '--rate-limit', '10000000']);
    await new Promise((r) => setTimeout(r, 500));
    const keys = created.keys.test;
    const here: BenchContext = {
      ...ctx,
      url: server.url,
      urls: [server.url],
      serverPids: [server.pid],
      dataDir: server.dataDir,
      keys,
    };
    const headers = auth(keys.publishable);

    const routes = Array.from({ length: 5000 }, () => ({
      path: `/v1/route/distance?origin=${q(point())}&destination=${q(point())}&modes=car&units=metric`,
      headers,
    }));
    const five = () => Array.from({ length: 5 }, () => q(point())).join('|');
    const matrices = Array.from({ length: 1000 }, () => ({
      path: `/v1/route/matrix?origins=${five()}&destinations=${five()}&mode=car&units=imperial`,
      headers,
    }));
    for (const r of [routes[0]!, matrices[0]!]) {
      const res = await fetch(`${server.url}${r.path}`, { headers });
      if (!res.ok) throw new Error(`route warm-up failed: ${r.path} ${res.status} ${await res.text()}`);
    }

    // The same tracks without trips first: what the trip (its store write and road ETA) adds. More
    // devices than tracks per second (this row passed 6,000/s on wrk), so none meets its 1/s limit.
    let plain = 0;
    const plainTracks = () => {
      const id = `plain-dev-${plain++ % 30_000}`;
      const [lon, lat] = point();
      const body = JSON.stringify({ deviceId: id, userId: id, latitude: lat, longitude: lon, accuracy: 10 });
      return { method: 'POST' as const, path: '/v1/track', headers: auth(keys.publishable, true), body };
    };
    const baseline = await measure(here, 'POST /v1/track (no trip, same points: baseline)', plainTracks);
    const devices = await startTrips(here, 10_000);
    let n = 0;
    const jsonHeaders = auth(keys.publishable, true);
    const tracks = () => {
      const i = n++ % devices.length;
      const [lon, lat] = point();
      const body = JSON.stringify({
        deviceId: devices[i],
        userId: devices[i],
        latitude: lat,
        longitude: lon,
        accuracy: 10,
      });
      return { method: 'POST' as const, path: '/v1/track', headers: jsonHeaders, body };
    };

    return [
      await measure(here, 'GET /v1/config (HTTP baseline, 500 req/s fixed)', [{ path: '/v1/config', headers }], {
        overallRate: 500,
        connections: 10,
      }),
      await measure(here, 'GET /v1/route/distance (car, Oʻahu, 500 req/s fixed)', routes, {
        overallRate: 500,
        connections: 10,
      }),
      await measure(here, 'GET /v1/route/distance (car, Oʻahu, saturated)', routes),
      await measure(here, 'GET /v1/route/matrix (5×5 car, Oʻahu, 100 req/s fixed)', matrices, {
        overallRate: 100,
        connections: 10,
      }),
      baseline,
      await measure(here, 'POST /v1/track (active car trip: road ETA on each update)', tracks),
    ];
  } finally {
    await server.stop();
    await pack.remove();
  }
}

/** Starts a car trip to the Waikiki store for each of `count` devices (50 at a time); returns their ids. */
async function startTrips(ctx: BenchContext, count: number): Promise<string[]> {
  const put = await fetch(`${ctx.url}/v1/geofences/store/waikiki`, {
    method: 'PUT',
    headers: auth(ctx.keys.secret, true),
    body: JSON.stringify({ description: 'Waikiki', type: 'circle', coordinates: STORE, radius: 100 }),
  });
  if (!put.ok) throw new Error(`store geofence failed: ${put.status}`);
  const ids = Array.from({ length: count }, (_, i) => `trip-dev-${i}`);
  let next = 0;
  const startTrip = () => {
    const id = ids[next++]!;
    const [lon, lat] = point();
    const body = JSON.stringify({
      deviceId: id,
      userId: id,
      latitude: lat,
      longitude: lon,
      accuracy: 10,
      tripOptions: {
        externalId: id,
        destinationGeofenceTag: 'store',
        destinationGeofenceExternalId: 'waikiki',
        mode: 'car',
      },
    });
    return { method: 'POST' as const, path: '/v1/track', headers: auth(ctx.keys.publishable, true), body };
  };
  await sendAll(ctx, startTrip, ids.length, 'trip start');
  return ids;
}

export const route: Scenario = { name: 'route', run };
