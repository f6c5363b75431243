import { openStore } from '../compose.js';
import type { Config } from '../config.js';
import { systemClock } from '../domain/clock.js';
import type { Store } from '../domain/ports/store.js';
import type { Project } from '../domain/projects/project.js';
import { ProjectService } from '../domain/projects/project-service.js';
import { EXPORT_FORMATS, type ExportFormat, exportWriter } from './export/export-formats.js';
import { EXPORT_KINDS, type ExportKind, exportPages } from './export/export-sources.js';
import { parseFlags, refuseUnknownFlags } from './flags.js';
import type { ProgressOutput } from './progress-bar.js';

const USAGE =
  'export <project> events|users|trips|locations [--from <date>] [--to <date>] [--format ndjson|csv|parquet] [--live] --out <file>';

/**
 * `export <project> <kind> --from --to --format --out`: streams a project's events, users, trips or
 * trip locations to a file, a page of the store at a time (constant memory), with a progress bar on
 * stderr. Prints the rows written and the rate on stdout.
 */
export async function exportCommand(config: Config, args: string[]): Promise<number> {
  const { positional, flags } = parseFlags(args);
  let request: ExportRequest;
  try {
    request = exportRequest(positional, flags, Date.now());
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\nUsage: npm run cli -- ${USAGE}\n`);
    return 2;
  }
  const store = await openStore(config);
  try {
    const project = await new ProjectService(store.projects, systemClock).find(request.project);
    if (!project) {
      process.stderr.write(`No project named "${request.project}".\n`);
      return 1;
    }
    const { rows, seconds } = await runExport(store, project, request);
    process.stdout.write(
      `${rows} ${request.kind} written to ${request.out} (${request.format}) in ${seconds.toFixed(1)} s, ${Math.round(rows / Math.max(seconds, 0.001))} rows/s\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** Writes the export to its file; returns the rows written and the seconds it took. */
export async function runExport(
  store: Store,
  project: Project,
  request: ExportRequest,
  out: ProgressOutput = process.stderr,
  opts: { pageSize?: number; now?: number } = {},
): Promise<{ rows: number; seconds: number }> {
  const started = Date.now();
  const writer = exportWriter(request.format, request.kind, request.out);
  const progress = exportProgress(`export ${request.kind}`, request.from, request.to, out);
  let rows = 0;
  try {
    const tenant = { projectId: project.id, live: request.live };
    for await (const page of exportPages(
      store,
      project,
      tenant,
      request.kind,
      request.from,
      request.to,
      opts.now ?? Date.now(),
      opts.pageSize,
    )) {
      await writer.write(page.records);
      rows += page.records.length;
      progress(rows, page.reached);
    }
  } finally {
    await writer.close();
  }
  progress(rows, request.from, true);
  return { rows, seconds: (Date.now() - started) / 1000 };
}

export interface ExportRequest {
  project: string;
  kind: ExportKind;
  from: number;
  to: number;
  format: ExportFormat;
  live: boolean;
  out: string;
}

/** Checks the command line; throws with a message naming the flag. */
export function exportRequest(positional: string[], flags: Record<string, string | true>, now: number): ExportRequest {
  refuseUnknownFlags(flags, ['from', 'to', 'format', 'live', 'out'], 'export');
  const [project, kind] = positional;
  if (!project) throw new Error('export needs a project name.');
  if (!EXPORT_KINDS.includes(kind as ExportKind))
    throw new Error(`export: what to export must be one of ${EXPORT_KINDS.join(', ')}, not "${kind ?? ''}".`);
  const time = (flag: string, fallback: number): number => {
    const v = flags[flag];
    if (v === undefined) return fallback;
    const t = v === true ? Number.NaN : Date.parse(v);
    if (Number.isNaN(t))
      throw new Error(`--${flag} must be a date or an ISO 8601 time, such as 2026-01-31 or 2026-01-31T12:00:00Z.`);
    return t;
  };
  const from = time('from', 0);
  const to = time('to', now + 1);
  if (to <= from) throw new Error('--to must be after --from.');
  const format = (flags.format ?? 'ndjson') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new Error(`--format must be ${EXPORT_FORMATS.join(', ')}.`);
  if (typeof flags.out !== 'string') throw new Error('--out needs the file to write.');
  return { project, kind: kind as ExportKind, from, to, format, live: flags.live !== undefined, out: flags.out };
}

const WIDTH = 24;

/**
 * A progress bar over the time range (the export walks it from `to` back to `from`), with the rows so
 * far: redrawn in place on a terminal, a line at most every two seconds otherwise.
 */
function exportProgress(title: string, from: number, to: number, out: ProgressOutput = process.stderr) {
  const started = Date.now();
  let printed = 0;
  return (rows: number, reached: number, done = false): void => {
    const now = Date.now();
    if (!done && !out.isTTY && now - printed < 2000) return;
    printed = now;
    const share = Math.min(1, Math.max(0, (to - reached) / (to - from)));
    const filled = done ? WIDTH : Math.round(WIDTH * share);
    const line = `${title} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${done ? 100 : Math.round(share * 100)}% ${rows} rows (${((now - started) / 1000).toFixed(1)} s)`;
    if (out.isTTY) out.write(`\r\x1b[K${line}${done ? '\n' : ''}`);
    else out.write(`${line}\n`);
  };
}
