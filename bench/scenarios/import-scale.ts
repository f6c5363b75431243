import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyOfSharedTestPack } from '../../src/geodata/test-pack.js';
import { processTicks, TICKS_PER_SECOND } from '../lib/cpu-ticks.js';
import { auth } from '../lib/load.js';
import { startServerProcess } from '../lib/server-process.js';
import {
  GENERATOR_VERSION,
  osmiumPath,
  type SyntheticExtract,
  sideForMegabytes,
  writeSyntheticExtract,
} from '../lib/synthetic-extract.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { random } from './metro-seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Requests per latency row: sequential, one at a time, so the figures are service time, not queueing. */
const QUERIES = Number(process.env.BENCH_IMPORT_QUERIES ?? 300);

interface SizeResult {
  megabytes: number;
  pbfBytes: number;
  counts: { nodes: number; ways: number };
  importSeconds: number;
  /** User + system CPU of the import: on a shared, loaded machine a steadier figure than wall time. */
  importCpuSeconds: number;
  importPeakRssBytes: number;
  /** Wall time, CPU time and resident memory when each import stage began (from the CLI's progress lines). */
  stages: Array<{ stage: string; seconds: number; cpuSeconds: number; rssBytes: number }>;
  packBytes: number;
  startSeconds: number;
  firstRouteSeconds: number;
  serveRssBytes: number;
  route: Percentiles;
  forward: Percentiles;
  reverse: Percentiles;
}
interface Percentiles {
  p50: number;
  p99: number;
  errors: number;
}

/**
 * `npm run bench -- import-scale`: generates a synthetic extract (bench/lib/synthetic-extract.ts) of each
 * size in BENCH_IMPORT_SIZES (MB of PBF, default 10; cached in the temp folder), imports it with the CLI
 * in its own process (wall time, peak RSS from /proc, the time and memory at each stage), then serves the
 * pack: start-up, the first route (graphs loaded), RSS, and route / forward / reverse latencies across the
 * area. Prints its own table; the server run.ts starts for every scenario is not used.
 */
async function run(_ctx: BenchContext): Promise<BenchResult[]> {
  if (!osmiumPath()) {
    process.stderr.write(
      'import-scale: skipped, it needs osmium-tool to write the synthetic PBF (Debian: apt-get install -y osmium-tool)\n',
    );
    return [];
  }
  const sizes = (process.env.BENCH_IMPORT_SIZES ?? '10')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const results: SizeResult[] = [];
  for (const megabytes of sizes) {
    results.push(await measureSize(megabytes));
    printTable(results);
  }
  return [];
}

async function measureSize(megabytes: number): Promise<SizeResult> {
  const { pbf, extract } = await cachedExtract(megabytes);
  const pack = await copyOfSharedTestPack();
  try {
    const imported = await importInOwnProcess(pack.dataDir, pbf);
    const regionDir = path.join(pack.dataDir, 'pack', 'osm', path.basename(pbf, '.osm.pbf'));
    const manifest = JSON.parse(readFileSync(path.join(regionDir, 'manifest.json'), 'utf8')) as {
      counts: Record<string, number>;
    };
    const started = Date.now();
    const server = await startServerProcess({ GEODATA_DIR: pack.dataDir });
    try {
      const startSeconds = (Date.now() - started) / 1000;
      const created = JSON.parse(await server.cli(['projects', 'create', 'bench', '--json'])) as {
        keys: { test: { publishable: string } };
      };
      await server.cli(['projects', 'set', 'bench', '--rate-limit', '10000000']);
      const headers = auth(created.keys.test.publishable);
      const { bbox, addresses } = extract;
      const point = (): [number, number] => [
        bbox.west + random() * (bbox.east - bbox.west),
        bbox.south + random() * (bbox.north - bbox.south),
      ];
      const q = ([lon, lat]: [number, number]) => `${lat.toFixed(6)},${lon.toFixed(6)}`;
      const firstStarted = Date.now();
      const route = () => `/v1/route/distance?origin=${q(point())}&destination=${q(point())}&modes=car&units=metric`;
      const first = await fetch(`${server.url}${route()}`, { headers });
      if (!first.ok) throw new Error(`import-scale: first route failed ${first.status} ${await first.text()}`);
      const firstRouteSeconds = (Date.now() - firstStarted) / 1000;
      const pick = () => addresses[Math.floor(random() * addresses.length)]!;
      const forward = () => {
        const a = pick();
        const query = `${a.number} ${a.street}, Gridville, IN ${a.postcode}`;
        return `/v1/geocode/forward?query=${encodeURIComponent(query)}`;
      };
      const reverse = () => {
        const a = pick();
        return `/v1/geocode/reverse?coordinates=${q([a.lon + (random() - 0.5) * 0.0004, a.lat + (random() - 0.5) * 0.0004])}`;
      };
      // One warm-up each: the first geocode loads the address layer.
      for (const p of [forward(), reverse()]) await fetch(`${server.url}${p}`, { headers });
      const result: SizeResult = {
        megabytes,
        pbfBytes: statSync(pbf).size,
        counts: { nodes: manifest.counts.nodes ?? 0, ways: manifest.counts.ways ?? 0 },
        ...imported,
        packBytes: folderBytes(regionDir),
        startSeconds,
        firstRouteSeconds,
        route: await latencies(server.url, headers, route),
        forward: await latencies(server.url, headers, forward),
        reverse: await latencies(server.url, headers, reverse),
        serveRssBytes: procStatus(server.pid, 'VmRSS'),
      };
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    await pack.remove();
  }
}

/** The extract of about `megabytes` MB, generated once and kept in the temp folder for later runs. */
async function cachedExtract(megabytes: number): Promise<{ pbf: string; extract: SyntheticExtract }> {
  const base = path.join(os.tmpdir(), `whereabouts-import-scale-v${GENERATOR_VERSION}-${megabytes}mb`);
  const pbf = `${base}.osm.pbf`;
  const meta = `${base}.json`;
  if (existsSync(pbf) && existsSync(meta)) return { pbf, extract: JSON.parse(readFileSync(meta, 'utf8')) };
  const started = Date.now();
  const side = await sideForMegabytes(megabytes);
  process.stderr.write(`import-scale: generating ${megabytes} MB (${side} × ${side} blocks)…\n`);
  // Named for the region the import creates; renamed into place whole so a half-written file is never reused.
  const partial = `${base}.partial.osm.pbf`;
  const extract = await writeSyntheticExtract(side, partial);
  renameSync(partial, pbf);
  writeFileSync(meta, JSON.stringify(extract));
  process.stderr.write(
    `import-scale: generated ${(statSync(pbf).size / 2 ** 20).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  return { pbf, extract };
}

/**
 * Runs `import osm` in its own process, sampling its /proc status every 200 ms: VmHWM (the kernel's own
 * peak RSS, so nothing between samples is missed) and, at each progress line, the stage and VmRSS.
 */
function importInOwnProcess(
  geodataDir: string,
  pbf: string,
): Promise<Pick<SizeResult, 'importSeconds' | 'importCpuSeconds' | 'importPeakRssBytes' | 'stages'>> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'import', 'osm', pbf], {
      cwd: ROOT,
      env: { ...process.env, GEODATA_DIR: geodataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stages: SizeResult['stages'] = [];
    let peak = 0;
    let cpu = 0;
    let stderr = '';
    const sample = () => {
      const ticks = processTicks([child.pid!]);
      if (ticks) cpu = (ticks.get(String(child.pid)) ?? 0) / TICKS_PER_SECOND;
      try {
        peak = Math.max(peak, procStatus(child.pid!, 'VmHWM'));
      } catch {
        // exited between checks
      }
    };
    const timer = setInterval(sample, 200);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      sample();
      // Progress lines end in `<stage> (<seconds> s)`; a new stage name starts a row.
      for (const line of chunk.split(/[\r\n]+/)) {
        const m = /\d+\/\d+ (.+?)(?: \d[\d,]*)?(?: elements)? \([\d.]+ s\)/.exec(line);
        const stage = m?.[1];
        if (!stage || stages.at(-1)?.stage === stage) continue;
        let rss = 0;
        try {
          rss = procStatus(child.pid!, 'VmRSS');
        } catch {}
        stages.push({ stage, seconds: (Date.now() - started) / 1000, cpuSeconds: cpu, rssBytes: rss });
      }
    });
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`import osm exited ${code}: ${stderr.slice(-2000)}`));
      resolve({
        importSeconds: (Date.now() - started) / 1000,
        importCpuSeconds: cpu,
        importPeakRssBytes: peak,
        stages,
      });
    });
  });
}

/** A `/proc/<pid>/status` memory field in bytes: VmRSS (resident now) or VmHWM (peak resident). */
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

async function latencies(url: string, headers: Record<string, string>, next: () => string): Promise<Percentiles> {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    const res = await fetch(`${url}${next()}`, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (!res.ok) errors++;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1));
  return { p50: at(0.5), p99: at(0.99), errors };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

function printTable(results: SizeResult[]): void {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const lines = [
    '',
    `import-scale — ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${load}; ${QUERIES} sequential requests per latency column`,
    '',
    '| PBF MB | nodes | ways | import s | import CPU s | import peak RSS MB | pack MB | start s | first route s | serve RSS MB | route p50/p99 ms | forward p50/p99 ms | reverse p50/p99 ms | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${(r.pbfBytes / 2 ** 20).toFixed(1)} | ${r.counts.nodes.toLocaleString('en-US')} | ${r.counts.ways.toLocaleString('en-US')} | ${r.importSeconds.toFixed(0)} | ${r.importCpuSeconds.toFixed(0)} | ${mb(r.importPeakRssBytes)} | ${mb(r.packBytes)} | ${r.startSeconds.toFixed(1)} | ${r.firstRouteSeconds.toFixed(1)} | ${mb(r.serveRssBytes)} | ${r.route.p50} / ${r.route.p99} | ${r.forward.p50} / ${r.forward.p99} | ${r.reverse.p50} / ${r.reverse.p99} | ${r.route.errors + r.forward.errors + r.reverse.errors} |`,
    ),
    '',
    'Import stages (wall s / CPU s since start, RSS MB, when each stage began):',
    ...results.map(
      (r) =>
        `- ${(r.pbfBytes / 2 ** 20).toFixed(1)} MB: ${r.stages.map((s) => `${s.stage} ${s.seconds.toFixed(0)} / ${s.cpuSeconds.toFixed(0)} s, ${mb(s.rssBytes)} MB`).join('; ')}`,
    ),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

export const importScale: Scenario = { name: 'import-scale', run };
