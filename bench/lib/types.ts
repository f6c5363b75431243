/** What every scenario gets: a running server (its own process) and a project's keys. */
export interface BenchContext {
  url: string;
  /** Every API process's URL when several share one store (`--processes N`); load is split across them. */
  urls?: string[];
  dataDir: string;
  keys: { publishable: string; secret: string };
  /** Seconds each measured load runs. */
  durationSeconds: number;
  connections: number;
  /** The API processes' pids, to charge their CPU time to each measurement (Linux `/proc`). */
  serverPids?: number[];
  /** The store the API processes run on. */
  store: 'sqlite' | 'postgres';
  /**
   * The store is a PostgreSQL server on this machine: each measurement also reads the CPU time of its
   * processes, the part of a request that does not scale out with API processes.
   */
  localDatabase?: boolean;
  /** Runs the project's CLI against the server's DATA_DIR (e.g. imports for seeding). */
  cli(args: string[]): Promise<string>;
}

export interface BenchResult {
  name: string;
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx responses during the run; a benchmark with errors is not a result. */
  errors: number;
  /**
   * CPU time the API processes spent per request (user + system, µs), when `/proc` tells. Unlike req/s
   * it hardly depends on what else loads the machine, so runs on a busy machine stay comparable.
   */
  serverCpuUsPerReq?: number;
  /** The same for the local PostgreSQL server's processes (`BenchContext.localDatabase`). */
  databaseCpuUsPerReq?: number;
  /**
   * The same for the load generator, on saturated wrk rows: it shares the two cores, so a row's
   * req/s is bounded by all three columns together.
   */
  loadCpuUsPerReq?: number;
  /** Not loaded: its name does not contain `BENCH_ROWS`. */
  skipped?: boolean;
}

export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<BenchResult[]>;
}
