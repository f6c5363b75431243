import os from 'node:os';
import { benchDatabaseIsLocal, freshBenchDatabase, parseBenchArgs } from './lib/bench-database.js';
import { type ServerProcess, startServerProcess } from './lib/server-process.js';
import type { BenchResult, Scenario } from './lib/types.js';
import { useWrk } from './lib/wrk-load.js';
import { context } from './scenarios/context.js';
import { geocoding } from './scenarios/geocoding.js';
import { geodata } from './scenarios/geodata.js';
import { geofenceImport } from './scenarios/geofence-import.js';
import { importScale } from './scenarios/import-scale.js';
import { management } from './scenarios/management.js';
import { places } from './scenarios/places.js';
import { route } from './scenarios/route.js';
import { search } from './scenarios/search.js';
import { soak } from './scenarios/soak.js';
import { stalls } from './scenarios/stalls.js';
import { tiles } from './scenarios/tiles.js';
import { track } from './scenarios/track.js';

/**
 * `npm run bench [scenario ...]`: starts the server in its own process on loopback, creates a project
 * with the per-key limit raised, runs each scenario's loads for a bounded time, and prints a
 * Markdown table for the README. BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 50); saturated
 * rows on wrk where it is installed (bench/lib/wrk-load.ts).
 * `--store postgres`: PostgreSQL + Redis; `--processes N`: N API processes on the one store (bench/lib/bench-database.ts).
 */
const SCENARIOS: Scenario[] = [management, track, context, search, geodata, geocoding, places, route];
/**
 * Run only when named: the soak takes 10 minutes, `stalls` measures pauses, not throughput, `tiles`
 * imports Oʻahu first, `geofence-import` writes 100,000 fences, and `import-scale` imports synthetic
 * extracts (minutes each; BENCH_IMPORT_SIZES).
 */
const ON_REQUEST: Scenario[] = [soak, stalls, tiles, geofenceImport, importScale];

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const wanted = options.scenarios;
  const scenarios = wanted.length ? [...SCENARIOS, ...ON_REQUEST].filter((s) => wanted.includes(s.name)) : SCENARIOS;
  const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const rows: BenchResult[] = [];
  for (const scenario of scenarios) {
    const env: Record<string, string> = options.store === 'postgres' ? await freshBenchDatabase() : {};
    const servers: ServerProcess[] = [];
    // One at a time: the first migrates the fresh schema, the others find it done.
    for (let i = 0; i < options.processes; i++) servers.push(await startServerProcess(env));
    const server = servers[0]!;
    try {
      const created = JSON.parse(await server.cli(['projects', 'create', 'bench', '--json'])) as {
        keys: { test: { publishable: string; secret: string } };
      };
      await server.cli(['projects', 'set', 'bench', '--rate-limit', '10000000']);
      await new Promise((r) => setTimeout(r, 500));
      const results = await scenario.run({
        url: server.url,
        urls: servers.map((s) => s.url),
        serverPids: servers.map((s) => s.pid),
        store: options.store,
        localDatabase: options.store === 'postgres' && benchDatabaseIsLocal(),
        dataDir: server.dataDir,
        keys: created.keys.test,
        durationSeconds,
        connections,
        cli: server.cli,
      });
      const loaded = results.filter((r) => !r.skipped);
      for (const r of loaded)
        process.stderr.write(
          `${scenario.name}: ${r.name} ${r.reqPerSec} req/s p50 ${r.p50Ms} ms p99 ${r.p99Ms} ms errors ${r.errors} server CPU ${r.serverCpuUsPerReq ?? '–'} µs/req${r.databaseCpuUsPerReq === undefined ? '' : ` PostgreSQL CPU ${r.databaseCpuUsPerReq} µs/req`}${r.loadCpuUsPerReq === undefined ? '' : ` wrk CPU ${r.loadCpuUsPerReq} µs/req`}\n`,
        );
      rows.push(...loaded);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const store = options.store === 'postgres' ? 'PostgreSQL + Redis' : 'SQLite';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(
    `\nMachine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${durationSeconds} s per row, ${connections} connections, loopback, saturated rows on ${useWrk() ? 'wrk' : 'autocannon'}; ${store}, ${options.processes} API process(es); load average ${load}.\n\n`,
  );
  // With a local PostgreSQL, its CPU per request too: what one database spends on each request is what
  // decides how many API processes it can carry. And wrk's: the three share the machine's cores.
  const columns: Array<[string, (r: BenchResult) => number | undefined]> = [
    ['server CPU µs/req', (r) => r.serverCpuUsPerReq],
    ['PostgreSQL CPU µs/req', (r) => r.databaseCpuUsPerReq],
    ['wrk CPU µs/req', (r) => r.loadCpuUsPerReq],
  ];
  const shown = columns.filter(([, value], i) => i === 0 || rows.some((r) => value(r) !== undefined));
  process.stdout.write(
    `| scenario | req/s | p50 ms | p99 ms | requests | errors |${shown.map(([h]) => ` ${h} |`).join('')}\n|---|---:|---:|---:|---:|---:|${shown.map(() => '---:|').join('')}\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.name} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.requests} | ${r.errors} |${shown.map(([, value]) => ` ${value(r) ?? '–'} |`).join('')}\n`,
    );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exitCode = 1;
});
