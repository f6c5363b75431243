import { existsSync } from 'node:fs';
import { cp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importOsm } from '../../src/geodata/osm/import-osm.js';
import { openPlaceLayer, type PlaceLayer } from '../../src/geodata/osm/places/place-layer.js';
import { fixturesDir, missingFixturesMessage } from '../../src/geodata/test-pack.js';
import { auth, measure } from '../lib/load.js';
import { benchPackDir, startServerProcess } from '../lib/server-process.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

const FILES = ['honolulu-oahu-hi-2018.osm.pbf', 'imperial-county-ca-2024.osm.pbf'];
const REGION = 'honolulu-oahu-hi-2018';
const CHAINS = ['starbucks', '7-eleven', 'mcdonalds', 'subway', 'jack-in-the-box'];
const CATEGORIES = ['coffee-shop', 'food-beverage', 'gas-station', 'grocery-store', 'pharmacy'];
const GROUPS = ['quick-service', 'fuel', 'groceries', 'health'];

/**
 * Search places and track with Places on, over Oʻahu and Imperial County imported beside the world pack
 * (built once into `<tmpdir>/whereabouts-bench-places` and reused). Queries are near random Oʻahu
 * places, a few hundred meters off, by chain, category or group.
 */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const packDir = await placesPack();
  const layer = await openPlaceLayer(path.join(packDir, 'pack', 'osm', REGION));
  if (!layer || layer.count === 0) throw new Error('Oʻahu places missing');
  const server = await startServerProcess({ GEODATA_DIR: packDir, DATA_DIR: ctx.dataDir });
  try {
    // This scenario's own server only (not the `--processes` ones the context may list).
    return await measureAll(
      Object.assign({}, ctx, { url: server.url, urls: undefined, serverPids: [server.pid] }),
      layer,
    );
  } finally {
    await server.stop();
  }
}

async function measureAll(ctx: BenchContext, layer: PlaceLayer): Promise<BenchResult[]> {
  const headers = auth(ctx.keys.publishable);
  const around = () => {
    const r = layer.record(Math.floor(random() * layer.count));
    return [r.lon + (random() - 0.5) * 0.008, r.lat + (random() - 0.5) * 0.008] as const;
  };
  const search = Array.from({ length: 5000 }, (_, k) => {
    const [lon, lat] = around();
    const filter: Record<string, string> =
      k % 3 === 0
        ? { chains: CHAINS[k % CHAINS.length]! }
        : k % 3 === 1
          ? { categories: CATEGORIES[k % CATEGORIES.length]! }
          : { groups: GROUPS[k % GROUPS.length]! };
    const params = new URLSearchParams({ ...filter, near: `${lat.toFixed(5)},${lon.toFixed(5)}`, radius: '2000' });
    return { path: `/v1/search/places?${params}`, headers };
  });
  const settings = await fetch(`${ctx.url}/v1/settings`, {
    method: 'PATCH',
    headers: auth(ctx.keys.secret, true),
    body: JSON.stringify({ features: { places: true } }),
  });
  if (!settings.ok) throw new Error(`PATCH /v1/settings failed: ${settings.status}`);
  // Track: 20,000 devices (each under its 1 per second limit) at a place or near one (a few meters to ~100 m off).
  const tracks = Array.from({ length: 20_000 }, (_, k) => {
    const r = layer.record(Math.floor(random() * layer.count));
    const lat = r.lat + (random() - 0.5) * 0.001;
    const lon = r.lon + (random() - 0.5) * 0.001;
    return {
      method: 'POST' as const,
      path: '/v1/track',
      headers: auth(ctx.keys.publishable, true),
      body: JSON.stringify({ deviceId: `bench-places-${k}`, latitude: lat, longitude: lon, accuracy: 15 }),
    };
  });
  const res = await fetch(`${ctx.url}${search[0]!.path}`, { headers });
  if (!res.ok) throw new Error(`search places warm-up failed: ${res.status} ${await res.text()}`);
  return [
    await measure(ctx, 'GET /v1/search/places (Oʻahu + Imperial, saturated)', search, { connections: 10 }),
    await measure(ctx, 'GET /v1/search/places (Oʻahu + Imperial, 500 req/s fixed)', search, {
      overallRate: 500,
      connections: 10,
    }),
    await measure(ctx, 'POST /v1/track with Places on (Oʻahu, 20,000 devices, saturated)', tracks, {
      connections: 10,
    }),
  ];
}

/** The world pack plus Oʻahu and Imperial County, built once into the temp folder and reused. */
async function placesPack(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'whereabouts-bench-places');
  if (existsSync(path.join(dir, 'pack', 'osm', REGION, 'manifest.json'))) return dir;
  const fixtures = fixturesDir();
  const pbfs = FILES.map((f) => path.join(fixtures.dir, 'osm', f));
  if (!pbfs.every((p) => existsSync(p))) throw new Error(missingFixturesMessage(fixtures.dir));
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'pack'), { recursive: true });
  await cp(path.join(await benchPackDir(), 'pack', 'world'), path.join(dir, 'pack', 'world'), { recursive: true });
  for (const pbf of pbfs) await importOsm(dir, pbf);
  return dir;
}

export const places: Scenario = { name: 'places', run };
