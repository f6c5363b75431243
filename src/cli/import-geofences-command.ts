import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { openStore } from '../compose.js';
import type { Config } from '../config.js';
import { systemClock } from '../domain/clock.js';
import { GeofenceService } from '../domain/geofences/geofence-service.js';
import { ProjectService } from '../domain/projects/project-service.js';
import { type ImportFormat, readImportRows } from '../http/geofence-import/import-rows.js';
import { parseFlags, refuseUnknownFlags } from './flags.js';
import { progressBar } from './progress-bar.js';

export const IMPORT_GEOFENCES_USAGE =
  'npm run cli -- import geofences <project> <file.csv|file.geojson> [--live] [--dry-run]';

/**
 * `import geofences <project> <file>`: the API's bulk import (`POST /v1/geofences/import`), through
 * the same row checks and the same domain service, from a file of any length, with a progress bar
 * on stderr. Prints the counts and each refused row; exits 1 when some row was refused.
 */
export async function importGeofencesCommand(config: Config, args: string[]): Promise<number> {
  const { positional, flags } = parseFlags(args);
  refuseUnknownFlags(flags, ['live', 'dry-run'], 'import geofences');
  const [name, file, ...extra] = positional;
  if (!name || !file || extra.length > 0) throw new Error(`usage: ${IMPORT_GEOFENCES_USAGE}`);
  const format = formatOf(file);
  const body = await readFile(resolve(file));
  const store = await openStore(config);
  try {
    const project = await new ProjectService(store.projects, systemClock).find(name);
    if (!project) throw new Error(`no project named "${name}".`);
    const tenant = { projectId: project.id, live: flags.live === true };
    const { rows, errors } = await readImportRows(body, format, Number.POSITIVE_INFINITY);
    const service = new GeofenceService(store.geofences, store.users, systemClock);
    const bar = throttled(progressBar(`${flags['dry-run'] ? 'Checking' : 'Importing'} ${file}`));
    const total = rows.length + errors.length;
    const result = await service.importMany(tenant, rows, {
      dryRun: flags['dry-run'] === true,
      onProgress: (done) => bar('geofences', done + errors.length, total),
    });
    const refused = [...errors, ...result.errors].sort((a, b) => a.row - b.row);
    for (const e of refused) process.stdout.write(`row ${e.row}: ${e.message}\n`);
    const verb = flags['dry-run'] ? 'would create' : 'created';
    process.stdout.write(
      `${verb} ${result.created}, ${flags['dry-run'] ? 'would update' : 'updated'} ${result.updated}, refused ${refused.length} row(s) (${tenant.live ? 'live' : 'test'} environment of "${name}").\n`,
    );
    return refused.length > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

function formatOf(file: string): ImportFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.geojson' || ext === '.json') return 'geojson';
  throw new Error(`${file}: the file must end in .csv, .geojson or .json.`);
}

/** The bar redrawn at most once a percent (a line per batch of a 100,000-row file is 400 lines). */
function throttled(bar: (stage: string, done: number, total: number) => void) {
  let shown = -1;
  return (stage: string, done: number, total: number) => {
    const percent = Math.floor((100 * done) / Math.max(1, total));
    if (percent === shown) return;
    shown = percent;
    bar(stage, done, total);
  };
}
