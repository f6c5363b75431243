import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importOsm } from '../../src/geodata/osm/import-osm.js';
import { fixturesDir, missingFixturesMessage } from '../../src/geodata/test-pack.js';
import { MAP_TILES_FILE } from '../../src/maps/osm-map-features.js';
import { tileAt } from '../../src/maps/tile-math.js';
import { auth, measure } from '../lib/load.js';
import { benchPackDir, startServerProcess } from '../lib/server-process.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

const OAHU = 'honolulu-oahu-hi-2018.osm.pbf';
const REGION = 'honolulu-oahu-hi-2018';
/** Oʻahu's box, west, south, east, north. */
const BOX = [-158.3, 21.25, -157.64, 21.72] as const;

/**
 * Map tiles over Oʻahu imported beside the world pack (imported afresh each run, timed): cold tiles
 * (each asked once, one at a time, from a server that has cut none of them) and warm tiles (a few
 * hundred tiles already cut, saturated). Prints the import time and the tile archive's size.
 */
async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const fixtures = fixturesDir();
  const pbf = path.join(fixtures.dir, 'osm', OAHU);
  if (!existsSync(pbf)) throw new Error(missingFixturesMessage(fixtures.dir));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'whereabouts-bench-tiles-'));
  try {
    await mkdir(path.join(dir, 'pack'), { recursive: true });
    await cp(path.join(await benchPackDir(), 'pack', 'world'), path.join(dir, 'pack', 'world'), { recursive: true });
    const stages = new Map<string, number>();
    const started = Date.now();
    await importOsm(dir, pbf, { onProgress: (stage) => stages.set(stage, stages.get(stage) ?? Date.now()) });
    const importMs = Date.now() - started;
    const tilesMs = Date.now() - (stages.get('building map features') ?? Date.now());
    const archive = await stat(path.join(dir, 'pack', 'osm', REGION, MAP_TILES_FILE));
    process.stderr.write(
      `tiles: import osm ${OAHU} ${(importMs / 1000).toFixed(1)} s (map features and tile archive ${(tilesMs / 1000).toFixed(1)} s); archive ${(archive.size / 2 ** 20).toFixed(1)} MiB\n`,
    );
    const server = await startServerProcess({ GEODATA_DIR: dir, DATA_DIR: ctx.dataDir });
    try {
      return await measureTiles(Object.assign({}, ctx, { url: server.url, urls: undefined, serverPids: [server.pid] }));
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function measureTiles(ctx: BenchContext): Promise<BenchResult[]> {
  const headers = auth(ctx.keys.publishable);
  const get = async (p: string): Promise<number> => {
    const t = performance.now();
    const res = await fetch(`${ctx.url}${p}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200 && res.status !== 204) throw new Error(`${p}: ${res.status}`);
    return performance.now() - t;
  };
  // The world thread loads the pack on its first tile: timed apart from the cold tiles.
  const startup = await get('/maps/tiles/0/0/0.pbf');
  process.stderr.write(
    `tiles: first tile after start (world layers loaded on their thread) ${startup.toFixed(0)} ms\n`,
  );

  // Cold: every tile over Oʻahu from zoom 6 to 15 in random order (each cut once), and world tiles.
  const cold: string[] = [];
  for (let z = 6; z <= 15; z++) {
    const [x0, y0] = tileAt(BOX[0], BOX[3], z);
    const [x1, y1] = tileAt(BOX[2], BOX[1], z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) cold.push(`/maps/tiles/${z}/${x}/${y}.pbf`);
  }
  for (let z = 1; z <= 5; z++) {
    for (let k = 0; k < 2 ** z; k++) {
      cold.push(`/maps/tiles/${z}/${Math.floor(random() * 2 ** z)}/${Math.floor(random() * 2 ** z)}.pbf`);
    }
  }
  shuffle(cold);
  const deadline = Date.now() + ctx.durationSeconds * 1000 * 3;
  const times: number[] = [];
  for (const p of new Set(cold)) {
    if (Date.now() > deadline) break;
    times.push(await get(p));
  }
  times.sort((a, b) => a - b);
  const pct = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2));
  const coldRow: BenchResult = {
    name: `GET /maps/tiles cold (${times.length} tiles over Oʻahu z6-15 and the world z1-5, one at a time)`,
    requests: times.length,
    reqPerSec: Number((times.length / (times.reduce((a, b) => a + b, 0) / 1000)).toFixed(0)),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    errors: 0,
  };
  process.stderr.write(`tiles: cold p50 ${coldRow.p50Ms} ms p99 ${coldRow.p99Ms} ms max ${pct(1)} ms\n`);

  // Warm: 300 tiles over Honolulu already served, asked again and again.
  const warm = cold
    .filter((p) => /\/1[2-5]\//.test(p))
    .slice(0, 300)
    .map((p) => ({ path: p, headers }));
  return [coldRow, await measure(ctx, 'GET /maps/tiles warm (300 cached tiles, saturated)', warm, { connections: 10 })];
}

function shuffle<T>(a: T[]): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
}

export const tiles: Scenario = { name: 'tiles', run };
