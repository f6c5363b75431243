import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { runCli, type ServeProcess, startServe } from './helpers/cli.js';
import { eventually } from './helpers/poll.js';
import { type RequestOptions, request, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle as putCircleThrough, trackBody } from './helpers/tracking.js';

const skip =
  process.env.TEST_STORE === 'postgres' ? 'the SQLite half of `npm test` runs it (npm run test:sqlite)' : false;

/**
 * Two API processes on one SQLite file, as `WORKERS=2` runs them: each learns the other's writes
 * from the commit log (storage/sqlite/commit-changes.ts), record by record.
 */
describe('several API processes over one SQLite file', { skip }, () => {
  let env: Record<string, string>;
  let dataDir: string;
  let keys: { publishable: string; secret: string };
  const procs: ServeProcess[] = [];
  const call = (p: ServeProcess, method: string, url: string, o: RequestOptions) => request(p.url, method, url, o);
  const pair = () => procs as [ServeProcess, ServeProcess];

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-sqlite-scale-'));
    env = { DATA_DIR: dataDir, GEODATA_DIR: (await sharedTestPack()).dataDir };
    procs.push(await startServe(env));
    procs.push(await startServe(env));
    const created = await runCli(['projects', 'create', 'scale', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    keys = JSON.parse(created.stdout).keys.test;
    assert.equal((await runCli(['projects', 'set', 'scale', '--rate-limit', '100000'], env)).code, 0);
  });

  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The process as the tracking helpers take a test server: its address and the project's keys. */
  const asServer = (p: ServeProcess) =>
    ({ request: (method, url, o) => request(p.url, method, url, o), keys: { test: keys } }) as Pick<
      TestServer,
      'request' | 'keys'
    > as TestServer;
  const putCircle = (p: ServeProcess, externalId: string, center: LonLat) =>
    putCircleThrough(asServer(p), 'scale', externalId, center, 200);
  const track = (p: ServeProcess, device: string, at: LonLat) =>
    call(p, 'POST', '/v1/track', { key: keys.publishable, json: trackBody(device, at) });
  const eventTypes = (res: { body: { events: Array<{ type: string }> } }) => res.body.events.map((e) => e.type);
  const contextFences = async (p: ServeProcess, at: LonLat) =>
    (
      await call(p, 'GET', `/v1/context?coordinates=${at[1]},${at[0]}`, { key: keys.publishable })
    ).body.context.geofences.map((g: { externalId: string }) => g.externalId);

  it('a fence written through one process is in the other one’s context, and gone once deleted', async () => {
    const [a, b] = pair();
    const spot = offset(BROOKLYN, 4000, 0);
    assert.deepEqual(await contextFences(b, spot), [], 'B has loaded the tenant before the write');
    const id = await putCircle(a, 'shared', spot);
    assert.deepEqual(
      await eventually(
        () => contextFences(b, spot),
        (seen) => seen.length > 0,
      ),
      ['shared'],
    );
    assert.equal((await call(a, 'DELETE', `/v1/geofences/${id}`, { key: keys.secret })).status, 200);
    assert.deepEqual(
      await eventually(
        () => contextFences(b, spot),
        (seen) => seen.length === 0,
      ),
      [],
    );
  });

  it('one device tracked through both processes in turn gets each entry and exit once', async () => {
    const [a, b] = pair();
    const inside = offset(BROOKLYN, 0, 5000);
    const outside = offset(inside, 3000, 0);
    await putCircle(a, 'turns', inside);
    // Both processes know the fence (and have the device cached) before the turns begin.
    assert.deepEqual(
      await eventually(
        () => contextFences(b, inside),
        (seen) => seen.length > 0,
      ),
      ['turns'],
    );
    const steps: Array<[ServeProcess, LonLat, string[]]> = [
      [a, outside, []],
      [b, inside, ['user.entered_geofence']],
      [a, inside, []],
      [b, outside, ['user.exited_geofence']],
      [a, inside, ['user.entered_geofence']],
      [b, outside, ['user.exited_geofence']],
    ];
    for (const [p, at, expected] of steps) {
      const res = await track(p, 'turns-device', at);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        eventTypes(res).filter((t) => t.includes('geofence')),
        expected,
      );
      await new Promise((r) => setTimeout(r, 1050)); // the device's one track a second, per process
    }
    const users = await call(b, 'GET', '/v1/users?limit=100', { key: keys.secret });
    assert.equal(users.body.users.filter((u: { deviceId: string }) => u.deviceId === 'turns-device').length, 1);
  });

  it('a userId first given through one process finds that user through the other at once, from another device', async () => {
    // Processes of their own, which have seen no user written before: each track must read the other's
    // news first however long it has been quiet (two processes of the shared pair have seen plenty).
    const [a, b] = await Promise.all([startServe(env), startServe(env)]);
    procs.push(a, b);
    const at = offset(BROOKLYN, 900, 900);
    // a has read the tenant's identities: a lookup of a device no user has then skips the database.
    assert.equal((await track(a, 'attach-d0', at)).status, 200);
    const attached = await call(b, 'POST', '/v1/track', {
      key: keys.publishable,
      json: trackBody('attach-d2', at, { userId: 'attach-app' }),
    });
    assert.equal(attached.status, 200, JSON.stringify(attached.body));
    const third = await call(a, 'POST', '/v1/track', {
      key: keys.publishable,
      json: trackBody('attach-d3', at, { userId: 'attach-app' }),
    });
    assert.equal(third.status, 200, JSON.stringify(third.body));
    assert.equal(third.body.user._id, attached.body.user._id, 'found by the userId the other process wrote');
    const users = await call(a, 'GET', '/v1/users?limit=100', { key: keys.secret });
    assert.equal(users.body.users.filter((u: { userId: string }) => u.userId === 'attach-app').length, 1);
  });

  it('search users through one process finds a user where the other process just tracked it', async () => {
    const [a, b] = pair();
    const from = offset(BROOKLYN, -9000, 4000);
    const to = offset(from, 3000, 0);
    const near = async (at: LonLat) =>
      (await call(b, 'GET', `/v1/search/users?near=${at[1]},${at[0]}&radius=300`, { key: keys.secret })).body.users.map(
        (u: { deviceId: string }) => u.deviceId,
      );
    assert.equal((await track(a, 'searched', from)).status, 200);
    assert.deepEqual(await near(from), ['searched'], 'B loads the tenant with the user where A put it');
    await new Promise((r) => setTimeout(r, 1050));
    assert.equal((await track(a, 'searched', to)).status, 200);
    const seen = await eventually(
      async () => [await near(from), await near(to)],
      ([, there]) => there!.length > 0,
    );
    assert.deepEqual(seen, [[], ['searched']], 'moved in B’s index by A’s track alone');
  });

  it("a fence's users listed through one process follow the other one's tracks in, out and back", async () => {
    const [a, b] = pair();
    const inside = offset(BROOKLYN, 9000, -4000);
    const outside = offset(inside, 3000, 0);
    const id = await putCircle(a, 'members', inside);
    const members = async () =>
      (await call(b, 'GET', '/v1/geofences/scale/members/users', { key: keys.secret })).body.users.map(
        (u: { deviceId: string }) => u.deviceId,
      );
    assert.deepEqual(
      await eventually(
        () => contextFences(b, inside),
        (seen) => seen.length > 0,
      ),
      ['members'],
    );
    assert.deepEqual(await members(), [], 'B holds who is in which fence before the tracks');
    assert.equal((await track(a, 'member-1', inside)).status, 200);
    assert.equal((await track(a, 'member-2', inside)).status, 200);
    assert.deepEqual(await eventually(members, (seen) => seen.length === 2), ['member-2', 'member-1']);
    await new Promise((r) => setTimeout(r, 1050));
    assert.equal((await track(a, 'member-2', outside)).status, 200);
    assert.deepEqual(await eventually(members, (seen) => seen.length === 1), ['member-1'], 'left through A');
    assert.equal((await track(a, 'member-1', inside)).status, 200);
    await new Promise((r) => setTimeout(r, 1050));
    assert.equal((await track(a, 'member-2', inside)).status, 200);
    assert.deepEqual(await eventually(members, (seen) => seen.length === 2), ['member-2', 'member-1']);
    assert.equal((await call(b, 'DELETE', `/v1/geofences/${id}`, { key: keys.secret })).status, 200);
    const db = new Database(path.join(dataDir, 'whereabouts.db'), { readonly: true });
    try {
      assert.equal(db.prepare('SELECT count(*) FROM user_geofences WHERE geofence_id = ?').pluck().get(id), 0);
    } finally {
      db.close();
    }
  });

  it('logs what each commit changed, and usage counts as nothing another process keeps', async () => {
    const db = new Database(path.join(dataDir, 'whereabouts.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT changes FROM commit_log WHERE changes IS NOT NULL').all() as Array<{
        changes: string;
      }>;
      const kinds = new Set(
        rows.flatMap((r) => (r.changes === '' ? ['(nothing)'] : r.changes.split('\n'))).map((l) => l.split(' ')[0]),
      );
      for (const kind of ['projects', 'geofences', 'users', '(nothing)'])
        assert.ok(kinds.has(kind), `a ${kind} commit`);
    } finally {
      db.close();
    }
  });

  it('WORKERS=2 serves on one port from two processes and stops them all on SIGTERM', async () => {
    const served = await startServe({ ...env, WORKERS: '2' });
    const res = await request(served.url, 'GET', '/v1/geofences?limit=1', { key: keys.secret });
    assert.equal(res.status, 200);
    assert.equal(await served.stop(), 0);
  });
});
