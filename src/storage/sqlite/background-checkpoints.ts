import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the WAL's new pages into the database file. */
const CHECKPOINT_INTERVAL_MS = 100;

// Plain CommonJS, so the worker needs no TypeScript loader. PASSIVE never waits for the writer and never
// blocks it: it copies what is committed, and the writer restarts the WAL once everything is copied.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
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

  constructor(file: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // The worker runs plain JavaScript: no need for the parent's TypeScript loader flags.
      execArgv: [],
      workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS },
    });
    // A failing checkpointer must not take the server down: commits fall back to checkpointing
    // themselves (the connection keeps a `wal_autocheckpoint` threshold).
    this.worker.on('error', () => {});
    this.worker.once('exit', () => {
      this.exited = true;
    });
    this.worker.unref();
  }

  /** Copies what is left, closes the worker's connection and ends the thread. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      this.worker.once('exit', () => resolve());
      this.worker.once('message', () => void this.worker.terminate());
      this.worker.postMessage('close');
    });
    return this.closed;
  }
}
