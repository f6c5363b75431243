// store-independent: routes and matrices are computed from the pack's road graphs, never the store
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Position } from '../src/geo/types.js';
import { type GeodataPack, openGeodataPack } from '../src/geodata/pack.js';
import { RoadRouter } from '../src/routing/road-router.js';
import { type OsmTestPack, withOsmRegion } from './helpers/osm.js';

/** Downtown Honolulu to Mōʻiliʻili, inland of the shore: a seeded spread of points. */
function points(count: number, seed: number): Position[] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  return Array.from({ length: count }, () => [-157.88 + next() * 0.08, 21.29 + next() * 0.05] as Position);
}

describe('ETA routes to kept destinations (RoadRouter.route) on Oʻahu', () => {
  let pack: OsmTestPack | { skip: string };
  let geodata: GeodataPack;
  before(async () => {
    pack = await withOsmRegion('honolulu-oahu-hi-2018.osm.pbf');
    if ('skip' in pack) return;
    geodata = await openGeodataPack(pack.dataDir);
  });
  after(async () => {
    if (pack && !('skip' in pack)) await pack.remove();
  });

  it('answers what the full route query answers, for every origin and mode, destinations repeated', async (t) => {
    if ('skip' in pack) {
      t.skip(pack.skip);
      return;
    }
    const router = new RoadRouter({ current: () => geodata, unavailableReason: () => '' });
    const destinations = points(6, 7);
    let roads = 0;
    for (const mode of ['car', 'bike', 'foot'] as const) {
      for (const [i, origin] of points(150, 11).entries()) {
        const destination = destinations[i % destinations.length]!;
        const kept = await router.route(origin, destination, mode);
        const full = router.routeSync(origin, destination, mode);
        if (full.source === 'roads') roads++;
        assert.ok(
          Math.abs(kept.durationSeconds - full.durationSeconds) < 1e-6,
          `${mode} ${origin} → ${destination}: ${kept.durationSeconds} s vs ${full.durationSeconds} s`,
        );
        // Two ways of the same duration may differ in length; none did on these points.
        assert.ok(
          Math.abs(kept.distanceMeters - full.distanceMeters) < 1e-6,
          `${mode} ${origin} → ${destination}: ${kept.distanceMeters} m vs ${full.distanceMeters} m`,
        );
      }
    }
    assert.ok(roads > 300, `${roads} of 450 routes on roads (the rest off the network, estimated)`);
  });
});
