import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TrackUnit } from '../src/domain/ports/track-unit.js';
import type { TrackCandidates, TrackIdentity, TrackWrite } from '../src/domain/ports/user-store.js';
import type { Tenant } from '../src/domain/tenant.js';
import type { Trip } from '../src/domain/trips/trip.js';
import type { User } from '../src/domain/users/user.js';
import { PostgresStore } from '../src/storage/postgres/postgres-store.js';
import type { PostgresUserStore } from '../src/storage/postgres/postgres-user-store.js';
import { engineEnv } from './helpers/engine.js';
import { makeEvent, makeTrip, makeUser } from './helpers/fixtures.js';

/**
 * Tracks that reach the PostgreSQL store in one turn of the event loop share a transaction
 * (track-groups.ts): each is still written once, from what the tracks before it wrote, and a failure
 * stays with the track that caused it.
 */
describe('PostgreSQL track groups', { skip: process.env.TEST_STORE !== 'postgres' }, () => {
  let store: PostgresStore;
  let users: PostgresUserStore;
  let cleanup: () => Promise<void>;
  const tenant: Tenant = { projectId: 'groups', live: false };

  before(async () => {
    const engine = await engineEnv();
    store = await PostgresStore.open(engine.env.DATABASE_URL!);
    users = store.users as PostgresUserStore;
    cleanup = async () => {
      await store.close();
      await engine.cleanup();
    };
  });
  after(() => cleanup?.());

  const user = (id: string, identity: TrackIdentity, n: number): User =>
    makeUser(tenant, { id, ...identity, metadata: { n }, createdAt: 1000, updatedAt: 1000 + n });
  const event = makeEvent;
  /** A track that counts in `metadata.n` how many tracks its user has had, and answers what it saw. */
  const counting =
    (id: string, identity: TrackIdentity, eventId?: string) =>
    async (found: TrackCandidates, _unit: TrackUnit): Promise<TrackWrite<number>> => {
      const previous = found.byUserId ?? found.byDeviceId;
      const seen = (previous?.metadata?.n as number | undefined) ?? 0;
      // As the domain does: a track without a userId keeps the one its user has.
      const u = user(
        previous?.id ?? id,
        { ...identity, userId: identity.userId ?? previous?.userId ?? null },
        seen + 1,
      );
      return { user: u, events: eventId ? [event(u, eventId)] : [], result: seen };
    };
  const eventsOf = async (userPk: string) =>
    (await store.events.list(tenant, { limit: 100 })).items.filter((e) => e.user.id === userPk);

  it('tracks of twelve devices sent in one turn commit in one transaction, each user and event once', async () => {
    const before = { ...users.committed };
    const seen = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const identity = { userId: null, deviceId: `dev-g${i}` };
        return users.trackUpdate(tenant, identity, counting(`g${i}`, identity, `e-g${i}`));
      }),
    );
    assert.deepEqual(seen, Array(12).fill(0));
    assert.equal(users.committed.transactions - before.transactions, 1);
    assert.equal(users.committed.tracks - before.tracks, 12);
    for (let i = 0; i < 12; i++) {
      assert.equal((await store.users.get(tenant, `dev-g${i}`))?.metadata?.n, 1);
      assert.deepEqual(
        (await eventsOf(`g${i}`)).map((e) => e.id),
        [`e-g${i}`],
      );
    }
  });

  it('a track reaching a user another track of its group reached runs after the commit, from its writes', async () => {
    const first = { userId: 'app-r', deviceId: 'dev-r0' };
    await users.trackUpdate(tenant, first, counting('r1', first));
    const before = { ...users.committed };
    // One record, two identities: the device alone, and the app userId from another device.
    const byDevice = { userId: null, deviceId: 'dev-r0' };
    const byUserId = { userId: 'app-r', deviceId: 'dev-r1' };
    const seen = await Promise.all([
      users.trackUpdate(tenant, byDevice, counting('unused', byDevice)),
      users.trackUpdate(tenant, byUserId, counting('unused', byUserId)),
    ]);
    assert.deepEqual(seen, [1, 2], 'the second read what the first wrote');
    assert.equal((await store.users.get(tenant, 'r1'))?.metadata?.n, 3);
    assert.equal(users.committed.transactions - before.transactions, 2);
  });

  it('a compute that throws fails its own track only; the others of its group commit once', async () => {
    const before = { ...users.committed };
    const calls = new Map<number, number>();
    const settled = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => {
        const identity = { userId: null, deviceId: `dev-f${i}` };
        const compute = counting(`f${i}`, identity, `e-f${i}`);
        return users.trackUpdate(tenant, identity, async (found, unit) => {
          calls.set(i, (calls.get(i) ?? 0) + 1);
          if (i === 2) throw new Error('compute failed');
          return compute(found, unit);
        });
      }),
    );
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.match(String((settled[2] as PromiseRejectedResult).reason), /compute failed/);
    assert.equal(await store.users.get(tenant, 'dev-f2'), null);
    for (const i of [0, 1, 3, 4]) {
      assert.equal((await store.users.get(tenant, `dev-f${i}`))?.metadata?.n, 1);
      assert.deepEqual(
        (await eventsOf(`f${i}`)).map((e) => e.id),
        [`e-f${i}`],
      );
    }
    // The group rolled back, and each track ran again in a transaction of its own.
    assert.equal(users.committed.tracks - before.tracks, 4);
    assert.equal(users.committed.transactions - before.transactions, 4);
    assert.ok([0, 1].every((i) => calls.get(i) === 2));
  });

  it("two tracks of one group that take one trip's lock run apart, the second reading what the first wrote", async () => {
    const before = { ...users.committed };
    const trip = (n: number): Trip =>
      makeTrip(tenant, { id: 'trip-shared', externalId: 'shared', metadata: { n }, updatedAt: 1000 + n });
    // Advisory locks are re-entrant within a transaction: in one group the second track would take
    // the lock at once and read the trip as committed, without the first's write.
    const seen = await Promise.all(
      [0, 1].map((i) => {
        const identity = { userId: null, deviceId: `dev-t${i}` };
        const compute = counting(`t${i}`, identity);
        return users.trackUpdate(tenant, identity, (found, unit) =>
          store.trips.exclusive(tenant, 'shared', async () => {
            const n = ((await store.trips.get(tenant, 'trip-shared'))?.metadata?.n as number | undefined) ?? 0;
            await store.trips.save(trip(n + 1), {}, unit);
            return compute(found, unit).then((w) => ({ ...w, result: n }));
          }),
        );
      }),
    );
    assert.deepEqual(seen, [0, 1]);
    assert.equal((await store.trips.get(tenant, 'trip-shared'))?.metadata?.n, 2);
    assert.equal(users.committed.transactions - before.transactions, 2);
  });
});
