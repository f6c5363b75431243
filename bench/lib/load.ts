import autocannon from 'autocannon';
import { AllocWatch } from './alloc-watch.js';
import { commandTicks, processTicks, TICKS_PER_SECOND, type Ticks, ticksBetween } from './cpu-ticks.js';
import { fixedRateLoad } from './fixed-rate-load.js';
import { ThreadWaits } from './thread-waits.js';
import type { BenchContext, BenchResult } from './types.js';
import { WalFrameWatch } from './wal-frames.js';
import { useWrk, wrkLoad } from './wrk-load.js';

export interface LoadRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Every API process's URL: one, unless the bench runs several (`--processes N`). */
export function apiUrls(ctx: BenchContext): string[] {
  return ctx.urls?.length ? ctx.urls : [ctx.url];
}

/**
 * Sends each request once to every API process before a row's clock starts, so that none loads its
 * indexes inside the measured part (one left cold did, with two processes, session 15).
 */
export async function warmEveryProcess(ctx: BenchContext, requests: LoadRequest[], what: string): Promise<void> {
  for (const url of apiUrls(ctx)) {
    for (const r of requests) {
      const res = await fetch(`${url}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
      if (!res.ok) throw new Error(`${what} warm-up failed: ${res.status}`);
    }
  }
}

/** Load shape of one measurement; by default as many requests as `ctx.connections` can carry. */
export interface LoadOptions {
  /** Fixed total rate, requests per second (autocannon `overallRate`), for latency at a given load. */
  overallRate?: number;
  connections?: number;
  /** Fixed rate only: seconds sent at the rate, unmeasured, before the measured part of the same run. */
  warmupSeconds?: number;
  /** Fixed rate only: called as the measured part starts (once per load process). */
  measuring?: () => void;
}

/**
 * Loads the server for `ctx.durationSeconds`, cycling through `requests`, and reports throughput and
 * latency: saturated on wrk where it is installed (`useWrk`), else autocannon; at a fixed rate from
 * `fixedRateLoad`.
 */
export async function measure(
  ctx: BenchContext,
  name: string,
  requests: LoadRequest[] | (() => LoadRequest),
  opts: LoadOptions = {},
): Promise<BenchResult> {
  // BENCH_ROWS=<text>: only rows whose name contains it are loaded (profiling one row); the others are left out.
  const only = process.env.BENCH_ROWS;
  if (only && !name.includes(only))
    return { name, requests: 0, reqPerSec: 0, p50Ms: 0, p99Ms: 0, errors: 0, skipped: true };
  // An unmeasured pass first (BENCH_WARMUP_SECONDS, default 2): code paths the server has not run yet are
  // compiled then, not in the measured tail. At a low fixed rate a cold start otherwise owns the p99.
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  let before: CpuReading | undefined;
  let alloc: AllocWatch | null | undefined;
  let result: LoadResult;
  if (pacedReads(requests, opts)) {
    // A fixed rate warms up inside its own run, on the same connections and load process, and goes
    // straight on into the measured part: a second run would start a cold load process and 50 new
    // connections at full rate, and its first second's backlog (p99 100-200 ms) would be the row's tail.
    const measuring = () => {
      before ??= readCpu(ctx);
      alloc ??= AllocWatch.start(ctx.serverPids);
    };
    result = await measureLoad(ctx, name, requests, { ...opts, warmupSeconds: warmup, measuring });
    if (alloc) process.stderr.write(`${name}: ${await alloc.report(result.requests)}\n`);
  } else {
    if (warmup > 0) await measureLoad({ ...ctx, durationSeconds: warmup }, `${name} (warm-up)`, requests, opts);
    const wal = process.env.BENCH_WAL_FRAMES ? WalFrameWatch.start(ctx.dataDir) : null;
    const threads = process.env.BENCH_THREADS ? ThreadWaits.start(ctx.serverPids) : null;
    alloc = AllocWatch.start(ctx.serverPids);
    before = readCpu(ctx);
    result = await measureLoad(ctx, name, requests, opts);
    if (wal) process.stderr.write(`${name}: ${wal.report(result.requests)}\n`);
    if (threads) process.stderr.write(`${name}: ${threads.report()}\n`);
    if (alloc) process.stderr.write(`${name}: ${await alloc.report(result.requests)}\n`);
  }
  const after = readCpu(ctx);
  const { loadCpuUs, ...row } = result;
  const perRequest = (us: number | null | undefined) =>
    us === null || us === undefined || row.requests === 0 ? undefined : Math.round(us / row.requests);
  const usOf = (ticks: number | null) => (ticks === null ? null : (ticks * 1e6) / TICKS_PER_SECOND);
  return {
    ...row,
    serverCpuUsPerReq: perRequest(usOf(ticksBetween(before?.server ?? null, after.server))),
    databaseCpuUsPerReq: perRequest(usOf(ticksBetween(before?.database ?? null, after.database))),
    loadCpuUsPerReq: perRequest(loadCpuUs),
  };
}

/**
 * CPU ticks so far of the API processes and, when the bench runs on one (`ctx.localDatabase`), of the
 * local PostgreSQL's.
 */
interface CpuReading {
  server: Ticks | null;
  database: Ticks | null;
}

function readCpu(ctx: BenchContext): CpuReading {
  return { server: processTicks(ctx.serverPids), database: ctx.localDatabase ? commandTicks('postgres') : null };
}

/** A row as a load run reports it, with wrk's CPU time over it (µs) when wrk ran it. */
type LoadResult = BenchResult & { loadCpuUs?: number };

async function measureLoad(
  ctx: BenchContext,
  name: string,
  requests: LoadRequest[] | (() => LoadRequest),
  opts: LoadOptions,
): Promise<LoadResult> {
  const next = typeof requests === 'function' ? requests : cycle(requests);
  const urls = apiUrls(ctx);
  if (urls.length > 1) {
    // Several API processes: one load generator per process, connections (and any fixed rate) split evenly.
    const share = (n: number) => Math.max(1, Math.round(n / urls.length));
    const parts = await Promise.all(
      urls.map((url) =>
        measureLoad({ ...ctx, url, urls: [url] }, name, pacedReads(requests, opts) ? requests : next, {
          ...opts,
          connections: share(opts.connections ?? ctx.connections),
          ...(opts.overallRate ? { overallRate: share(opts.overallRate) } : {}),
        }),
      ),
    );
    // Percentiles of the parts cannot be merged exactly: report the worst part's.
    return {
      name,
      requests: parts.reduce((n, p) => n + p.requests, 0),
      reqPerSec: parts.reduce((n, p) => n + p.reqPerSec, 0),
      p50Ms: Math.max(...parts.map((p) => p.p50Ms)),
      p99Ms: Math.max(...parts.map((p) => p.p99Ms)),
      errors: parts.reduce((n, p) => n + p.errors, 0),
      ...(parts.every((p) => p.loadCpuUs !== undefined)
        ? { loadCpuUs: parts.reduce((n, p) => n + (p.loadCpuUs ?? 0), 0) }
        : {}),
    };
  }
  if (opts.overallRate && pacedReads(requests, opts)) {
    const result = await fixedRateLoad({
      url: urls[0]!,
      // The whole list, cycled once across all connections: a server that keeps recent answers
      // (autocomplete) then sees the list's own repeats, not the same few requests over and over.
      requests: requests.map(withMethod),
      rate: opts.overallRate,
      connections: opts.connections ?? ctx.connections,
      durationSeconds: ctx.durationSeconds,
      warmupSeconds: opts.warmupSeconds ?? 0,
      measuring: opts.measuring,
    });
    return { name, ...result };
  }
  if (!opts.overallRate && useWrk()) {
    const list = Array.isArray(requests) ? requests : take(next, ctx.durationSeconds * WRK_MAX_RATE);
    const result = await wrkLoad({
      url: urls[0]!,
      requests: list.map(withMethod),
      connections: opts.connections ?? ctx.connections,
      durationSeconds: ctx.durationSeconds,
    });
    return { name, ...result };
  }
  const result = await autocannon({
    url: urls[0]!,
    connections: opts.connections ?? ctx.connections,
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
    duration: ctx.durationSeconds,
    pipelining: 1,
    requests:
      Array.isArray(requests) && requests.every(isRead) ? prebuilt(requests) : [{ setupRequest: setupFrom(next) }],
  });
  return {
    name,
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Whether a fixed rate of requests from a list is sent evenly spaced from a child process (the default; see
 * `fixedRateLoad` for why autocannon's p99 at a fixed rate measures its own bursts).
 * `BENCH_FIXED_RATE=autocannon` uses autocannon's `overallRate` instead, as runs before 2026-11-22 did.
 */
function pacedReads(requests: LoadRequest[] | (() => LoadRequest), opts: LoadOptions): requests is LoadRequest[] {
  return process.env.BENCH_FIXED_RATE !== 'autocannon' && opts.overallRate !== undefined && Array.isArray(requests);
}

// A fixed list of reads is handed to autocannon as it is, which serialises each request once per
// connection instead of building one per request in a callback: the load generator shares the server's
// two cores, and its cost per request shows directly in the server's throughput. Every connection then
// sends the list in the same order, which is fine for reads but not for writes (tracks of one device
// from many connections at once would hit its rate limit), so those keep the callback.
const PREBUILT_MAX = 1000;

function isRead(r: LoadRequest): boolean {
  return (r.method ?? 'GET') === 'GET';
}

function prebuilt(list: LoadRequest[]): autocannon.Request[] {
  return list.slice(0, PREBUILT_MAX).map((r) => ({
    method: r.method ?? 'GET',
    path: r.path,
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.body !== undefined ? { body: r.body } : {}),
  }));
}

function setupFrom(next: () => LoadRequest) {
  return (req: autocannon.Request): autocannon.Request => {
    const r = next();
    return { ...req, method: r.method ?? 'GET', path: r.path, headers: { ...req.headers, ...r.headers }, body: r.body };
  };
}

// wrk sends a list, so requests made one by one (writes: each one new) are made up front, enough for this
// rate over the whole run; past it the list would repeat (BENCH_WRK_MAX_RATE raises it).
const WRK_MAX_RATE = Number(process.env.BENCH_WRK_MAX_RATE ?? 25_000);

/** The request with its method spelled out, as the generators that take a final form need it. */
function withMethod(r: LoadRequest): LoadRequest & { method: string } {
  return { ...r, method: r.method ?? 'GET' };
}

function take(next: () => LoadRequest, count: number): LoadRequest[] {
  return Array.from({ length: count }, next);
}

function cycle(list: LoadRequest[]): () => LoadRequest {
  let i = 0;
  return () => list[i++ % list.length]!;
}

/**
 * Sends `count` requests from `next`, 50 at a time, for seeding (not measured); every one must succeed.
 * `label` names the step in the error.
 */
export async function sendAll(
  ctx: BenchContext,
  next: () => LoadRequest,
  count: number,
  label = 'seeding request',
): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const r = next();
      const res = await fetch(`${ctx.url}${r.path}`, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
      if (!res.ok) throw new Error(`${label} failed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
}

/** Authorization + JSON headers. */
export function auth(key: string, json = false): Record<string, string> {
  return json ? { authorization: key, 'content-type': 'application/json' } : { authorization: key };
}
