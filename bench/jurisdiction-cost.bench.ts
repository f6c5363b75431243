/**
 * What jurisdiction lists add to a track, in one process: the track scenario's 100,000 New York fences
 * and tracks, run through the app (Fastify's inject, no socket) in alternating blocks without and with
 * the lists, timed by the process's CPU (process.cpuUsage: a shared machine's waits do not count), then
 * the jurisdiction step's parts on their own. Prints µs per track.
 *
 *   GEODATA_DIR=<folder with pack/world> node --import tsx bench/jurisdiction-cost.bench.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compose } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { metroPoint, seedGeofences, tenantOfKey } from './scenarios/metro-seed.js';

const FENCES = Number(process.env.FENCES ?? 100_000);
const BLOCK = Number(process.env.BLOCK ?? 2_000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const LISTS = {
  blockedCountries: ['CU', 'KP'],
  allowedCountries: ['US', 'CA'],
  allowedStates: ['US-NY', 'US-NJ', 'US-PA'],
  bufferMeters: 1000,
  exclusionTag: 'exclusion',
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-jcost-'));
const geodataDir = process.env.GEODATA_DIR ?? (await sharedTestPack()).dataDir;
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, GEODATA_DIR: geodataDir, LOG_LEVEL: 'silent' });
const { app, deps, close } = await compose(config);
const { keys } = await deps.services.projects.create('bench');
await deps.services.projects.update('bench', (p) => ({ ...p, limits: { ...p.limits, requestsPerSecond: 1e9 } }));
deps.keys.invalidate();
const tenant = await tenantOfKey(dataDir, keys.test.publishable);
await seedGeofences(dataDir, tenant, 0, FENCES);

let n = 0;
const track = async () => {
  const [lon, lat] = metroPoint(0);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/track',
    headers: { authorization: keys.test.publishable, 'content-type': 'application/json' },
    payload: { deviceId: `d${n++}`, latitude: lat, longitude: lon, accuracy: 20, foreground: true },
  });
  if (res.statusCode !== 200) throw new Error(`track answered ${res.statusCode}: ${res.body}`);
};
const setLists = (on: boolean) => deps.services.sdkSettings.patch(tenant, { jurisdiction: on ? LISTS : null });

/** CPU µs per track over one block (plus a short warm-up). */
async function block(on: boolean): Promise<number> {
  await setLists(on);
  for (let i = 0; i < 200; i++) await track();
  const t0 = process.cpuUsage();
  for (let i = 0; i < BLOCK; i++) await track();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / BLOCK;
}

// The index loads on the first track; warm everything up once.
for (let i = 0; i < 2_000; i++) await track();
const rows: Array<[string, number]> = [];
// Every other round starts with the lists set, so that a drift of the machine lands on both sides.
for (let r = 1; r <= ROUNDS; r++) {
  for (const on of r % 2 === 1 ? [false, true] : [true, false])
    rows.push([`track, ${on ? 'lists set' : 'no lists'} (${r})`, await block(on)]);
}

// The jurisdiction step's parts, on the same points.
await setLists(true);
const points = Array.from({ length: 20_000 }, () => metroPoint(0));
const pack = deps.geodata.current()!;
const index = await deps.services.geofenceIndexes.get(tenant);
const time = async (name: string, f: (p: [number, number]) => unknown) => {
  for (const p of points.slice(0, 2000)) await f(p as [number, number]);
  const t0 = process.cpuUsage();
  for (const p of points) await f(p as [number, number]);
  const t = process.cpuUsage(t0);
  rows.push([name, (t.user + t.system) / points.length]);
};
await time('jurisdiction.check (track, before it)', async (p) =>
  deps.services.jurisdiction.check((await deps.services.sdkSettings.get(tenant))?.jurisdiction, p, 'latitude'),
);
await time('jurisdiction.at (context: check + fences)', (p) => deps.services.jurisdiction.at(tenant, p, 'latitude'));
await time('pack.countryStateAt', ([lon, lat]) => pack.countryStateAt(lon, lat));
await time('pack.regionsAt (Regions step)', ([lon, lat]) => pack.regionsAt(lon, lat));
await time('fence index containing()', ([lon, lat]) => index.containing(lon, lat));
await time('border distance', ([lon, lat]) => {
  const r = pack.countryStateAt(lon, lat);
  const b = r.stateBorder ?? r.countryBorder;
  return b ? b.layer.distance(b.feature, lon, lat) : 0;
});
await time('sdkSettings.get', () => deps.services.sdkSettings.get(tenant));

// The ratio of each round's pair (adjacent blocks), and their median: a drift spans rounds, not pairs.
const us = (name: string) => rows.find(([n]) => n === name)![1];
const ratios = Array.from(
  { length: ROUNDS },
  (_, i) => us(`track, lists set (${i + 1})`) / us(`track, no lists (${i + 1})`),
);
ratios.sort((a, b) => a - b);
const mid = ratios.length / 2;
if (ROUNDS > 0)
  rows.push(['median ratio, lists set / none', (ratios[Math.floor(mid)]! + ratios[Math.ceil(mid) - 1]!) / 2]);
console.log(`${FENCES.toLocaleString('en-US')} fences, ${BLOCK} tracks a block, CPU µs per track`);
for (const [name, us] of rows) console.log(`${name.padEnd(44)} ${us.toFixed(name.startsWith('median') ? 3 : 1)}`);
await close();
fs.rmSync(dataDir, { recursive: true, force: true });
