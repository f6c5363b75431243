import { readdirSync, readFileSync } from 'node:fs';

/**
 * BENCH_THREADS=1: how the API processes' threads spent a saturated row, from the scheduler's own
 * counts (`/proc/<pid>/task/<tid>/schedstat`: nanoseconds on a CPU, nanoseconds runnable but waiting
 * for one). On two cores a batch sent to PostgreSQL or a response written to wrk wakes another
 * thread, which may take the sender's core: the sender then waits
 * while runnable, and a CPU profile books that wait to whatever call it was in (session 32: pg's
 * socket write, 21.6% of the event loop, was mostly this). The event loop's thread is the process's
 * first (its tid is the pid); the others are summed.
 */
export class ThreadWaits {
  private constructor(
    private readonly pids: readonly number[],
    private readonly before: Map<string, Schedstat>,
    private readonly startedAt: bigint,
  ) {}

  /** Null (and why, on stderr) where the kernel does not keep the counts. */
  static start(pids: readonly number[] | undefined): ThreadWaits | null {
    if (!pids?.length) return null;
    const before = readAll(pids);
    if (before === null) {
      process.stderr.write('BENCH_THREADS: no /proc/<pid>/task/<tid>/schedstat here, nothing counted\n');
      return null;
    }
    return new ThreadWaits(pids, before, process.hrtime.bigint());
  }

  /** One line: per process, the event loop's thread and the others, as shares of the row's wall time. */
  report(): string {
    const after = readAll(this.pids) ?? new Map<string, Schedstat>();
    const wallNs = Number(process.hrtime.bigint() - this.startedAt);
    const pct = (ns: number) => `${Math.round((100 * ns) / wallNs)}%`;
    const parts = this.pids.map((pid) => {
      const main = { run: 0, wait: 0 };
      const rest = { run: 0, wait: 0 };
      for (const [key, now] of after) {
        const [p, tid] = key.split('/');
        if (p !== String(pid)) continue;
        const was = this.before.get(key) ?? { run: 0, wait: 0 };
        const into = tid === String(pid) ? main : rest;
        into.run += now.run - was.run;
        into.wait += now.wait - was.wait;
      }
      return `process ${pid}: event loop on a CPU ${pct(main.run)}, waiting for one ${pct(main.wait)}; other threads on a CPU ${pct(rest.run)}, waiting ${pct(rest.wait)}`;
    });
    return parts.join('; ');
  }
}

interface Schedstat {
  run: number;
  wait: number;
}

/** Every thread's counts by `<pid>/<tid>`; null when /proc does not have them. */
function readAll(pids: readonly number[]): Map<string, Schedstat> | null {
  const out = new Map<string, Schedstat>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return null;
    }
    for (const tid of tids) {
      try {
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        out.set(`${pid}/${tid}`, { run: run!, wait: wait! });
      } catch {
        // Ended since the listing, or no schedstat on this kernel (then no thread has one).
      }
    }
  }
  return out.size > 0 ? out : null;
}
