import fs from 'node:fs';
import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/**
 * BENCH_STALLS=1: imported into each bench server (`--import`, bench/lib/server-process.ts), it
 * appends to the file `BENCH_STALLS_FILE` a line for each pause of the server's event loop: garbage
 * collections over 2 ms (V8's own timing, by kind) and turns of the loop that came over 4 ms late (a
 * 1 ms timer: a long callback, a pause V8 does not report, or the thread waiting for a CPU). Each
 * line: epoch ms with a fraction, the process id, what, ms. A fixed-rate row reads them back beside
 * its slow quarter seconds (fixed-rate-load.ts), which tells a tail made by collections from one made
 * by other work. The timer wakes the loop 1,000 times a second: the row's CPU is a little higher with it.
 * Beside each tick whose turns held the loop thread on a CPU over 4 ms, a `busy` line gives that time:
 * on a loaded machine a turn comes late by much more than its own work, as the thread waits for a CPU.
 */
const file = process.env.BENCH_STALLS_FILE;
if (file && isMainThread) {
  const fd = fs.openSync(file, 'a');
  const write = (what: string, ms: number, at = performance.timeOrigin + performance.now()) =>
    fs.writeSync(fd, `${at.toFixed(1)} ${process.pid} ${what} ${ms.toFixed(1)}\n`);
  let last = performance.now();
  const loopCpuMs = loopCpuClock();
  let lastCpu = loopCpuMs();
  setInterval(() => {
    const now = performance.now();
    const late = now - last - 1;
    last = now;
    if (late > 4) write('late', late);
    const cpu = loopCpuMs();
    if (cpu - lastCpu > 4) write('busy', cpu - lastCpu);
    lastCpu = cpu;
  }, 1).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 2) write(gcKind(e), e.duration, performance.timeOrigin + e.startTime);
  }).observe({ entryTypes: ['gc'] });
}

/** The kinds Node names (`perf_hooks.constants.NODE_PERFORMANCE_GC_*`). */
const GC_KINDS = new Map<number, string>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'scavenge'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'mark-compact'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental-marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak-callbacks'],
]);

function gcKind(e: PerformanceEntry): string {
  const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
  return (kind !== undefined && GC_KINDS.get(kind)) || 'gc';
}

/**
 * A clock of the time this thread (the event loop's) has spent on a CPU, in ms, from the kernel's
 * count (`/proc/thread-self/schedstat`, Linux), to within its tick (4 ms at 250 Hz); 0 where there is none.
 */
function loopCpuClock(): () => number {
  let fd: number;
  try {
    fd = fs.openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return () => 0;
  }
  const text = Buffer.alloc(64);
  return () => Number(text.toString('latin1', 0, fs.readSync(fd, text, 0, text.length, 0)).split(' ')[0]) / 1e6;
}
