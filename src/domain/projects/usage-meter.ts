import type { UsageStore } from '../ports/usage-store.js';

/** `YYYY-MM` of a time, UTC: usage and quotas are per calendar month. */
export function monthOf(ms: number): string {
  // Every request is counted: the month's bounds are kept rather than formatting a date each time.
  if (ms >= lastMonth.from && ms < lastMonth.until) return lastMonth.month;
  const d = new Date(ms);
  const month = d.toISOString().slice(0, 7);
  d.setUTCDate(1);
  d.setUTCHours(0, 0, 0, 0);
  const from = d.getTime();
  d.setUTCMonth(d.getUTCMonth() + 1);
  lastMonth = { from, until: d.getTime(), month };
  return month;
}

let lastMonth = { from: 0, until: 0, month: '' };

/**
 * Counts requests per project, environment, endpoint and month in memory and adds them to the store
 * about once a second, so counting costs a map update on the hot path, not a write.
 */
export class UsageMeter {
  private pending = new Map<
    string,
    { projectId: string; live: boolean; endpoint: string; month: string; count: number }
  >();
  private readonly totals = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: UsageStore,
    flushEveryMs = 1000,
  ) {
    // A failed flush (the database is unreachable) keeps its counts for the next one; the outage
    // itself is reported by /readyz and by the requests that need the store.
    this.timer = setInterval(() => this.flush().catch(() => {}), flushEveryMs);
    this.timer.unref();
  }

  count(projectId: string, live: boolean, endpoint: string, now: number): void {
    const month = monthOf(now);
    const key = `${projectId}|${live}|${endpoint}|${month}`;
    const row = this.pending.get(key);
    if (row) row.count++;
    else this.pending.set(key, { projectId, live, endpoint, month, count: 1 });
    const totalKey = `${projectId}|${month}`;
    const total = this.totals.get(totalKey);
    if (total !== undefined) this.totals.set(totalKey, total + 1);
  }

  /** Requests so far this month, both environments, including those not yet flushed. */
  async monthTotal(projectId: string, now: number): Promise<number> {
    const month = monthOf(now);
    const key = `${projectId}|${month}`;
    let total = this.totals.get(key);
    if (total === undefined) {
      total = await this.store.monthTotal(projectId, month);
      for (const r of this.pending.values()) if (r.projectId === projectId && r.month === month) total += r.count;
      this.totals.set(key, total);
    }
    return total;
  }

  /**
   * The month's counts per environment and endpoint, including those not yet flushed (so a reader
   * sees the request it just made counted).
   */
  async monthTable(
    projectId: string,
    month: string,
  ): Promise<Array<{ live: boolean; endpoint: string; count: number }>> {
    const rows = await this.store.monthTable(projectId, month);
    for (const p of this.pending.values()) {
      if (p.projectId !== projectId || p.month !== month) continue;
      const row = rows.find((r) => r.live === p.live && r.endpoint === p.endpoint);
      if (row) row.count += p.count;
      else rows.push({ live: p.live, endpoint: p.endpoint, count: p.count });
    }
    return rows;
  }

  /** Counts waiting for the next flush (rows of project, environment, endpoint and month): the metrics' backlog. */
  get pendingRows(): number {
    return this.pending.size;
  }

  /** Adds the pending counts to the store; when that fails they stay pending, added to later ones. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const flushing = this.pending;
    this.pending = new Map();
    try {
      await this.store.add([...flushing.values()]);
    } catch (err) {
      for (const [key, row] of flushing) {
        const later = this.pending.get(key);
        if (later) later.count += row.count;
        else this.pending.set(key, row);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
