import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Position } from '../../geo/types.js';
import { OsmFile, type OsmRelation, type OsmTags, type OsmWay } from '../../geodata/osm/osm-file.js';
import { type GraphMode, parseMaxheight, parseMaxweight } from './profiles.js';
import { buildRoadGraphs, openRoadGraphs } from './road-graphs.js';

/**
 * A 5×5 street grid, 0.001° (about 110 m) apart, node id = 1 + row * 5 + col. Rows run west→east,
 * columns south→north.
 */
const N = 5;
const STEP = 0.001;
const id = (row: number, col: number) => 1 + row * N + col;
const at = (row: number, col: number): Position => [col * STEP, row * STEP];

/** A `side` × `side` grid of streets STEP apart, each row and column one way tagged by `tags`. */
function gridFile(
  extraWays: OsmWay[] = [],
  relations: OsmRelation[] = [],
  tags: (row: boolean, i: number) => OsmTags,
  side = N,
) {
  const node = (row: number, col: number) => 1 + row * side + col;
  const ids: number[] = [];
  const lons: number[] = [];
  const lats: number[] = [];
  for (let r = 0; r < side; r++) {
    for (let c = 0; c < side; c++) {
      ids.push(node(r, c));
      lons.push(c * STEP);
      lats.push(r * STEP);
    }
  }
  const ways: OsmWay[] = [];
  for (let i = 0; i < side; i++) {
    ways.push({ id: 100 + i, refs: Array.from({ length: side }, (_, c) => node(i, c)), tags: tags(true, i) });
    ways.push({ id: 200 + i, refs: Array.from({ length: side }, (_, r) => node(r, i)), tags: tags(false, i) });
  }
  return new OsmFile(
    'grid.osm.pbf',
    Float64Array.from(ids),
    Float64Array.from(lons),
    Float64Array.from(lats),
    [],
    [...ways, ...extraWays],
    relations,
  );
}

async function built(osm: OsmFile) {
  const dir = await mkdtemp(join(tmpdir(), 'roads-'));
  const result = await buildRoadGraphs(osm, dir, () => {});
  const graphs = await openRoadGraphs(dir);
  assert.ok(graphs);
  await rm(dir, { recursive: true, force: true });
  return { graphs, result };
}

/** Meters of the fastest route between two points by a mode, or null when not connected. */
function meters(
  graphs: NonNullable<Awaited<ReturnType<typeof openRoadGraphs>>>,
  mode: GraphMode,
  a: Position,
  b: Position,
) {
  const g = graphs.graph(mode)!;
  const sa = g.snap(a, 50);
  const sb = g.snap(b, 50);
  assert.ok(sa && sb, 'both points snap');
  return g.route(sa, sb)?.meters ?? null;
}

const residential = () => ({ highway: 'residential' });

/** No left turn from row 2 (eastbound) into column 2 (northbound) at the centre node. */
const NO_LEFT_TURN: OsmRelation = {
  id: 1,
  tags: { type: 'restriction', restriction: 'no_left_turn' },
  members: [
    { type: 'way', ref: 102, role: 'from' },
    { type: 'node', ref: id(2, 2), role: 'via' },
    { type: 'way', ref: 202, role: 'to' },
  ],
};

describe('road graphs', () => {
  it('routes along the grid and agrees with plain Dijkstra by length', async () => {
    const { graphs, result } = await built(gridFile([], [], residential));
    assert.equal(result.counts.carEdges, 2 * 2 * N * (N - 1));
    const d = meters(graphs, 'car', at(0, 0), at(4, 4))!;
    // Manhattan distance: 8 blocks of about 111 m.
    assert.ok(Math.abs(d - 8 * 111.2) < 5, `${d}`);
    const g = graphs.graph('car')!;
    for (const [a, b] of [
      [at(0, 1), at(3, 2)],
      [at(4, 0), at(0, 4)],
      [
        [0.0005, 0.002],
        [0.0031, 0.004],
      ],
    ] as Array<[Position, Position]>) {
      const sa = g.snap(a, 50)!;
      const sb = g.snap(b, 50)!;
      assert.ok(Math.abs(g.route(sa, sb)!.meters - g.shortestMeters(sa, sb)) < 0.01);
    }
  });

  it('walks a grid of equal streets through the uncontracted core, exactly as plain Dijkstra does', async () => {
    // Footways only, all at one walking speed: nothing ranks one street above another, so contraction
    // leaves a dense core that queries search with a plain bidirectional Dijkstra.
    const side = 40;
    const osm = gridFile([], [], () => ({ highway: 'footway' }), side);
    const { graphs, result } = await built(osm);
    assert.ok((result.counts.footCoreJunctions ?? 0) > 0, 'the foot graph keeps a core');
    const g = graphs.graph('foot')!;
    const points: Position[] = [];
    for (let k = 0; k < 12; k++) points.push([((k * 7) % side) * STEP + 0.0003, ((k * 11) % side) * STEP]);
    const snaps = points.map((p) => g.snap(p, 50)!);
    const matrix = g.matrix(snaps, snaps);
    for (const [i, a] of snaps.entries()) {
      for (const [j, b] of snaps.entries()) {
        const route = g.route(a, b)!;
        assert.ok(Math.abs(route.meters - g.shortestMeters(a, b)) < 0.01, `${i}→${j}`);
        assert.ok(Math.abs(matrix[i]![j]!.seconds - route.seconds) < 1e-9, `matrix ${i}→${j}`);
      }
    }
  });

  it('answers a matrix with the routes of one query per pair (one-ways, a turn restriction, one chain)', async () => {
    const { graphs } = await built(
      gridFile([], [NO_LEFT_TURN], (row, i) =>
        row && i === 3 ? { highway: 'residential', oneway: 'yes' } : residential(),
      ),
    );
    const points: Position[] = [
      at(0, 0),
      at(2, 2),
      [0.0015, 0.002],
      [0.0035, 0.002],
      [0.002, 0.0035],
      at(3, 4),
      [0.0012, 0.003],
    ];
    for (const mode of ['car', 'foot'] as const) {
      const g = graphs.graph(mode)!;
      const snaps = points.map((p) => g.snap(p, 50));
      const matrix = g.matrix(snaps, [...snaps, null]);
      for (const [i, a] of snaps.entries()) {
        assert.equal(matrix[i]![points.length], null, 'no route to a point that did not snap');
        for (const [j, b] of snaps.entries()) {
          const single = g.route(a!, b!);
          const cell = matrix[i]![j]!;
          assert.ok(single && cell, `${mode} ${i}→${j} connected`);
          assert.ok(
            Math.abs(cell.seconds - single.seconds) < 1e-9,
            `${mode} ${i}→${j} ${cell.seconds} ${single.seconds}`,
          );
          assert.ok(Math.abs(cell.meters - single.meters) < 1e-9, `${mode} ${i}→${j} ${cell.meters} ${single.meters}`);
        }
      }
    }
  });

  it('keeps one-way streets one way for cars and bikes, both ways on foot', async () => {
    // Row 2 is one-way westbound (tagged against its drawing direction).
    const { graphs } = await built(
      gridFile([], [], (row, i) => (row && i === 2 ? { highway: 'residential', oneway: '-1' } : residential())),
    );
    const west = meters(graphs, 'car', [0.003, 0.002], [0.001, 0.002])!;
    const east = meters(graphs, 'car', [0.001, 0.002], [0.003, 0.002])!;
    assert.ok(Math.abs(west - 222.4) < 3, `with the flow ${west}`);
    assert.ok(east > west + 150, `against the flow ${east}`);
    assert.ok(meters(graphs, 'bike', [0.001, 0.002], [0.003, 0.002])! > west + 150);
    assert.ok(Math.abs(meters(graphs, 'foot', [0.001, 0.002], [0.003, 0.002])! - west) < 1);
    // From a junction of the one-way row, every road there is open: straight up the column, one block.
    for (const col of [1, 2, 3]) assert.ok(Math.abs(meters(graphs, 'car', at(2, col), at(3, col))! - 111.2) < 1);
    assert.ok(Math.abs(meters(graphs, 'car', at(3, 2), at(2, 2))! - 111.2) < 1);
  });

  it('applies car turn restrictions at their via node', async () => {
    const plain = await built(gridFile([], [], residential));
    const restricted = await built(gridFile([], [NO_LEFT_TURN], residential));
    assert.equal(restricted.result.counts.turnRestrictions, 1);
    const from: Position = [0.0015, 0.002];
    const to: Position = [0.002, 0.0035];
    const direct = meters(plain.graphs, 'car', from, to)!;
    const around = meters(restricted.graphs, 'car', from, to)!;
    assert.ok(Math.abs(direct - 222.4) < 3, `${direct}`);
    assert.ok(around > direct + 100, `restricted ${around}`);
    // Walkers ignore it; the opposite turn is still allowed.
    assert.ok(Math.abs(meters(restricted.graphs, 'foot', from, to)! - direct) < 1);
    assert.ok(Math.abs(meters(restricted.graphs, 'car', to, from)! - direct) < 1);
  });

  it('follows access rules: footways for walkers, motorways for cars, private roads for nobody', async () => {
    const { graphs } = await built(
      gridFile([], [], (row, i): OsmTags => {
        if (row && i === 0) return { highway: 'footway' };
        if (row && i === 4) return { highway: 'motorway', oneway: 'no' };
        if (!row && i === 4) return { highway: 'service', access: 'private' };
        return residential();
      }),
    );
    const car = graphs.graph('car')!;
    const foot = graphs.graph('foot')!;
    const onFootway: Position = [0.0025, 0];
    const onMotorway: Position = [0.0025, 0.004];
    assert.ok((foot.snap(onFootway, 5)?.offMeters ?? 99) < 1);
    assert.ok((car.snap(onFootway, 5)?.offMeters ?? 99) > 1 || car.snap(onFootway, 5) === null);
    assert.ok((car.snap(onMotorway, 5)?.offMeters ?? 99) < 1);
    assert.equal(foot.snap(onMotorway, 5), null);
    assert.equal(car.snap([0.004, 0.0015], 5), null, 'private service road');
  });

  it('uses maxspeed for car times and the class default without it', async () => {
    const fast = await built(gridFile([], [], () => ({ highway: 'residential', maxspeed: '50 mph' })));
    const slow = await built(gridFile([], [], residential));
    const time = (graphs: typeof fast.graphs) => {
      const g = graphs.graph('car')!;
      return g.route(g.snap(at(0, 0), 5)!, g.snap(at(0, 4), 5)!)!.seconds;
    };
    // 444.8 m at 90% of 80.5 km/h, and at the residential default of 25 km/h.
    assert.ok(Math.abs(time(fast.graphs) - 444.8 / ((50 * 1.609344 * 0.9) / 3.6)) < 0.5);
    assert.ok(Math.abs(time(slow.graphs) - 444.8 / (25 / 3.6)) < 1);
  });

  it('leaves ways a mode may not use out of its graph', async () => {
    const osm = gridFile([], [], (row, i) => (row && i === 0 ? { highway: 'residential' } : { highway: 'footway' }));
    const { graphs } = await built(osm);
    const g = graphs.graph('car')!;
    assert.equal(g.snap(at(4, 4), 20), null);
    assert.ok(g.route(g.snap(at(0, 0), 5)!, g.snap(at(0, 4), 5)!));
  });

  it('keeps trucks off roads closed to them, too low or too weak, where cars drive', async () => {
    // Row 2 closed to trucks between columns; column 2 too low; column 3 too weak. Row 2's middle
    // block is the way from (2,1) to (2,3): compare with an open grid.
    const { graphs, result } = await built(
      gridFile([], [], (row, i): OsmTags => {
        if (row && i === 2) return { highway: 'residential', hgv: 'no' };
        if (!row && i === 2) return { highway: 'residential', maxheight: '12\'6"' };
        if (!row && i === 3) return { highway: 'residential', maxweight: '7.5' };
        if (!row && i === 1) return { highway: 'residential', maxheight: '4.5', maxweight: '20 st' };
        return residential();
      }),
    );
    assert.ok(result.counts.truckEdges! < result.counts.carEdges!);
    const car = graphs.graph('car')!;
    const truck = graphs.graph('truck')!;
    assert.equal(truck.snap([0.0025, 0.002], 5), null, 'hgv=no row');
    assert.equal(truck.snap([0.002, 0.0025], 5), null, 'maxheight 12 ft 6 in (3.8 m)');
    assert.equal(truck.snap([0.003, 0.0025], 5), null, 'maxweight 7.5 t');
    assert.ok((truck.snap([0.001, 0.0025], 5)?.offMeters ?? 99) < 1, '4.5 m and 18 t fit');
    assert.ok((car.snap([0.0025, 0.002], 5)?.offMeters ?? 99) < 1);
    // Along row 2 a car drives straight; a truck goes round by row 1 or 3.
    const byCar = meters(graphs, 'car', at(2, 0), at(2, 4))!;
    const byTruck = meters(graphs, 'truck', [0, 0.002], [0.004, 0.002])!;
    assert.ok(Math.abs(byCar - 444.8) < 3, `${byCar}`);
    assert.ok(byTruck > byCar + 200, `truck ${byTruck}`);
    // Slower than a car on the same road: 20 km/h against 25 on residential streets.
    const t = truck.route(truck.snap(at(0, 0), 5)!, truck.snap(at(0, 4), 5)!)!;
    assert.ok(Math.abs(t.seconds - 444.8 / (20 / 3.6)) < 1, `${t.seconds}`);
  });

  it('times the car route for motorbikes: same path, quicker on town roads, the same on motorways', async () => {
    const { graphs } = await built(
      gridFile([], [], (row, i): OsmTags => (row && i === 4 ? { highway: 'motorway', oneway: 'no' } : residential())),
    );
    const car = graphs.graph('car')!;
    const a = car.snap(at(0, 0), 5)!;
    const b = car.snap([0.003, 0.0022], 5)!;
    const byCar = car.route(a, b, true)!;
    const byMotorbike = car.route(a, b, true, true)!;
    assert.equal(byMotorbike.meters, byCar.meters);
    assert.deepEqual(byMotorbike.line, byCar.line);
    assert.ok(Math.abs(byMotorbike.seconds - byCar.seconds * 0.9) < 1e-6, `${byMotorbike.seconds} ${byCar.seconds}`);
    // Along one chain (no CH search), and on the motorway row, where motorbikes keep the car's speed.
    const along = car.route(car.snap([0.0002, 0], 5)!, car.snap([0.0008, 0], 5)!, false, true)!;
    assert.ok(
      Math.abs(along.seconds - car.route(car.snap([0.0002, 0], 5)!, car.snap([0.0008, 0], 5)!)!.seconds * 0.9) < 1e-6,
    );
    const m = [car.snap([0.0002, 0.004], 5)!, car.snap([0.0038, 0.004], 5)!] as const;
    assert.ok(Math.abs(car.route(m[0], m[1], false, true)!.seconds - car.route(m[0], m[1])!.seconds) < 1e-6);
  });

  it('reads height and weight limits in the units OSM uses', () => {
    assert.equal(parseMaxheight('4.2'), 4.2);
    assert.equal(parseMaxheight('4.2 m'), 4.2);
    assert.ok(Math.abs(parseMaxheight(`14'4"`)! - 4.369) < 0.001);
    assert.ok(Math.abs(parseMaxheight('13 ft')! - 3.962) < 0.001);
    assert.equal(parseMaxheight('default'), null);
    assert.equal(parseMaxheight('none'), null);
    assert.equal(parseMaxweight('14.5'), 14.5);
    assert.equal(parseMaxweight('7.5 t'), 7.5);
    assert.ok(Math.abs(parseMaxweight('10 st')! - 9.07) < 0.01);
    assert.ok(Math.abs(parseMaxweight('20000 lbs')! - 9.07) < 0.01);
    assert.equal(parseMaxweight('3500 kg'), 3.5);
    assert.equal(parseMaxweight('unsigned'), null);
  });
});
