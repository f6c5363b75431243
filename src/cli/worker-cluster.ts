import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';

/** A worker that dies this soon after starting counts as failing to start, not as a crash to replace. */
const QUICK_EXIT_MS = 10_000;
const MAX_QUICK_EXITS = 3;

/**
 * The primary of `WORKERS=N`: forks N API processes that share the port (Node's cluster hands each
 * new connection to the next worker), replaces one that crashes, and stops them all on SIGINT or
 * SIGTERM. Each worker composes the whole app (store, indexes, pack) over the one PostgreSQL
 * database, which tells each of the others' writes (LISTEN/NOTIFY); `serve` refuses WORKERS on SQLite.
 */
export function superviseWorkers(config: Config): Promise<number> {
  let stopping = false;
  let quickExits = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());
  return new Promise((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      if (stopping) {
        if (startedAt.size === 0) resolve(0);
        return;
      }
      process.stderr.write(`API worker ${worker.process.pid} exited (${signal ?? `code ${code}`})\n`);
      if (lived < QUICK_EXIT_MS && ++quickExits >= MAX_QUICK_EXITS) {
        process.stderr.write('API workers keep exiting at start-up; stopping.\n');
        stop();
        if (startedAt.size === 0) resolve(1);
        return;
      }
      fork();
    });
    const stop = () => {
      stopping = true;
      for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    for (let i = 0; i < config.workers; i++) fork();
  });
}
