import { setTimeout as sleep } from 'node:timers/promises';
import { HealthzProbe } from '../lib/healthz-probe.js';
import { readPauses } from '../lib/slow-quarters.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';

/**
 * `npm run bench -- stalls`: the worst input of each endpoint, one request at a time, while a probe
 * asks `/healthz` over and over on another connection, from a thread of its own (healthz-probe.ts). A request that holds the server's event loop
 * delays the probe by as long: the longest probe answer while it runs is the stall it causes (the
 * rule is 50 ms on the 2-core machine). Each input is sent `STALL_REPEATS` times (default 5) after one
 * unmeasured warm-up send; rows give the request's own median time in p50 and the longest probe answer
 * in p99. A row's name carries the status the request got. With BENCH_STALLS=1 the stderr line of a
 * row also gives the longest turn on the server's CPU beside it (`longestBusyTurn`).
 */
const REPEATS = Number(process.env.STALL_REPEATS ?? 5);
const NEAR: [number, number] = [-73.95, 40.75];
const near = `${NEAR[1]},${NEAR[0]}`;

interface Input {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** A path, or one per send (writes that must not repeat the same identity). */
  path: string | ((i: number) => string);
  key: 'publishable' | 'secret';
  body?: string;
}

/** A closed ring of `n` positions around `[lon, lat]`, `r` degrees across, at full precision. */
function circleRing(lon: number, lat: number, r: number, n: number): number[][] {
  const ring = Array.from({ length: n - 1 }, (_, i) => {
    const a = (2 * Math.PI * i) / (n - 1);
    return [lon + r * Math.cos(a), lat + r * 0.75 * Math.sin(a)];
  });
  return [...ring, ring[0]!];
}

/** Long leaning teeth: every edge's box overlaps every other's (the quadratic check's worst). */
function sawtooth(n: number): number[][] {
  const teeth = Math.floor((n - 4) / 2);
  const ring: number[][] = [];
  for (let i = 0; i < teeth; i++)
    ring.push([NEAR[0] + 2 * i * 1e-6, NEAR[1]], [NEAR[0] + 0.05 + (2 * i + 1) * 1e-6, NEAR[1] + 0.05]);
  const last = ring.at(-1)!;
  ring.push([last[0]!, NEAR[1] - 0.01], [NEAR[0], NEAR[1] - 0.01], [NEAR[0], NEAR[1]]);
  return ring;
}

/** An outer ring and 2,498 triangular holes: 9,997 positions, as many rings as the limit allows. */
function manyHoles(): number[][][] {
  const [x0, y0] = NEAR;
  const outer = [
    [x0 - 0.1, y0 - 0.1],
    [x0 + 0.1, y0 - 0.1],
    [x0 + 0.1, y0 + 0.1],
    [x0 - 0.1, y0 + 0.1],
    [x0 - 0.1, y0 - 0.1],
  ];
  const holes: number[][][] = [];
  for (let i = 0; i < 2498; i++) {
    const x = x0 - 0.09 + (i % 50) * 0.0035;
    const y = y0 - 0.09 + Math.floor(i / 50) * 0.0035;
    holes.push([
      [x, y],
      [x + 0.002, y],
      [x + 0.002, y + 0.002],
      [x, y],
    ]);
  }
  return [outer, ...holes];
}

const bigMetadata = () => Object.fromEntries(Array.from({ length: 16 }, (_, k) => [`key${k}`, 'm'.repeat(1000)]));

function inputs(): Input[] {
  const polygon = (coordinates: unknown) =>
    JSON.stringify({ description: 'd'.repeat(1000), type: 'polygon', coordinates, metadata: bigMetadata() });
  // The body limit (5 MB) filled with the cheapest positions to send and the dearest to parse.
  const zeros = `{"description":"d","type":"polygon","coordinates":[[${Array.from({ length: 870_000 }, () => '[0,0]').join(',')}]]}`;
  const replays = JSON.stringify({
    replays: Array.from({ length: 1000 }, (_, i) => ({
      deviceId: 'replay-device',
      latitude: NEAR[1] + i * 1e-5,
      longitude: NEAR[0],
      accuracy: 10,
      updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      // Two long values a fix: 1,000 fixes with all 16 would pass the 5 MB body limit.
      metadata: { note: 'n'.repeat(1000), more: 'm'.repeat(1000) },
    })),
  });
  const five = Array.from({ length: 5 }, (_, i) => `${NEAR[1] + i * 0.01},${NEAR[0] + i * 0.01}`).join('|');
  const twentyFive = Array.from({ length: 25 }, (_, i) => `${NEAR[1] + i * 0.002},${NEAR[0]}`).join('|');
  const words = 'new york brooklyn avenue street main park central west east north south '.repeat(8).slice(0, 512);
  const chains = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`chain-${i}`, bigMetadata()]));
  return [
    {
      name: 'PUT polygon 10,000 positions',
      method: 'PUT',
      path: (i) => `/v1/geofences/stall/circle${i}`,
      key: 'secret',
      body: polygon([circleRing(NEAR[0], NEAR[1], 0.05, 10_000)]),
    },
    {
      name: 'PUT polygon 10,000-position sawtooth',
      method: 'PUT',
      path: (i) => `/v1/geofences/stall/saw${i}`,
      key: 'secret',
      body: polygon([sawtooth(10_000)]),
    },
    {
      name: 'PUT polygon 2,500 rings',
      method: 'PUT',
      path: (i) => `/v1/geofences/stall/holes${i}`,
      key: 'secret',
      body: polygon(manyHoles()),
    },
    {
      name: 'PUT polygon 5 MB of [0,0] (refused)',
      method: 'PUT',
      path: '/v1/geofences/stall/zeros',
      key: 'secret',
      body: zeros,
    },
    {
      name: 'POST /v1/track/replay 1,000 fixes',
      method: 'POST',
      path: '/v1/track/replay',
      key: 'publishable',
      body: replays,
    },
    { name: 'POST /v1/track among the polygons', method: 'POST', path: '/v1/track', key: 'publishable', body: '' },
    {
      name: 'GET /v1/context among the polygons',
      method: 'GET',
      path: `/v1/context?coordinates=${near}`,
      key: 'publishable',
    },
    {
      name: 'GET /v1/route/matrix 5×5',
      method: 'GET',
      path: `/v1/route/matrix?origins=${five}&destinations=${five}&mode=car&units=metric`,
      key: 'publishable',
    },
    {
      name: 'GET /v1/route/matrix 1×25',
      method: 'GET',
      path: `/v1/route/matrix?origins=${near}&destinations=${twentyFive}&mode=car&units=metric`,
      key: 'publishable',
    },
    {
      name: 'GET /v1/search/geofences limit 100 with geometry',
      method: 'GET',
      path: `/v1/search/geofences?near=${near}&radius=10000&limit=100&includeGeometry=true`,
      key: 'publishable',
    },
    { name: 'GET /v1/geofences limit 1000', method: 'GET', path: '/v1/geofences?limit=1000', key: 'secret' },
    {
      name: 'GET /v1/search/users limit 100',
      method: 'GET',
      path: `/v1/search/users?near=${near}&radius=10000&limit=100`,
      key: 'secret',
    },
    { name: 'GET /v1/users limit 1000', method: 'GET', path: '/v1/users?limit=1000', key: 'secret' },
    {
      name: 'GET /v1/search/places limit 100',
      method: 'GET',
      path: `/v1/search/places?near=${near}&radius=10000&limit=100&categories=food-beverage`,
      key: 'publishable',
    },
    {
      name: 'GET /v1/search/autocomplete 512 characters',
      method: 'GET',
      path: `/v1/search/autocomplete?query=${encodeURIComponent(words)}&near=${near}&limit=100`,
      key: 'publishable',
    },
    {
      name: 'GET /v1/geocode/forward 512 characters',
      method: 'GET',
      path: `/v1/geocode/forward?query=${encodeURIComponent(words)}`,
      key: 'publishable',
    },
    {
      name: 'PATCH /v1/settings 250 chains of metadata',
      method: 'PATCH',
      path: '/v1/settings',
      key: 'secret',
      body: JSON.stringify({ chainMetadata: chains }),
    },
  ];
}

async function send(ctx: BenchContext, input: Input, i: number): Promise<{ status: number; ms: number }> {
  const path = typeof input.path === 'string' ? input.path : input.path(i);
  let body = input.body;
  // Each track from a device of its own (1 a second per device), in the middle of every polygon.
  if (input.path === '/v1/track') {
    body = JSON.stringify({
      deviceId: `stall-${i}-${Date.now()}`,
      latitude: NEAR[1],
      longitude: NEAR[0],
      accuracy: 10,
    });
  }
  // Each replay as another device: history must come in order.
  if (input.path === '/v1/track/replay') body = body!.replaceAll('replay-device', `replay-${i}-${Date.now()}`);
  const started = performance.now();
  const res = await fetch(`${ctx.url}${path}`, {
    method: input.method,
    headers: {
      authorization: ctx.keys[input.key],
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

async function seedUsers(ctx: BenchContext): Promise<void> {
  // Users near the point, for the user search and list: 1,000, with full metadata.
  for (let i = 0; i < 1000; i += 100) {
    const replays = Array.from({ length: 100 }, (_, k) => ({
      deviceId: `seed-${i + k}`,
      latitude: NEAR[1] + ((i + k) % 50) * 1e-4,
      longitude: NEAR[0] + Math.floor((i + k) / 50) * 1e-4,
      accuracy: 10,
      metadata: bigMetadata(),
    }));
    await fetch(`${ctx.url}/v1/track/replay`, {
      method: 'POST',
      headers: { authorization: ctx.keys.publishable, 'content-type': 'application/json' },
      body: JSON.stringify({ replays }),
    }).then((r) => r.arrayBuffer());
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export const stalls: Scenario = {
  name: 'stalls',
  async run(ctx) {
    await seedUsers(ctx);
    const rows: BenchResult[] = [];
    const probe = new HealthzProbe();
    try {
      // Unmeasured: the probe's thread loads and opens its connection.
      probe.start(ctx.url);
      await probe.stop();
      probe.start(ctx.url);
      await sleep(1000);
      const times = await probe.stop();
      rows.push({
        name: 'idle: /healthz alone for 1 s',
        requests: times.length,
        reqPerSec: times.length,
        p50Ms: round(median(times)),
        p99Ms: round(Math.max(...times)),
        errors: 0,
      });
      for (const input of inputs()) {
        // Unmeasured: the first send compiles the route's code, which a running server has done long before.
        await send(ctx, input, 1000);
        const own: number[] = [];
        let worst = 0;
        let status = 0;
        let busy = 0;
        for (let i = 0; i < REPEATS; i++) {
          const from = Date.now();
          probe.start(ctx.url);
          const result = await send(ctx, input, i);
          const times = await probe.stop();
          busy = Math.max(busy, await longestBusyTurn(from));
          own.push(result.ms);
          status = result.status;
          worst = Math.max(worst, ...times);
        }
        const row = {
          name: `${input.name} → ${status}`,
          requests: REPEATS,
          reqPerSec: 0,
          p50Ms: round(median(own)),
          p99Ms: round(worst),
          errors: status >= 500 ? REPEATS : 0,
        };
        process.stderr.write(
          `stalls: ${row.name}: request ${row.p50Ms} ms, longest /healthz beside it ${row.p99Ms} ms${process.env.BENCH_STALLS_FILE ? `, longest turn on the server's CPU ${busy.toFixed(1)} ms` : ''}\n`,
        );
        rows.push(row);
      }
    } finally {
      await probe.close();
    }
    return rows;
  },
};

/**
 * BENCH_STALLS=1: the most CPU time the server's event loop thread spent in one tick of its 1 ms timer
 * since `from` (epoch ms), from its `busy` lines (stall-probe.ts); 0 without. On a loaded machine the
 * probe's wait is mostly the two threads waiting for a CPU; this is the request's own work.
 */
async function longestBusyTurn(from: number): Promise<number> {
  if (!process.env.BENCH_STALLS_FILE) return 0;
  // The line of the request's last turn is written at the timer's next tick.
  await sleep(20);
  return Math.max(0, ...readPauses(from, Date.now()).flatMap((p) => (p.what === 'busy' ? [p.ms] : [])));
}

const round = (ms: number) => Math.round(ms * 10) / 10;
