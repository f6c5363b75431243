import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Geofence } from '../src/domain/geofences/geofence.js';
import { assertOk } from './helpers/assertions.js';
import { asOtherProcess } from './helpers/other-process.js';
import { ManualClock } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';

/** GET /v1/geofences/:id answers from serialised documents; these tests pin down when they are dropped. */
describe('geofence reads stay exact with the document cache', () => {
  const clock = new ManualClock();
  let key: string;
  const srv = serverSuite({ clock }, async (s) => {
    key = s.keys.test.secret;
  });

  const put = (externalId: string, body: Record<string, unknown>) =>
    srv.s.request('PUT', `/v1/geofences/cache/${externalId}`, {
      key,
      json: { type: 'circle', coordinates: [-73.98, 40.7], radius: 50, ...body },
    });

  it('an update through the API is read back at once', async () => {
    const created = await put('a', { description: 'first' });
    assertOk(created);
    const id = created.body.geofence._id;
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.description, 'first');
    assertOk(await put('a', { description: 'second' }));
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.description, 'second');
    assertOk(await srv.s.request('DELETE', `/v1/geofences/${id}`, { key }));
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).status, 404);
  });

  it('enabled turns false when disableAfter passes, although the fence did not change', async () => {
    const created = await put('b', {
      description: 'timed',
      disableAfter: new Date(clock.now() + 60_000).toISOString(),
    });
    const id = created.body.geofence._id;
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.enabled, true);
    clock.advance(60_001);
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.enabled, false);
  });

  it('a write by another process is seen by the next read', async () => {
    const created = await put('c', { description: 'mine' });
    const id = created.body.geofence._id;
    assert.equal((await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.description, 'mine');
    await asOtherProcess(srv.s, async (other) => {
      const tenant = { projectId: srv.s.projectId, live: false };
      const stored = (await other.geofences.get(tenant, id)) as Geofence;
      await other.geofences.upsert({ ...stored, description: 'theirs', updatedAt: stored.updatedAt + 1 }, Date.now());
    });
    // SQLite: exact at once (each read checks data_version). PostgreSQL: as soon as NOTIFY arrives.
    const deadline = Date.now() + (process.env.TEST_STORE === 'postgres' ? 5000 : 0);
    let description: string;
    do {
      description = (await srv.s.request('GET', `/v1/geofences/${id}`, { key })).body.geofence.description;
      if (description === 'theirs') break;
      await new Promise((r) => setTimeout(r, 50));
    } while (Date.now() < deadline);
    assert.equal(description, 'theirs');
  });
});
