import { processTicks, TICKS_PER_SECOND, ticksBetween } from '../lib/cpu-ticks.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';

/** Rows per request: the API's most (MAX_IMPORT_ROWS). */
const ROWS_PER_FILE = 50_000;
const FILES = 2;
/** How often the probe asks GET /v1/config while an import runs: its latency shows the event loop held. */
const PROBE_EVERY_MS = 20;

/**
 * `npm run bench -- geofence-import`: 100,000 geofences (four circles to one small polygon) imported
 * as two CSV requests of 50,000 rows into a project whose fence index is loaded (a track came first,
 * so every batch also updates it), then the first file again (50,000 updates). Each row: the rows
 * per second, and the latency of GET /v1/config asked every 20 ms meanwhile (p50, p99): what other
 * requests waited while the import ran. The seconds are printed.
 */
export const geofenceImport: Scenario = {
  name: 'geofence-import',
  async run(ctx: BenchContext): Promise<BenchResult[]> {
    const track = await fetch(`${ctx.url}/v1/track`, {
      method: 'POST',
      headers: { authorization: ctx.keys.publishable, 'content-type': 'application/json' },
      body: JSON.stringify({ deviceId: 'bench-warm', latitude: 40.7, longitude: -74.0, accuracy: 10 }),
    });
    if (!track.ok) throw new Error(`track failed: ${track.status}`);
    const files = Array.from({ length: FILES }, (_, f) => csvFile(f));
    const results: BenchResult[] = [];
    results.push(await importRun(ctx, `POST /v1/geofences/import: ${FILES * ROWS_PER_FILE} new`, files));
    results.push(await importRun(ctx, `POST /v1/geofences/import: ${ROWS_PER_FILE} updates`, [files[0]!]));
    return results;
  },
};

async function importRun(ctx: BenchContext, name: string, files: string[]): Promise<BenchResult> {
  const probes: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${ctx.url}/v1/config`, { headers: { authorization: ctx.keys.secret } })).arrayBuffer();
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  const ticksBefore = processTicks(ctx.serverPids);
  const started = performance.now();
  let rows = 0;
  let errors = 0;
  for (const csv of files) {
    const res = await fetch(`${ctx.url}/v1/geofences/import`, {
      method: 'POST',
      headers: { authorization: ctx.keys.secret, 'content-type': 'text/csv' },
      body: csv,
    });
    const body = (await res.json()) as { created: number; updated: number; errors: unknown[] };
    if (!res.ok) throw new Error(`import failed: ${res.status} ${JSON.stringify(body)}`);
    rows += body.created + body.updated;
    errors += body.errors.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const ticks = ticksBetween(ticksBefore, processTicks(ctx.serverPids));
  running = false;
  await probe;
  probes.sort((a, b) => a - b);
  const at = (q: number) => probes[Math.min(probes.length - 1, Math.floor(q * probes.length))] ?? 0;
  // The server's CPU seconds hardly depend on what else loads the machine; the wall time does.
  const cpu = ticks === null ? '' : `, server CPU ${(ticks / TICKS_PER_SECOND).toFixed(1)} s`;
  console.log(
    `${name}: ${rows} rows in ${seconds.toFixed(1)} s${cpu}; GET /v1/config meanwhile max ${at(1).toFixed(0)} ms`,
  );
  return {
    name: `${name} (${seconds.toFixed(1)} s${cpu}; p50/p99 = GET /v1/config meanwhile)`,
    requests: rows,
    reqPerSec: rows / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors,
    ...(ticks === null ? {} : { serverCpuUsPerReq: ((ticks / TICKS_PER_SECOND) * 1e6) / rows }),
  };
}

/** 50,000 rows: circles of 50-500 m and, one row in five, a ~300 m square, spread over the USA. */
function csvFile(f: number): string {
  const lines = ['tag,externalId,description,type,latitude,longitude,coordinates,radius,enabled,metadata.region'];
  for (let i = 0; i < ROWS_PER_FILE; i++) {
    const n = f * ROWS_PER_FILE + i;
    const lat = 30 + ((n * 7919) % 15_000) / 1000;
    const lon = -120 + ((n * 104_729) % 45_000) / 1000;
    if (i % 5 === 4) {
      const d = 0.003;
      const ring = [
        [lon, lat],
        [lon + d, lat],
        [lon + d, lat + d],
        [lon, lat + d],
        [lon, lat],
      ];
      lines.push(`bench,f${n},Square ${n},polygon,,,"${JSON.stringify(ring)}",,true,r${n % 50}`);
    } else lines.push(`bench,f${n},Circle ${n},circle,${lat},${lon},,${50 + (n % 450)},true,r${n % 50}`);
  }
  return `${lines.join('\n')}\n`;
}
