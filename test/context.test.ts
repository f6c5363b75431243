import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle } from './helpers/tracking.js';

describe('GET /v1/context', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const at = (p: LonLat, key = s.keys.test.publishable) =>
    s.request('GET', `/v1/context?coordinates=${p[1]},${p[0]}`, { key });
  const ids = (list: Array<{ _id: string }>) => list.map((g) => g._id).sort();
  let inner: string;
  let outer: string;

  before(async () => {
    s = await startServer({ clock });
    inner = await putCircle(s, 'ctx', 'inner', BROOKLYN, 100, { metadata: { kind: 'store' } });
    outer = await putCircle(s, 'ctx', 'outer', BROOKLYN, 1000);
    await putCircle(s, 'ctx', 'disabled', BROOKLYN, 500, { enabled: false });
    await putCircle(s, 'ctx', 'expired', BROOKLYN, 500, { disableAfter: new Date(clock.now() + 1000).toISOString() });
    await putCircle(s, 'ctx', 'deleted', BROOKLYN, 500, { deleteAfter: new Date(clock.now() + 1000).toISOString() });
    await putCircle(s, 'ctx', 'live', BROOKLYN, 500, {}, s.keys.live.secret);
    clock.advance(2000);
  });
  after(() => s.close());

  it('returns the fences containing the point in context, mirrored at the top level', async () => {
    const res = await at(BROOKLYN);
    assertOk(res);
    assert.equal(res.body.context.live, false);
    assert.deepEqual(ids(res.body.context.geofences), [inner, outer].sort());
    // radar-sdk-js 5.x reads the fields at the top level.
    assert.deepEqual(res.body.geofences, res.body.context.geofences);
    assert.equal(res.body.live, false);
    const g = res.body.context.geofences.find((x: { _id: string }) => x._id === inner);
    assert.equal(g.tag, 'ctx');
    assert.equal(g.externalId, 'inner');
    assert.deepEqual(g.metadata, { kind: 'store' });
    assert.deepEqual(g.geometryCenter, { type: 'Point', coordinates: BROOKLYN });
  });

  it('lists only the fences that contain the point', async () => {
    assert.deepEqual(ids((await at(offset(BROOKLYN, 500, 0))).body.context.geofences), [outer]);
    assert.deepEqual((await at(offset(BROOKLYN, 1100, 0))).body.context.geofences, []);
  });

  it('is stateless: no user is created', async () => {
    await at(BROOKLYN);
    const users = await s.request('GET', '/v1/users', { key: s.keys.test.secret });
    assert.deepEqual(users.body.users, []);
  });

  it('keeps environments apart', async () => {
    const live = await at(BROOKLYN, s.keys.live.publishable);
    assert.equal(live.body.context.live, true);
    assert.equal(live.body.context.geofences.length, 1);
    assert.equal(live.body.context.geofences[0].externalId, 'live');
  });

  it('accepts the web SDK encoding (%2C) and an accuracy parameter', async () => {
    const res = await s.request('GET', `/v1/context?coordinates=${BROOKLYN[1]}%2C${BROOKLYN[0]}&accuracy=20`, {
      key: s.keys.test.publishable,
    });
    assertOk(res);
    assert.equal(res.body.context.geofences.length, 2);
  });

  describe('rejects', () => {
    for (const [query, param] of [
      ['', 'coordinates'],
      ['?coordinates=', 'coordinates'],
      ['?coordinates=40.7', 'coordinates'],
      ['?coordinates=91,10', 'coordinates'],
      ['?coordinates=10,181', 'coordinates'],
      ['?coordinates=abc,def', 'coordinates'],
    ] as const) {
      it(`"${query}"`, async () =>
        assertError(await s.request('GET', `/v1/context${query}`, { key: s.keys.test.publishable }), 400, param));
    }
    it('no key', async () =>
      assertError(await s.request('GET', '/v1/context?coordinates=40,-73'), 401, 'Authorization'));
  });
});
