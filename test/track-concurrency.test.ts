import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

// Parallel tracks of one user must come from several devices: one device is limited to 1 per second.
describe('concurrent tracks of one user', () => {
  let s: TestServer;
  const clock = new ManualClock();
  before(async () => {
    s = await startServer({ clock });
    // SQLite answers synchronously, so without a real wait inside the pipeline requests could never
    // interleave. This participant waits like one that calls a router would, opening the race window.
    s.deps.services.tracking.addParticipant({
      name: 'slow-io',
      onTrack: async () => {
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 5));
        return { events: [] };
      },
    });
  });
  after(() => s.close());

  const eventsOf = async (userId: string, type: string) => {
    const res = await s.request('GET', `/v1/events?userId=${userId}&type=${type}&limit=1000`, {
      key: s.keys.test.secret,
    });
    assertOk(res);
    return res.body.events as Array<{ type: string }>;
  };

  it('create one user and exactly one entry event', async () => {
    const center = offset(BROOKLYN, 2000, 2000);
    await putCircle(s, 'concurrent', 'a', center, 300);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => track(s, trackBody(`dev-par-${i}`, center, { userId: 'user-par' }))),
    );
    for (const r of responses) assertOk(r);
    const ids = new Set(responses.map((r) => r.body.user._id));
    assert.equal(ids.size, 1, 'one user');
    const entries = responses.flatMap((r) => r.body.events).filter((e) => e.type === 'user.entered_geofence');
    assert.equal(entries.length, 1);
    assert.equal((await eventsOf('user-par', 'user.entered_geofence')).length, 1);
  });

  it('then exactly one exit and one re-entry, whatever the interleaving', async () => {
    const center = offset(BROOKLYN, 2000, 2000);
    clock.advance(1000);
    const away = offset(center, 2000, 0);
    const out = await Promise.all(
      Array.from({ length: 20 }, (_, i) => track(s, trackBody(`dev-par-${i}`, away, { userId: 'user-par' }))),
    );
    assert.equal(out.flatMap((r) => r.body.events).filter((e) => e.type === 'user.exited_geofence').length, 1);
    clock.advance(1000);
    const back = await Promise.all(
      Array.from({ length: 20 }, (_, i) => track(s, trackBody(`dev-par-${i}`, center, { userId: 'user-par' }))),
    );
    assert.equal(back.flatMap((r) => r.body.events).filter((e) => e.type === 'user.entered_geofence').length, 1);
    assert.equal((await eventsOf('user-par', 'user.exited_geofence')).length, 1);
    assert.equal((await eventsOf('user-par', 'user.entered_geofence')).length, 2);
  });

  it('serialise a device track and a userId track that reach one user through different identities', async () => {
    const center = offset(BROOKLYN, -2000, 2000);
    await putCircle(s, 'concurrent', 'b', center, 300);
    // The user carries userId "user-mixed" and deviceId "dev-mixed-0".
    assertOk(await track(s, trackBody('dev-mixed-0', BROOKLYN, { userId: 'user-mixed' })));
    clock.advance(1000);
    const responses = await Promise.all([
      track(s, trackBody('dev-mixed-0', center)),
      ...Array.from({ length: 10 }, (_, i) =>
        track(s, trackBody(`dev-mixed-${i + 1}`, center, { userId: 'user-mixed' })),
      ),
    ]);
    for (const r of responses) assertOk(r);
    // Whichever order the tracks take, each user enters exactly once. (If a userId track moves the
    // user to a new deviceId before the device-only track reads, that track is, by the identity rule,
    // a different user of the old device, which then enters too: order-dependent, never duplicated.)
    const entries = responses.flatMap((r) => r.body.events).filter((e) => e.type === 'user.entered_geofence');
    const perUser = new Map<string, number>();
    for (const e of entries) perUser.set(e.user._id, (perUser.get(e.user._id) ?? 0) + 1);
    assert.ok(
      [...perUser.values()].every((n) => n === 1),
      JSON.stringify([...perUser]),
    );
    assert.equal((await eventsOf('user-mixed', 'user.entered_geofence')).length, 1);
  });

  it('let different users proceed side by side, each with its own entry', async () => {
    const center = offset(BROOKLYN, 0, -2000);
    await putCircle(s, 'concurrent', 'c', center, 300);
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => track(s, trackBody(`dev-side-${i}`, center))),
    );
    for (const r of responses) {
      assertOk(r);
      assert.deepEqual(
        r.body.events.map((e: { type: string }) => e.type),
        ['user.entered_geofence'],
      );
    }
    assert.equal(new Set(responses.map((r) => r.body.user._id)).size, 25);
  });
});
