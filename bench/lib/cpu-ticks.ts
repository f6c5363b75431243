import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

/** User + system CPU ticks of one process so far (Linux `/proc`); throws where /proc does not tell. */
function ticksOf(pid: number | string): number {
  // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks of the processes so far, or null where /proc does not tell (not Linux). */
export function cpuTicks(pids: number[] | undefined): number | null {
  if (!pids?.length) return null;
  try {
    let ticks = 0;
    for (const pid of pids) ticks += ticksOf(pid);
    return ticks;
  } catch {
    return null;
  }
}

/** CPU ticks so far of each process of this machine named `command`, by pid. */
export type CommandTicks = Map<string, number>;

/**
 * CPU ticks so far of every process of this machine named `command` (e.g. `postgres`: the server, its
 * backends and its background writers), by pid; null when there is none or /proc does not tell.
 */
export function commandCpuTicks(command: string): CommandTicks | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const ticks: CommandTicks = new Map();
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
 * Ticks spent between two readings: each process's growth, a new one's whole count. A process that
 * exited in between (an autovacuum worker, say) took its ticks with it, so this is a lower bound.
 */
export function commandTicksBetween(before: CommandTicks, after: CommandTicks): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += Math.max(0, now - (before.get(pid) ?? 0));
  return ticks;
}
