import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PACK_FORMAT } from '../../src/geodata/manifest.js';
import { openAddressLayer } from '../../src/geodata/osm/addresses/address-layer.js';
import { importOsm } from '../../src/geodata/osm/import-osm.js';
import { fixturesDir, missingFixturesMessage } from '../../src/geodata/test-pack.js';
import { type AddressLayer, geocodingQueries } from '../lib/geocoding-queries.js';
import { auth, measure } from '../lib/load.js';
import { benchPackDir, startServerProcess } from '../lib/server-process.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

const FILE = 'queens-village-ny-2016.osm.pbf';
const REGION = 'queens-village-ny-2016';

/**
 * Issue 6 budgets, with Queens (32k addresses) imported beside the world pack: autocomplete p99 <= 20 ms at
 * a fixed 2,000 req/s, forward p99 <= 20 ms, reverse p50 <= 2 ms. The pack (world copy + Queens) is built
 * once into `<tmpdir>/whereabouts-bench-queens` and reused; a second server process serves it, on the same
 * DATA_DIR as the scenario's server, so the bench project's keys work (its CPU per request is then not
 * reported: run with `BENCH_PACK_DIR=<tmpdir>/whereabouts-bench-queens` to serve Queens from the
 * scenario's own server and get it).
 */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const packDir = await queensPack();
  const layer = await openAddressLayer(path.join(packDir, 'pack', 'osm', REGION));
  if (!layer) throw new Error('Queens address layer missing');
  // With BENCH_PACK_DIR set to that folder the scenario's own server already has Queens (and its CPU
  // per request is then measured); otherwise a second server serves it.
  if (await servesQueens(ctx)) return measureAll(ctx, layer);
  const server = await startServerProcess({ GEODATA_DIR: packDir, DATA_DIR: ctx.dataDir });
  try {
    return await measureAll({ ...ctx, url: server.url, urls: undefined, serverPids: [server.pid] }, layer);
  } finally {
    await server.stop();
  }
}

async function measureAll(ctx: BenchContext, layer: AddressLayer): Promise<BenchResult[]> {
  const headers = auth(ctx.keys.publishable);
  const queries = geocodingQueries(layer, random);
  const request = (route: string, params: Record<string, string>) => {
    const query = new URLSearchParams(params).toString().replace(/\+/g, '%20');
    return { path: `${route}?${query}`, headers };
  };
  const autocomplete = queries.autocomplete.map(({ query, near }) =>
    request('/v1/search/autocomplete', { query, near }),
  );
  const forward = queries.forward.map((query) => request('/v1/geocode/forward', { query }));
  const reverse = queries.reverse.map((c) => ({ path: `/v1/geocode/reverse?coordinates=${c}`, headers }));

  for (const r of [autocomplete[0]!, forward[0]!, reverse[0]!]) {
    const res = await fetch(`${ctx.url}${r.path}`, { headers });
    if (!res.ok) throw new Error(`geocoding warm-up failed: ${r.path} ${res.status} ${await res.text()}`);
  }
  return [
    await measure(ctx, 'GET /v1/config (HTTP baseline: auth only)', [{ path: '/v1/config', headers }]),
    await measure(ctx, 'GET /v1/geocode/reverse (Queens addresses, 1,000 req/s fixed)', reverse, {
      overallRate: 1000,
      connections: 10,
    }),
    await measure(ctx, 'GET /v1/geocode/forward (Queens addresses, saturated)', forward, { connections: 10 }),
    await measure(ctx, 'GET /v1/geocode/forward (Queens addresses, 200 req/s fixed)', forward.slice(5000), {
      overallRate: 200,
      connections: 10,
    }),
    await measure(ctx, 'GET /v1/search/autocomplete (Queens addresses, 2,000 req/s fixed)', autocomplete, {
      overallRate: 2000,
      connections: 100,
    }),
  ];
}

async function servesQueens(ctx: BenchContext): Promise<boolean> {
  const res = await fetch(`${ctx.url}/v1/geocode/forward?query=89-12%20Springfield%20Blvd&layers=address`, {
    headers: auth(ctx.keys.publishable),
  });
  return res.ok && ((await res.json()) as { addresses: unknown[] }).addresses.length > 0;
}

/** The world pack plus Queens, built once into the temp folder and reused by later runs. */
export async function queensPack(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'whereabouts-bench-queens');
  const manifest = path.join(dir, 'pack', 'osm', REGION, 'manifest.json');
  // Reused only while this build reads its format (and the address layer's files are there).
  if (
    existsSync(manifest) &&
    existsSync(path.join(dir, 'pack', 'osm', REGION, 'addresses.table')) &&
    (JSON.parse(await readFile(manifest, 'utf8')) as { version: number }).version === PACK_FORMAT
  )
    return dir;
  const fixtures = fixturesDir();
  const pbf = path.join(fixtures.dir, 'osm', FILE);
  if (!existsSync(pbf)) throw new Error(missingFixturesMessage(fixtures.dir));
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'pack'), { recursive: true });
  await cp(path.join(await benchPackDir(), 'pack', 'world'), path.join(dir, 'pack', 'world'), { recursive: true });
  await importOsm(dir, pbf);
  return dir;
}

export const geocoding: Scenario = { name: 'geocoding', run };
