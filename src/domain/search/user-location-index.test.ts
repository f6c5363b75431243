import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Position } from '../../geo/types.js';
import { UserLocationIndex } from './user-location-index.js';

describe('UserLocationIndex', () => {
  it('finds users within a radius, nearest first, boundary-safe across the antimeridian', () => {
    const index = new UserLocationIndex();
    index.load([
      { id: 'east', location: [179.998, 0], metadata: null },
      { id: 'west', location: [-179.999, 0], metadata: { role: 'driver' } },
      { id: 'far', location: [170, 0], metadata: null },
    ]);
    const hits = index.within([180, 0], 1000, () => true);
    assert.deepEqual(
      hits.map((h) => h.id),
      ['west', 'east'],
    );
    assert.ok(hits.every((h) => h.distanceMeters < 250));
    assert.deepEqual(
      index.nearest([180, 0], 1000, 1, () => true),
      hits.slice(0, 1),
    );
    assert.deepEqual(
      index.nearest([-180, 0], 2_000_000, 5, () => true),
      index.within([-180, 0], 2_000_000, () => true),
    );
    assert.deepEqual(
      index.within([180, 0], 1000, (m) => m?.role === 'driver').map((h) => h.id),
      ['west'],
    );
  });

  it('moves and removes users', () => {
    const index = new UserLocationIndex();
    index.upsert('a', [0, 0], null);
    index.upsert('a', [10, 10], null);
    assert.deepEqual(
      index.within([0, 0], 1000, () => true),
      [],
    );
    assert.equal(index.within([10, 10], 10, () => true)[0]?.id, 'a');
    index.remove('a');
    assert.equal(index.size, 0);
    assert.deepEqual(
      index.within([10, 10], 10, () => true),
      [],
    );
  });

  it('nearest gives the first users of within, however far it has to widen', () => {
    const index = new UserLocationIndex();
    let seed = 3;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    index.load(
      Array.from({ length: 2000 }, (_, i) => ({
        id: `u${i}`,
        location: [2 + (random() - 0.5) * 0.1, 48 + (random() - 0.5) * 0.1],
        metadata: { even: i % 2 === 0 },
      })),
    );
    const keep = (m: { even?: unknown } | null) => m?.even === true;
    for (const count of [1, 10, 100, 5000]) {
      for (const radius of [100, 1000, 3000]) {
        assert.deepEqual(
          index.nearest([2, 48], radius, count, keep),
          index.within([2, 48], radius, keep).slice(0, count),
        );
      }
    }
  });

  it('nearest orders users at equal distances by id, as within does', () => {
    const index = new UserLocationIndex();
    // A grid across the antimeridian with two users on every point: many users at equal distances.
    const users = [];
    for (let i = 0; i < 40; i++) {
      const lon = 179.99 + i * 0.0005;
      for (let j = 0; j < 40; j++)
        for (const k of ['b', 'a'])
          users.push({
            id: `${k}${i}-${j}`,
            location: [lon > 180 ? lon - 360 : lon, 10 + j * 0.0005] as Position,
            metadata: { k },
          });
    }
    index.load(users);
    const keepA = (m: { k?: unknown } | null) => m?.k === 'a';
    for (const center of [
      [179.995, 10.005],
      [-179.999, 10.01],
      [180, 10],
      [179.99, 9.99],
    ] as Array<[number, number]>) {
      for (const count of [1, 7, 50, 400]) {
        for (const radius of [30, 300, 3000]) {
          assert.deepEqual(
            index.nearest(center, radius, count, () => true),
            index.within(center, radius, () => true).slice(0, count),
          );
          assert.deepEqual(
            index.nearest(center, radius, count, keepA),
            index.within(center, radius, keepA).slice(0, count),
          );
        }
      }
    }
  });
});
