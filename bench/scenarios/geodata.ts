import path from 'node:path';
import { readLocalities } from '../../src/geodata/column-tables.js';
import type { LocalityColumns } from '../../src/geodata/records.js';
import { auth, measure } from '../lib/load.js';
import { benchPackDir } from '../lib/server-process.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

/**
 * Issue 5 budgets, on the world pack: GET /v1/context with regions >= 20,000 req/s; reverse geocode
 * p50 <= 2 ms (at a fixed 1,000 req/s: at saturation p50 is only queueing); autocomplete over world
 * localities p99 <= 20 ms at a fixed 2,000 req/s. `GET /v1/config` (auth, no work) is the machine's HTTP
 * ceiling, for reading the others on a shared or slow machine.
 */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const headers = auth(ctx.keys.publishable);
  const places = await readLocalities(path.join(await benchPackDir(), 'pack', 'world', 'localities.bin'));
  const towns = Array.from({ length: 10_000 }, () => Math.floor(random() * places.name.length));

  // Context: points spread over the contiguous US (state, county, ZIP and country lookups every time).
  const context = Array.from({ length: 10_000 }, () => {
    const [lon, lat] = [-124 + random() * 57, 25 + random() * 24];
    return { path: `/v1/context?coordinates=${lat.toFixed(6)},${lon.toFixed(6)}`, headers };
  });
  // Reverse: near world localities (a few km off), so every layer has an answer to build.
  const reverse = towns.map((i) => {
    const lat = places.lat[i]! + (random() - 0.5) * 0.05;
    const lon = places.lon[i]! + (random() - 0.5) * 0.05;
    return { path: `/v1/geocode/reverse?coordinates=${lat.toFixed(6)},${lon.toFixed(6)}`, headers };
  });
  // Autocomplete: what a user types, 3 to 10 letters of a world place name, one in ten with a typo,
  // half with a near bias.
  const autocomplete = towns.map((i, k) => {
    const params = new URLSearchParams({ query: typed(places, i) });
    if (k % 2 === 0) params.set('near', `${places.lat[i]!.toFixed(4)},${places.lon[i]!.toFixed(4)}`);
    return { path: `/v1/search/autocomplete?${params.toString().replace(/\+/g, '%20')}`, headers };
  });

  for (const r of [context[0]!, reverse[0]!, autocomplete[0]!]) {
    const res = await fetch(`${ctx.url}${r.path}`, { headers });
    if (!res.ok) throw new Error(`geodata warm-up failed: ${r.path} ${res.status} ${await res.text()}`);
  }
  return [
    await measure(ctx, 'GET /v1/config (HTTP baseline: auth only)', [{ path: '/v1/config', headers }]),
    await measure(ctx, 'GET /v1/context (regions, US points)', context),
    await measure(ctx, 'GET /v1/geocode/reverse (world, saturated)', reverse),
    await measure(ctx, 'GET /v1/geocode/reverse (world, 1,000 req/s fixed)', reverse, {
      overallRate: 1000,
      connections: 10,
    }),
    await measure(ctx, 'GET /v1/search/autocomplete (world localities, 1,000 req/s fixed)', autocomplete, {
      overallRate: 1000,
      connections: 50,
    }),
    await measure(ctx, 'GET /v1/search/autocomplete (world localities, 2,000 req/s fixed)', autocomplete, {
      overallRate: 2000,
      // Enough connections that each one's share (20 req/s) leaves 50 ms per request: the rate is then held
      // by the server's speed, not by connections waiting on their previous response.
      connections: 100,
    }),
  ];
}

function typed(places: LocalityColumns, i: number): string {
  const name = places.name.get(i)!;
  const text = name.slice(0, Math.min(name.length, 3 + Math.floor(random() * 8)));
  if (random() >= 0.1 || text.length < 4) return text;
  const k = 1 + Math.floor(random() * (text.length - 2));
  return text.slice(0, k) + text[k + 1] + text[k] + text.slice(k + 2);
}

export const geodata: Scenario = { name: 'geodata', run };
