import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { runCli } from './helpers/cli.js';
import { type OsmTestPack, withOsmRegion } from './helpers/osm.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, track, trackBody } from './helpers/tracking.js';

const SEGMENTS = [
  { description: 'Pro plan', externalId: 'pro', condition: { metadata: { plan: 'pro' } } },
  {
    description: 'Pro users at home',
    externalId: 'pro-home',
    condition: { metadata: { plan: 'pro' }, insights: ['home'] },
  },
  {
    description: 'Travelers or commuters',
    externalId: 'on-the-move',
    condition: { insights: ['traveling', 'commuting'] },
  },
  { description: 'Coffee regulars', externalId: 'coffee', condition: { topChains: ['starbucks', 'dunkin'] } },
];

describe('Segments: rules per project, user.segments in the track response', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.parse('2026-01-17T12:00:00.000Z'));
  const patch = (json: unknown) => s.request('PATCH', '/v1/settings', { key: s.keys.test.secret, json });
  const segmentsOf = (res: { body: { user: { segments: Array<{ externalId: string }> } } }) =>
    res.body.user.segments.map((x) => x.externalId);

  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('PATCH /v1/settings sets the segments (JSON or form text), GET shows them, other settings are kept', async () => {
    assert.deepEqual((await s.request('GET', '/v1/settings', { key: s.keys.test.secret })).body.segments, []);
    const res = await patch({ segments: SEGMENTS, features: { insights: true } });
    assertOk(res);
    assert.deepEqual(res.body.segments, SEGMENTS);
    assert.equal(res.body.features.insights, true);
    const form = await s.request('PATCH', '/v1/settings', {
      key: s.keys.live.secret,
      form: { segments: JSON.stringify(SEGMENTS.slice(0, 1)) },
    });
    assertOk(form);
    // Segments belong to the project, like its features: both environments see the last change.
    const got = await s.request('GET', '/v1/settings', { key: s.keys.test.secret });
    assert.deepEqual(got.body.segments, SEGMENTS.slice(0, 1));
    assert.deepEqual(got.body.chainMetadata, {});
    assertOk(await patch({ segments: SEGMENTS }));
  });

  it('rejects bad segments, naming the parameter, the item and the field', async () => {
    const seg = (x: Record<string, unknown>) => [{ ...SEGMENTS[0], ...x }];
    const bad = async (segments: unknown, message: string) =>
      assertError(await patch({ segments }), 400, 'segments', message);
    await bad('nope', 'segments must be an array');
    await bad({ a: 1 }, 'segments must be an array');
    await bad([1], 'segments[0] must be an object');
    await bad(seg({ description: '' }), 'segments[0].description must be a non-empty string');
    await bad(seg({ externalId: 7 }), 'segments[0].externalId must be a non-empty string');
    await bad([...SEGMENTS, SEGMENTS[0]], 'segments[4].externalId "pro" is used by an earlier segment');
    await bad(seg({ condition: undefined }), 'segments[0].condition must be an object');
    await bad(seg({ condition: {} }), 'segments[0].condition must have one or more of metadata, insights, topChains');
    await bad(seg({ condition: { age: 3 } }), 'segments[0].condition may only have the keys');
    await bad(
      seg({ condition: { metadata: { a: [1] } } }),
      'segments[0].condition.metadata.a must be a string, number or boolean',
    );
    await bad(
      seg({ condition: { metadata: {} } }),
      'segments[0].condition.metadata must be a dictionary of 1 to 16 keys',
    );
    await bad(
      seg({ condition: { insights: ['asleep'] } }),
      'segments[0].condition.insights must be a non-empty array of home',
    );
    await bad(seg({ condition: { topChains: [] } }), 'segments[0].condition.topChains must be a non-empty array');
    await bad(
      Array.from({ length: 101 }, (_, i) => ({ ...SEGMENTS[0], externalId: `s${i}` })),
      'segments must have at most 100 items',
    );
    // Nothing was changed by the refused requests.
    assert.equal((await s.request('GET', '/v1/settings', { key: s.keys.test.secret })).body.segments.length, 4);
  });

  it('a track answers the segments the user matches: metadata, insights state, and their combination', async () => {
    clock.advance(1000);
    const pro = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-seg-1', BROOKLYN, { metadata: { plan: 'pro' } }),
    });
    assertOk(pro);
    assert.deepEqual(pro.body.user.segments, [{ description: 'Pro plan', externalId: 'pro' }]);
    const free = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-seg-2', BROOKLYN, { metadata: { plan: 'free' } }),
    });
    assert.deepEqual(free.body.user.segments, []);

    // Two nights at home (local 23:00, UTC-5) make a home; the pro user is then in it.
    const night = (date: string) =>
      trackBody('dev-seg-3', BROOKLYN, {
        stopped: true,
        updatedAt: `${date}T04:00:00.000Z`,
        metadata: { plan: 'pro' },
      });
    clock.advance(1000);
    const home = await s.request('POST', '/v1/track/replay', {
      key: s.keys.test.publishable,
      json: { replays: [night('2026-01-14'), night('2026-01-15')] },
    });
    assertOk(home);
    assert.equal(home.body.user.insights.state.home, true, JSON.stringify(home.body.user));
    assert.deepEqual(segmentsOf(home), ['pro', 'pro-home']);

    // Far away: traveling, no longer home.
    clock.advance(1000);
    const away = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-seg-3', [-75.1652, 39.9526]),
    });
    assert.deepEqual(segmentsOf(away), ['pro', 'on-the-move']);
  });

  it('insights conditions do not match while Insights is off; topChains need Places visits', async () => {
    assertOk(await patch({ features: { insights: false } }));
    clock.advance(1000);
    const res = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-seg-3', [-75.1652, 39.9526]),
    });
    assert.deepEqual(segmentsOf(res), ['pro']);
    assertOk(await patch({ features: { insights: true } }));
  });

  it('npm run cli -- projects segments prints, sets and clears them; the running server follows', async () => {
    const env = { DATA_DIR: s.dataDir, DATABASE_URL: s.deps.config.databaseUrl ?? '' };
    const shown = await runCli(['projects', 'segments', 'default'], env);
    assert.equal(shown.code, 0, shown.stderr);
    assert.deepEqual(JSON.parse(shown.stdout), SEGMENTS);
    const set = await runCli(['projects', 'segments', 'default', '--set', JSON.stringify(SEGMENTS.slice(2))], env);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), SEGMENTS.slice(2));
    const badSet = await runCli(['projects', 'segments', 'default', '--set', '[{"description":"x"}]'], env);
    assert.notEqual(badSet.code, 0);
    assert.match(badSet.stderr, /--set\[0\]\.externalId must be/);
    const missing = await runCli(['projects', 'segments', 'nope'], env);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /No project named "nope"/);
    const cleared = await runCli(['projects', 'segments', 'default', '--clear'], env);
    assert.deepEqual(JSON.parse(cleared.stdout), []);
    // The server drops cached keys when a project changes (as for `projects set`).
    let segments: unknown;
    for (let i = 0; i < 20; i++) {
      segments = (await s.request('GET', '/v1/settings', { key: s.keys.test.secret })).body.segments;
      if (Array.isArray(segments) && segments.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(segments, []);
  });
});

describe('Segments on top chains (Places over an imported OSM region)', () => {
  let pack: OsmTestPack | { skip: string };
  let s: TestServer;
  const clock = new ManualClock();
  /** The Starbucks building at Imperial Ave / Main St, El Centro (see test/places.test.ts). */
  const STARBUCKS_EL_CENTRO_AT: LonLat = [-115.570208, 32.791465];
  const EL_CENTRO: LonLat = [-115.563, 32.792];
  before(async () => {
    pack = await withOsmRegion('imperial-county-ca-2024.osm.pbf');
    if ('skip' in pack) return;
    s = await startServer({ clock, env: { GEODATA_DIR: pack.dataDir } });
  });
  after(async () => {
    await s?.close();
    if (pack && !('skip' in pack)) await pack.remove();
  });

  it('a user whose top chains include one of the segment’s is in it; the participant runs after Places', async (t) => {
    if ('skip' in pack) return t.skip(pack.skip);
    assertOk(
      await s.request('PATCH', '/v1/settings', {
        key: s.keys.test.secret,
        json: { features: { places: true }, segments: SEGMENTS },
      }),
    );
    const before = await track(s, trackBody('dev-seg-coffee', EL_CENTRO));
    assert.deepEqual(before.body.user.segments, []);
    clock.advance(5 * 60_000);
    const visit = await track(s, trackBody('dev-seg-coffee', STARBUCKS_EL_CENTRO_AT));
    assertOk(visit);
    assert.equal(visit.body.user.topChains[0].slug, 'starbucks');
    assert.deepEqual(visit.body.user.segments, [{ description: 'Coffee regulars', externalId: 'coffee' }]);
  });
});
