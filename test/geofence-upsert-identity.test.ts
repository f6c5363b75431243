import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from './helpers/assertions.js';
import { makeCircleGeofence } from './helpers/fixtures.js';
import { asOtherProcess } from './helpers/other-process.js';
import { ManualClock } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';

/**
 * Which fence a PUT by tag + externalId rewrites, when that fence was deleted or replaced in between,
 * here or by another process: a cache of fences' ids and createdAt must not change these answers.
 */
describe('geofence upserts keep the right id and createdAt', () => {
  const clock = new ManualClock();
  let key: string;
  const srv = serverSuite({ clock }, async (s) => {
    key = s.keys.test.secret;
  });

  const put = async (externalId: string, description: string) => {
    clock.advance(1000);
    const res = await srv.s.request('PUT', `/v1/geofences/lifetimes/${externalId}`, {
      key,
      json: { description, type: 'circle', coordinates: [-73.98, 40.7], radius: 50 },
    });
    assertOk(res);
    return res.body.geofence as { _id: string; createdAt: string; description: string };
  };
  const tenant = () => ({ projectId: srv.s.projectId, live: false });

  it('rewriting a fence keeps its id and createdAt', async () => {
    const first = await put('same', 'one');
    const second = await put('same', 'two');
    assert.equal(second._id, first._id);
    assert.equal(second.createdAt, first.createdAt);
    assert.equal(second.description, 'two');
  });

  it('after a DELETE through the API, the next PUT creates a new fence', async () => {
    const first = await put('deleted-here', 'one');
    assertOk(await srv.s.request('DELETE', `/v1/geofences/${first._id}`, { key }));
    const second = await put('deleted-here', 'two');
    assert.notEqual(second._id, first._id);
    assert.notEqual(second.createdAt, first.createdAt);
  });

  it('after another process deletes the fence, the next PUT creates a new fence', async () => {
    const first = await put('deleted-there', 'one');
    await asOtherProcess(srv.s, async (other) => {
      assert.equal(await other.geofences.delete(tenant(), first._id), true);
    });
    const second = await put('deleted-there', 'two');
    assert.notEqual(second._id, first._id);
    assert.notEqual(second.createdAt, first.createdAt);
    assert.equal((await srv.s.request('GET', `/v1/geofences/${second._id}`, { key })).body.geofence.description, 'two');
  });

  it('after another process gives the tag to another fence, the next PUT rewrites that fence', async () => {
    const first = await put('replaced-there', 'one');
    await asOtherProcess(srv.s, async (other) => {
      await other.geofences.delete(tenant(), first._id);
      await other.geofences.upsert(
        makeCircleGeofence(tenant(), { id: 'theirs-1', tag: 'lifetimes', externalId: 'replaced-there', createdAt: 42 }),
        Date.now(),
      );
    });
    const second = await put('replaced-there', 'two');
    assert.equal(second._id, 'theirs-1');
    assert.equal(second.createdAt, new Date(42).toISOString());
    assert.equal((await srv.s.request('GET', `/v1/geofences/${first._id}`, { key })).status, 404);
  });
});
