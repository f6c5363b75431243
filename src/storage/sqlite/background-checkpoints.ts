import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the worker copies the WAL's new pages into the database file. A page written again between
 * two copies is copied once: tracks write a few pages each at random places of the membership and
 * device indexes, and every 250 ms instead of 100 the track row with Places, Regions and Insights ran
 * 3% faster at the same p99 (2026-11-28, alternating runs); every 500 or 1,000 ms it ran 5-10% faster
 * but its p99 rose from ~80 to 120-190 ms (the copy's larger fsync slowing the writer's WAL writes).
 */
const CHECKPOINT_INTERVAL_MS = 250;

/**
 * WAL length (pages; 128 MB) past which the worker also restarts the log. Commits checkpoint themselves
 * only past `WAL_FALLBACK_CHECKPOINT_PAGES`, should this worker fall behind or stop.
 *
 * A RESTART holds the write lock while it copies the pages committed since the PASSIVE copy and syncs
 * the WAL and the database file: 10-30 ms on the AMD VM, in which every commit waits. At 5,000 upserts
 * a second the WAL grows by about 16,000 pages a second, so 4,000 pages meant such a wait every
 * quarter second; 32,000 every two seconds (paired paced-PUT runs, session 15: requests over 10 ms
 * 1,327-1,730 against 1,661-5,375 in 10 s, CPU 146-153 against 155-196 µs a PUT). Larger was not
 * better: at 128,000 the growing file's syncs cost more than the restarts saved.
 */
const RESTART_AT_PAGES = 32_000;
export const WAL_FALLBACK_CHECKPOINT_PAGES = 2 * RESTART_AT_PAGES;

/** New pages in the WAL since the last copy below which the RESTART may take the lock. */
const CAUGHT_UP_PAGES = 100;
/** At most this many more PASSIVE copies before a RESTART, should writes outpace them. */
const CATCH_UP_PASSES = 4;

/** The code of the process warning emitted when the checkpointing thread fails. */
export const CHECKPOINTS_STOPPED = 'WHEREABOUTS_CHECKPOINTS_STOPPED';

// Plain CommonJS, so the worker needs no TypeScript loader. PASSIVE never waits for the writer and never
// blocks it: it copies what is committed. A writer restarts the WAL only when it begins with every
// page copied, which under steady writes never happens (commits land while the copy syncs), so the WAL
// would grow until a commit checkpointed it itself, on the event loop: 10-16 ms every ~280 ms at 5,000
// upserts/s, most of it fsync (2026-11-26, perf trace). Past RESTART_AT_PAGES a RESTART checkpoint
// takes the write lock when it is free (no busy timeout: it never waits) to copy the last pages, so
// that the next writer starts the WAL over.
//
// Every commit waits while the RESTART holds the lock, and it holds it for as long as it takes to copy
// and sync what the PASSIVE before it did not: at 7,000 tracks/s the pages committed during that
// PASSIVE's own 20-65 ms, 600-1,700 of them, a 19-43 ms hold (2026-11-29). So more PASSIVE copies come
// first, each of what the last one missed, until one finds fewer than CAUGHT_UP_PAGES new pages (or
// after CATCH_UP_PASSES): the RESTART then mostly held the lock 0-5 ms.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const passive = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const checkpoint = () => {
  try {
    let pass = passive();
    if (!pass || pass.log < workerData.restartAt) return;
    for (let i = 0; i < workerData.catchUpPasses; i++) {
      const next = passive();
      const grew = next.log - pass.log;
      pass = next;
      if (grew < workerData.caughtUpPages) break;
    }
    db.pragma('wal_checkpoint(RESTART)');
  } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('closed');
});
`;

/**
 * Checkpoints a WAL database from a worker thread, with its own connection. SQLite otherwise
 * checkpoints inside the commit that fills the WAL past `wal_autocheckpoint` pages, on the event
 * loop: reading those pages back and writing them into the database file cost a track about a quarter
 * of its CPU (2026-11-22 profile). Here a page written by many commits between two checkpoints is
 * copied once, and the copying happens beside the requests instead of inside one of them.
 */
export class BackgroundCheckpoints {
  private readonly worker: Worker;
  private closed: Promise<void> | undefined;
  private exited = false;

  /** `restartAtPages`: the WAL length past which the log is restarted; `intervalMs`: how often (tests set both low). */
  constructor(
    file: string,
    {
      restartAtPages = RESTART_AT_PAGES,
      intervalMs = CHECKPOINT_INTERVAL_MS,
    }: { restartAtPages?: number; intervalMs?: number } = {},
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // The worker runs plain JavaScript: no need for the parent's TypeScript loader flags.
      execArgv: [],
      workerData: {
        file,
        driver,
        intervalMs,
        restartAt: restartAtPages,
        caughtUpPages: CAUGHT_UP_PAGES,
        catchUpPasses: CATCH_UP_PASSES,
      },
    });
    // A failing checkpointer must not take the server down: commits fall back to checkpointing
    // themselves (the connection keeps a `wal_autocheckpoint` threshold). Said on stderr all the
    // same: under load each such commit then stalls every write for ~200 ms every few seconds, which
    // two benchmark sessions took for a slow disk before finding the thread dead.
    this.worker.on('error', (err) =>
      process.emitWarning(
        `SQLite background checkpoints stopped (${err.message}); commits now checkpoint the WAL themselves, in long stalls under load`,
        { code: CHECKPOINTS_STOPPED },
      ),
    );
    this.worker.once('exit', () => {
      this.exited = true;
    });
    this.worker.unref();
  }

  /** Copies what is left, closes the worker's connection and ends the thread. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      // Held while it finishes: an unreferenced thread let a process with nothing else to do end
      // before the last checkpoint, with `close` never settled.
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      this.worker.once('message', () => void this.worker.terminate());
      this.worker.postMessage('close');
    });
    return this.closed;
  }
}
