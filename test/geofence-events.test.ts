import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, putCircle, track, trackBody, typesOf } from './helpers/tracking.js';

const MINUTE = 60_000;

describe('geofence events', () => {
  let s: TestServer;
  const clock = new ManualClock();
  let area = 0;
  /** A fresh spot 3 km from every other test's, so fences never overlap across tests. */
  const spot = (): LonLat => offset(BROOKLYN, 3000 * (area % 10), 3000 * Math.floor(area++ / 10));
  /** Tracks after moving the clock on (one device may send once per second). */
  const step = (body: Record<string, unknown>, ms = MINUTE) => {
    clock.advance(ms);
    return track(s, body);
  };
  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('enters, stays without repeating, exits with duration, and enters again', async () => {
    const c = spot();
    const id = await putCircle(s, 'ev', 'cycle', c, 100, { metadata: { store: 7, open: true } });
    const enter = await step(trackBody('dev-cycle', c, { userId: 'user-cycle', metadata: { plan: 'gold' } }));
    assertOk(enter);
    assert.deepEqual(typesOf(enter), ['user.entered_geofence']);
    const e = enter.body.events[0];
    assert.match(e._id, /^[0-9a-f]{24}$/);
    assert.equal(e.live, false);
    assertIsoMs(e.createdAt, 'createdAt');
    assertIsoMs(e.actualCreatedAt, 'actualCreatedAt');
    assert.deepEqual(e.user, {
      _id: enter.body.user._id,
      userId: 'user-cycle',
      deviceId: 'dev-cycle',
      metadata: { plan: 'gold' },
    });
    assert.deepEqual(e.geofence, {
      _id: id,
      tag: 'ev',
      externalId: 'cycle',
      description: 'ev cycle',
      metadata: { store: 7, open: true },
    });
    assert.deepEqual(e.location, { type: 'Point', coordinates: c });
    assert.equal(e.locationAccuracy, 10);
    assert.equal(e.confidence, 3);
    assert.equal(e.duration, undefined);
    assert.equal(e.replayed, false);
    assert.deepEqual(
      enter.body.user.geofences.map((g: { _id: string }) => g._id),
      [id],
    );

    assert.deepEqual(typesOf(await step(trackBody('dev-cycle', offset(c, 30, 0)), 10 * MINUTE)), []);
    const exit = await step(trackBody('dev-cycle', offset(c, 500, 0)), 5 * MINUTE);
    assert.deepEqual(typesOf(exit), ['user.exited_geofence']);
    assert.equal(exit.body.events[0].duration, 15);
    assert.equal(exit.body.events[0].confidence, 3);
    assert.deepEqual(exit.body.user.geofences, []);
    assert.deepEqual(typesOf(await step(trackBody('dev-cycle', offset(c, 600, 0)))), []);
    assert.deepEqual(typesOf(await step(trackBody('dev-cycle', c))), ['user.entered_geofence']);
  });

  it('rates confidence 3 inside, 2 across the boundary, 1 when the fix is coarser than the fence', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'confidence', c, 100);
    const high = await step(trackBody('dev-conf-3', offset(c, 50, 0), { accuracy: 20 }));
    assert.equal(high.body.events[0].confidence, 3);
    const medium = await step(trackBody('dev-conf-2', offset(c, 80, 0), { accuracy: 30 }));
    assert.equal(medium.body.events[0].confidence, 2);
    const low = await step(trackBody('dev-conf-1', c, { accuracy: 150 }));
    assert.equal(low.body.events[0].confidence, 1);
  });

  it('does not exit while the point is outside by less than its accuracy (jitter), capped at 100 m', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'jitter', c, 100);
    assert.deepEqual(typesOf(await step(trackBody('dev-jitter', c))), ['user.entered_geofence']);
    // 30 m outside with a 50 m fix: could still be inside.
    const edge = await step(trackBody('dev-jitter', offset(c, 130, 0), { accuracy: 50 }));
    assert.deepEqual(typesOf(edge), []);
    assert.equal(edge.body.user.geofences.length, 1);
    assert.deepEqual(typesOf(await step(trackBody('dev-jitter', offset(c, 95, 0), { accuracy: 50 }))), []);
    // 80 m outside with a 500 m fix: the band is capped at 100 m, so no exit yet...
    assert.deepEqual(typesOf(await step(trackBody('dev-jitter', offset(c, 180, 0), { accuracy: 500 }))), []);
    // ...but 150 m outside is beyond the cap, whatever the accuracy.
    const exit = await step(trackBody('dev-jitter', offset(c, 250, 0), { accuracy: 500 }));
    assert.deepEqual(typesOf(exit), ['user.exited_geofence']);
    assert.equal(exit.body.events[0].confidence, 1);

    assert.deepEqual(typesOf(await step(trackBody('dev-jitter-2', c))), ['user.entered_geofence']);
    const out = await step(trackBody('dev-jitter-2', offset(c, 170, 0), { accuracy: 50 }));
    assert.deepEqual(typesOf(out), ['user.exited_geofence']);
    assert.equal(out.body.events[0].confidence, 3);
  });

  it('with stopDetection, enters only on an update with stopped: true', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'stop', c, 100, { stopDetection: true });
    assert.deepEqual(typesOf(await step(trackBody('dev-stop', c, { stopped: false }))), []);
    assert.deepEqual(typesOf(await step(trackBody('dev-stop', c))), []);
    assert.deepEqual(typesOf(await step(trackBody('dev-stop', c, { stopped: true }))), ['user.entered_geofence']);
    // Inside, moving again does not exit.
    assert.deepEqual(typesOf(await step(trackBody('dev-stop', offset(c, 20, 0), { stopped: false }))), []);
  });

  it('emits user.dwelled_in_geofence once, on the first update after dwellThreshold minutes inside', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'dwell', c, 100, { dwellThreshold: 5 });
    assert.deepEqual(typesOf(await step(trackBody('dev-dwell', c))), ['user.entered_geofence']);
    assert.deepEqual(typesOf(await step(trackBody('dev-dwell', c), 4 * MINUTE)), []);
    const dwell = await step(trackBody('dev-dwell', c), 2 * MINUTE);
    assert.deepEqual(typesOf(dwell), ['user.dwelled_in_geofence']);
    assert.equal(dwell.body.events[0].duration, 6);
    assert.ok(dwell.body.events[0].geofence._id);
    assert.deepEqual(typesOf(await step(trackBody('dev-dwell', c), 10 * MINUTE)), []);
    const exit = await step(trackBody('dev-dwell', offset(c, 1000, 0)));
    assert.deepEqual(typesOf(exit), ['user.exited_geofence']);
    assert.equal(exit.body.events[0].duration, 17);
  });

  it('a fence restricted to a userId generates events only for that user', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'vip', c, 100, { userId: 'vip-user' });
    assert.deepEqual(typesOf(await step(trackBody('dev-anon', c))), []);
    assert.deepEqual(typesOf(await step(trackBody('dev-other', c, { userId: 'other-user' }))), []);
    const vip = await step(trackBody('dev-vip', c, { userId: 'vip-user' }));
    assert.deepEqual(typesOf(vip), ['user.entered_geofence']);
  });

  it('disabled fences generate no events', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'disabled', c, 100, { enabled: false });
    const res = await step(trackBody('dev-disabled', c));
    assert.deepEqual(typesOf(res), []);
    assert.deepEqual(res.body.user.geofences, []);
  });

  it('a fence past disableAfter stops generating events; the user leaves it silently', async () => {
    const c = spot();
    const soon = new Date(clock.now() + 5 * MINUTE).toISOString();
    await putCircle(s, 'ev', 'expiring', c, 100, { disableAfter: soon });
    assert.deepEqual(typesOf(await step(trackBody('dev-expiring', c))), ['user.entered_geofence']);
    const later = await step(trackBody('dev-expiring', offset(c, 1000, 0)), 10 * MINUTE);
    assert.deepEqual(typesOf(later), []);
    assert.deepEqual(later.body.user.geofences, []);
    assert.deepEqual(typesOf(await step(trackBody('dev-expiring-2', c))), []);
  });

  it('a fence past deleteAfter generates no events', async () => {
    const c = spot();
    const soon = new Date(clock.now() + 2 * MINUTE).toISOString();
    await putCircle(s, 'ev', 'temporary', c, 100, { deleteAfter: soon });
    assert.deepEqual(typesOf(await step(trackBody('dev-temporary', c))), ['user.entered_geofence']);
    const gone = await step(trackBody('dev-temporary', c), 5 * MINUTE);
    assert.deepEqual(typesOf(gone), []);
    assert.deepEqual(gone.body.user.geofences, []);
    assert.deepEqual(typesOf(await step(trackBody('dev-temporary-2', c))), []);
  });

  it('a deleted fence generates no exit, and leaves the user', async () => {
    const c = spot();
    const id = await putCircle(s, 'ev', 'deleted', c, 100);
    assert.deepEqual(typesOf(await step(trackBody('dev-deleted', c))), ['user.entered_geofence']);
    assertOk(await s.request('DELETE', `/v1/geofences/${id}`, { key: s.keys.test.secret }));
    const after = await step(trackBody('dev-deleted', offset(c, 1000, 0)));
    assert.deepEqual(typesOf(after), []);
    assert.deepEqual(after.body.user.geofences, []);
  });

  it('a user already inside a new fence enters it on the next update, not at creation', async () => {
    const c = spot();
    const first = await step(trackBody('dev-new-fence', c));
    const id = await putCircle(s, 'ev', 'new', c, 100);
    const none = await s.request('GET', `/v1/events?userId=${first.body.user._id}`, { key: s.keys.test.secret });
    assert.deepEqual(none.body.events, []);
    const next = await step(trackBody('dev-new-fence', c));
    assert.deepEqual(typesOf(next), ['user.entered_geofence']);
    assert.equal(next.body.events[0].geofence._id, id);
  });

  it('follows a fence that moved: the user inside its old place exits', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'moving', c, 100);
    assert.deepEqual(typesOf(await step(trackBody('dev-moving', c))), ['user.entered_geofence']);
    await putCircle(s, 'ev', 'moving', offset(c, 1000, 0), 100);
    assert.deepEqual(typesOf(await step(trackBody('dev-moving', c))), ['user.exited_geofence']);
    assert.deepEqual(typesOf(await step(trackBody('dev-moving', offset(c, 1000, 0)))), ['user.entered_geofence']);
  });

  it('polygons generate events too', async () => {
    const c = spot();
    const [lon, lat] = c;
    const d = 0.002;
    const ring = [
      [lon - d, lat - d],
      [lon + d, lat - d],
      [lon + d, lat + d],
      [lon - d, lat + d],
      [lon - d, lat - d],
    ];
    const put = await s.request('PUT', '/v1/geofences/ev/polygon', {
      key: s.keys.test.secret,
      json: { description: 'Square', type: 'polygon', coordinates: ring },
    });
    assertOk(put);
    assert.deepEqual(typesOf(await step(trackBody('dev-polygon', offset(c, 1000, 0)))), []);
    assert.deepEqual(typesOf(await step(trackBody('dev-polygon', c))), ['user.entered_geofence']);
    assert.deepEqual(typesOf(await step(trackBody('dev-polygon', offset(c, 1000, 0)))), ['user.exited_geofence']);
  });

  it('moving between two fences reads exit, then entry; overlapping fences enter together', async () => {
    const c = spot();
    const a = await putCircle(s, 'ev', 'pair-a', c, 100);
    const b = await putCircle(s, 'ev', 'pair-b', offset(c, 400, 0), 100);
    await step(trackBody('dev-pair', c));
    const move = await step(trackBody('dev-pair', offset(c, 400, 0)));
    assert.deepEqual(typesOf(move), ['user.exited_geofence', 'user.entered_geofence']);
    assert.equal(move.body.events[0].geofence._id, a);
    assert.equal(move.body.events[1].geofence._id, b);

    const o = spot();
    const ids = [
      await putCircle(s, 'ev', 'overlap-1', o, 200),
      await putCircle(s, 'ev', 'overlap-2', offset(o, 50, 0), 200),
    ].sort();
    const both = await step(trackBody('dev-overlap', o));
    assert.deepEqual(typesOf(both), ['user.entered_geofence', 'user.entered_geofence']);
    assert.deepEqual(
      both.body.events.map((e: { geofence: { _id: string } }) => e.geofence._id),
      ids,
    );
    assert.equal(both.body.user.geofences.length, 2);
  });

  it('dates events by the update: createdAt is the client time, actualCreatedAt the server time', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'dated', c, 100);
    clock.advance(MINUTE);
    const at = new Date(clock.now() - 90_000).toISOString();
    const res = await track(s, trackBody('dev-dated', c, { updatedAt: at }));
    const e = res.body.events[0];
    assert.equal(e.createdAt, at);
    assert.equal(e.actualCreatedAt, new Date(clock.now()).toISOString());
  });

  it('fences of the live environment never fire for test tracks', async () => {
    const c = spot();
    await putCircle(s, 'ev', 'live-only', c, 100, {}, s.keys.live.secret);
    assert.deepEqual(typesOf(await step(trackBody('dev-test-env', c))), []);
    const live = await track(s, trackBody('dev-live-env', c), s.keys.live.publishable);
    assert.deepEqual(typesOf(live), ['user.entered_geofence']);
    assert.equal(live.body.events[0].live, true);
  });
});
