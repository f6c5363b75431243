import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One request of a wrk run, in its final form. */
export interface WrkRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkOptions {
  url: string;
  /** Cycled in order; a list longer than a run's requests never repeats one. */
  requests: WrkRequest[];
  connections: number;
  durationSeconds: number;
}

export interface WrkResult {
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** wrk's CPU time over the measured part, µs (its start-up, which formats every request, left out). */
  loadCpuUs: number;
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk-requests.lua');

let available: boolean | undefined;

/**
 * Whether saturated loads run on wrk (Debian's `wrk`, on PATH) rather than autocannon. The load generator
 * shares the server's two cores: autocannon spends several times wrk's CPU per request (the same server,
 * GET /v1/config: ~14,000 req/s under autocannon, ~27,000 under wrk on one machine and minute), so under
 * autocannon the req/s column measures the generator as much as the server. `BENCH_LOADGEN=autocannon`
 * keeps autocannon, as runs before 2026-11-25 did.
 */
export function useWrk(): boolean {
  if (process.env.BENCH_LOADGEN === 'autocannon') return false;
  if (available === undefined) {
    available = spawnSync('wrk', ['--version']).error === undefined;
    if (!available)
      process.stderr.write(
        'bench: wrk is not installed (apt-get install wrk), so saturated rows use autocannon, whose own CPU per request lowers them\n',
      );
  }
  return available;
}

/** Runs wrk (one thread, `connections` sockets) over the requests for `durationSeconds`. */
export async function wrkLoad(opts: WrkOptions): Promise<WrkResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-wrk-'));
  try {
    const file = path.join(dir, 'requests.tsv');
    fs.writeFileSync(file, opts.requests.map(line).join(''));
    const args = ['-t1', `-c${opts.connections}`, `-d${opts.durationSeconds}s`, '--timeout', '10s'];
    const out = await run('wrk', [...args, '-s', SCRIPT, opts.url, '--', file]);
    const marker = out.indexOf('WRK_RESULT ');
    if (marker < 0) throw new Error(`wrk printed no result:\n${out}`);
    const r = JSON.parse(out.slice(marker + 'WRK_RESULT '.length).split('\n')[0]!) as {
      requests: number;
      durationUs: number;
      p50Us: number;
      p99Us: number;
      errors: number;
      cpuS: number;
    };
    const initCpuS = Number(/WRK_INIT_CPU ([\d.]+)/.exec(out)?.[1] ?? 0);
    return {
      requests: r.requests,
      reqPerSec: Math.round(r.requests / (r.durationUs / 1e6)),
      p50Ms: Math.round(r.p50Us / 100) / 10,
      p99Ms: Math.round(r.p99Us / 100) / 10,
      errors: r.errors,
      loadCpuUs: Math.round((r.cpuS - initCpuS) * 1e6),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The script's line format; JSON bodies and the bench's paths and headers hold no tab or newline. */
function line(r: WrkRequest): string {
  const headers = Object.entries(r.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\x1f');
  const text = `${r.method}\t${r.path}\t${headers}\t${r.body ?? ''}`;
  if (/[\n\r]/.test(text) || text.split('\t').length !== 4)
    throw new Error(`wrk request has a tab or newline: ${text.slice(0, 200)}`);
  return `${text}\n`;
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} failed: ${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}
