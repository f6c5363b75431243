import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

/** User + system CPU ticks so far of some processes, by pid (Linux `/proc`). */
export type Ticks = Map<string, number>;

/** User + system CPU ticks of one process so far; throws where /proc does not tell. */
function ticksOf(pid: number | string): number {
  // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The processes' ticks, or null where /proc does not tell (not Linux). */
export function processTicks(pids: readonly number[] | undefined): Ticks | null {
  if (!pids?.length) return null;
  try {
    return new Map(pids.map((pid) => [String(pid), ticksOf(pid)]));
  } catch {
    return null;
  }
}

/**
 * The ticks of every process of this machine named `command` (e.g. `postgres`: the server, its
 * backends and its background writers); null when there is none or /proc does not tell.
 */
export function commandTicks(command: string): Ticks | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const ticks: Ticks = new Map();
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command) ticks.set(pid, ticksOf(pid));
    } catch {
      // Gone since the listing.
    }
  }
  return ticks.size > 0 ? ticks : null;
}

/**
 * Ticks spent between two readings (null when either is missing): each process's growth, a new one's
 * whole count. A process that exited in between (an autovacuum worker, say) took its ticks with it, so
 * this is a lower bound.
 */
export function ticksBetween(before: Ticks | null, after: Ticks | null): number | null {
  if (before === null || after === null) return null;
  let ticks = 0;
  for (const [pid, now] of after) ticks += Math.max(0, now - (before.get(pid) ?? 0));
  return ticks;
}
