import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { type OsmTestPack, osmFixture, withOsmRegion } from './helpers/osm.js';
import { bruteDistance, insideSegments, type OsmTruth, osmTruth } from './helpers/osm-truth.js';
import { seededRandom } from './helpers/seeded-random.js';
import { startServer, type TestServer } from './helpers/server.js';
import { putCircle, track, trackBody } from './helpers/tracking.js';

const OAHU = 'honolulu-oahu-hi-2018.osm.pbf';
const LIECHTENSTEIN = 'liechtenstein-and-autauga-al-2021.osm.pbf';
const VADUZ: [number, number] = [9.521, 47.141];
const HONOLULU: [number, number] = [-157.8583, 21.3069];

/**
 * Jurisdiction lists over HTTP on a server with the Oʻahu and Liechtenstein extracts imported: 451
 * refusals that change nothing and cost nothing, the allowed / buffer / exclusion fields, and border
 * distances checked against a brute-force distance over the extract's own ways.
 */
describe('jurisdiction lists', () => {
  let pack: OsmTestPack;
  let s: TestServer;
  let skip: string | undefined;
  let n = 0;
  const device = () => `jur-${n++}`;

  before(async () => {
    const p = await withOsmRegion(OAHU, LIECHTENSTEIN);
    if ('skip' in p) {
      skip = p.skip;
      return;
    }
    pack = p;
    s = await startServer({ env: { GEODATA_DIR: pack.dataDir } });
  });
  after(async () => {
    await s?.close();
    await pack?.remove();
  });

  const setJurisdiction = async (jurisdiction: unknown) => {
    const res = await s.request('PATCH', '/v1/settings', { key: s.keys.test.secret, json: { jurisdiction } });
    assertOk(res);
    return res;
  };

  it('PATCH /v1/settings keeps the lists, GET echoes them, bad lists are 400 naming jurisdiction', async (t) => {
    if (skip) return t.skip(skip);
    const res = await setJurisdiction({ blockedCountries: ['cu'], allowedStates: ['US-HI'], bufferMeters: 500 });
    assert.deepEqual(res.body.jurisdiction.blockedCountries, ['CU']);
    const got = await s.request('GET', '/v1/settings', { key: s.keys.test.secret });
    assert.deepEqual(got.body.jurisdiction, {
      blockedCountries: ['CU'],
      allowedCountries: [],
      allowedStates: ['US-HI'],
      bufferMeters: 500,
      exclusionTag: null,
    });
    for (const bad of [
      { blockedCountries: ['Cuba'] },
      { allowedStates: ['NJ'] },
      { bufferMeters: -1 },
      { colour: 1 },
    ]) {
      const r = await s.request('PATCH', '/v1/settings', { key: s.keys.test.secret, json: { jurisdiction: bad } });
      assertError(r, 400, 'jurisdiction');
    }
  });

  it('a track in a blocked country is 451 naming it, and stores, fires and costs nothing', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction({ blockedCountries: ['LI'] });
    const id = device();
    const usageBefore = await s.deps.usage.monthTotal(s.projectId, Date.now());
    const refused = await track(s, trackBody(id, VADUZ));
    assertError(refused, 451, 'latitude', 'Liechtenstein (LI)');
    assert.equal(await s.deps.usage.monthTotal(s.projectId, Date.now()), usageBefore, 'a 451 is no usage');
    const users = await s.request('GET', `/v1/users/${id}`, { key: s.keys.test.secret });
    assert.equal(users.status, 404, 'no user was written');
    const events = await s.request('GET', '/v1/events', { key: s.keys.test.secret });
    assert.equal(events.body.events.length, 0, 'no event was fired');
    // The same device at once elsewhere: the 451 took nothing from its 1-per-second window.
    const ok = await track(s, trackBody(id, HONOLULU));
    assertOk(ok);
    assert.equal(ok.body.user.country.allowed, true);
    assertError(
      await s.request('GET', `/v1/context?coordinates=${VADUZ[1]},${VADUZ[0]}`, { key: s.keys.test.publishable }),
      451,
      'coordinates',
    );
  });

  it('outside the allowed countries is 451 too, on track, context and IP geocode', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction({ allowedCountries: ['US'] });
    assertError(await track(s, trackBody(device(), VADUZ)), 451, 'latitude', 'LI');
    const ctx = await s.request('GET', `/v1/context?coordinates=${HONOLULU[1]},${HONOLULU[0]}`, {
      key: s.keys.test.publishable,
    });
    assertOk(ctx);
    assert.equal(ctx.body.context.country.allowed, true);
    const ip = await s.request('GET', '/v1/geocode/ip?ip=1.1.1.1', { key: s.keys.test.publishable });
    if (ip.status === 503) return; // no IP database installed: nothing to refuse
    assertError(ip, 451, 'ip');
    assertOk(await s.request('GET', '/v1/geocode/ip?ip=8.8.8.8', { key: s.keys.test.publishable }));
  });

  it('allowed state, buffer zone and exclusion zone answer in user and flag user.fraud', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction({ allowedStates: ['US-HI'], bufferMeters: 1000, exclusionTag: 'exclusion' });
    await putCircle(s, 'exclusion', 'casino', HONOLULU, 200);
    const inside = await track(s, trackBody(device(), HONOLULU));
    assertOk(inside);
    const u = inside.body.user;
    assert.equal(u.state.code, 'HI');
    assert.equal(u.state.allowed, true);
    assert.equal(typeof u.state.distanceToBorder, 'number');
    assert.equal(u.inExclusionZone, true);
    assert.equal(u.fraud.blocked, true);
    assert.ok(u.fraud.reasons.includes('in_exclusion_zone'));
    assert.equal(u.fraud.passed, false);
    // Liechtenstein is allowed as a country (no country list) but not as a state.
    const li = await track(s, trackBody(device(), VADUZ));
    assertOk(li);
    assert.equal(li.body.user.state.allowed, false);
    assert.ok(li.body.user.fraud.reasons.includes('state_not_allowed'));
  });

  /** Tracks each point, compares `state.distanceToBorder` with `truth(point)`; returns the largest error. */
  async function borderErrors(points: Array<[number, number]>, truth: (p: [number, number], state: string) => number) {
    let worst = 0;
    let buffered = 0;
    for (const p of points) {
      const res = await track(s, trackBody(device(), p));
      assertOk(res);
      const st = res.body.user.state;
      assert.equal(st.allowed, true, `state at ${p}: ${JSON.stringify(st)}`);
      const expected = truth(p, `${res.body.user.country.code}-${st.code}`);
      const error = Math.abs(st.distanceToBorder - expected);
      worst = Math.max(worst, error);
      assert.ok(error <= 50, `distanceToBorder at ${p}: ${st.distanceToBorder} m, true ${expected.toFixed(0)} m`);
      if (Math.abs(expected - 1000) > 50) assert.equal(st.inBufferZone, expected < 1000, `inBufferZone at ${p}`);
      if (st.inBufferZone) buffered++;
    }
    return { worst, buffered };
  }

  it('distanceToBorder near the Oʻahu coast is within 50 m of the distance to the coastline', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction({ allowedStates: ['US-HI'], bufferMeters: 1000 });
    const truth = await osmTruth((osmFixture(OAHU) as { path: string }).path);
    const points = nearBorder(truth, truth.coast, 700, 25);
    const { worst, buffered } = await borderErrors(points, (p) => bruteDistance(p, truth.coast));
    t.diagnostic(
      `Oʻahu: ${points.length} road points within 700 m of the coast, worst error ${worst.toFixed(1)} m, ${buffered} in the buffer zone`,
    );
  });

  it('distanceToBorder near the Liechtenstein border is within 50 m of the distance to the state outline', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction({ allowedCountries: ['LI', 'US'], allowedStates: [], bufferMeters: 1000 });
    const truth = await osmTruth((osmFixture(LIECHTENSTEIN) as { path: string }).path);
    const border = truth.byIso.get('LI') ?? [];
    const points = nearBorder(truth, border, 255, 25, (p) => insideSegments(p, border));
    const { worst } = await borderErrors(points, (p, state) => bruteDistance(p, truth.byIso.get(state) ?? []));
    t.diagnostic(
      `Liechtenstein: ${points.length} road points within 255 m of the border, worst error ${worst.toFixed(1)} m`,
    );
  });

  it('region fidelity: road points near the coast and the border answer their own relations (≥ 99.5%)', async (t) => {
    if (skip) return t.skip(skip);
    await setJurisdiction(null);
    const shares: string[] = [];
    const oahu = await osmTruth((osmFixture(OAHU) as { path: string }).path);
    const li = await osmTruth((osmFixture(LIECHTENSTEIN) as { path: string }).path);
    const liBorder = li.byIso.get('LI') ?? [];
    const municipalities = [...li.byIso].filter(([code]) => code.startsWith('LI-'));
    const cases: Array<{ name: string; points: Array<[number, number]>; expect: (p: [number, number]) => string }> = [
      {
        name: 'Oʻahu within 700 m of the coast',
        points: nearBorder(oahu, oahu.coast, 700, 300),
        expect: () => 'US/HI',
      },
      {
        name: 'Liechtenstein within 255 m of its border',
        points: nearBorder(li, liBorder, 255, 300, (p) => insideSegments(p, liBorder)),
        expect: (p) => `LI/${municipalities.find(([, segs]) => insideSegments(p, segs))?.[0].slice(3)}`,
      },
      {
        // Outside, the answer is whatever the world pack says there, but never Liechtenstein.
        name: 'Austria and Switzerland within 255 m of Liechtenstein',
        points: nearBorder(li, liBorder, 255, 100, (p) => p[0] > 9 && !insideSegments(p, liBorder)),
        expect: () => 'not LI',
      },
    ];
    for (const c of cases) {
      let right = 0;
      const wrong: string[] = [];
      for (const p of c.points) {
        const res = await s.request('GET', `/v1/context?coordinates=${p[1]},${p[0]}`, { key: s.keys.test.publishable });
        const got = `${res.body.context?.country?.code}/${res.body.context?.state?.code}`;
        const want = c.expect(p);
        if (want === 'not LI' ? !got.startsWith('LI/') : got === want) right++;
        else wrong.push(`${p}: ${got}, expected ${c.expect(p)}`);
      }
      const share = right / c.points.length;
      shares.push(`${c.name}: ${right}/${c.points.length} = ${(share * 100).toFixed(1)}%`);
      assert.ok(c.points.length >= 50, `${c.name}: only ${c.points.length} points sampled`);
      assert.ok(share >= 0.995, `${c.name}: ${(share * 100).toFixed(1)}% right; ${wrong.slice(0, 5).join('; ')}`);
    }
    t.diagnostic(`region fidelity: ${shares.join('; ')}`);
  });
});

/** Up to `count` road nodes (seeded, spread) closer than `within` meters to `segments`. */
function nearBorder(
  truth: OsmTruth,
  segments: OsmTruth['coast'],
  within: number,
  count: number,
  keep: (p: [number, number]) => boolean = () => true,
): Array<[number, number]> {
  const random = seededRandom(51);
  const out: Array<[number, number]> = [];
  for (let tries = 0; tries < 50_000 && out.length < count; tries++) {
    const p = truth.roadNodes[Math.floor(random() * truth.roadNodes.length)]!;
    if (keep(p) && bruteDistance(p, segments) < within) out.push(p);
  }
  return out;
}
