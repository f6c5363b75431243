import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { WAL_FALLBACK_CHECKPOINT_PAGES } from './background-checkpoints.js';
import type { CommitChanges } from './commit-changes.js';
import { COMMIT_LOG_INSERT, COMMIT_LOG_KEEP_MS, COMMIT_LOG_PRUNE, COMMIT_LOG_PRUNE_EVERY } from './open-database.js';
import type { OwnCommits } from './own-commits.js';
import { CHANGE_COUNTER_OFFSET } from './wal-index-watch.js';
import type { OpsCommitter, WriteOp } from './write-ops.js';

// Plain CommonJS, so the worker needs no TypeScript loader. Units that arrive while a transaction
// runs wait in the port and are committed together next turn (group commit, as GroupCommit does on
// the event loop). A unit that throws is undone alone: the batch is redone with a savepoint per
// unit. Checkpoints are another thread's (BackgroundCheckpoints): here they stopped every commit
// for the 10-20 ms each took.
//
// The write lock is waited for here, not in SQLite's busy handler: that one sleeps 1, 2, 5, 10, 15,
// 20, 25 ms in turn and looks again only after each sleep, so a checkpoint's restart that held the lock
// for 20 ms kept every commit waiting 33 (WAL restarts, 2026-11-29: commits that waited 32-64 ms to
// begin, one or two every two seconds, against holds of 19-43 ms). This thread may block, so it asks
// again every LOCK_POLL_MS until the lock is free or LOCK_WAIT_MS have passed.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const pause = new Int32Array(new SharedArrayBuffer(4));
const begin = () => {
  const giveUpAt = Date.now() + workerData.lockWaitMs;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (err) {
      if (!err || err.code !== 'SQLITE_BUSY' || db.inTransaction || Date.now() > giveUpAt) throw err;
      Atomics.wait(pause, 0, 0, workerData.lockPollMs);
    }
  }
};
// SQLite's default 2 MB page cache, not the 64 MB the event loop's connection keeps: with 64 MB the
// end of every commit spent ~10% of this thread's CPU walking the cache's hash table
// (pcache1TruncateUnsafe, perf, 2026-11-28); pages it misses come from the OS cache (mapped file or WAL).
db.pragma('mmap_size = 1073741824');
db.pragma('wal_autocheckpoint = ' + workerData.autocheckpoint);
// Statements by the number the event loop gave their text (see WriterThread.post); prepared on first
// use, inside the unit that uses it, so that a statement that does not prepare fails only that unit.
const texts = [];
const prepared = [];
const statement = (id) => prepared[id] ?? (prepared[id] = db.prepare(texts[id]));
// A unit's ops arrive flat: statement number, then its parameters (an array, or an object of named ones).
const runOps = (ops) => {
  for (let i = 0; i < ops.length; i += 2) {
    const params = ops[i + 1];
    if (Array.isArray(params)) statement(ops[i]).run(...params);
    else statement(ops[i]).run(params);
  }
};
const logInsert = db.prepare(workerData.logInsert);
const logPrune = db.prepare(workerData.logPrune);
let commits = 0;
const logCommit = (changes) => {
  const now = Date.now();
  logInsert.run(workerData.writer, now, changes);
  if (++commits % workerData.pruneEvery === 0) logPrune.run(now - workerData.keepMs);
};
// What the units change, one line each, as commit-changes.ts reads them (null: not known): its
// mergeChanges, in the plain JavaScript this thread runs.
const changesOf = (units) => {
  const lines = [];
  for (const u of units) {
    if (u.changes === null) return null;
    if (u.changes !== '') lines.push(u.changes);
  }
  return lines.join('\\n');
};
// OwnCommits.claim and unclaim (own-commits.ts), on the slots the event loop shares with this thread:
// the change counter's value each COMMIT makes is marked as this process's, before it is made.
const fs = require('node:fs');
const slots = workerData.ownCommits ? new Int32Array(workerData.ownCommits) : null;
const MASK = slots ? slots.length - 1 : 0;
const counterBytes = Buffer.alloc(4);
const littleEndian = require('node:os').endianness() === 'LE';
let shm;
const claim = () => {
  if (slots === null) return null;
  if (shm === undefined) {
    try { shm = fs.openSync(workerData.file + '-shm', 'r'); } catch { shm = null; }
  }
  if (shm === null) return null;
  try {
    if (fs.readSync(shm, counterBytes, 0, 4, workerData.counterOffset) < 4) return null;
  } catch { return null; }
  const value = ((littleEndian ? counterBytes.readUInt32LE(0) : counterBytes.readUInt32BE(0)) + 1) >>> 0;
  Atomics.store(slots, value & MASK, value | 0);
  return value;
};
const unclaim = (value) => {
  if (value !== null) Atomics.compareExchange(slots, value & MASK, value | 0, (value & MASK) + 1);
};
const inTransaction = (body, changes) => {
  begin();
  let claimed = null;
  try {
    body();
    logCommit(changes);
    claimed = claim();
    db.exec('COMMIT');
  } catch (err) {
    // Still holding the write lock: no other commit can take the value before it is unmarked.
    unclaim(claimed);
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
};
const describe = (err) => ({ message: String(err && err.message || err), code: err && err.code });
let queue = [];
let scheduled = false;
const flush = () => {
  scheduled = false;
  if (queue.length === 0) return;
  const units = queue;
  queue = [];
  const failed = [];
  const changes = changesOf(units);
  try {
    inTransaction(() => { for (const u of units) runOps(u.ops); }, changes);
  } catch {
    try {
      inTransaction(() => {
        for (const u of units) {
          db.exec('SAVEPOINT unit');
          try { runOps(u.ops); db.exec('RELEASE unit'); }
          catch (err) { db.exec('ROLLBACK TO unit'); db.exec('RELEASE unit'); failed.push([u.id, describe(err)]); }
        }
      }, changes);
    } catch (err) {
      parentPort.postMessage({ ok: [], failed: units.map((u) => [u.id, describe(err)]) });
      return;
    }
  }
  const failedIds = new Set(failed.map((f) => f[0]));
  parentPort.postMessage({ ok: units.filter((u) => !failedIds.has(u.id)).map((u) => u.id), failed });
};
parentPort.on('message', (m) => {
  if (m.type === 'close') {
    flush();
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  for (const [id, text] of m.statements) texts[id] = text;
  for (const u of m.units) queue.push(u);
  if (!scheduled) { scheduled = true; setImmediate(flush); }
});
`;

/**
 * Units are posted to the thread at the end of the event loop's turn, or as soon as this many wait: a
 * burst of requests handled in one turn then reaches the thread in parts, and the first part commits
 * while the event loop still works through the rest. Posted at once, the burst's requests all waited
 * for one commit, the connections fell into step, and each thread idled while the other worked (50
 * connections of new-device tracks: 2,660-2,993 req/s at the end of the turn, 3,339-3,909 with
 * parts of 4-24, 2026-11-25).
 */
const POST_EVERY = 16;

/** How long a commit waits for another connection's write lock before it fails, as `busy_timeout` did. */
const LOCK_WAIT_MS = 5000;
/** How often a waiting commit asks for the lock again. */
const LOCK_POLL_MS = 0.25;

interface Pending {
  resolve: () => void;
  reject: (err: unknown) => void;
}
interface Reply {
  ok?: number[];
  failed?: Array<[number, { message: string; code?: string }]>;
  closed?: boolean;
}

/**
 * The store's write connection on a thread of its own. The event loop hands it each write as data
 * (`WriteOp`s) and awaits the commit; the B-tree work and the commit then run beside the requests
 * instead of between them (a track spent about a quarter of its event-loop time
 * writing, 2026-11-22 profile). Writes keep their order: one user's next track waits for its lock,
 * which is held until this commit resolves. Commits are logged under the event loop's writer name,
 * so they do not read as another process's.
 */
export class WriterThread implements OpsCommitter {
  private worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private outgoing: Array<{ id: number; ops: readonly WriteOp[]; changes: CommitChanges }> = [];
  private scheduled = false;
  private closing: Promise<void> | undefined;
  /** The number each statement text has on the current thread. */
  private readonly statementIds = new Map<string, number>();

  constructor(
    private readonly file: string,
    private readonly writer: string,
    /** Where its commits are marked as this process's; none: they read as another's. */
    private readonly own?: OwnCommits,
  ) {
    this.worker = this.start();
  }

  commitOps(ops: readonly WriteOp[], changes: CommitChanges): Promise<void> {
    if (this.closing) return Promise.reject(new Error('the store is closing'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.outgoing.push({ id, ops, changes });
      if (this.pending.size === 1) this.worker.ref();
      if (this.outgoing.length >= POST_EVERY) {
        this.post();
        return;
      }
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.post());
      }
    });
  }

  /** Commits what is queued and ends the thread. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.post();
      this.worker.ref();
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' });
    });
    return this.closing;
  }

  private start(): Worker {
    // A new thread knows no statement numbers yet.
    this.statementIds.clear();
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // Plain JavaScript: no need for the parent's TypeScript loader or profiler flags.
      execArgv: [],
      workerData: {
        file: this.file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        writer: this.writer,
        logInsert: COMMIT_LOG_INSERT,
        logPrune: COMMIT_LOG_PRUNE,
        keepMs: COMMIT_LOG_KEEP_MS,
        pruneEvery: COMMIT_LOG_PRUNE_EVERY,
        autocheckpoint: WAL_FALLBACK_CHECKPOINT_PAGES,
        lockWaitMs: LOCK_WAIT_MS,
        lockPollMs: LOCK_POLL_MS,
        ownCommits: this.own?.buffer,
        counterOffset: CHANGE_COUNTER_OFFSET,
      },
    });
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', () => {});
    worker.once('exit', () => this.exited(worker));
    worker.unref();
    return worker;
  }

  /**
   * Sends the waiting units, each op as its statement's number and its parameters: a statement's text
   * goes to the thread once. Posted as text with every op, it was copied across and hashed again for
   * the thread's statement cache on each of a track's six to ten statements.
   */
  private post(): void {
    this.scheduled = false;
    if (this.outgoing.length === 0) return;
    const statements: Array<[number, string]> = [];
    const units = this.outgoing.map(({ id, ops, changes }) => {
      const flat: unknown[] = [];
      for (const op of ops) {
        let n = this.statementIds.get(op.sql);
        if (n === undefined) {
          n = this.statementIds.size;
          this.statementIds.set(op.sql, n);
          statements.push([n, op.sql]);
        }
        flat.push(n, op.params);
      }
      return { id, ops: flat, changes };
    });
    this.outgoing = [];
    this.worker.postMessage({ type: 'write', statements, units });
  }

  private settle(reply: Reply): void {
    if (reply.closed) {
      void this.worker.terminate();
      return;
    }
    for (const id of reply.ok ?? []) this.take(id)?.resolve();
    for (const [id, err] of reply.failed ?? []) {
      this.take(id)?.reject(Object.assign(new Error(err.message), err.code ? { code: err.code } : {}));
    }
    // Not while closing: the thread must keep the process up until it has exited.
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
  }

  private take(id: number): Pending | undefined {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  /** A thread that died took its uncommitted writes with it: fail them, and start a new one. */
  private exited(worker: Worker): void {
    if (worker !== this.worker) return;
    for (const p of this.pending.values()) p.reject(new Error('the SQLite writer thread stopped'));
    this.pending.clear();
    // It may have died between marking a commit and making it.
    this.own?.clear();
    if (!this.closing) this.worker = this.start();
  }
}
