import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { assertOk } from './helpers/assertions.js';
import { runCli, type ServeProcess, startServe } from './helpers/cli.js';
import { DEFAULT_TEST_DATABASE_URL } from './helpers/engine.js';
import { request, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, trackBody } from './helpers/tracking.js';

const onPostgres = process.env.TEST_STORE === 'postgres';

/** What a test wrote and had acknowledged: fences, and per tracked device the events its track created. */
interface Written {
  fences: Array<{ tag: string; externalId: string; id: string }>;
  tracked: Array<{ deviceId: string; updatedAt: string; eventIds: string[] }>;
}

/** Three fences around Brooklyn; every device tracked at their centre enters all three. */
async function writeFences(s: TestServer): Promise<Written['fences']> {
  const fences: Written['fences'] = [];
  for (const externalId of ['a', 'b', 'c']) {
    fences.push({ tag: 'store', externalId, id: await putCircle(s, 'store', externalId, BROOKLYN, 500) });
  }
  return fences;
}

/** One track of a new device; returns what it acknowledged (or null for a refusal). */
async function trackNew(s: TestServer, deviceId: string, i: number): Promise<Written['tracked'][number] | null> {
  const res = await s.request('POST', '/v1/track', {
    key: s.keys.test.publishable,
    json: trackBody(deviceId, offset(BROOKLYN, i % 50, 0), { userId: deviceId }),
  });
  if (res.status !== 200) return null;
  return {
    deviceId,
    updatedAt: res.body.user.updatedAt,
    eventIds: (res.body.events as Array<{ _id: string }>).map((e) => e._id),
  };
}

/** Asserts that the server at `base` serves every acknowledged fence, user and event of `written`. */
async function assertServes(base: string, s: TestServer, written: Written): Promise<void> {
  const key = s.keys.test.secret;
  for (const f of written.fences) {
    const res = await request(base, 'GET', `/v1/geofences/${f.tag}/${f.externalId}`, { key });
    assertOk(res);
    assert.equal(res.body.geofence._id, f.id);
  }
  for (const t of written.tracked) {
    const user = await request(base, 'GET', `/v1/users/${t.deviceId}`, { key });
    assertOk(user);
    assert.equal(user.body.user.updatedAt, t.updatedAt, `user ${t.deviceId}`);
    assert.equal(user.body.user.geofences.length, 3, `user ${t.deviceId} is in the three fences`);
    for (const id of t.eventIds) assertOk(await request(base, 'GET', `/v1/events/${id}`, { key }));
  }
}

describe('backup and restore of the SQLite store', { skip: onPostgres && 'SQLite only' }, () => {
  let s: TestServer;
  let dir: string;
  let packDir: string;
  before(async () => {
    s = await startServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-backup-'));
    packDir = (await sharedTestPack()).dataDir;
  });
  after(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while tracks are written; a fresh DATA_DIR restored from it serves every track acknowledged before; a stopped one can be restored over', async () => {
    const written: Written = { fences: await writeFences(s), tracked: [] };
    // Tracks of new devices, four at a time, until the backup is done: it copies a database being written.
    let backupStarted = false;
    let backingUp = true;
    const beforeBackup: Written['tracked'] = [];
    let duringBackup = 0;
    let n = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (backingUp) {
        const i = n++;
        const startedBefore = !backupStarted;
        const acked = await trackNew(s, `dev-${i}`, i);
        assert.ok(acked, `track ${i} was refused`);
        if (startedBefore && !backupStarted) beforeBackup.push(acked);
        else duringBackup++;
      }
    });
    while (n < 40) await new Promise((r) => setTimeout(r, 10));
    const file = path.join(dir, 'whereabouts-backup.db');
    backupStarted = true;
    const backup = await runCli(['backup', file], { DATA_DIR: s.dataDir });
    backingUp = false;
    await Promise.all(load);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up/);
    assert.ok(duringBackup > 0, 'tracks were written while the backup ran');
    written.tracked = beforeBackup;

    const fresh = path.join(dir, 'fresh');
    const restore = await runCli(['restore', file], { DATA_DIR: fresh });
    assert.equal(restore.code, 0, restore.stderr);
    const restored = await startServe({ DATA_DIR: fresh, GEODATA_DIR: packDir });
    try {
      assert.doesNotMatch(restored.stdout(), /Created project/, 'the restored projects are found');
      await assertServes(restored.url, s, written);
    } finally {
      assert.equal(await restored.stop(), 0);
    }
    // Stopped, its database can be restored over; the one replaced is kept beside it.
    const again = await runCli(['restore', file], { DATA_DIR: fresh });
    assert.equal(again.code, 0, again.stderr);
    const kept = fs.readdirSync(fresh).filter((f) => f.startsWith('whereabouts.db.replaced-'));
    assert.equal(kept.length, 1, fs.readdirSync(fresh).join(' '));
    assert.match(again.stdout, /kept as/);
  });

  it('refuses to restore over a database a server has open, and changes nothing', async () => {
    const file = path.join(dir, 'refused.db');
    assert.equal((await runCli(['backup', file], { DATA_DIR: s.dataDir })).code, 0);
    const before = fs.readdirSync(s.dataDir).sort();
    const restore = await runCli(['restore', file], { DATA_DIR: s.dataDir });
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /open in another process/);
    assert.deepEqual(fs.readdirSync(s.dataDir).sort(), before);
    assertOk(await s.request('GET', '/v1/users', { key: s.keys.test.secret }));
  });

  it('refuses a file that is not a backup', async () => {
    const junk = path.join(dir, 'junk.db');
    fs.writeFileSync(junk, 'not a database');
    const restore = await runCli(['restore', junk], { DATA_DIR: path.join(dir, 'junk-target') });
    assert.equal(restore.code, 1);
    assert.match(restore.stderr, /not a usable backup/);
    assert.equal(fs.existsSync(path.join(dir, 'junk-target', 'whereabouts.db')), false);
  });
});

/**
 * The documented PostgreSQL procedure (docs/operations.md): pg_dump -Fc, then pg_restore into a fresh
 * database with PostGIS. The suite gives each server a schema of its own, so the dump is of that schema
 * (`-n`), and the restored server finds it through the same `search_path`.
 */
describe('pg_dump and pg_restore of the PostgreSQL store', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  const base = process.env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;
  const database = `restore_${randomBytes(4).toString('hex')}`;
  let s: TestServer;
  let dir: string;
  let restored: ServeProcess | undefined;
  before(async () => {
    s = await startServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-pgdump-'));
  });
  after(async () => {
    await restored?.stop();
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  it('restores into a fresh database that serves the same projects, fences, users and events', async () => {
    const written: Written = { fences: await writeFences(s), tracked: [] };
    for (let i = 0; i < 10; i++) written.tracked.push((await trackNew(s, `pg-dev-${i}`, i))!);
    const url = new URL(s.deps.config.databaseUrl!);
    const schema = /search_path=(\w+)/.exec(url.searchParams.get('options') ?? '')![1]!;
    const dump = path.join(dir, 'whereabouts.dump');
    execFileSync('pg_dump', ['-Fc', '-n', schema, '-f', dump, '-d', base]);

    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const target = new URL(base);
    target.pathname = `/${database}`;
    const fresh = new pg.Client({ connectionString: target.toString() });
    await fresh.connect();
    await fresh.query('CREATE EXTENSION postgis');
    await fresh.end();
    execFileSync('pg_restore', ['--no-owner', '-d', target.toString(), dump]);

    target.searchParams.set('options', `-c search_path=${schema},public`);
    restored = await startServe({
      DATABASE_URL: target.toString(),
      GEODATA_DIR: (await sharedTestPack()).dataDir,
      DATA_DIR: dir,
    });
    assert.doesNotMatch(restored.stdout(), /Created project/, 'the restored projects are found');
    await assertServes(restored.url, s, written);
  });
});
