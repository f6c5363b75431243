import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { circleBody } from './helpers/fixtures.js';
import { ManualClock, type RequestOptions, startServer, type TestServer } from './helpers/server.js';

interface Endpoint {
  method: string;
  path: string;
  json?: unknown;
}

const UUID = '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6';
const beacon = { description: 'b', type: 'ibeacon', uuid: UUID, major: '1', minor: '2', coordinates: [0, 0] };

/** Every secret endpoint of the core-platform issue, with a body a secret key gets a 200 for. */
const SECRET_ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/v1/users' },
  { method: 'GET', path: '/v1/users/someone' },
  { method: 'DELETE', path: '/v1/users/someone' },
  { method: 'PUT', path: '/v1/geofences/auth/g', json: circleBody() },
  { method: 'GET', path: '/v1/geofences' },
  { method: 'GET', path: '/v1/geofences/0123456789abcdef01234567' },
  { method: 'GET', path: '/v1/geofences/auth/g' },
  { method: 'GET', path: '/v1/geofences/auth/g/users' },
  { method: 'DELETE', path: '/v1/geofences/0123456789abcdef01234567' },
  { method: 'DELETE', path: '/v1/geofences/auth/g' },
  { method: 'POST', path: '/v1/beacons', json: { ...beacon, enabled: true, metadata: {} } },
  { method: 'PUT', path: '/v1/beacons/auth/b', json: { ...beacon, minor: '3' } },
  { method: 'GET', path: '/v1/beacons' },
  { method: 'GET', path: '/v1/beacons/0123456789abcdef01234567' },
  { method: 'GET', path: `/v1/beacons/${UUID}/1/2` },
  { method: 'DELETE', path: '/v1/beacons/0123456789abcdef01234567' },
  { method: 'DELETE', path: `/v1/beacons/${UUID}/1/2` },
  { method: 'GET', path: '/v1/settings' },
  { method: 'PATCH', path: '/v1/settings', json: { chainMappings: { starbucks: 'sb' } } },
];
const PUBLISHABLE_ENDPOINTS: Endpoint[] = [{ method: 'GET', path: '/v1/config' }];

describe('auth', () => {
  let s: TestServer;
  let clock: ManualClock;
  const call = (e: Endpoint, key: string | null, extra: RequestOptions = {}) =>
    s.request(e.method, e.path, { key, ...(e.json !== undefined ? { json: e.json } : {}), ...extra });
  const label = (e: Endpoint) => `${e.method} ${e.path}`;
  before(async () => {
    clock = new ManualClock();
    s = await startServer({ clock });
  });
  after(() => s.close());

  describe('the key matrix on every endpoint', () => {
    it('no key -> 401 Authorization', async () => {
      for (const e of [...SECRET_ENDPOINTS, ...PUBLISHABLE_ENDPOINTS]) {
        const res = await call(e, null);
        assertError(res, 401, 'Authorization');
      }
    });

    it('refusals carry CORS and request id headers, so browsers can read them', async () => {
      const headers = { origin: 'http://app.example' };
      for (const res of [
        await s.request('GET', '/v1/config', { headers }),
        await s.request('GET', '/v1/users', { key: s.keys.test.publishable, headers }),
      ]) {
        assert.ok([401, 403].includes(res.status));
        assert.equal(res.headers.get('access-control-allow-origin'), 'http://app.example');
        assert.ok(res.headers.get('x-request-id'));
        assert.equal(res.headers.get('x-radar-request-id'), res.headers.get('x-request-id'));
        assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      }
    });

    it('an unknown key, plain or as Bearer, -> 401 Authorization', async () => {
      const wrong = [
        'prj_test_sk_0000000000000000000000000000000000000000',
        `${s.keys.test.secret}x`,
        'Bearer prj_live_sk_nope',
        'Bearer',
        'Basic dXNlcjpwYXNz',
      ];
      for (const e of [...SECRET_ENDPOINTS, ...PUBLISHABLE_ENDPOINTS]) {
        for (const key of wrong) assertError(await call(e, key), 401, 'Authorization');
      }
    });

    it('a publishable key (test or live) on a secret endpoint -> 403 Authorization', async () => {
      for (const e of SECRET_ENDPOINTS) {
        for (const key of [s.keys.test.publishable, s.keys.live.publishable, `Bearer ${s.keys.live.publishable}`]) {
          const res = await call(e, key);
          assertError(res, 403, 'Authorization');
        }
      }
    });

    it('secret keys, test and live, plain and Bearer, pass auth on every secret endpoint', async () => {
      for (const key of [
        s.keys.test.secret,
        s.keys.live.secret,
        `Bearer ${s.keys.test.secret}`,
        `bearer  ${s.keys.live.secret}`,
      ]) {
        for (const e of SECRET_ENDPOINTS) {
          const res = await call(e, key);
          assert.ok(
            [200, 404].includes(res.status),
            `${label(e)} with ${key.slice(0, 14)}: ${res.status} ${JSON.stringify(res.body)}`,
          );
          assert.equal(res.body.meta.code, res.status);
        }
      }
    });

    it('secret keys do what they ask: a test and a live key each write and read their own data', async () => {
      for (const [key, live] of [
        [s.keys.test.secret, false],
        [s.keys.live.secret, true],
      ] as const) {
        const put = await s.request('PUT', '/v1/geofences/auth-env/g', { key: `Bearer ${key}`, json: circleBody() });
        assertOk(put);
        assert.equal(put.body.geofence.live, live);
        const get = await s.request('GET', '/v1/geofences/auth-env/g', { key });
        assertOk(get);
        assert.equal(get.body.geofence._id, put.body.geofence._id);
      }
    });

    it('publishable and secret keys, test and live, may call publishable endpoints', async () => {
      const keys = [s.keys.test.publishable, s.keys.live.publishable, s.keys.test.secret, s.keys.live.secret];
      for (const e of PUBLISHABLE_ENDPOINTS) {
        for (const key of [...keys, `Bearer ${s.keys.live.publishable}`]) assertOk(await call(e, key));
      }
    });

    it('checks the key before reading the body', async () => {
      const res = await s.request('PUT', '/v1/geofences/auth/g', { json: '{"description": ' });
      assertError(res, 401, 'Authorization');
      const pk = await s.request('PUT', '/v1/geofences/auth/g', {
        key: s.keys.test.publishable,
        json: '{"description": ',
      });
      assertError(pk, 403, 'Authorization');
    });

    it('needs no key for health and readiness', async () => {
      assertOk(await s.request('GET', '/healthz'));
      assertOk(await s.request('GET', '/readyz'));
    });
  });

  describe('project standing', () => {
    it('a disabled project -> 402 on every key and endpoint, until enabled again', async () => {
      const p = await s.createProject('to-disable');
      const keys = [p.keys.test.publishable, p.keys.test.secret, p.keys.live.publishable, p.keys.live.secret];
      assertOk(await s.request('GET', '/v1/config', { key: p.keys.live.secret }));
      await s.updateProject('to-disable', (x) => ({ ...x, disabled: true }));
      for (const key of keys) assertError(await s.request('GET', '/v1/config', { key }), 402, 'Authorization');
      for (const e of SECRET_ENDPOINTS) assertError(await call(e, p.keys.test.secret), 402, 'Authorization');
      // Other projects are not affected.
      assertOk(await s.request('GET', '/v1/settings', { key: s.keys.test.secret }));
      await s.updateProject('to-disable', (x) => ({ ...x, disabled: false }));
      for (const key of keys) assertOk(await s.request('GET', '/v1/config', { key }));
    });

    it('a disabled project writes nothing', async () => {
      const p = await s.createProject('disabled-writes');
      await s.updateProject('disabled-writes', (x) => ({ ...x, disabled: true }));
      assertError(await s.request('PUT', '/v1/geofences/d/g', { key: p.keys.test.secret, json: circleBody() }), 402);
      await s.updateProject('disabled-writes', (x) => ({ ...x, disabled: false }));
      assertError(await s.request('GET', '/v1/geofences/d/g', { key: p.keys.test.secret }), 404);
    });

    it('a monthly quota -> 402 once spent, across the project’s keys, until the next month', async () => {
      const p = await s.createProject('quota');
      await s.updateProject('quota', (x) => ({ ...x, limits: { ...x.limits, monthlyQuota: 5 } }));
      for (let i = 0; i < 3; i++) assertOk(await s.request('GET', '/v1/settings', { key: p.keys.test.secret }));
      assertOk(await s.request('GET', '/v1/config', { key: p.keys.live.publishable }));
      assertOk(await s.request('PUT', '/v1/geofences/q/g', { key: p.keys.live.secret, json: circleBody() }));
      const spent = await s.request('GET', '/v1/settings', { key: p.keys.test.secret });
      assertError(spent, 402, 'Authorization');
      assert.match(spent.body.meta.message, /5/);
      assertError(await s.request('GET', '/v1/config', { key: p.keys.live.publishable }), 402, 'Authorization');
      const write = await s.request('PUT', '/v1/geofences/q/h', { key: p.keys.live.secret, json: circleBody() });
      assertError(write, 402, 'Authorization');
      // Other projects keep working.
      assertOk(await s.request('GET', '/v1/settings', { key: s.keys.test.secret }));
      // Raising the quota lets the project through at once.
      await s.updateProject('quota', (x) => ({ ...x, limits: { ...x.limits, monthlyQuota: 7 } }));
      assertOk(await s.request('GET', '/v1/settings', { key: p.keys.test.secret }));
      await s.updateProject('quota', (x) => ({ ...x, limits: { ...x.limits, monthlyQuota: 6 } }));
      assertError(await s.request('GET', '/v1/settings', { key: p.keys.test.secret }), 402);
      // A new calendar month starts a new allowance; the refused write changed nothing.
      clock.advance(31 * 24 * 3600 * 1000);
      assertOk(await s.request('GET', '/v1/settings', { key: p.keys.test.secret }));
      assertError(await s.request('GET', '/v1/geofences/q/h', { key: p.keys.live.secret }), 404);
    });
  });
});

describe('per-key rate limit', () => {
  let s: TestServer;
  let clock: ManualClock;
  before(async () => {
    // The server's clock stands still, so "within one second" is exact however slow the machine is.
    clock = new ManualClock();
    s = await startServer({ clock, requestsPerSecond: 10 });
  });
  after(() => s.close());

  it('a new project defaults to 10 requests per second per key', async () => {
    const { project, keys } = await s.deps.services.projects.create('defaults');
    assert.equal(project.limits.requestsPerSecond, 10);
    for (let i = 0; i < 10; i++) assertOk(await s.request('GET', '/v1/config', { key: keys.test.publishable }));
    assertError(await s.request('GET', '/v1/config', { key: keys.test.publishable }), 429);
  });

  it('counts down RateLimit-* headers, then 429 with Retry-After and no state change', async () => {
    const key = s.keys.test.secret;
    const first = await s.request('PUT', '/v1/geofences/rl/keep', { key, json: circleBody() });
    assertOk(first);
    assert.equal(first.headers.get('ratelimit-limit'), '10');
    assert.equal(first.headers.get('ratelimit-remaining'), '9');
    assert.ok(Number(first.headers.get('ratelimit-reset')) >= 1);
    for (let i = 8; i >= 0; i--) {
      const res = await s.request('GET', '/v1/geofences/rl/keep', { key });
      assertOk(res);
      assert.equal(res.headers.get('ratelimit-remaining'), String(i));
    }

    const refused = [
      await s.request('PUT', '/v1/geofences/rl/new', { key, json: circleBody() }),
      await s.request('DELETE', '/v1/geofences/rl/keep', { key }),
      await s.request('PATCH', '/v1/settings', { key, json: { chainMappings: { starbucks: 'x' } } }),
      await s.request('POST', '/v1/beacons', {
        key,
        json: {
          description: 'b',
          type: 'ibeacon',
          uuid: randomUUID(),
          major: 1,
          minor: 1,
          enabled: true,
          metadata: {},
        },
      }),
      await s.request('GET', '/v1/users', { key }),
    ];
    for (const res of refused) {
      assertError(res, 429);
      assert.equal(res.headers.get('ratelimit-limit'), '10');
      assert.equal(res.headers.get('ratelimit-remaining'), '0');
      assert.ok(Number(res.headers.get('ratelimit-reset')) >= 1, 'RateLimit-Reset');
      assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After');
      assert.ok(res.headers.get('x-request-id'));
    }

    // Other keys, even of the same project, have their own budget.
    assertOk(await s.request('GET', '/v1/settings', { key: s.keys.live.secret }));
    assertOk(await s.request('GET', '/v1/config', { key: s.keys.test.publishable }));

    clock.advance(1000);
    assertError(await s.request('GET', '/v1/geofences/rl/new', { key }), 404);
    assertOk(await s.request('GET', '/v1/geofences/rl/keep', { key }));
    const settings = await s.request('GET', '/v1/settings', { key });
    assert.deepEqual(settings.body.chainMappings, {});
    const beacons = await s.request('GET', '/v1/beacons', { key });
    assert.deepEqual(beacons.body.beacons, []);
  });

  it('a refused request does not use up the next window', async () => {
    const key = s.keys.live.publishable;
    clock.advance(5000);
    for (let i = 0; i < 10; i++) assertOk(await s.request('GET', '/v1/config', { key }));
    for (let i = 0; i < 5; i++) assertError(await s.request('GET', '/v1/config', { key }), 429);
    clock.advance(1000);
    for (let i = 0; i < 10; i++) assertOk(await s.request('GET', '/v1/config', { key }));
    assertError(await s.request('GET', '/v1/config', { key }), 429);
  });
});
