import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { markOwnCommits, openDatabase, writerOf, writeTransaction } from './open-database.js';
import { OWN_COMMIT_SLOTS, OwnCommits } from './own-commits.js';
import { WriterThread } from './writer-thread.js';

describe('OwnCommits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'whereabouts-own-commits-'));
  const file = join(dir, 'test.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  const own = OwnCommits.open(file)!;
  markOwnCommits(db, own);
  const writer = new WriterThread(file, writerOf(db), own);
  // Another process's connection, as far as the marks go: its commits are never marked.
  const foreign = openDatabase(file);
  after(async () => {
    await writer.close();
    own.header.close();
    foreign.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const counter = () => own.header.changeCounter()!;
  const insert = (k: string) => ({ sql: 'INSERT INTO t (k) VALUES (?)', params: [k] });

  it("covers the event loop's and the writer thread's commits, not another connection's", async () => {
    const start = counter();
    writeTransaction(db, () => db.prepare('INSERT INTO t VALUES (?)').run('loop-1'));
    await writer.commitOps([insert('thread-1')], null);
    await Promise.all([writer.commitOps([insert('thread-2')], null), writer.commitOps([insert('thread-3')], null)]);
    writeTransaction(db, () => db.prepare('INSERT INTO t VALUES (?)').run('loop-2'));
    const mine = counter();
    assert.ok(mine - start >= 4, `the counter moved once a commit (${start} → ${mine})`);
    assert.equal(own.covers(start, mine), true);
    writeTransaction(foreign, () => foreign.prepare('INSERT INTO t VALUES (?)').run('elsewhere'));
    const after = counter();
    assert.equal(after, mine + 1);
    assert.equal(own.covers(start, after), false, 'a foreign commit among ours');
    assert.equal(own.covers(mine, after), false, 'a foreign commit alone');
    await writer.commitOps([insert('thread-4')], null);
    assert.equal(own.covers(after, counter()), true, 'ours again after it');
  });

  it('leaves a commit that failed unmarked, and a transaction rolled back moves nothing', () => {
    const start = counter();
    assert.throws(() =>
      writeTransaction(db, () => {
        db.prepare('INSERT INTO t VALUES (?)').run('rolled-back');
        throw new Error('no');
      }),
    );
    assert.equal(counter(), start);
    assert.equal(own.covers(start, start + 1), false);
  });

  it('covers nothing past what it remembers, and nothing after being cleared', () => {
    const start = counter();
    writeTransaction(db, () => db.prepare('INSERT INTO t VALUES (?)').run('before-clear'));
    assert.equal(own.covers(start, counter()), true);
    own.clear();
    assert.equal(own.covers(start, counter()), false);
    assert.equal(own.covers(start, start + OWN_COMMIT_SLOTS + 1), false);
    assert.equal(own.covers(start, start), true, 'an empty range');
  });

  it('is not there for an in-memory database', () => {
    assert.equal(OwnCommits.open(':memory:'), null);
  });
});
