import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { SqliteStore } from './sqlite-store.js';

const tenant = { projectId: 'p1', live: false };

/** Whether the database file alone, without its WAL, already holds the fence. */
function inMainFile(dir: string, id: string): boolean {
  const copy = join(dir, 'main-only.db');
  copyFileSync(join(dir, 'whereabouts.db'), copy);
  try {
    const db = new Database(copy, { readonly: true });
    try {
      return db.prepare('SELECT 1 FROM geofences WHERE id = ?').get(id) !== undefined;
    } finally {
      db.close();
    }
  } catch {
    return false; // copied halfway through a checkpoint: look again
  } finally {
    rmSync(copy, { force: true });
  }
}

describe('SqliteStore background checkpoints', () => {
  it('copies a commit into the database file while the store stays open (SQLite alone waits for 1,000 pages)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'background-checkpoints-'));
    const store = SqliteStore.open(dir, { backgroundCheckpoints: true });
    try {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-checkpointed' }));
      let found = false;
      for (let i = 0; i < 50 && !found; i++) {
        await new Promise((r) => setTimeout(r, 100));
        found = inMainFile(dir, 'g-checkpointed');
      }
      assert.ok(found, 'the fence reached the database file within 5 s');
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without them the same commit stays in the WAL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'background-checkpoints-'));
    const store = SqliteStore.open(dir);
    try {
      await store.geofences.upsert(makeCircleGeofence(tenant, { id: 'g-in-wal' }));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(inMainFile(dir, 'g-in-wal'), false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
