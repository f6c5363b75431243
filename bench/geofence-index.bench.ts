/**
 * Micro-benchmark of the geofence engine on a synthetic New York metro: 60% circles of 50–500 m,
 * 40% star polygons of 5–50 vertices and 50–500 m, 70% spread over the metro box and 30% clustered
 * around Midtown. Each size runs in its own child process so RSS figures do not mix.
 *
 *   node --import tsx bench/geofence-index.bench.ts            # 100k and 1M
 *   node --import tsx bench/geofence-index.bench.ts 250000     # one size
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { circlePolygon } from '../src/geo/circle-polygon.js';
import type { Position, Ring } from '../src/geo/types.js';
import { detectTransitions } from '../src/domain/geofences/detect-transitions.js';
import type { Geofence } from '../src/domain/geofences/geofence.js';
import { GeofenceIndex } from '../src/domain/geofences/geofence-index.js';
import type { GeofenceMembership } from '../src/domain/users/user.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

// Deterministic PRNG (mulberry32) so runs are comparable.
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const M_PER_DEG = 111_195;
const MIDTOWN: Position = [-73.985, 40.755];
function metroPoint(): Position {
  if (random() < 0.3) return [MIDTOWN[0] + (gauss() * 15_000) / 84_300, MIDTOWN[1] + (gauss() * 15_000) / M_PER_DEG];
  return [-74.5 + random() * 1.1, 40.4 + random() * 0.8];
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
  const ring: Ring = angles.map((a) => offset(center, Math.cos(a) * radius * (0.6 + 0.4 * random()), Math.sin(a) * radius));
  ring.push(ring[0]!);
  return { ...base, type: 'polygon', geometry: { type: 'Polygon', coordinates: [ring] } };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
function rss(): number {
  gc();
  return process.memoryUsage().rss;
}

function runOne(n: number): void {
  const rss0 = rss();
  const fences = Array.from({ length: n }, (_, i) => makeFence(i));
  const rss1 = rss();
  let t = performance.now();
  const index = new GeofenceIndex();
  index.load(fences);
  const loadMs = performance.now() - t;
  const rss2 = rss();

  // Users walking: each update moves 0–50 m and carries the memberships of the previous one.
  const users = 20_000;
  const rounds = 10;
  const pos = Array.from({ length: users }, metroPoint);
  const acc = Array.from({ length: users }, () => 5 + random() * 60);
  const members: GeofenceMembership[][] = Array.from({ length: users }, () => []);
  const steps = Array.from({ length: users * rounds }, () => [random() * 50 - 25, random() * 50 - 25]);
  const lookup = (id: string) => index.get(id);
  let candidates = 0;
  let events = 0;
  t = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (let u = 0; u < users; u++) {
      const [dx, dy] = steps[r * users + u]!;
      const p = offset(pos[u]!, dx!, dy!);
      pos[u] = p;
      const found = index.candidatesAt(p[0], p[1], Math.min(acc[u]!, 100));
      candidates += found.length;
      const at = 1_700_000_000_000 + r * 60_000;
      const change = { at, location: p, accuracyMeters: acc[u]!, stopped: false, appUserId: null, memberships: members[u]! };
      const out = detectTransitions(change, found, lookup, at);
      events += out.entered.length + out.exited.length + out.dwelled.length;
      members[u] = out.memberships;
    }
  }
  const trackNs = ((performance.now() - t) * 1e6) / (users * rounds);

  const q = 200_000;
  const pts = Array.from({ length: q }, metroPoint);
  t = performance.now();
  for (const p of pts) index.candidatesAt(p[0], p[1], 50);
  const candNs = ((performance.now() - t) * 1e6) / q;

  t = performance.now();
  for (let i = 0; i < 2000; i++) index.near(pts[i]![0], pts[i]![1], 1000, { limit: 10 });
  const nearUs = ((performance.now() - t) * 1e3) / 2000;

  t = performance.now();
  for (let i = 0; i < 10_000; i++) index.upsert(makeFence(i * 7));
  const upsertUs = ((performance.now() - t) * 1e3) / 10_000;
  t = performance.now();
  for (const p of pts) index.candidatesAt(p[0], p[1], 50);
  const candAfterNs = ((performance.now() - t) * 1e6) / q;

  console.log(
    [
      n.toLocaleString('en-US').padStart(9),
      `${(loadMs / 1000).toFixed(2)} s`.padStart(7),
      mb(rss1 - rss0).padStart(8),
      mb(rss2 - rss1).padStart(8),
      mb(rss2).padStart(8),
      `${Math.round(candNs)} ns`.padStart(8),
      (candidates / (users * rounds)).toFixed(1).padStart(6),
      `${Math.round(trackNs)} ns`.padStart(9),
      (events / (users * rounds)).toFixed(3).padStart(7),
      `${nearUs.toFixed(0)} µs`.padStart(8),
      `${upsertUs.toFixed(1)} µs`.padStart(9),
      `${Math.round(candAfterNs)} ns`.padStart(9),
    ].join(' | '),
  );
}

const only = Number(process.argv[2]);
if (only > 0) {
  runOne(only);
} else {
  console.log(`node ${process.version}, ${process.arch}; one child process per size`);
  console.log(
    '  fences  |  load   | fence RSS | index RSS | total RSS | candAt | cands | cand+detect | events | near 1km | upsert | candAt+10k upserts',
  );
  const self = fileURLToPath(import.meta.url);
  for (const n of [100_000, 1_000_000]) {
    const out = execFileSync(process.execPath, [...process.execArgv, self, String(n)], { encoding: 'utf8' });
    process.stdout.write(out);
  }
}
