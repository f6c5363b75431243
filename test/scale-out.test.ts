import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { PG_MIGRATIONS } from '../src/storage/postgres/migrations.js';
import { runCli, type ServeProcess, startServe } from './helpers/cli.js';
import { engineEnv } from './helpers/engine.js';
import { poll } from './helpers/poll.js';
import { type RequestOptions, request } from './helpers/server.js';
import { TcpProxy } from './helpers/tcp-proxy.js';
import { BROOKLYN, type LonLat, offset, trackBody } from './helpers/tracking.js';

const skip =
  process.env.TEST_STORE === 'postgres' && process.env.TEST_REDIS_URL
    ? false
    : 'needs PostgreSQL and Redis: it runs in the PostgreSQL half of `npm test` (npm run test:postgres)';

describe('several API processes over one PostgreSQL and one Redis', { skip }, () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let dataDir: string;
  let keys: { publishable: string; secret: string };
  const procs: ServeProcess[] = [];
  const call = (p: ServeProcess, method: string, url: string, o: RequestOptions) => request(p.url, method, url, o);

  before(async () => {
    const engine = await engineEnv();
    cleanup = engine.cleanup;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-scale-'));
    // Every node of a deployment gets the same read-only data pack; the test shares the built one.
    const pack = await sharedTestPack();
    env = { ...engine.env, DATA_DIR: dataDir, GEODATA_DIR: pack.dataDir };
    // Both start at once on an empty schema: each runs the migrations, which must apply exactly once.
    const started = await Promise.allSettled([startServe(env), startServe(env)]);
    // One that started is stopped by `after` even when the other failed (else it keeps the run alive).
    for (const s of started) if (s.status === 'fulfilled') procs.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const created = await runCli(['projects', 'create', 'scale', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    keys = JSON.parse(created.stdout).keys.test;
    assert.equal((await runCli(['projects', 'set', 'scale', '--rate-limit', '100000'], env)).code, 0);
  });

  it('two processes starting together on an empty database migrate it once', async () => {
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        rows.map((r) => r.version),
        PG_MIGRATIONS.map((m) => m.version),
      );
    } finally {
      await db.end();
    }
  });

  after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await cleanup?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const putCircle = async (p: ServeProcess, externalId: string, center: LonLat) => {
    const res = await call(p, 'PUT', `/v1/geofences/scale/${externalId}`, {
      key: keys.secret,
      json: { description: externalId, type: 'circle', coordinates: center, radius: 200 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.geofence._id as string;
  };
  /**
   * The fences a new device tracked at `spot` through `p` enters, tracked again (another new device)
   * until `done` holds or 10 s pass (`poll`).
   */
  const trackUntil = async (p: ServeProcess, spot: LonLat, device: string, done: (ids: string[]) => boolean) => {
    let ids: string[] = [];
    let n = 0;
    await poll(
      async () => {
        const res = await call(p, 'POST', '/v1/track', {
          key: keys.publishable,
          json: trackBody(`${device}-${n++}`, spot),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        ids = entries([res]).map((e) => e.geofence?._id ?? '');
        return done(ids);
      },
      10_000,
      200,
    );
    return ids;
  };
  const entries = (responses: Array<{ body: { events: Array<{ type: string; geofence?: { _id: string } }> } }>) =>
    responses.flatMap((r) => r.body.events).filter((e) => e.type === 'user.entered_geofence');

  it('tracks of one user through both processes at once give exactly one entry', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const center = offset(BROOKLYN, 5000, 0);
    await putCircle(a, 'concurrent', center);
    // One user on many devices: one device is limited to one track a second.
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        call(i % 2 ? a : b, 'POST', '/v1/track', {
          key: keys.publishable,
          json: trackBody(`dev-${i}`, center, { userId: 'u-both' }),
        }),
      ),
    );
    for (const r of responses) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(new Set(responses.map((r) => r.body.user._id)).size, 1, 'one user');
    assert.equal(entries(responses).length, 1);
    const stored = await call(a, 'GET', '/v1/events?userId=u-both&type=user.entered_geofence', { key: keys.secret });
    assert.equal(stored.body.events.length, 1);
  });

  it('a geofence upserted through one process produces events on tracks through the other', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const spot = offset(BROOKLYN, -5000, 0);
    // B has this tenant's index loaded already (previous test); the fence is written through A.
    await call(b, 'POST', '/v1/track', {
      key: keys.publishable,
      json: trackBody('dev-new-fence', offset(spot, 3000, 0)),
    });
    const id = await putCircle(a, 'fresh', spot);
    assert.deepEqual(await trackUntil(b, spot, 'dev-new-fence', (ids) => ids.length > 0), [id]);
  });

  it('a geofence deleted through one process stops producing events through the other', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const spot = offset(BROOKLYN, 0, 6000);
    const id = await putCircle(a, 'doomed', spot);
    assert.deepEqual(
      await trackUntil(b, spot, 'dev-doomed-in', (ids) => ids.length > 0),
      [id],
      'B sees the fence A wrote',
    );
    const deleted = await call(a, 'DELETE', `/v1/geofences/${id}`, { key: keys.secret });
    assert.equal(deleted.status, 200);
    assert.deepEqual(
      await trackUntil(b, spot, 'dev-doomed-out', (ids) => ids.length === 0),
      [],
      'B no longer has the fence A deleted',
    );
  });

  it('rate limits hold across both processes through Redis', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const first = await call(a, 'POST', '/v1/track', {
      key: keys.publishable,
      json: trackBody('dev-limited', BROOKLYN),
    });
    assert.equal(first.status, 200);
    const second = await call(b, 'POST', '/v1/track', {
      key: keys.publishable,
      json: trackBody('dev-limited', BROOKLYN),
    });
    assert.equal(second.status, 429, 'the device limit counts tracks made through the other process');
    assert.equal((await runCli(['projects', 'set', 'scale', '--rate-limit', '4'], env)).code, 0);
    try {
      // Eight requests at once, four through each process, all inside one one-second window: sent one
      // after another, a loaded machine (CI runs two test files at once) once took over a second for
      // them and the window rolled over. A round that still takes longer than the window is not a
      // verdict on the limiter, so it is sent again in a fresh window.
      let statuses: number[] = [];
      for (let round = 0; round < 3; round++) {
        await new Promise((r) => setTimeout(r, 1100)); // notification, and a fresh one-second window
        const sent = Date.now();
        statuses = (
          await Promise.all(
            Array.from({ length: 8 }, (_, i) =>
              call(i % 2 ? a : b, 'GET', '/v1/geofences?limit=1', { key: keys.secret }),
            ),
          )
        ).map((r) => r.status);
        if (Date.now() - sent < 900) break;
      }
      assert.equal(statuses.filter((s) => s === 200).length, 4, `statuses: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 4);
    } finally {
      // Back to a limit the later tests do not reach, whatever happened above.
      assert.equal((await runCli(['projects', 'set', 'scale', '--rate-limit', '100000'], env)).code, 0);
      await new Promise((r) => setTimeout(r, 1100));
    }
  });

  it('search users through one process finds a user where the other process just tracked it', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const from = offset(BROOKLYN, -9000, 4000);
    const to = offset(from, 3000, 0);
    const search = (p: LonLat) =>
      call(b, 'GET', `/v1/search/users?near=${p[1]},${p[0]}&radius=300`, { key: keys.secret });
    const first = await call(a, 'POST', '/v1/track', { key: keys.publishable, json: trackBody('searched', from) });
    assert.equal(first.status, 200);
    const before = await search(from);
    assert.deepEqual(
      before.body.users.map((u: { deviceId: string }) => u.deviceId),
      ['searched'],
    );
    await new Promise((r) => setTimeout(r, 1000)); // the device's 1 track/second limit
    const moved = await call(a, 'POST', '/v1/track', { key: keys.publishable, json: trackBody('searched', to) });
    assert.equal(moved.status, 200);
    // B hears of A's write when PostgreSQL delivers its announcement (README: user search from memory).
    let seen: Array<number | string> = [];
    await poll(
      async () => {
        seen = [
          (await search(from)).body.users.length,
          (await search(to)).body.users.map((u: { deviceId: string }) => u.deviceId).join(),
        ];
        return seen[0] === 0 && seen[1] === 'searched';
      },
      5000,
      100,
    );
    assert.deepEqual(seen, [0, 'searched'], 'found through B at the place A tracked, no longer at the old one');
  });

  it('a trip PATCH racing tracks of its user through the other process loses no change', async () => {
    const [a, b] = procs as [ServeProcess, ServeProcess];
    const home = offset(BROOKLYN, 0, -7000);
    const pk = { key: keys.publishable };
    const first = await call(a, 'POST', '/v1/track', {
      ...pk,
      json: trackBody('trip-dev', home, { userId: 'u-trip' }),
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const started = await call(b, 'POST', '/v1/trips', {
      ...pk,
      json: { userId: 'u-trip', externalId: 'race-trip', mode: 'car', metadata: { n: 0 } },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    let tracked = 0;
    // Each round: tracks of the user through A (each moves the trip on: path, ETA, updatedAt) while
    // B changes the trip's metadata. A track that read the trip before the PATCH and wrote it after
    // would put the old metadata back.
    for (let round = 1; round <= 12; round++) {
      const tracks = Array.from({ length: 6 }, (_, i) =>
        call(a, 'POST', '/v1/track', {
          ...pk,
          json: trackBody(`trip-dev-${round}-${i}`, offset(home, round * 20, i * 20), { userId: 'u-trip' }),
        }),
      );
      const patch = call(b, 'PATCH', '/v1/trips/race-trip/update', {
        ...pk,
        json: { externalId: 'race-trip', metadata: { n: round } },
      });
      const [patched, ...moved] = await Promise.all([patch, ...tracks]);
      assert.equal(patched!.status, 200, JSON.stringify(patched!.body));
      for (const r of moved) {
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.user.trip?.externalId, 'race-trip', 'every track moves the trip on');
      }
      tracked += moved.length;
      const got = await call(a, 'GET', '/v1/trips/race-trip', { key: keys.secret });
      assert.deepEqual(got.body.metadata, { n: round }, `round ${round}: a track undid the PATCH`);
      assert.equal(got.body.locations.length, tracked, 'every tracked point is on the path');
    }
  });

  it('WORKERS=2 serves on one port from two processes and stops them all on SIGTERM', async () => {
    const served = await startServe({ ...env, WORKERS: '2' });
    const res = await request(served.url, 'GET', '/v1/geofences?limit=1', { key: keys.secret });
    assert.equal(res.status, 200);
    assert.equal(await served.stop(), 0);
  });

  it('kill -9 of a process under track load loses no acknowledged update', async () => {
    const victim = await startServe(env);
    const acknowledged = new Map<string, string>();
    const refused: number[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const deviceId = `kill-${w}-${i}`;
        try {
          const res = await call(victim, 'POST', '/v1/track', {
            key: keys.publishable,
            json: trackBody(deviceId, offset(BROOKLYN, w * 10, i)),
          });
          if (res.status === 200) acknowledged.set(deviceId, res.body.user.updatedAt);
          else refused.push(res.status);
        } catch {
          return; // the connection died with the process: that update was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Killed once enough tracks were acknowledged (a loaded machine answers the first ones slowly),
    // while more are in flight.
    await poll(async () => acknowledged.size > 20, 20_000, 50);
    victim.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    assert.ok(
      acknowledged.size > 10,
      `only ${acknowledged.size} tracks were acknowledged before the kill; refused: ${refused.slice(0, 20).join(',')}`,
    );
    const [a] = procs as [ServeProcess];
    for (const [deviceId, updatedAt] of acknowledged) {
      const res = await call(a, 'GET', `/v1/users/${deviceId}`, { key: keys.secret });
      assert.equal(res.status, 200, `acknowledged track of ${deviceId} is lost`);
      assert.equal(res.body.user.updatedAt, updatedAt);
    }
  });
});

describe('an API process while PostgreSQL or Redis is unreachable', { skip }, () => {
  let cleanup: () => Promise<void>;
  let dataDir: string;
  let keys: { publishable: string; secret: string };
  let serve: ServeProcess;
  let db: TcpProxy;
  let redis: TcpProxy;
  let direct: Record<string, string>;
  const get = async (url: string, key?: string) => {
    try {
      return await request(serve.url, 'GET', url, key ? { key } : {});
    } catch (err) {
      // The process's own words on why it stopped answering.
      const tail = `${serve.stderr()}\n${serve.stdout()}`.slice(-3000);
      throw new Error(`GET ${url}: ${(err as Error).message}; exit code ${serve.child.exitCode}; output:\n${tail}`);
    }
  };
  const until = async (what: string, check: () => Promise<boolean>) => {
    if (!(await poll(check, 20_000, 250))) throw new Error(`${what} within 20 s`);
  };

  before(async () => {
    const engine = await engineEnv();
    cleanup = engine.cleanup;
    // The process reaches both through forwarders the test can cut.
    const dbUrl = new URL(engine.env.DATABASE_URL!);
    const redisUrl = new URL(engine.env.REDIS_URL!);
    db = new TcpProxy(dbUrl.hostname, Number(dbUrl.port || 5432));
    redis = new TcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    await db.up();
    await redis.up();
    dbUrl.hostname = '127.0.0.1';
    dbUrl.port = String(db.port);
    redisUrl.hostname = '127.0.0.1';
    redisUrl.port = String(redis.port);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-outage-'));
    const pack = await sharedTestPack();
    direct = { ...engine.env, DATA_DIR: dataDir, GEODATA_DIR: pack.dataDir };
    const env = { ...direct, DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl.toString() };
    const created = await runCli(['projects', 'create', 'outage', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    keys = JSON.parse(created.stdout).keys.test;
    serve = await startServe(env);
  });

  /** Requests counted in the usage table (the test schema, read directly). */
  const usageTotal = async () => {
    const client = new pg.Client({ connectionString: direct.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT COALESCE(SUM(count), 0) AS n FROM usage');
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  };

  after(async () => {
    await serve?.stop();
    await db?.down();
    await redis?.down();
    await cleanup?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('Redis down: /readyz 503 and rate-limited requests 503 with Retry-After; both recover', async () => {
    assert.equal((await get('/readyz')).status, 200);
    await redis.down();
    const ready = await get('/readyz');
    assert.equal(ready.status, 503);
    assert.match(ready.body.meta.message, /^rate limiter is unreachable/);
    const refused = await get('/v1/geofences?limit=1', keys.secret);
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.match(refused.body.meta.message, /^Rate limiting is unavailable/);
    assert.equal(refused.headers.get('retry-after'), '1');
    await redis.up();
    await until('ready again', async () => (await get('/readyz')).status === 200);
    assert.equal((await get('/v1/geofences?limit=1', keys.secret)).status, 200);
  });

  it('PostgreSQL down: /readyz 503 and the process keeps running; it recovers, notifications too', async () => {
    // Usage so far has been flushed (once a second). Three requests are counted just before the outage:
    // their flush fails while it lasts, and they must be stored once it is over.
    await new Promise((r) => setTimeout(r, 1500));
    const countedBefore = await usageTotal();
    for (let i = 0; i < 3; i++) assert.equal((await get('/v1/geofences?limit=1', keys.secret)).status, 200);
    await db.down();
    const ready = await get('/readyz');
    assert.equal(ready.status, 503);
    assert.match(ready.body.meta.message, /^store is unreachable/);
    // A request that needs the database is refused as unavailable (503), never as our fault (500).
    const refused = await get('/v1/geofences?limit=1', keys.secret);
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.headers.get('retry-after'), '1');
    // A usage flush fails meanwhile (it once crashed the process with an unhandled rejection).
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(serve.child.exitCode, null, 'the process is still up');
    assert.equal((await get('/readyz')).status, 503);
    await db.up();
    await until('ready again', async () => (await get('/readyz')).status === 200);
    // Not lost: stored by the first flush after recovery (the refused request may count too, and a
    // flush cut off after its commit may count twice).
    let counted = countedBefore;
    await until('the requests counted before the outage are stored', async () => {
      counted = await usageTotal();
      return counted >= countedBefore + 3;
    }).catch((err: Error) => {
      throw new Error(
        `${err.message}: ${countedBefore} counted before the three requests, ${counted} after the outage`,
      );
    });
    assert.equal((await get('/v1/geofences?limit=1', keys.secret)).status, 200);
    // LISTEN is back on a new connection: a fence written by another process reaches this one's index.
    const spot = offset(BROOKLYN, 9000, 9000);
    const track = (deviceId: string) =>
      request(serve.url, 'POST', '/v1/track', { key: keys.publishable, json: trackBody(deviceId, spot) });
    assert.equal((await track('outage-warm')).status, 200, 'loads the index');
    await new Promise((r) => setTimeout(r, 1500));
    const other = await startServe(direct);
    try {
      const put = await request(other.url, 'PUT', '/v1/geofences/outage/after', {
        key: keys.secret,
        json: { description: 'after', type: 'circle', coordinates: spot, radius: 200 },
      });
      assert.equal(put.status, 200);
      await until('the fence written through the other process is seen', async () => {
        const res = await track(`outage-${Date.now()}`);
        return res.body.user?.geofences?.some((g: { externalId: string }) => g.externalId === 'after') ?? false;
      });
    } finally {
      await other.stop();
    }
  });
});
