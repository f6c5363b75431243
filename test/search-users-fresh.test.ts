import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle, track, trackBody } from './helpers/tracking.js';

/**
 * User search keeps the stored users it has read (UserLocationRegistry): every answer below follows a
 * search that has already returned the user, so a kept copy that outlived a write would show.
 */
describe('GET /v1/search/users answers with users as stored now', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const P = offset(BROOKLYN, -12_000, 9000);
  type Found = { deviceId: string; description?: string; metadata?: Record<string, unknown>; geofences: unknown[] };
  const search = async (query = '', p: LonLat = P): Promise<Found[]> => {
    const res = await s.request('GET', `/v1/search/users?near=${p[1]},${p[0]}${query}`, { key: s.keys.test.secret });
    assertOk(res);
    return res.body.users;
  };
  const one = async (deviceId: string) => (await search()).find((u) => u.deviceId === deviceId);
  const again = async (body: Record<string, unknown>) => {
    clock.advance(2000); // past the device's track rate limit
    assertOk(await track(s, body));
  };

  before(async () => {
    s = await startServer({ clock });
    assertOk(await track(s, trackBody('d-a', P, { userId: 'alice', description: 'first' })));
    assertOk(await track(s, trackBody('d-b', offset(P, 100, 0), { userId: 'bob', metadata: { shift: 'day' } })));
    assertOk(await track(s, trackBody('d-c', offset(P, 200, 0), { userId: 'carol' })));
  });
  after(() => s.close());

  it('shows what a track of the user changed where it stayed', async () => {
    assert.equal((await one('d-a'))?.description, 'first');
    await again(trackBody('d-a', offset(P, 1, 0), { userId: 'alice', description: 'second' }));
    assert.equal((await one('d-a'))?.description, 'second');
  });

  it('filters on the metadata the last track stored', async () => {
    const shift = async (v: string) => (await search(`&metadata[shift]=${v}`)).map((u) => u.deviceId);
    assert.deepEqual(await shift('day'), ['d-b']);
    await again(trackBody('d-b', offset(P, 100, 0), { userId: 'bob', metadata: { shift: 'night' } }));
    assert.deepEqual(await shift('day'), []);
    assert.deepEqual(await shift('night'), ['d-b']);
    assert.deepEqual((await one('d-b'))?.metadata, { shift: 'night' });
  });

  it('lists the fences the user entered since, as they are now, and none once deleted', async () => {
    assert.deepEqual((await one('d-c'))?.geofences, []);
    const fence = await putCircle(s, 'shop', 'c', offset(P, 200, 0), 50);
    await again(trackBody('d-c', offset(P, 200, 0), { userId: 'carol' }));
    const fences = async () => ((await one('d-c'))?.geofences ?? []) as Array<{ _id: string; description: string }>;
    assert.deepEqual(
      (await fences()).map((g) => g._id),
      [fence],
    );
    await putCircle(s, 'shop', 'c', offset(P, 200, 0), 50, { description: 'renamed' });
    assert.deepEqual(
      (await fences()).map((g) => g.description),
      ['renamed'],
    );
    assertOk(await s.request('DELETE', `/v1/geofences/${fence}`, { key: s.keys.test.secret }));
    assert.deepEqual(await fences(), []);
  });

  it('leaves out a user deleted by userId or deviceId', async () => {
    assert.ok(await one('d-b'));
    assertOk(await s.request('DELETE', '/v1/users/bob', { key: s.keys.test.secret }));
    assert.equal(await one('d-b'), undefined);
    assert.ok(await one('d-a'));
    assertOk(await s.request('DELETE', '/v1/users/d-a', { key: s.keys.test.secret }));
    assert.equal(await one('d-a'), undefined);
    assert.ok(await one('d-c'), 'the others are still found');
  });

  it('sees at once what another process wrote to the store', async () => {
    if (s.deps.store.engine !== 'sqlite') return; // PostgreSQL searches its own table, nothing kept
    assert.equal((await one('d-c'))?.description, undefined);
    const other = SqliteStore.open(s.dataDir);
    try {
      const [carol] = await other.users.getMany({ projectId: s.projectId, live: false }, [await idOf('d-c')]);
      assert.ok(carol);
      await other.users.save({ ...carol, description: 'written elsewhere' });
      // No wait for the server's poll: a search must look before answering from what it kept.
      assert.equal((await one('d-c'))?.description, 'written elsewhere');
      await other.users.delete({ projectId: s.projectId, live: false }, carol.id);
      assert.equal(await one('d-c'), undefined);
    } finally {
      await other.close();
    }
  });

  async function idOf(deviceId: string): Promise<string> {
    const res = await s.request('GET', `/v1/users/${deviceId}`, { key: s.keys.test.secret });
    assertOk(res);
    return res.body.user._id;
  }
});
