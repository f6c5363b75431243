export interface UsageStore {
  /** Adds request counts, keyed by project, environment, endpoint and month (`YYYY-MM`). */
  add(rows: Array<{ projectId: string; live: boolean; endpoint: string; month: string; count: number }>): Promise<void>;
  /** The project's total for the month, both environments. */
  monthTotal(projectId: string, month: string): Promise<number>;
  monthTable(projectId: string, month: string): Promise<Array<{ live: boolean; endpoint: string; count: number }>>;
}
