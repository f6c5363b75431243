import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { MAX_STREAMS_PER_TENANT } from '../src/domain/events/event-stream.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { makeEvent, makeUser } from './helpers/fixtures.js';
import { asOtherProcess } from './helpers/other-process.js';
import { startServer, type TestServer } from './helpers/server.js';
import { openSse, type SseClient } from './helpers/sse.js';
import { BROOKLYN, offset, trackBody } from './helpers/tracking.js';

const onPostgres = process.env.TEST_STORE === 'postgres';

describe('GET /v1/events/stream', () => {
  let s: TestServer;
  let key: string;
  const streams: SseClient[] = [];
  const open = async (query = '', headers: Record<string, string> = {}, k = key) => {
    const c = await openSse(`${s.url}/v1/events/stream${query}`, { authorization: k, ...headers });
    streams.push(c);
    return c;
  };
  /** A conversion: one event of type `name` for the app user `userId` (tracked first). */
  const convert = async (name: string, userId = 'u1', pk = s.keys.test.publishable) => {
    const res = await s.request('POST', '/v1/events', { key: pk, json: { name, userId } });
    assertOk(res);
    return res.body.event._id as string;
  };
  const tracked = new Set<string>();
  const trackUser = async (userId: string, pk = s.keys.test.publishable) => {
    if (tracked.has(`${pk}/${userId}`)) return;
    tracked.add(`${pk}/${userId}`);
    assertOk(await s.request('POST', '/v1/track', { key: pk, json: trackBody(`dev-${userId}`, BROOKLYN, { userId }) }));
  };

  before(async () => {
    s = await startServer();
    key = s.keys.test.secret;
    await trackUser('u1');
    await trackUser('u2');
  });
  after(async () => {
    for (const c of streams) c.close();
    await s.close();
  });

  it('sends a track’s geofence entry as GET /v1/events prints it, with an id, starting from now', async () => {
    await convert('before_the_stream');
    assertOk(
      await s.request('PUT', '/v1/geofences/sse/home', {
        key,
        json: { description: 'Home', type: 'circle', coordinates: offset(BROOKLYN, 5000, 0), radius: 100 },
      }),
    );
    const c = await open();
    assert.equal(c.status, 200);
    assert.match(c.headers.get('content-type')!, /^text\/event-stream/);
    const res = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('sse-device', offset(BROOKLYN, 5000, 0), { userId: 'sse-user' }),
    });
    assertOk(res);
    const m = await c.next();
    assert.equal(m.event.type, 'user.entered_geofence');
    assert.ok(m.id && m.id.length > 0);
    const listed = await s.request('GET', '/v1/events?limit=100', { key });
    const item = listed.body.events.find((e: { _id: string }) => e._id === m.event._id);
    assert.deepEqual(m.event, item);
    c.close();
  });

  it('resumes after Last-Event-ID (or lastEventId) losing and repeating nothing', async () => {
    const c = await open();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await convert(`first_${i}`));
    const seen: string[] = [];
    let lastId = '';
    for (let i = 0; i < 3; i++) {
      const m = await c.next();
      seen.push(m.event._id);
      lastId = m.id!;
    }
    c.close();
    for (let i = 0; i < 5; i++) ids.push(await convert(`second_${i}`));
    const resumed = await open('', { 'Last-Event-ID': lastId });
    for (let i = 3; i < 10; i++) seen.push((await resumed.next()).event._id);
    assert.deepEqual(seen, ids);
    assert.deepEqual(await resumed.quiet(600), []);
    resumed.close();
    // The query parameter does the same for clients that cannot set the header.
    const byQuery = await open(`?lastEventId=${encodeURIComponent(lastId)}`);
    assert.equal((await byQuery.next()).event._id, ids[3]);
    byQuery.close();
  });

  it('filters by types and userId, and never sends another project’s or environment’s events', async () => {
    const other = await s.createProject('sse-other');
    await trackUser('u1', other.keys.test.publishable);
    await trackUser('u1', s.keys.live.publishable);
    const c = await open('?types=wanted,also_wanted&userId=u1');
    const all = await open();
    await convert('unwanted', 'u1');
    await convert('wanted', 'u2');
    await convert('wanted', 'u1', other.keys.test.publishable);
    await convert('wanted', 'u1', s.keys.live.publishable);
    const a = await convert('wanted', 'u1');
    const b = await convert('also_wanted', 'u1');
    assert.deepEqual([(await c.next()).event._id, (await c.next()).event._id], [a, b]);
    // The unfiltered stream sees this project's four, in order, and nothing of the others.
    const types: string[] = [];
    for (let i = 0; i < 4; i++) types.push((await all.next()).event.type);
    assert.deepEqual(types, ['unwanted', 'wanted', 'wanted', 'also_wanted']);
    assert.deepEqual(await all.quiet(400), []);
    assert.deepEqual(await c.quiet(100), []);
    c.close();
    all.close();
  });

  it('refuses a bad Last-Event-ID, a publishable key, and streams past the limit', async () => {
    const bad = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: key, 'last-event-id': 'x y' } });
    assertError({ status: bad.status, headers: bad.headers, body: await bad.json() }, 400, 'Last-Event-ID');
    const pub = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: s.keys.test.publishable } });
    assert.equal(pub.status, 403);
    await pub.body?.cancel();
    const many: SseClient[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_TENANT; i++) many.push(await open());
    const refused = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: key } });
    assert.equal(refused.status, 429);
    await refused.body?.cancel();
    // Another environment has its own count; a closed stream frees its place.
    const live = await open('', {}, s.keys.live.secret);
    assert.equal(live.status, 200);
    live.close();
    many[0]!.close();
    let again = 0;
    for (let i = 0; i < 40 && again !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const res = await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: key } });
      again = res.status;
      if (again === 200) streams.push({ close: () => res.body?.cancel() } as unknown as SseClient);
      else await res.body?.cancel();
    }
    assert.equal(again, 200);
    for (const m of many) m.close();
  });

  it('delivers an event another process wrote, and on PostgreSQL one whose transaction committed last', async () => {
    // Wait for the limit test's streams to be gone.
    await new Promise((r) => setTimeout(r, 300));
    const c = await open();
    const tenant = { projectId: s.projectId, live: false };
    const user = makeUser(tenant, { id: 'ff0000000000000000000001', updatedAt: Date.now(), userId: 'other-proc' });
    const userId = user.userId ?? null;
    await asOtherProcess(s, (store) =>
      store.events.logConversion({
        event: { ...makeEvent(user, 'ee0000000000000000000001'), type: 'from_elsewhere' },
        deliveries: [],
        day: '2026-01-01',
        revenue: 0,
      }),
    );
    assert.equal((await c.next()).event._id, 'ee0000000000000000000001');
    if (!onPostgres) return;
    // A transaction that wrote first but commits after a later one: its event must still come, in order.
    const db = new pg.Client({ connectionString: s.deps.config.databaseUrl ?? undefined });
    await db.connect();
    try {
      const insert = (client: pg.Client | pg.Pool, id: string) =>
        client.query(
          `INSERT INTO events (id, project_id, live, type, user_pk, user_id, created_at, doc)
           VALUES ($1, $2, false, 'held', $3, $4, $5, $6)`,
          [id, s.projectId, user.id, userId, Date.now(), JSON.stringify({ ...makeEvent(user, id), type: 'held' })],
        );
      await db.query('BEGIN');
      await insert(db, 'ee0000000000000000000002');
      await convert('committed_first');
      assert.deepEqual(await c.quiet(600), [], 'nothing passes a transaction still open');
      await db.query('COMMIT');
      const got = [(await c.next()).event, (await c.next()).event].map((e) => e.type);
      assert.deepEqual(got.sort(), ['committed_first', 'held']);
    } finally {
      await db.end();
    }
  });

  it('ends open streams when the server closes, without waiting for the clients', async () => {
    const c = await open();
    const started = Date.now();
    await s.close();
    assert.ok(Date.now() - started < 5000, `close took ${Date.now() - started} ms`);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(c.ended(), true);
    s.close = async () => {};
  });
});
