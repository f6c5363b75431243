import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertOk } from './helpers/assertions.js';
import { startGeodataServer } from './helpers/geodata.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset, trackBody, typesOf } from './helpers/tracking.js';

const HOUR = 3_600_000;
const INSIGHT_TYPES = /_(home|work|traveling|commuting)$/;

// New York is UTC-5 in January: local 02:00 on day D is 07:00Z.
const HOME: LonLat = offset(BROOKLYN, 2000, -2000);
const OFFICE: LonLat = offset(BROOKLYN, -3000, 4000);
const MIDWAY: LonLat = offset(BROOKLYN, -500, 1000);
const PHILADELPHIA: LonLat = [-75.1652, 39.9526];

/** One scripted weekday in New York: night at home, a commute, a day at the office, home again. */
function weekday(deviceId: string, date: string): Record<string, unknown>[] {
  const at = (localHour: number, minutes = 0) =>
    new Date(Date.parse(`${date}T00:00:00.000Z`) + (localHour + 5) * HOUR + minutes * 60_000).toISOString();
  const fix = (p: LonLat, time: string, stopped: boolean) => trackBody(deviceId, p, { updatedAt: time, stopped });
  return [
    fix(HOME, at(2), true),
    fix(HOME, at(7, 30), true),
    fix(MIDWAY, at(8, 30), false),
    fix(OFFICE, at(10), true),
    fix(OFFICE, at(16, 30), true),
    fix(MIDWAY, at(17, 30), false),
    fix(HOME, at(23), true),
  ];
}

const WEEK = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09'];

describe('Insights: home, office, traveling and commuting', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.parse('2026-01-17T12:00:00.000Z'));
  const replay = (replays: unknown[], key = s.keys.test.publishable) =>
    s.request('POST', '/v1/track/replay', { key, json: { replays } });

  before(async () => {
    s = await startServer({ clock });
    assertOk(
      await s.request('PATCH', '/v1/settings', { key: s.keys.test.secret, json: { features: { insights: true } } }),
    );
  });
  after(() => s.close());

  it('learns home from nights and office from weekday hours, with confidence from distinct days', async () => {
    const first = await replay(weekday('dev-ins-1', WEEK[0]!));
    assertOk(first);
    // One night is not enough; the second (Monday evening) makes a home of low confidence, and the
    // user, being there, enters it. No office yet: one working day.
    assert.deepEqual(
      typesOf(first).filter((t) => INSIGHT_TYPES.test(t)),
      ['user.entered_home'],
    );
    let ins = first.body.user.insights;
    assert.equal(ins.locations.length, 1);
    assert.equal(ins.locations[0].type, 'home');
    assert.equal(ins.locations[0].confidence, 1);
    assert.ok(distance(ins.locations[0].location.coordinates, HOME) < 1);
    assert.deepEqual(ins.state, { home: true, office: false, traveling: false, commuting: false });

    clock.advance(2000);
    const second = await replay(weekday('dev-ins-1', WEEK[1]!));
    assertOk(second);
    assert.deepEqual(
      typesOf(second).filter((t) => INSIGHT_TYPES.test(t)),
      [
        'user.exited_home',
        'user.entered_work',
        'user.exited_work',
        'user.started_commuting',
        'user.stopped_commuting',
        'user.entered_home',
      ],
    );
    // The flags as the mobile SDKs' RadarUser reads them: back home at the end of the day.
    assert.deepEqual(second.body.user.locationInsights, {
      atHome: true,
      atWork: false,
      traveling: false,
      commuting: false,
    });
    const exitedOffice = second.body.events.find((e: { type: string }) => e.type === 'user.exited_work');
    assert.equal(exitedOffice.duration, 7.5 * 60);
    assert.equal(exitedOffice.createdAt, `${WEEK[1]}T22:30:00.000Z`);
    const commuting = second.body.events.find((e: { type: string }) => e.type === 'user.started_commuting');
    assert.deepEqual(commuting.location.coordinates, MIDWAY);

    clock.advance(2000);
    const rest = await replay(WEEK.slice(2).flatMap((d) => weekday('dev-ins-1', d)));
    assertOk(rest);
    ins = rest.body.user.insights;
    const byType = Object.fromEntries(ins.locations.map((l: { type: string }) => [l.type, l]));
    // Nights of Jan 4 to 9 (six) and working days Jan 5 to 9 (five): high confidence both.
    assert.equal(byType.home.confidence, 3);
    assert.equal(byType.office.confidence, 3);
    assert.ok(distance(byType.office.location.coordinates, OFFICE) < 1);
    assert.match(byType.home.updatedAt, /^2026-01-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(ins.state, { home: true, office: false, traveling: false, commuting: false });
    // The user record keeps them: GET /v1/users/:id shows what was learnt.
    const stored = await s.request('GET', `/v1/users/${rest.body.user._id}`, { key: s.keys.test.secret });
    assert.deepEqual(stored.body.user.insights, ins);
  });

  it('reads a midday commute-corridor fix on a weekend the same way, and leaves commuting when stopped', async () => {
    clock.advance(2000);
    const stopMidway = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-ins-1', MIDWAY, { stopped: true }),
    });
    assertOk(stopMidway);
    // Stopped away from both: neither home, office nor commuting (a stop is not a commute).
    assert.deepEqual(typesOf(stopMidway), ['user.exited_home']);
    assert.deepEqual(stopMidway.body.user.insights.state, {
      home: false,
      office: false,
      traveling: false,
      commuting: false,
    });
  });

  it('starts traveling far from home, and stops on the way back home', async () => {
    clock.advance(HOUR);
    const away = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-ins-1', PHILADELPHIA, { stopped: true }),
    });
    assertOk(away);
    assert.deepEqual(typesOf(away), ['user.started_traveling']);
    assert.equal(away.body.user.insights.state.traveling, true);
    assert.equal(away.body.events[0].confidence, 3);
    clock.advance(2 * HOUR);
    const back = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody('dev-ins-1', HOME, { stopped: true }),
    });
    assertOk(back);
    assert.deepEqual(typesOf(back), ['user.stopped_traveling', 'user.entered_home']);
    assert.equal(back.body.events[0].duration, 120);
  });

  it('an office near home is not an office (working from home), and a few days in a hotel are not home', async () => {
    clock.advance(HOUR);
    const days = WEEK.flatMap((d) =>
      weekday('dev-ins-wfh', d).map((b) =>
        (b.latitude as number) === OFFICE[1] ? { ...b, latitude: HOME[1] + 0.0005, longitude: HOME[0] } : b,
      ),
    );
    const res = await replay(days);
    assertOk(res);
    assert.deepEqual(
      res.body.user.insights.locations.map((l: { type: string }) => l.type),
      ['home'],
    );
  });

  it('leaves insights out, emits nothing and learns nothing while the feature is off', async () => {
    const other = await s.createProject('no-insights');
    clock.advance(HOUR);
    const res = await replay(
      WEEK.flatMap((d) => weekday('dev-ins-off', d)),
      other.keys.test.publishable,
    );
    assertOk(res);
    assert.equal(res.body.user.insights, undefined);
    assert.deepEqual(
      typesOf(res).filter((t) => INSIGHT_TYPES.test(t)),
      [],
    );
  });
});

function distance(a: number[], b: LonLat): number {
  const dx = (a[0]! - b[0]) * 111_195 * Math.cos((b[1] * Math.PI) / 180);
  const dy = (a[1]! - b[1]) * 111_195;
  return Math.hypot(dx, dy);
}

describe('Insights with Regions: another country is traveling, a nearby state line is not', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.parse('2026-01-17T12:00:00.000Z'));
  const VADUZ: LonLat = [9.521, 47.141];
  const BUCHS_CH: LonLat = [9.4781, 47.1667];
  const SOUTH_LAKE_TAHOE_CA: LonLat = [-119.9772, 38.9399];
  const STATELINE_NV: LonLat = [-119.94, 38.9625];
  /**
   * Makes `home` the device's home with two nights there (each given as the UTC time of 23:00 local),
   * then tracks it at `there` a second later: that track's answer.
   */
  const homeThenTrack = async (deviceId: string, home: LonLat, utc: [string, string], there: LonLat) => {
    const replays = utc.map((updatedAt) => trackBody(deviceId, home, { stopped: true, updatedAt }));
    const settled = await s.request('POST', '/v1/track/replay', { key: s.keys.test.publishable, json: { replays } });
    assertOk(settled);
    assert.equal(settled.body.user.insights.state.home, true);
    clock.advance(1000);
    const res = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: trackBody(deviceId, there),
    });
    assertOk(res);
    return res;
  };

  before(async () => {
    s = await startGeodataServer({ clock });
    const on = await s.request('PATCH', '/v1/settings', {
      key: s.keys.test.secret,
      json: { features: { insights: true, regions: true } },
    });
    assertOk(on);
  });
  after(() => s.close());

  it('4 km from home but in another country: traveling', async () => {
    const nights: [string, string] = ['2026-01-14T22:00:00.000Z', '2026-01-15T22:00:00.000Z'];
    const abroad = await homeThenTrack('dev-ins-li', VADUZ, nights, BUCHS_CH);
    assert.equal(abroad.body.user.country.code, 'CH');
    assert.ok(typesOf(abroad).includes('user.started_traveling'), typesOf(abroad).join());
    assert.equal(abroad.body.user.insights.state.traveling, true);
  });

  it('across a state line a few km from home: not traveling (another state counts beyond 50 km)', async () => {
    const nights: [string, string] = ['2026-01-15T07:00:00.000Z', '2026-01-16T07:00:00.000Z'];
    const nv = await homeThenTrack('dev-ins-ca', SOUTH_LAKE_TAHOE_CA, nights, STATELINE_NV);
    assert.equal(nv.body.user.state.code, 'NV');
    assert.deepEqual(
      typesOf(nv).filter((t) => INSIGHT_TYPES.test(t)),
      ['user.exited_home'],
    );
    assert.equal(nv.body.user.insights.state.traveling, false);
  });
});
