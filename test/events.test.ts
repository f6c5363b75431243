import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

interface WireEvent {
  _id: string;
  type: string;
  createdAt: string;
  user: { _id: string; userId?: string };
}

describe('GET /v1/events', () => {
  let s: TestServer;
  const clock = new ManualClock();
  let total = 0;
  const secret = () => s.keys.test.secret;
  const list = (query = '') => s.request('GET', `/v1/events${query}`, { key: secret() });

  before(async () => {
    s = await startServer({ clock });
    // Five overlapping fences: one track makes five events with one createdAt. Users 0-11 enter
    // them with the clock moved only now and then, so long runs of equal times cross page limits.
    const c = offset(BROOKLYN, 8000, 8000);
    for (let f = 0; f < 5; f++) await putCircle(s, 'events', `f${f}`, offset(c, f * 10, 0), 300);
    for (let i = 0; i < 12; i++) {
      if (i % 4 === 0) clock.advance(1);
      const res = await track(s, trackBody(`dev-ev-${i}`, c, { userId: `user-ev-${i}` }));
      total += res.body.events.length;
    }
    clock.advance(60_000);
    const exit = await track(s, trackBody('dev-ev-0', offset(c, 5000, 0), { userId: 'user-ev-0' }));
    total += exit.body.events.length;
  });
  after(() => s.close());

  it('lists newest first with hasMore, every timestamp ISO with ms and Z', async () => {
    const res = await list('?limit=3');
    assertOk(res);
    assert.equal(res.body.meta.hasMore, true);
    const events = res.body.events as WireEvent[];
    assert.equal(events[0]!.type, 'user.exited_geofence');
    for (const e of events) {
      assertIsoMs(e.createdAt, 'createdAt');
      assertIsoMs((e as unknown as { actualCreatedAt: string }).actualCreatedAt, 'actualCreatedAt');
    }
    const all = await list('?limit=1000');
    assert.equal(all.body.meta.hasMore, false);
    assert.equal(all.body.events.length, total);
    assert.equal(total, 65);
    const times = (all.body.events as WireEvent[]).map((e) => Date.parse(e.createdAt));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  it('pages exactly with createdBefore: nothing skipped or repeated when many events share a millisecond', async () => {
    for (const limit of [1, 7, 20]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 100; guard++) {
        const res = await list(`?limit=${limit}${cursor ? `&createdBefore=${cursor}` : ''}`);
        assertOk(res);
        const page = res.body.events as WireEvent[];
        seen.push(...page.map((e) => e._id));
        if (!res.body.meta.hasMore) break;
        cursor = page[page.length - 1]!.createdAt;
      }
      assert.equal(seen.length, total, `limit ${limit}`);
      assert.equal(new Set(seen).size, total, `limit ${limit}`);
    }
  });

  it('filters by createdAfter, type (comma list) and userId (app userId or _id)', async () => {
    const all = (await list('?limit=1000')).body.events as WireEvent[];
    const newest = all[0]!;
    const after = await list(`?createdAfter=${all[all.length - 1]!.createdAt}&limit=1000`);
    assert.ok(after.body.events.every((e: WireEvent) => e.createdAt > all[all.length - 1]!.createdAt));
    assert.ok(after.body.events.length > 0 && after.body.events.length < total);

    const exits = await list('?type=user.exited_geofence');
    assert.equal(exits.body.events.length, 5);
    assert.ok(
      exits.body.events.every((e: WireEvent) => e.type === 'user.exited_geofence' && e.createdAt === newest.createdAt),
    );
    const both = await list('?type=user.exited_geofence,user.entered_geofence&limit=1000');
    assert.equal(both.body.events.length, total);
    assert.equal((await list('?type=user.dwelled_in_geofence')).body.events.length, 0);

    const byAppId = await list('?userId=user-ev-3');
    assert.equal(byAppId.body.events.length, 5);
    assert.ok(byAppId.body.events.every((e: WireEvent) => e.user.userId === 'user-ev-3'));
    const byId = await list(`?userId=${byAppId.body.events[0].user._id}`);
    assert.deepEqual(
      byId.body.events.map((e: WireEvent) => e._id),
      byAppId.body.events.map((e: WireEvent) => e._id),
    );
  });

  it('gets one event by id', async () => {
    const first = ((await list('?limit=1')).body.events as WireEvent[])[0]!;
    const res = await s.request('GET', `/v1/events/${first._id}`, { key: secret() });
    assertOk(res);
    assert.deepEqual(res.body.event, first);
    assertError(await s.request('GET', '/v1/events/000000000000000000000000', { key: secret() }), 404, 'id');
  });

  it('keeps events readable after their user is deleted', async () => {
    const mine = (await list('?userId=user-ev-5')).body.events as WireEvent[];
    assert.equal(mine.length, 5);
    assertOk(await s.request('DELETE', '/v1/users/user-ev-5', { key: secret() }));
    const after = await list('?userId=user-ev-5');
    assertOk(after);
    assert.deepEqual(after.body.events, mine);
    assertOk(await s.request('GET', `/v1/events/${mine[0]!._id}`, { key: secret() }));
    assert.equal((await list('?limit=1000')).body.events.length, total);
  });

  it('keeps environments apart', async () => {
    const first = ((await list('?limit=1')).body.events as WireEvent[])[0]!;
    const live = await s.request('GET', '/v1/events', { key: s.keys.live.secret });
    assertOk(live);
    assert.deepEqual(live.body.events, []);
    assertError(await s.request('GET', `/v1/events/${first._id}`, { key: s.keys.live.secret }), 404, 'id');
    const other = await s.createProject('events-other');
    assert.deepEqual((await s.request('GET', '/v1/events', { key: other.keys.test.secret })).body.events, []);
  });

  describe('rejects', () => {
    for (const [query, param] of [
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=2.5', 'limit'],
      ['?createdBefore=soon', 'createdBefore'],
      ['?createdAfter=2026-13-45', 'createdAfter'],
    ] as const) {
      it(query, async () => assertError(await list(query), 400, param));
    }
    it('a publishable key', async () => {
      assertError(await s.request('GET', '/v1/events', { key: s.keys.test.publishable }), 403, 'Authorization');
      assertError(await s.request('GET', '/v1/events/abc', { key: s.keys.test.publishable }), 403, 'Authorization');
    });
    it('no key', async () => assertError(await s.request('GET', '/v1/events'), 401, 'Authorization'));
  });
});
