import fs from 'node:fs';

/** A pause of a bench server's event loop, as bench/lib/stall-probe.ts writes it. */
export interface Pause {
  /** Epoch ms. */
  at: number;
  what: string;
  ms: number;
}

/**
 * BENCH_TIMELINE=1: each quarter second of a fixed-rate row's measured part in which any request took
 * over 10 ms, with how many and the slowest, to stderr: tells a steady tail from one stall and its
 * backlog. With BENCH_STALLS=1 each such quarter also names the servers' longest pauses from 100 ms
 * before it to its end, and a last line sums the pauses of the measured part by kind. `due` and
 * `start` are this process's `performance.now()` times.
 */
export function printSlowQuarters(due: Float64Array, latencies: Float64Array, start: number, seconds: number): void {
  const quarters = new Map<number, { slow: number; max: number }>();
  for (let i = 0; i < due.length; i++) {
    if (latencies[i]! <= 10) continue;
    const q = Math.floor((due[i]! - start) / 250);
    const seen = quarters.get(q) ?? { slow: 0, max: 0 };
    seen.slow++;
    seen.max = Math.max(seen.max, latencies[i]!);
    quarters.set(q, seen);
  }
  const epochStart = performance.timeOrigin + start;
  const pauses = readPauses(epochStart, epochStart + seconds * 1000);
  for (const [q, { slow, max }] of [...quarters].sort((a, b) => a[0] - b[0])) {
    const from = epochStart + q * 250;
    const near = pauses
      .filter((p) => p.at >= from - 100 && p.at < from + 250)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 4)
      .map((p) => `${p.what} ${p.ms.toFixed(1)}`);
    const said = near.length ? `; pauses: ${near.join(', ')}` : process.env.BENCH_STALLS_FILE ? '; no pause' : '';
    process.stderr.write(
      `  ${(q / 4).toFixed(2)} s: ${slow} requests over 10 ms, slowest ${max.toFixed(1)} ms${said}\n`,
    );
  }
  if (!process.env.BENCH_STALLS_FILE) return;
  const byKind = new Map<string, { n: number; total: number; max: number }>();
  for (const p of pauses) {
    const k = byKind.get(p.what) ?? { n: 0, total: 0, max: 0 };
    k.n++;
    k.total += p.ms;
    k.max = Math.max(k.max, p.ms);
    byKind.set(p.what, k);
  }
  const kinds = [...byKind].map(
    ([what, k]) => `${what} ${k.n} (${k.total.toFixed(0)} ms, longest ${k.max.toFixed(1)})`,
  );
  process.stderr.write(`  pauses over the measured part: ${kinds.join(', ') || 'none'}\n`);
}

/** The pauses the servers wrote (BENCH_STALLS_FILE) that began within [from, to), epoch ms. */
export function readPauses(from: number, to: number): Pause[] {
  const file = process.env.BENCH_STALLS_FILE;
  if (!file || !fs.existsSync(file)) return [];
  const pauses: Pause[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const [at, , what, ms] = line.split(' ');
    const t = Number(at);
    if (what !== undefined && t >= from && t < to) pauses.push({ at: t, what, ms: Number(ms) });
  }
  return pauses;
}
