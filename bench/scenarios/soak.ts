import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { residentBytes } from '../../test/helpers/cli.js';
import { auth } from '../lib/load.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { metroPoint, seedGeofences, tenantOfKey } from './metro-seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `npm run bench -- soak`: mixed traffic at a fixed rate for a long while (BENCH_SOAK_SECONDS, default
 * 600; BENCH_SOAK_RATE requests per second, default 200), to show what a long run does that a 10 s
 * row cannot: memory that creeps up, latency that drifts. Per window (30 s; shorter runs cut it to an
 * eighth of the run) it records the server's RSS and the p50/p99 of the requests answered in it. It
 * compares the end with the level after the warm-up (the first two minutes, or a quarter of a shorter
 * run): RSS within 10%, p99 within 20%; and draws both curves to an SVG (BENCH_SOAK_SVG, default
 * docs/soak.svg).
 *
 * The mix: 40% tracks of devices never seen before (the users table and the search index grow all
 * along, as in production), 25% tracks of 2,000 known devices (each at most every 40 s at the default
 * rate, well inside the per-device limits), 15% context, 15% geofence and user searches, 5% geofence
 * upserts over 500 ids (each one's index entry replaced).
 */
const MIX: Array<[number, (i: number) => SoakRequest]> = [];

interface SoakRequest {
  method: string;
  path: string;
  body?: string;
  secret?: boolean;
}

interface Window {
  endSeconds: number;
  rssMb: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
}

const KNOWN_DEVICES = 2000;
const FENCE_IDS = 500;
/** Requests in flight at most: past it the server is saturated, and a request due is counted late instead. */
const MAX_IN_FLIGHT = 64;

function point(): string {
  const [lon, lat] = metroPoint();
  return `${lat.toFixed(6)},${lon.toFixed(6)}`;
}

function trackOf(deviceId: string): SoakRequest {
  const [lon, lat] = metroPoint();
  return {
    method: 'POST',
    path: '/v1/track',
    body: JSON.stringify({ deviceId, userId: deviceId, latitude: lat, longitude: lon, accuracy: 10 }),
  };
}

let newDevices = 0;
let knownTurn = 0;
let fenceTurn = 0;
MIX.push(
  [40, () => trackOf(`soak-new-${newDevices++}`)],
  [25, () => trackOf(`soak-known-${knownTurn++ % KNOWN_DEVICES}`)],
  [15, () => ({ method: 'GET', path: `/v1/context?coordinates=${point()}` })],
  [10, () => ({ method: 'GET', path: `/v1/search/geofences?near=${point()}&radius=1000&limit=10` })],
  [5, () => ({ method: 'GET', path: `/v1/search/users?near=${point()}&radius=1000&limit=10`, secret: true })],
  [
    5,
    () => {
      const [lon, lat] = metroPoint();
      const body = { description: 'soak', type: 'circle', coordinates: [lon, lat], radius: 100 + (fenceTurn % 400) };
      return {
        method: 'PUT',
        path: `/v1/geofences/soak/f${fenceTurn++ % FENCE_IDS}`,
        body: JSON.stringify(body),
        secret: true,
      };
    },
  ],
);
const MIX_TOTAL = MIX.reduce((sum, [w]) => sum + w, 0);

/** The request for turn `i`: the mix's kinds interleaved by weight (deterministic, no bursts of one kind). */
function requestFor(i: number): SoakRequest {
  let slot = (i * 37) % MIX_TOTAL;
  for (const [weight, make] of MIX) {
    if (slot < weight) return make(i);
    slot -= weight;
  }
  throw new Error('unreachable');
}

async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
  const rate = Number(process.env.BENCH_SOAK_RATE ?? 200);
  const windowSeconds = Math.min(30, seconds / 8);
  const warmupSeconds = Math.min(120, seconds / 4);
  const pid = ctx.serverPids?.[0];

  const tenant = await tenantOfKey(ctx.dataDir, ctx.keys.publishable);
  await seedGeofences(ctx.dataDir, tenant, 0, Number(process.env.BENCH_SOAK_FENCES ?? 10_000));
  await new Promise((r) => setTimeout(r, 1000));
  // Every known device tracked once before the clock starts, so that its later tracks are of a known user.
  for (let i = 0; i < KNOWN_DEVICES; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, k) => send(ctx, trackOf(`soak-known-${i + k}`)).then((r) => r.ok || fail(r))),
    );
  }

  const windows: Window[] = [];
  let latencies: number[] = [];
  let errors = 0;
  let late = 0;
  let inFlight = 0;
  let sent = 0;
  const allLatencies: number[] = [];
  const started = performance.now();
  const interval = 1000 / rate;
  let windowEnd = windowSeconds;

  await new Promise<void>((resolve) => {
    const tick = setInterval(async () => {
      const elapsed = (performance.now() - started) / 1000;
      // Every request due by now, sent now: an open loop, so a slow server meets the same load.
      const due = Math.floor((elapsed * 1000) / interval);
      while (sent < due && elapsed < seconds) {
        const i = sent++;
        if (inFlight >= MAX_IN_FLIGHT) {
          late++;
          continue;
        }
        inFlight++;
        const t0 = performance.now();
        send(ctx, requestFor(i)).then(
          (res) => {
            inFlight--;
            const ms = performance.now() - t0;
            latencies.push(ms);
            allLatencies.push(ms);
            if (!res.ok) {
              errors++;
              if (errors <= 5) process.stderr.write(`soak: ${res.status} ${res.text.slice(0, 200)}\n`);
            }
          },
          () => {
            inFlight--;
            errors++;
          },
        );
      }
      if (elapsed >= windowEnd) {
        // Taken before the RSS read awaits: the next tick must find this window closed.
        const w: Window = {
          endSeconds: Math.round(windowEnd),
          rssMb: Number.NaN,
          p50Ms: percentile(latencies, 0.5),
          p99Ms: percentile(latencies, 0.99),
          requests: latencies.length,
          errors,
        };
        windows.push(w);
        latencies = [];
        windowEnd += windowSeconds;
        const [rss, heap] = await Promise.all([pid ? residentBytes(pid) : null, heapOf(ctx.url)]);
        if (rss !== null) w.rssMb = rss / 2 ** 20;
        const split = heap ? ` (V8 heap ${heap.heapMb.toFixed(1)}, external ${heap.externalMb.toFixed(1)})` : '';
        process.stderr.write(
          `soak: ${w.endSeconds} s RSS ${w.rssMb.toFixed(1)} MB${split} p50 ${w.p50Ms.toFixed(2)} ms p99 ${w.p99Ms.toFixed(2)} ms ${w.requests} requests ${errors} errors ${late} late\n`,
        );
      }
      if (elapsed >= seconds && inFlight === 0) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });

  const verdict = judge(windows, warmupSeconds);
  process.stderr.write(`${verdict.text}\n`);
  const svg = process.env.BENCH_SOAK_SVG ?? path.join(ROOT, 'docs', 'soak.svg');
  fs.writeFileSync(svg, plot(windows, warmupSeconds, `${seconds} s at ${rate} req/s, mixed traffic`));
  process.stderr.write(`soak: plot written to ${svg}\n`);
  const totalSeconds = (performance.now() - started) / 1000;
  return [
    {
      name: `mixed traffic ${seconds} s at ${rate} req/s (${verdict.summary})`,
      requests: allLatencies.length,
      reqPerSec: Math.round(allLatencies.length / totalSeconds),
      p50Ms: round2(percentile(allLatencies, 0.5)),
      p99Ms: round2(percentile(allLatencies, 0.99)),
      errors: errors + late,
    },
  ];
}

/**
 * The server's V8 heap (as committed, which RSS holds) and the memory outside it that V8 tracks
 * (buffers), in MB, from its Prometheus metrics (prom-client's defaults); null when METRICS is off.
 * What RSS holds beyond them is native: SQLite's page cache, the allocator's free lists, code.
 */
async function heapOf(url: string): Promise<{ heapMb: number; externalMb: number } | null> {
  const res = await fetch(`${url}/metrics`).catch(() => null);
  if (!res?.ok) return null;
  const text = await res.text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
  return { heapMb: gauge('nodejs_heap_size_total_bytes'), externalMb: gauge('nodejs_external_memory_bytes') };
}

/** RSS at the end against after the warm-up (within 10%), and the last window's p99 against the first one after it (within 20%). */
function judge(windows: Window[], warmupSeconds: number): { text: string; summary: string } {
  const afterWarmup = windows.findIndex((w) => w.endSeconds >= warmupSeconds);
  const ref = windows[afterWarmup];
  const last = windows.at(-1);
  if (!ref || !last || ref === last) return { text: 'soak: too short to compare', summary: 'too short' };
  const next = windows[afterWarmup + 1] ?? last;
  // The last window's RSS may still be on its way when the load ends: take the newest one read.
  const lastRss = windows.findLast((w) => Number.isFinite(w.rssMb)) ?? last;
  const rssChange = lastRss.rssMb / ref.rssMb - 1;
  const p99Change = last.p99Ms / next.p99Ms - 1;
  const rssOk = Math.abs(rssChange) <= 0.1;
  const p99Ok = p99Change <= 0.2;
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  const summary = `RSS ${pct(rssChange)} ${rssOk ? 'ok' : 'OVER 10%'}, p99 ${pct(p99Change)} ${p99Ok ? 'ok' : 'OVER 20%'}`;
  return {
    text: `soak: RSS ${ref.rssMb.toFixed(1)} MB at ${ref.endSeconds} s -> ${lastRss.rssMb.toFixed(1)} MB at ${lastRss.endSeconds} s (${pct(rssChange)}, ${rssOk ? 'within' : 'NOT within'} 10%); p99 ${next.p99Ms.toFixed(2)} ms in the window to ${next.endSeconds} s -> ${last.p99Ms.toFixed(2)} ms in the last (${pct(p99Change)}, ${p99Ok ? 'within' : 'NOT within'} 20%)`,
    summary,
  };
}

/** A small SVG: RSS (MB, left axis) and p99 (ms, right axis) per window, the warm-up shaded. */
function plot(windows: Window[], warmupSeconds: number, title: string): string {
  const W = 640;
  const H = 280;
  const m = { left: 56, right: 56, top: 32, bottom: 40 };
  const xMax = Math.max(...windows.map((w) => w.endSeconds), 1);
  const rssMax = niceMax(Math.max(...windows.map((w) => w.rssMb).filter(Number.isFinite), 1));
  const p99Max = niceMax(Math.max(...windows.map((w) => w.p99Ms), 1));
  const x = (s: number) => m.left + (s / xMax) * (W - m.left - m.right);
  const y = (v: number, max: number) => H - m.bottom - (v / max) * (H - m.top - m.bottom);
  const line = (values: Array<[number, number]>, max: number) =>
    values.map(([s, v]) => `${x(s).toFixed(1)},${y(v, max).toFixed(1)}`).join(' ');
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<rect x="${x(0)}" y="${m.top}" width="${(x(Math.min(warmupSeconds, xMax)) - x(0)).toFixed(1)}" height="${H - m.top - m.bottom}" fill="#f0f0f0"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13">Soak: ${escapeXml(title)}</text>`,
    ...ticks.map(
      (t) =>
        `<line x1="${m.left}" x2="${W - m.right}" y1="${y(t, 1).toFixed(1)}" y2="${y(t, 1).toFixed(1)}" stroke="#ddd"/>` +
        `<text x="${m.left - 6}" y="${(y(t, 1) + 4).toFixed(1)}" text-anchor="end" fill="#1f77b4">${Math.round(t * rssMax)}</text>` +
        `<text x="${W - m.right + 6}" y="${(y(t, 1) + 4).toFixed(1)}" fill="#d62728">${(t * p99Max).toFixed(p99Max < 10 ? 1 : 0)}</text>`,
    ),
    ...ticks.map(
      (t) =>
        `<text x="${x(t * xMax).toFixed(1)}" y="${H - m.bottom + 16}" text-anchor="middle">${Math.round(t * xMax)}</text>`,
    ),
    `<text x="${W / 2}" y="${H - 6}" text-anchor="middle">seconds (shaded: warm-up)</text>`,
    `<text x="12" y="${H / 2}" fill="#1f77b4" transform="rotate(-90 12 ${H / 2})" text-anchor="middle">server RSS, MB</text>`,
    `<text x="${W - 10}" y="${H / 2}" fill="#d62728" transform="rotate(90 ${W - 10} ${H / 2})" text-anchor="middle">p99 per window, ms</text>`,
    `<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${line(
      windows.filter((w) => Number.isFinite(w.rssMb)).map((w) => [w.endSeconds, w.rssMb]),
      rssMax,
    )}"/>`,
    `<polyline fill="none" stroke="#d62728" stroke-width="2" points="${line(
      windows.map((w) => [w.endSeconds, w.p99Ms]),
      p99Max,
    )}"/>`,
    '</svg>',
    '',
  ];
  return out.join('\n');
}

function niceMax(v: number): number {
  const step = 10 ** Math.floor(Math.log10(v));
  return Math.ceil((v * 1.1) / step) * step;
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

async function send(ctx: BenchContext, r: SoakRequest): Promise<{ ok: boolean; status: number; text: string }> {
  const headers = auth(r.secret ? ctx.keys.secret : ctx.keys.publishable, r.body !== undefined);
  const res = await fetch(`${ctx.url}${r.path}`, { method: r.method, headers, body: r.body });
  const text = await res.text();
  return { ok: res.ok, status: res.status, text };
}

function fail(r: { status: number; text: string }): never {
  throw new Error(`soak seeding failed: ${r.status} ${r.text.slice(0, 200)}`);
}

export const soak: Scenario = { name: 'soak', run };
