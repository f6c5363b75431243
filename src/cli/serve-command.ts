import cluster from 'node:cluster';
import { compose, openGeodata, openStore } from '../compose.js';
import { type Config, ConfigError } from '../config.js';
import { ensureDashboardBuilt } from '../dashboard/build.js';
import { systemClock } from '../domain/clock.js';
import { ProjectService } from '../domain/projects/project-service.js';
import type { LivePack } from '../geodata/live-pack.js';
import { formatImportSummary } from '../geodata/manifest.js';
import { stopOnSignals } from './graceful-shutdown.js';
import { buildWorldPack } from './import-command.js';
import { superviseWorkers } from './worker-cluster.js';

/**
 * Starts the server; returns -1 so main leaves the process running. With WORKERS above 1 (PostgreSQL
 * only) this process sets up what a first start needs (the world pack, the default project), then
 * forks the API processes and watches them (`superviseWorkers`).
 */
export async function serveCommand(config: Config): Promise<number> {
  if (config.workers > 1 && !config.databaseUrl) throw new ConfigError(severalProcessesNeedPostgres(config.workers));
  if (config.workers > 1 && cluster.isPrimary) {
    await prepareFirstStart(config);
    const code = await superviseWorkers(config);
    process.exit(code);
  }
  const { app, deps, close } = await compose(config);
  stopOnSignals(app, close, config.shutdownGraceMs);
  await ensureWorldPack(deps.geodata);
  await ensureDashboard();
  // The keys are shown before the server listens (they work at once), with the dashboard's address
  // when the port is known; with WORKERS the primary showed both (prepareFirstStart).
  const keys = await createDefaultProject(deps.services.projects);
  const withKeys = keys !== null && config.port !== 0;
  if (keys !== null) process.stdout.write(`${keys}${withKeys ? dashboardLine(config.host, config.port) : ''}`);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  if (cluster.isPrimary && !withKeys) process.stdout.write(dashboardLine(config.host, port));
  return -1;
}

/**
 * SQLite is the embedded store of one API process: its caches are that process's own
 * (docs/adr/sqlite-one-process.md). Several processes share PostgreSQL instead.
 */
export function severalProcessesNeedPostgres(workers: number): string {
  return (
    `WORKERS=${workers}: the embedded SQLite store serves from one API process. To run several, ` +
    'set DATABASE_URL to a PostgreSQL + PostGIS database (and REDIS_URL to share rate limits).'
  );
}

/** What `serve` does once before any API process listens: the pack, the schema, a first project. */
async function prepareFirstStart(config: Config): Promise<void> {
  const { geodata } = await openGeodata(config);
  await ensureWorldPack(geodata);
  geodata.close();
  await ensureDashboard();
  const store = await openStore(config);
  try {
    const keys = await createDefaultProject(new ProjectService(store.projects, systemClock));
    process.stdout.write(`${keys ?? ''}${dashboardLine(config.host, config.port)}`);
  } finally {
    await store.close();
  }
}

/**
 * A first start makes a project so the server is usable at once, and answers the text that shows its
 * keys (printed with the dashboard's address). Processes started together on
 * an empty database race to make it: the name is unique, one wins, and the others show no keys.
 */
async function createDefaultProject(projects: ProjectService): Promise<string | null> {
  if ((await projects.list()).length > 0) return null;
  try {
    const { keys } = await projects.create('default');
    return [
      'Created project "default". Its keys are shown only this once:',
      `  test publishable  ${keys.test.publishable}`,
      `  test secret       ${keys.test.secret}`,
      `  live publishable  ${keys.live.publishable}`,
      `  live secret       ${keys.live.secret}`,
      // Every user of an app shares its publishable key, and a page with the web SDK makes several
      // calls at once: the spec's default per-key limit is soon reached in production.
      "Each key allows 10 requests a second (the spec's default), shared by every user of an app;",
      'raise it with: npm run cli -- projects set default --rate-limit 200',
      '',
    ].join('\n');
  } catch (err) {
    if ((await projects.list()).length === 0) throw err;
    return null;
  }
}

/** Where a browser on this machine opens the dashboard, as a line of the start-up output. */
function dashboardLine(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}/dashboard`;
  return `Dashboard: ${url} (sign in with a secret key)\n`;
}

/**
 * A fresh clone started without `npm ci` (or with sources changed since) gets its dashboard built
 * here; a failed build is reported and the API serves on without it.
 */
async function ensureDashboard(): Promise<void> {
  try {
    if (await ensureDashboardBuilt()) process.stdout.write('Built the dashboard.\n');
  } catch (err) {
    process.stderr.write(`Building the dashboard failed: ${(err as Error).message}\n`);
  }
}

/**
 * The first start builds the world pack when GEODATA_DIR has none (or one this build cannot read), so
 * `npm start` alone sets everything up. A failed build is reported and the server runs without it.
 */
async function ensureWorldPack(geodata: LivePack): Promise<void> {
  if (geodata.current()) return;
  process.stderr.write(`${geodata.unavailableReason()}\nBuilding it now from the installed npm packages (once).\n`);
  try {
    const summary = await buildWorldPack(geodata.dataDir);
    process.stdout.write(`${formatImportSummary(summary)}\n`);
    await geodata.reload();
  } catch (err) {
    process.stderr.write(`Building the world data pack failed: ${(err as Error).message}\n`);
    process.stderr.write(
      'Serving without reference data; geodata endpoints answer 503 until `import world` succeeds.\n',
    );
  }
}
