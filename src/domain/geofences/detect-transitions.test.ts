import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acrossAntimeridian, makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { circlePolygon } from '../../geo/circle-polygon.js';
import { destinationPoint } from '../../geo/distance-meters.js';
import type { Position, Ring } from '../../geo/types.js';
import type { GeofenceMembership } from '../users/user.js';
import { detectTransitions, type LocationChange } from './detect-transitions.js';
import type { Geofence } from './geofence.js';
import { type PreparedGeofence, prepareGeofence } from './prepared-geofence.js';

const T0 = Date.UTC(2024, 0, 1, 12);
const MIN = 60_000;
const C: Position = [-73.98, 40.75];

function fence(over: Partial<Geofence> & Pick<Geofence, 'id'>): Geofence {
  return makeCircleGeofence(
    { projectId: 'p', live: true },
    {
      tag: null,
      externalId: null,
      description: over.id,
      geometry: circlePolygon(C, 200),
      geometryCenter: C,
      geometryRadius: 200,
      createdAt: T0 - 60 * MIN,
      updatedAt: T0 - 60 * MIN,
      ...over,
    },
  );
}

/** The 200 m circle around C, plus overrides. */
const circle = (id: string, over: Partial<Geofence> = {}) => prepareGeofence(fence({ id, ...over }));

function polygon(id: string, rings: Ring[], radius: number, over: Partial<Geofence> = {}) {
  const geometry = { type: 'Polygon' as const, coordinates: rings };
  return prepareGeofence(fence({ id, type: 'polygon', geometry, geometryRadius: radius, ...over }));
}

/** A point `meters` north of C (inside the 200 m circle below 200, outside above). */
const fromCenter = (meters: number): [number, number] => destinationPoint(C, 0, meters);

function change(location: [number, number], over: Partial<LocationChange> = {}): LocationChange {
  return { at: T0, location, accuracyMeters: 10, stopped: false, appUserId: null, memberships: [], ...over };
}

const member = (geofenceId: string, minutesAgo = 10, dwelled = false): GeofenceMembership => ({
  geofenceId,
  enteredAt: T0 - minutesAgo * MIN,
  dwelled,
});

/** Runs detection with `fences` as both the candidates and the lookup. */
function run(c: LocationChange, fences: PreparedGeofence[], now = T0) {
  const byId = new Map(fences.map((f) => [f.geofence.id, f]));
  return detectTransitions(c, fences, (id) => byId.get(id), now);
}

const ids = (list: Array<{ geofence: PreparedGeofence }>) => list.map((e) => e.geofence.geofence.id);

describe('detectTransitions: entry, stay, exit', () => {
  it('enters a fence containing the point with a fresh membership', () => {
    const t = run(change(C), [circle('a')]);
    assert.deepEqual(ids(t.entered), ['a']);
    assert.deepEqual(t.memberships, [{ geofenceId: 'a', enteredAt: T0, dwelled: false }]);
    assert.deepEqual(
      t.inside.map((f) => f.geofence.id),
      ['a'],
    );
    assert.deepEqual([t.exited, t.dwelled], [[], []]);
  });

  it('does not enter a candidate that does not contain the point', () => {
    const t = run(change(fromCenter(260)), [circle('a')]);
    assert.deepEqual([t.entered, t.memberships, t.inside], [[], [], []]);
  });

  it('keeps a member inside without events and keeps its entry time', () => {
    const m = member('a', 3);
    const t = run(change(fromCenter(150), { memberships: [m] }), [circle('a')]);
    assert.deepEqual([t.entered, t.exited, t.dwelled], [[], [], []]);
    assert.deepEqual(t.memberships, [m]);
    assert.equal(t.inside.length, 1);
  });

  it('exits a member well outside, with a fractional duration in minutes', () => {
    const m = { geofenceId: 'a', enteredAt: T0 - 90_000, dwelled: false };
    const t = run(change(fromCenter(300), { memberships: [m] }), [circle('a')]);
    assert.deepEqual(ids(t.exited), ['a']);
    assert.equal(t.exited[0]?.durationMinutes, 1.5);
    assert.deepEqual([t.memberships, t.inside, t.entered], [[], [], []]);
  });

  it('checks a member through lookup even when it is not among the candidates', () => {
    const a = circle('a');
    const t = detectTransitions(change(fromCenter(5000), { memberships: [member('a')] }), [], () => a, T0);
    assert.deepEqual(ids(t.exited), ['a']);
  });

  it('enters a fence created around a user already inside on the next update', () => {
    const t = run(change(C, { memberships: [member('other', 5)] }), [circle('a'), circle('other')]);
    assert.deepEqual(ids(t.entered), ['a']);
    assert.deepEqual(
      t.memberships.map((m) => m.geofenceId),
      ['a', 'other'],
    );
  });
});

describe('detectTransitions: jitter band', () => {
  it('keeps a member 30 m outside when accuracy is 50 m', () => {
    const t = run(change(fromCenter(230), { accuracyMeters: 50, memberships: [member('a')] }), [circle('a')]);
    assert.deepEqual(t.exited, []);
    assert.deepEqual(t.memberships, [member('a')]);
    assert.equal(t.inside.length, 1);
  });

  it('exits a member 80 m outside when accuracy is 50 m', () => {
    const t = run(change(fromCenter(280), { accuracyMeters: 50, memberships: [member('a')] }), [circle('a')]);
    assert.deepEqual(ids(t.exited), ['a']);
    assert.deepEqual(t.memberships, []);
  });

  it('caps the band at 100 m for a 500 m fix', () => {
    const big = (id: string) => circle(id, { geometryRadius: 1000, geometry: circlePolygon(C, 1000) });
    const within = run(change(fromCenter(1090), { accuracyMeters: 500, memberships: [member('a')] }), [big('a')]);
    assert.deepEqual(within.exited, []);
    const beyond = run(change(fromCenter(1150), { accuracyMeters: 500, memberships: [member('a')] }), [big('a')]);
    assert.deepEqual(ids(beyond.exited), ['a']);
  });

  it('exits as soon as the point is outside when accuracy is 0 or invalid', () => {
    for (const accuracyMeters of [0, -5, Number.NaN]) {
      const t = run(change(fromCenter(201), { accuracyMeters, memberships: [member('a')] }), [circle('a')]);
      assert.deepEqual(ids(t.exited), ['a'], `accuracy ${accuracyMeters}`);
    }
  });
});

describe('detectTransitions: stopDetection', () => {
  const a = circle('a', { stopDetection: true });

  it('waits for a stopped update before entering', () => {
    assert.deepEqual(run(change(C, { stopped: false }), [a]).entered, []);
    assert.deepEqual(run(change(C, { stopped: false }), [a]).memberships, []);
    assert.deepEqual(ids(run(change(C, { stopped: true }), [a]).entered), ['a']);
  });

  it('does not delay exits', () => {
    const t = run(change(fromCenter(400), { stopped: false, memberships: [member('a')] }), [a]);
    assert.deepEqual(ids(t.exited), ['a']);
  });
});

describe('detectTransitions: dwell', () => {
  const a = circle('a', { dwellThreshold: 5 });

  it('does not dwell before the threshold', () => {
    const t = run(change(C, { memberships: [member('a', 4.99)] }), [a]);
    assert.deepEqual(t.dwelled, []);
    assert.equal(t.memberships[0]?.dwelled, false);
  });

  it('dwells once the threshold is reached and marks the membership', () => {
    const m = member('a', 5);
    const c = change(C, { memberships: [m] });
    const t = run(c, [a]);
    assert.deepEqual(ids(t.dwelled), ['a']);
    assert.equal(t.dwelled[0]?.durationMinutes, 5);
    assert.equal(t.dwelled[0]?.confidence, 3);
    assert.deepEqual(t.memberships, [{ ...m, dwelled: true }]);
    assert.equal(m.dwelled, false, 'input memberships are not mutated');
    assert.equal(c.memberships[0], m);
  });

  it('never dwells twice in one stay', () => {
    const t = run(change(C, { memberships: [member('a', 60, true)] }), [a]);
    assert.deepEqual(t.dwelled, []);
    assert.equal(t.memberships[0]?.dwelled, true);
  });

  it('does not dwell on the entering update, even with a threshold of 0', () => {
    const t = run(change(C), [circle('z', { dwellThreshold: 0 })]);
    assert.deepEqual([ids(t.entered), t.dwelled], [['z'], []]);
  });

  it('does not dwell on the exiting update', () => {
    const t = run(change(fromCenter(400), { memberships: [member('a', 60)] }), [a]);
    assert.deepEqual([ids(t.exited), t.dwelled], [['a'], []]);
  });
});

describe('detectTransitions: which fences apply', () => {
  it('applies a userId-restricted fence only to that app user', () => {
    const a = circle('a', { userId: 'alice' });
    assert.deepEqual(ids(run(change(C, { appUserId: 'alice' }), [a]).entered), ['a']);
    assert.deepEqual(run(change(C, { appUserId: 'bob' }), [a]).entered, []);
    assert.deepEqual(run(change(C, { appUserId: null }), [a]).entered, []);
  });

  it('drops a membership in a fence restricted to another user without an exit', () => {
    const t = run(change(fromCenter(400), { appUserId: 'bob', memberships: [member('a')] }), [
      circle('a', { userId: 'alice' }),
    ]);
    assert.deepEqual([t.exited, t.memberships, t.inside], [[], [], []]);
  });

  const cases: Array<[string, Partial<Geofence>]> = [
    ['enabled false', { enabled: false }],
    ['disableAfter passed', { disableAfter: T0 - 1 }],
    ['disableAfter equal to now', { disableAfter: T0 }],
    ['deleteAfter passed', { deleteAfter: T0 - 1 }],
  ];
  for (const [name, over] of cases) {
    it(`ignores a fence with ${name}: no entry, membership dropped without exit or dwell`, () => {
      const f = circle('a', { dwellThreshold: 1, ...over });
      assert.deepEqual(run(change(C), [f]).entered, []);
      const inside = run(change(C, { memberships: [member('a', 30)] }), [f]);
      assert.deepEqual([inside.dwelled, inside.memberships, inside.inside], [[], [], []]);
      const outside = run(change(fromCenter(400), { memberships: [member('a')] }), [f]);
      assert.deepEqual([outside.exited, outside.memberships], [[], []]);
    });
  }

  it('uses `now`, not the update time, for disableAfter and deleteAfter', () => {
    const f = circle('a', { disableAfter: T0 + MIN, deleteAfter: T0 + 2 * MIN });
    assert.deepEqual(ids(run(change(C), [f], T0).entered), ['a']);
    assert.deepEqual(run(change(C), [f], T0 + MIN).entered, []);
  });

  it('drops a membership whose fence no longer exists', () => {
    const t = detectTransitions(change(C, { memberships: [member('gone')] }), [], () => undefined, T0);
    assert.deepEqual([t.exited, t.memberships], [[], []]);
  });
});

describe('detectTransitions: confidence', () => {
  it('entry: 3 when the accuracy circle is inside, 2 when it crosses, 1 when larger than the fence', () => {
    assert.equal(run(change(C, { accuracyMeters: 10 }), [circle('a')]).entered[0]?.confidence, 3);
    assert.equal(run(change(fromCenter(140), { accuracyMeters: 50 }), [circle('a')]).entered[0]?.confidence, 3);
    assert.equal(run(change(fromCenter(180), { accuracyMeters: 50 }), [circle('a')]).entered[0]?.confidence, 2);
    assert.equal(run(change(C, { accuracyMeters: 201 }), [circle('a')]).entered[0]?.confidence, 1);
  });

  it('entry into a polygon: 1 when accuracy exceeds its geometryRadius', () => {
    const ring: Ring = [C, [C[0] + 0.01, C[1]], [C[0] + 0.01, C[1] + 0.01], [C[0], C[1] + 0.01], C];
    const mid: [number, number] = [C[0] + 0.005, C[1] + 0.005];
    assert.equal(run(change(mid, { accuracyMeters: 60 }), [polygon('p', [ring], 600)]).entered[0]?.confidence, 3);
    assert.equal(run(change(mid, { accuracyMeters: 60 }), [polygon('p', [ring], 50)]).entered[0]?.confidence, 1);
  });

  it('exit: 3 when the accuracy circle is outside, 2 when it reaches inside, 1 when larger than the fence', () => {
    const exit = (meters: number, accuracyMeters: number) =>
      run(change(fromCenter(meters), { accuracyMeters, memberships: [member('a')] }), [circle('a')]).exited[0]
        ?.confidence;
    assert.equal(exit(300, 10), 3);
    assert.equal(exit(320, 150), 2);
    assert.equal(exit(500, 250), 1);
  });

  it('dwell in the jitter band has confidence 2, and inside within the accuracy of the boundary', () => {
    const f = circle('a', { dwellThreshold: 1 });
    const t = run(change(fromCenter(220), { accuracyMeters: 50, memberships: [member('a', 2)] }), [f]);
    assert.equal(t.dwelled[0]?.confidence, 2);
    const near = run(change(fromCenter(195), { accuracyMeters: 10, memberships: [member('a', 2)] }), [f]);
    assert.deepEqual([ids(near.dwelled), near.dwelled[0]?.confidence], [['a'], 2]);
  });
});

describe('detectTransitions: shapes and output order', () => {
  it('enters an antimeridian-spanning polygon from both sides', () => {
    const p = polygon('am', [acrossAntimeridian(179.9)], 11_000);
    assert.deepEqual(ids(run(change([179.95, 0]), [p]).entered), ['am']);
    assert.deepEqual(ids(run(change([-179.95, 0]), [p]).entered), ['am']);
    assert.deepEqual(run(change([0, 0]), [p]).entered, []);
  });

  it('treats a hole as outside: no entry there, and a member deep in it exits', () => {
    const outer: Ring = [C, [C[0] + 0.02, C[1]], [C[0] + 0.02, C[1] + 0.02], [C[0], C[1] + 0.02], C];
    const hole: Ring = [
      [C[0] + 0.005, C[1] + 0.005],
      [C[0] + 0.015, C[1] + 0.005],
      [C[0] + 0.015, C[1] + 0.015],
      [C[0] + 0.005, C[1] + 0.015],
      [C[0] + 0.005, C[1] + 0.005],
    ];
    const p = polygon('h', [outer, hole], 1200);
    const inHole: [number, number] = [C[0] + 0.01, C[1] + 0.01];
    assert.deepEqual(run(change(inHole), [p]).entered, []);
    assert.deepEqual(ids(run(change([C[0] + 0.002, C[1] + 0.01]), [p]).entered), ['h']);
    assert.deepEqual(ids(run(change(inHole, { memberships: [member('h')] }), [p]).exited), ['h']);
  });

  it('sorts every list by geofence id whatever the input order', () => {
    const fences = ['d', 'b', 'c', 'a'].map((id) => circle(id));
    const t = run(change(C, { memberships: [member('d'), member('b')] }), fences);
    assert.deepEqual(ids(t.entered), ['a', 'c']);
    assert.deepEqual(
      t.memberships.map((m) => m.geofenceId),
      ['a', 'b', 'c', 'd'],
    );
    assert.deepEqual(
      t.inside.map((f) => f.geofence.id),
      ['a', 'b', 'c', 'd'],
    );
    const out = run(change(fromCenter(900), { memberships: [member('d'), member('b')] }), fences);
    assert.deepEqual(ids(out.exited), ['b', 'd']);
    // Past the short lists' insertion sort: 20 fences entered, 6 kept, in scrambled order.
    const many = Array.from({ length: 26 }, (_, i) => `f${String((i * 7) % 26).padStart(2, '0')}`);
    const kept = many.slice(0, 6).map((id) => member(id));
    const all = run(
      change(C, { memberships: kept }),
      many.map((id) => circle(id)),
    );
    const sorted = [...many].sort();
    assert.deepEqual(
      ids(all.entered),
      sorted.filter((id) => !kept.some((m) => m.geofenceId === id)),
    );
    assert.deepEqual(
      all.memberships.map((m) => m.geofenceId),
      sorted,
    );
    assert.deepEqual(
      all.inside.map((f) => f.geofence.id),
      sorted,
    );
  });

  it('ignores duplicate candidates and memberships', () => {
    const a = circle('a');
    const t = run(change(C, { memberships: [member('b'), member('b', 1)] }), [a, a, circle('b')]);
    assert.deepEqual(ids(t.entered), ['a']);
    assert.deepEqual(t.memberships, [{ geofenceId: 'a', enteredAt: T0, dwelled: false }, member('b')]);
  });
});
