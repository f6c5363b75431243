import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Sites printed for a row: the rest are summed into one line. */
const TOP = 12;

/**
 * BENCH_ALLOC=1 (or `all`): the bench's side of bench/lib/alloc-probe.ts. `start` asks each API
 * process to sample its allocations; `report` stops it, waits for its sites and prints the bytes a
 * request of each, largest first. The profiler costs the server CPU (a row runs slower with it).
 */
export class AllocWatch {
  private constructor(private readonly pids: readonly number[]) {}

  static start(pids: readonly number[] | undefined): AllocWatch | null {
    const dir = process.env.BENCH_ALLOC_DIR;
    if (!dir || !pids?.length) return null;
    for (const pid of pids) fs.writeFileSync(path.join(dir, `${pid}.start`), '');
    return new AllocWatch(pids);
  }

  async report(requests: number): Promise<string> {
    const dir = process.env.BENCH_ALLOC_DIR!;
    const sites = new Map<string, number>();
    for (const pid of this.pids) {
      fs.writeFileSync(path.join(dir, `${pid}.stop`), '');
      const file = path.join(dir, `${pid}.alloc.json`);
      const deadline = Date.now() + 30_000;
      while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (!fs.existsSync(file)) return `process ${pid} wrote no allocation profile within 30 s`;
      for (const [site, bytes] of Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>))
        sites.set(site, (sites.get(site) ?? 0) + bytes);
      fs.rmSync(file);
    }
    const what = process.env.BENCH_ALLOC === 'all' ? 'allocated' : 'outlived a scavenge';
    return allocTable(sites, requests, what);
  }
}

/** The lines `report` prints: the total a request, then the largest sites. */
export function allocTable(sites: ReadonlyMap<string, number>, requests: number, what: string): string {
  const perRequest = (bytes: number) => Math.round(bytes / Math.max(1, requests)).toLocaleString('en-US');
  const sorted = [...sites].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((n, [, b]) => n + b, 0);
  const share = (bytes: number) => `${((100 * bytes) / Math.max(1, total)).toFixed(1)}%`;
  const lines = [`bytes a request that ${what}: ${perRequest(total)} (sampled)`];
  for (const [site, bytes] of sorted.slice(0, TOP))
    lines.push(`  ${perRequest(bytes).padStart(7)} B ${share(bytes).padStart(6)}  ${site}`);
  const rest = sorted.slice(TOP).reduce((n, [, b]) => n + b, 0);
  if (rest > 0)
    lines.push(`  ${perRequest(rest).padStart(7)} B ${share(rest).padStart(6)}  (${sorted.length - TOP} other sites)`);
  return lines.join('\n');
}

/**
 * The Node flags that import the probe into a bench server (the product's or a floor server), when
 * BENCH_ALLOC is on; tsx first, as the probe is TypeScript.
 */
export function allocProbeArgs(): string[] {
  if (!process.env.BENCH_ALLOC_DIR) return [];
  return ['--import', 'tsx', '--import', fileURLToPath(new URL('./alloc-probe.ts', import.meta.url))];
}

/** The folder the probe and the bench exchange files in, made once per bench run (removed at exit). */
export function allocDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-bench-alloc-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
