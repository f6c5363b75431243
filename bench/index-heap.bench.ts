/**
 * What a tenant's fences leave for every major collection to mark: the heap objects and bytes of a
 * fence index loaded as the server loads it (`GeofenceIndexRegistry` over a SQLite store holding the
 * track bench's metro fences, 60% circles and 40% polygons), with the caches a long track row fills
 * for each fence (its `user.geofences` text and its events' snapshot and text), and what a full
 * collection of that heap takes. Issue 3's tail: the major collection's marking is what pauses the
 * event loop longest under track load, and it visits every object.
 *
 *   node --import tsx bench/index-heap.bench.ts [fences]     (default 100000)
 *
 * The store is seeded once into `$TMPDIR/whereabouts-index-heap-<fences>` and kept for the next run
 * (delete it to seed anew). Objects are counted from a heap snapshot's header, which V8 writes after
 * a full collection: live objects only. Full collections are timed with `gc()`, the median of 11;
 * they run on V8's helper threads too, so the time moves with the machine's load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { eventGeofence } from '../src/domain/events/geofence-events.js';
import type { Tenant } from '../src/domain/tenant.js';
import { GeofenceIndexRegistry } from '../src/domain/tracking/geofence-index-registry.js';
import { GeofenceJson } from '../src/http/presenters/geofence-json.js';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { fenceId, seedGeofences } from './scenarios/metro-seed.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const fences = Number(process.argv[2] ?? 100_000);
const dir = path.join(os.tmpdir(), `whereabouts-index-heap-${fences}`);
const tenant: Tenant = { projectId: 'prj_index_heap', live: true };

/** Live heap objects: the `node_count` a heap snapshot states in its first bytes. */
async function heapObjects(): Promise<number> {
  const snapshot = v8.getHeapSnapshot();
  let head = '';
  for await (const chunk of snapshot) {
    head += chunk;
    const count = /"node_count":(\d+)/.exec(head);
    if (count) {
      snapshot.destroy();
      return Number(count[1]);
    }
  }
  throw new Error('no node_count in the heap snapshot');
}

function medianFullGcMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    gc();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[5]!;
}

if (!fs.existsSync(path.join(dir, 'seeded'))) {
  fs.mkdirSync(dir, { recursive: true });
  await SqliteStore.open(dir).close();
  console.log(`seeding ${fences.toLocaleString('en-US')} fences into ${dir}`);
  await seedGeofences(dir, tenant, 0, fences);
  fs.writeFileSync(path.join(dir, 'seeded'), '');
}
const store = SqliteStore.open(dir);
gc();
const before = { bytes: process.memoryUsage().heapUsed, objects: await heapObjects() };
const registry = new GeofenceIndexRegistry(store.geofences);
const index = await registry.get(tenant);
const fenceJson = new GeofenceJson({ geometry: false });
const now = Date.now();
for (let i = 0; i < fences; i++) {
  const g = index.get(fenceId(i))?.geofence;
  if (!g) throw new Error(`fence ${i} is not in the index`);
  fenceJson.of(g, now);
  // The snapshot its events name, printed with it.
  eventGeofence(g);
}
const gcMs = medianFullGcMs();
const heapMb = (process.memoryUsage().heapUsed - before.bytes) / 1e6;
const objects = (await heapObjects()) - before.objects;
console.log(
  `\n${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}; ${fences.toLocaleString('en-US')} fences, caches warm\n`,
);
console.log('| heap objects | per fence | heap MB | full collection ms (median of 11) |');
console.log('|---:|---:|---:|---:|');
console.log(
  `| ${objects.toLocaleString('en-US')} | ${(objects / fences).toFixed(1)} | ${heapMb.toFixed(1)} | ${gcMs.toFixed(0)} |`,
);
// The index and the caches stay reachable until the counts are taken.
if (index.size !== fences || fenceJson === undefined) throw new Error('index size changed');
await store.close();
