/**
 * Micro-benchmark of the geofence engine on a synthetic New York metro: 60% circles of 50–500 m,
 * 40% star polygons of 5–50 vertices and 50–500 m, 85% spread over the metro area and 15% clustered
 * around Midtown. Each size runs in its own child process so RSS figures do not mix.
 *
 *   node --import tsx bench/geofence-index.bench.ts            # 100k and 1M
 *   node --import tsx bench/geofence-index.bench.ts 250000     # one size
 *   node --import tsx bench/geofence-index.bench.ts stalls 100000 thread   # rebuild stalls only
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { detectTransitions } from '../src/domain/geofences/detect-transitions.js';
import type { Geofence } from '../src/domain/geofences/geofence.js';
import { GeofenceIndex } from '../src/domain/geofences/geofence-index.js';
import type { GeofenceMembership } from '../src/domain/users/user.js';
import { circlePolygon } from '../src/geo/circle-polygon.js';
import { TreeBuildThread } from '../src/geo/tree-build-thread.js';
import type { Position, Ring } from '../src/geo/types.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

// Deterministic PRNG (mulberry32) so runs are comparable.
const random = seededRandom(42);
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const M_PER_DEG = 111_195;
const MIDTOWN: Position = [-73.985, 40.755];
// 85% spread over the combined statistical area (about 220 × 170 km), 15% clustered on Midtown.
function metroPoint(): Position {
  if (random() < 0.15) return [MIDTOWN[0] + (gauss() * 20_000) / 84_300, MIDTOWN[1] + (gauss() * 20_000) / M_PER_DEG];
  return [-75.2 + random() * 2.6, 40.0 + random() * 1.5];
}
/** `[lon, lat]` `dx` m east and `dy` m north of `p` (local flat approximation, fine below 1 km). */
const offset = (p: Position, dx: number, dy: number): Position => [
  p[0] + dx / (M_PER_DEG * Math.cos((p[1] * Math.PI) / 180)),
  p[1] + dy / M_PER_DEG,
];

// The index never reads a circle's 64-gon (circles are tested from center + radius), so circles
// share one ring here: RSS then shows the index and prepared shapes, not GeoJSON storage.
const SHARED_CIRCLE_RING = circlePolygon(MIDTOWN, 100);

function makeFence(i: number): Geofence {
  const center = metroPoint();
  const radius = 50 + random() * 450;
  const base = {
    id: `fence_${i.toString(36).padStart(6, '0')}`,
    projectId: 'bench',
    live: true,
    tag: 'store',
    externalId: String(i),
    description: `Fence ${i}`,
    geometryCenter: center,
    geometryRadius: radius,
    mode: null,
    metadata: null,
    userId: null,
    enabled: true,
    disableAfter: null,
    deleteAfter: null,
    stopDetection: null,
    dwellThreshold: i % 4 === 0 ? 10 : null,
    createdAt: 0,
    updatedAt: 0,
  };
  if (random() < 0.6) return { ...base, type: 'circle', geometry: SHARED_CIRCLE_RING };
  const n = 5 + Math.floor(random() * 46);
  const angles = Array.from({ length: n }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
  const ring: Ring = angles.map((a) =>
    offset(center, Math.cos(a) * radius * (0.6 + 0.4 * random()), Math.sin(a) * radius),
  );
  ring.push(ring[0]!);
  return { ...base, type: 'polygon', geometry: { type: 'Polygon', coordinates: [ring] } };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
/** Heap + off-heap bytes in use after a full GC (steadier than RSS, which keeps freed pages). */
function used(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

// Total GC pause time, to tell index work from the collector walking a multi-GB heap.
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });
/** GC entries reach the observer only after a timer tick. */
const gcEntriesDelivered = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Wall and CPU nanoseconds per call; CPU time is the steadier figure on a shared machine. */
function measure(calls: number, body: () => void): string {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  body();
  const wall = ((performance.now() - t0) * 1e6) / calls;
  const used = process.cpuUsage(cpu0);
  const cpu = ((used.user + used.system) * 1e3) / calls;
  const fmt = (ns: number) => (ns >= 10_000 ? `${(ns / 1000).toFixed(0)} µs` : `${ns.toFixed(0)} ns`);
  return `${fmt(wall)} (cpu ${fmt(cpu)})`;
}

async function runOne(n: number): Promise<void> {
  const used0 = used();
  const fences = Array.from({ length: n }, (_, i) => makeFence(i));
  const used1 = used();
  await gcEntriesDelivered();
  const gc0 = gcMs;
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const index = new GeofenceIndex();
  index.load(fences);
  const loadS = (performance.now() - t) / 1000;
  const loadCpuS = (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1e6;
  await gcEntriesDelivered();
  const loadGcS = (gcMs - gc0) / 1000;
  const used2 = used();

  // Users walking: each update moves up to 25 m per axis and carries the previous memberships.
  const users = 10_000;
  const rounds = 5;
  const pos = Array.from({ length: users }, metroPoint);
  const acc = Array.from({ length: users }, () => 5 + random() * 60);
  const members: GeofenceMembership[][] = Array.from({ length: users }, () => []);
  const steps = Array.from({ length: users * rounds }, () => [random() * 50 - 25, random() * 50 - 25] as const);
  const lookup = (id: string) => index.get(id);
  let candidates = 0;
  let inside = 0;
  let events = 0;
  const track = measure(users * rounds, () => {
    for (let r = 0; r < rounds; r++) {
      for (let u = 0; u < users; u++) {
        const [dx, dy] = steps[r * users + u]!;
        const p = offset(pos[u]!, dx, dy);
        pos[u] = p;
        const found = index.candidatesAt(p[0], p[1], Math.min(acc[u]!, 100));
        const at = 1_700_000_000_000 + r * 60_000;
        const change = { at, location: p, accuracyMeters: acc[u]!, stopped: false, appUserId: null };
        const out = detectTransitions({ ...change, memberships: members[u]! }, found, lookup, at);
        candidates += found.length;
        inside += out.inside.length;
        events += out.entered.length + out.exited.length + out.dwelled.length;
        members[u] = out.memberships;
      }
    }
  });

  const pts = Array.from({ length: 100_000 }, metroPoint);
  const cand = measure(pts.length, () => {
    for (const p of pts) index.candidatesAt(p[0], p[1], 50);
  });
  const near = measure(1000, () => {
    for (let i = 0; i < 1000; i++) index.near(pts[i]![0], pts[i]![1], 1000, { limit: 10 });
  });
  const replacements = Array.from({ length: 10_000 }, (_, i) => makeFence(i * 7));
  const upsert = measure(replacements.length, () => {
    for (const g of replacements) index.upsert(g);
  });
  const candAfter = measure(pts.length, () => {
    for (const p of pts) index.candidatesAt(p[0], p[1], 50);
  });

  const updates = users * rounds;
  const rows: Array<[string, string]> = [
    ['fences', n.toLocaleString('en-US')],
    [
      'load (prepare + index)',
      `${loadS.toFixed(2)} s (cpu ${loadCpuS.toFixed(2)} s, GC pauses ${loadGcS.toFixed(2)} s)`,
    ],
    ['memory of the Geofence objects (heap)', mb(used1 - used0)],
    ['memory added by load (index + prepared shapes)', mb(used2 - used1)],
    ['RSS total', mb(process.memoryUsage().rss)],
    ['candidatesAt, margin 50 m', cand],
    ['candidatesAt + detectTransitions (walking users)', track],
    [
      '  candidates / inside / events per update',
      `${(candidates / updates).toFixed(1)} / ${(inside / updates).toFixed(2)} / ${(events / updates).toFixed(3)}`,
    ],
    ['near, 1 km, limit 10', near],
    ['upsert (replace), 10k', upsert],
    ['candidatesAt after 10k upserts (overlay)', candAfter],
  ];
  for (const [k, v] of rows) console.log(`| ${k.padEnd(48)} | ${v.padEnd(44)} |`);
}

/**
 * Rebuilds under a stream of upserts, in a process of their own (a second index in the same heap
 * made GC pauses the larger figure): the longest one upsert held the event loop (a rebuild in place
 * is inside one), and the longest turn of the loop between them, taken every 100 upserts as requests
 * would (a tree built on the thread is taken in there). Replacing 60% of the fences forces several
 * rebuilds at any size. GC pauses that fall there count too.
 */
async function stalls(n: number, mode: 'in place' | 'thread'): Promise<void> {
  const fences = Array.from({ length: n }, (_, i) => makeFence(i));
  const stream = Array.from({ length: Math.floor(n * 0.6) }, (_, i) => makeFence((i * 13) % n));
  const index = new GeofenceIndex(mode === 'thread' ? { buildTree: new TreeBuildThread().build } : {});
  index.load(fences);
  await new Promise((r) => setTimeout(r, 500));
  let upsert = 0;
  let turn = 0;
  const yieldOnce = async (wait: number) => {
    const t0 = performance.now();
    await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
    turn = Math.max(turn, performance.now() - t0 - wait);
  };
  for (let i = 0; i < stream.length; i++) {
    const t0 = performance.now();
    index.upsert(stream[i]!);
    upsert = Math.max(upsert, performance.now() - t0);
    if (i % 100 === 99) await yieldOnce(0);
  }
  // The last tree still building lands too.
  for (let k = 0; k < 50; k++) await yieldOnce(20);
  const label = `longest stall, ${stream.length.toLocaleString('en-US')} upserts, rebuilt ${mode === 'thread' ? 'on a thread' : 'in place'}`;
  const value = `upsert ${upsert.toFixed(1)} ms, turn ${turn.toFixed(1)} ms`;
  console.log(`| ${label.padEnd(48)} | ${value.padEnd(44)} |`);
}

const only = Number(process.argv[2]);
if (process.argv[2] === 'stalls') {
  await stalls(Number(process.argv[3]), process.argv[4] === 'thread' ? 'thread' : 'in place');
} else if (only > 0) {
  await runOne(only);
} else {
  // A yardstick for the machine's memory speed: the memory-bound figures below scale with it.
  const keys = Array.from({ length: 1_000_000 }, (_, i) => `fence_${i}`);
  const t0 = performance.now();
  const yardstick = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) yardstick.set(keys[i]!, i);
  const mapMs = performance.now() - t0;
  const cpu = `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`;
  console.log(`node ${process.version}, ${cpu}, load average ${os.loadavg()[0]?.toFixed(1)}`);
  console.log(`yardstick: 1M Map.set of string keys in ${mapMs.toFixed(0)} ms`);
  const self = fileURLToPath(import.meta.url);
  const child = (...args: string[]) =>
    execFileSync(process.execPath, [...process.execArgv, '--max-old-space-size=8192', self, ...args], {
      encoding: 'utf8',
    });
  for (const n of [100_000, 1_000_000]) {
    const out = child(String(n)) + child('stalls', String(n), 'in place') + child('stalls', String(n), 'thread');
    process.stdout.write(`${out}\n`);
  }
}
