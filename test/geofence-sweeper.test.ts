import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';

describe('deleteAfter sweeper', () => {
  const clock = new ManualClock();
  let s: TestServer;
  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('removes fences past deleteAfter from the store and keeps the others', async () => {
    const key = s.keys.test.secret;
    const soon = new Date(clock.now() + 60_000).toISOString();
    const body = (deleteAfter?: string) => ({
      description: 'd',
      type: 'circle',
      coordinates: [-73.98, 40.7],
      radius: 50,
      ...(deleteAfter ? { deleteAfter } : {}),
    });
    const temp = await s.request('PUT', '/v1/geofences/sweep/temp', { key, json: body(soon) });
    assertOk(temp);
    assertOk(await s.request('PUT', '/v1/geofences/sweep/kept', { key, json: body() }));
    assert.equal(await s.deps.services.geofences.purgeExpired(), 0, 'nothing is due yet');
    clock.advance(60_001);
    assert.equal(await s.deps.services.geofences.purgeExpired(), 1);
    const tenant = { projectId: s.projectId, live: false };
    assert.equal(await s.deps.store.geofences.get(tenant, temp.body.geofence._id), null);
    const left = await s.request('GET', '/v1/geofences?tag=sweep', { key });
    assert.deepEqual(
      left.body.geofences.map((g: { externalId: string }) => g.externalId),
      ['kept'],
    );
  });
});
