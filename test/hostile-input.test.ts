import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { square } from './helpers/fixtures.js';
import { startGeodataServer } from './helpers/geodata.js';
import { startServer, type TestServer } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';
import { track, trackBody, typesOf } from './helpers/tracking.js';

/**
 * Every route of the OpenAPI document (so a new route is covered the day it is added) gets a fixed,
 * seeded stream of hostile requests: odd path segments, query values and repeated keys, JSON bodies
 * of the wrong types, broken JSON, forms and content types no route takes. None may answer 5xx,
 * every error must be the spec's shape, a 400 naming its parameter first, and a refused write must
 * leave every list as it was.
 */
// HOSTILE_SEED and HOSTILE_REQUESTS explore further than the fixed stream the suite runs.
const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 1500);
const SEED = Number(process.env.HOSTILE_SEED ?? 20261129);

const SCALARS = [
  '',
  ' ',
  'null',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1.5',
  '1e309',
  '0x10',
  '99999999999999999999',
  'true',
  '[]',
  '{}',
  'a'.repeat(3000),
  '💥',
  '\u0000',
  '%',
  'a,b',
  ',',
  '40.7,',
  '40.7,-73.9',
  '91,0',
  '0,181',
  '1,2,3',
  '40.7,-73.9|41,-74',
  '  40.7 , -73.9 ',
  'car',
  'truck',
  'metric',
  'started',
  'completed',
  'locality',
  'US',
  'ZZ',
  '8.8.8.8',
  '999.1.1.1',
  '::1',
  '2026-11-29T00:00:00.000Z',
  '2026-13-45',
  '__proto__',
  'constructor',
  'coffee-shop',
  // Oversized lists and a URL over the 8 KB limit.
  Array.from({ length: 101 }, (_, i) => `t${i}`).join(','),
  Array.from({ length: 26 }, () => '40.7,-73.9').join('|'),
  'u'.repeat(9000),
];
// Well-formed values by parameter name: a request mixes them with hostile ones, so that it gets past
// the first check it meets and reaches the later ones and the work behind them.
const GOOD: Record<string, string> = {
  coordinates: '40.75,-73.95',
  near: '40.75,-73.95',
  origin: '40.75,-73.95',
  destination: '40.76,-73.96',
  origins: '40.75,-73.95|40.76,-73.96',
  destinations: '40.77,-73.97',
  radius: '1000',
  limit: '10',
  query: 'New York',
  mode: 'car',
  modes: 'car,foot',
  units: 'metric',
  tags: 'tag1',
  tag: 'tag1',
  externalId: 'abc',
  ip: '8.8.8.8',
  status: 'started',
  active: 'true',
  layers: 'locality',
  country: 'US',
  userId: 'abc',
  includeGeometry: 'true',
};
const SEGMENTS = [
  'abc',
  'tag1',
  '%2F',
  '%00',
  'a\u0000b',
  'x'.repeat(600),
  '0123456789abcdef01234567',
  '💥',
  'null',
  '__proto__',
];
const EXTRA_KEYS = ['metadata[a]', 'metadata[b][c]', 'tags[]', 'limit', 'near', 'coordinates', 'status'];
const RAW_BODIES = [
  '{',
  '[]',
  'null',
  '"x"',
  '1',
  '{"a":',
  '\u0000',
  '{"description":"\\ud800"}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
];
const OTHER_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/octet-stream',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
];

function jsonValues(): unknown[] {
  const ring = [
    [-74, 40.6],
    [-73.7, 40.6],
    [-73.7, 40.9],
    [-74, 40.6],
  ];
  return [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    'x',
    '',
    'a'.repeat(3000),
    [],
    [1, 2],
    [[1, 2]],
    {},
    { a: 1 },
    { a: { b: { c: [] } } },
    [ring],
    [-73.9, 40.7],
    91,
    181,
    '40.7',
    'Infinity',
    'circle',
    'polygon',
    'isochrone',
    'iOS',
    'started',
    Array.from({ length: 40 }, (_, i) => i),
    Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i])),
    [{ uuid: 'x', major: 1, minor: 2 }],
    [{ uuid: null }],
    [{ deviceId: 'd', latitude: 1, longitude: 2 }],
    [{}],
    [null],
    'a\u0000b',
    'lone \ud800',
    { '\udc00': 'x' },
    { a: ['ok', 'x\u0000'] },
    // Holes astray or crossing, metadata too long, too many positions in all rings.
    [
      ring,
      [
        [-60, 40],
        [-59, 40],
        [-59, 41],
        [-60, 40],
      ],
    ],
    [
      ring,
      [
        [-73.8, 40.7],
        [-73.5, 40.7],
        [-73.5, 40.8],
        [-73.8, 40.7],
      ],
    ],
    { note: 'x'.repeat(1001) },
    { ['k'.repeat(257)]: 1 },
    Array.from({ length: 3 }, () => Array.from({ length: 4000 }, () => [0, 0])),
  ];
}

/** A valid body for each write route, by `METHOD path` as the OpenAPI document names it. */
const VALID_BODIES: Record<string, (i: number, random: () => number) => Record<string, unknown>> = {
  'POST /v1/track': (i, random) => ({
    deviceId: `d${i}`,
    latitude: 40.7 + random() / 10,
    longitude: -73.9 - random() / 10,
    accuracy: 10,
    ...(random() < 0.3
      ? { tripOptions: { externalId: `tt${i}`, destinationGeofenceTag: 'tag1', destinationGeofenceExternalId: 'abc' } }
      : {}),
  }),
  'POST /v1/track/replay': (i) => ({
    replays: [{ deviceId: `r${i}`, latitude: 40.75, longitude: -73.95, accuracy: 10 }],
  }),
  'PUT /v1/geofences/{tag}/{externalId}': () => ({
    description: 'd',
    type: 'circle',
    coordinates: [-73.95, 40.75],
    radius: 500,
  }),
  'POST /v1/beacons': (i) => ({
    description: 'b',
    type: 'ibeacon',
    uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6',
    major: '1',
    minor: String(i),
    tag: 'beacons',
    externalId: `b${i}`,
    enabled: true,
    metadata: {},
  }),
  'PUT /v1/beacons/{tag}/{externalId}': (i) => ({
    description: 'b',
    type: 'ibeacon',
    uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6',
    major: '2',
    minor: String(i),
    coordinates: [-73.95, 40.75],
  }),
  'POST /v1/trips': (i) => ({ userId: 'abc', externalId: `t${i}` }),
  'PATCH /v1/trips/{id}': () => ({ status: 'started' }),
  'PATCH /v1/trips/{externalId}/update': () => ({ status: 'started' }),
  'PATCH /v1/settings': () => ({ features: { places: false } }),
};

interface Route {
  method: string;
  path: string;
  query: string[];
  body: string[];
}

describe('hostile input on every route', () => {
  let s: TestServer;
  let routes: Route[];
  before(async () => {
    // With the world pack, so that the geocoding and context routes reach their own parameter checks.
    s = await startGeodataServer();
    const secret = s.keys.test.secret;
    // Something to find behind the ids and tags the requests name.
    assertOk(
      await s.request('PUT', '/v1/geofences/tag1/abc', {
        key: secret,
        json: { description: 'd', type: 'circle', coordinates: [-73.95, 40.75], radius: 5000, dwellThreshold: 1 },
      }),
    );
    assertOk(
      await s.request('POST', '/v1/track', {
        key: s.keys.test.publishable,
        json: {
          deviceId: 'd1',
          userId: 'abc',
          latitude: 40.75,
          longitude: -73.95,
          accuracy: 10,
          tripOptions: { externalId: 'abc', destinationGeofenceTag: 'tag1', destinationGeofenceExternalId: 'abc' },
        },
      }),
    );
    const doc = (await s.request('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: any }>>;
    };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
      })),
    );
  });
  after(() => s.close());

  it('answers every one without a 5xx, in the error shape, a 400 naming its parameter first; a refused write changes nothing', async () => {
    assert.ok(routes.length >= 40, `the OpenAPI document lists ${routes.length} routes`);
    const next = hostileRequests(routes, s);
    const statuses = new Map<number, number>();
    let state = await stateOf(s);
    // A write taken since `state` was read: the next refusal is compared with a fresh reading.
    let moved = false;
    for (let i = 0; i < REQUESTS; i++) {
      const { method, target, headers, body } = next(i);
      const stop = new AbortController();
      const res = await fetch(`${s.url}${target}`, { method, headers, body, signal: stop.signal });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // A taken request whose answer is not JSON: the live event stream never ends (close it once
      // its headers are here), and the geofence export is CSV or GeoJSON text.
      const type = res.headers.get('content-type') ?? '';
      if (res.status < 300 && !type.startsWith('application/json')) {
        if (type.startsWith('text/event-stream')) stop.abort();
        else await res.text();
        if (method !== 'GET') moved = true;
        continue;
      }
      const text = await res.text();
      const what = `${method} ${target.slice(0, 200)} ${(body ?? '').slice(0, 200)} => ${res.status} ${text.slice(0, 300)}`;
      assert.ok(res.status < 500, what);
      const answer = JSON.parse(text) as { meta?: { code?: number; param?: string; message?: string } };
      assert.equal(answer.meta?.code, res.status, what);
      if (res.status === 400) {
        assert.equal(typeof answer.meta?.param, 'string', what);
        assert.ok(answer.meta!.message!.startsWith(answer.meta!.param!), what);
      }
      if (method === 'GET') continue;
      if (res.status < 300) {
        moved = true;
        continue;
      }
      const now = await stateOf(s);
      if (!moved) assert.ok(now === state, `a refused write changed what the lists read: ${what}`);
      state = now;
      moved = false;
    }
    // The stream reaches past the parameter checks too: some requests are taken, most refused.
    assert.ok((statuses.get(200) ?? 0) > REQUESTS / 20, JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > REQUESTS / 5, JSON.stringify([...statuses]));
  });
});

/** Everything a refused write must leave as it was: each list a secret key reads, and the settings. */
async function stateOf(s: TestServer): Promise<string> {
  const texts = await Promise.all(
    STATE_READS.map(async (path) =>
      (await fetch(`${s.url}${path}`, { headers: { authorization: s.keys.test.secret } })).text(),
    ),
  );
  return texts.join('\n');
}

const STATE_READS = [
  '/v1/users?limit=1000',
  '/v1/geofences?limit=1000',
  '/v1/beacons?limit=1000',
  '/v1/trips?limit=1000&includeLocations=true',
  '/v1/events?limit=1000',
  '/v1/settings',
];

/** The seeded stream: request `i` of it, for any route of `routes`. */
function hostileRequests(routes: Route[], s: TestServer) {
  let seed = SEED;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return (i: number) => {
    const r = pick(routes);
    const path = r.path.replace(/\{[^}]+\}/g, (name) =>
      encodeURIComponent(random() < 0.4 ? (name === '{tag}' ? 'tag1' : 'abc') : pick(SEGMENTS)),
    );
    const query = new URLSearchParams();
    for (const k of [...r.query, ...(random() < 0.3 ? [pick(EXTRA_KEYS)] : [])]) {
      if (random() < 0.3) continue;
      query.append(k, GOOD[k] !== undefined && random() < 0.5 ? GOOD[k] : pick(SCALARS));
      if (random() < 0.1) query.append(k, pick(SCALARS));
    }
    const headers: Record<string, string> = {
      authorization: random() < 0.15 ? s.keys.test.publishable : s.keys.test.secret,
    };
    let body: string | undefined;
    if (r.method !== 'GET' && r.method !== 'DELETE') {
      const kind = random();
      const base = VALID_BODIES[`${r.method} ${r.path}`];
      if (base && kind < 0.4) {
        // Valid but for one or two fields: what a route checks must all be checked before it writes.
        const fields = base(i, random);
        for (let n = random() < 0.5 ? 1 : 2; n > 0; n--) fields[pick(r.body)] = pick(jsonValues());
        body = JSON.stringify(fields);
        headers['content-type'] = 'application/json';
      } else if (kind < 0.7) {
        const fields: Record<string, unknown> = {};
        for (const k of r.body) if (random() < 0.6) fields[k] = pick(jsonValues());
        body = JSON.stringify(fields);
        headers['content-type'] = 'application/json';
      } else if (kind < 0.8) {
        body = pick(RAW_BODIES);
        headers['content-type'] = 'application/json';
      } else if (kind < 0.9) {
        const form = new URLSearchParams();
        for (const k of r.body) if (random() < 0.6) form.append(k, pick(SCALARS));
        body = form.toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        body = pick(['x', '<a/>', '']);
        headers['content-type'] = pick(OTHER_TYPES);
      }
    }
    return { method: r.method, target: `${path}${query.size ? `?${query}` : ''}`, headers, body };
  };
}

describe('text PostgreSQL cannot store', () => {
  const srv = serverSuite(startGeodataServer);

  it('refuses an unpaired surrogate in a fence and stores nothing', async () => {
    const secret = srv.s.keys.test.secret;
    const fence = { type: 'circle', coordinates: [-73.95, 40.75], radius: 500 };
    const res = await srv.s.request('PUT', '/v1/geofences/store/one', {
      key: secret,
      json: { ...fence, description: 'caf\ud800' },
    });
    assertError(res, 400, 'description', 'unpaired surrogate');
    const bad = await srv.s.request('PUT', '/v1/geofences/store/two', {
      key: secret,
      json: { ...fence, description: 'd', metadata: { '\udc00': 'x' } },
    });
    assertError(bad, 400, 'metadata', 'unpaired surrogate');
    const stored = await srv.s.request('GET', '/v1/geofences', { key: secret });
    assertOk(stored);
    assert.deepEqual(stored.body.geofences, []);
    // A well-formed pair (an emoji) is text like any other.
    assertOk(
      await srv.s.request('PUT', '/v1/geofences/store/one', { key: secret, json: { ...fence, description: 'ok 😀' } }),
    );
  });

  it('refuses the NUL character in a track, a query and a path, and creates no user', async () => {
    const track = { deviceId: 'nul-device', latitude: 40.75, longitude: -73.95, accuracy: 10 };
    const res = await srv.s.request('POST', '/v1/track', {
      key: srv.s.keys.test.publishable,
      json: { ...track, metadata: { note: 'a\u0000b' } },
    });
    assertError(res, 400, 'metadata', 'NUL character');
    // Fields a track ignores are refused too: track participants read the raw body.
    const beacon = await srv.s.request('POST', '/v1/track', {
      key: srv.s.keys.test.publishable,
      json: { ...track, beacons: [{ uuid: '\u0000', major: '1', minor: '2' }] },
    });
    assertError(beacon, 400, 'beacons', 'NUL character');
    const users = await srv.s.request('GET', '/v1/users', { key: srv.s.keys.test.secret });
    assertOk(users);
    assert.deepEqual(users.body.users, []);
    assertError(
      await srv.s.request('GET', '/v1/geofences?tag=a%00b', { key: srv.s.keys.test.secret }),
      400,
      'tag',
      'NUL character',
    );
    assertError(
      await srv.s.request('GET', '/v1/geofences/a%00b', { key: srv.s.keys.test.secret }),
      400,
      'id',
      'NUL character',
    );
  });
});

/** Raw HTTP: `fetch` refuses to send some of what these tests send, and hides what comes back. */
async function raw(s: TestServer, method: string, target: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(`${s.url}${target}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as { meta: Record<string, unknown> } };
}

/** A ring whose edges' boxes all overlap (long, leaning teeth): every pair was a candidate before. */
function sawtooth(positions: number): number[][] {
  const teeth = Math.floor((positions - 4) / 2);
  const ring: number[][] = [];
  for (let i = 0; i < teeth; i++) ring.push([-74 + 2 * i * 1e-5, 40.6], [-73.9 + (2 * i + 1) * 1e-5, 40.7]);
  const last = ring.at(-1)!;
  ring.push([last[0]!, 40.59], [-74, 40.59], [-74, 40.6]);
  return ring;
}

describe('what an attacker probed (issue 47)', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  const fence = (coordinates: unknown) => ({ description: 'd', type: 'polygon', coordinates });

  it('refuses a hole outside the outer ring, one crossing it, and holes meeting each other', async () => {
    const secret = s.keys.test.secret;
    const outer = square(-74, 40.6, 0.2);
    const cases: [unknown, string][] = [
      [[outer, square(-60, 40, 1)], 'coordinates ring 1 (a hole) must lie inside the outer ring'],
      [[outer, square(-73.85, 40.65, 0.1)], 'coordinates ring 1 (a hole) must not touch or cross the outer ring'],
      [[outer, square(-73.95, 40.65, 0.05), square(-73.92, 40.67, 0.05)], 'coordinates rings 1 and 2 (holes)'],
      [[outer, square(-73.99, 40.61, 0.15), square(-73.95, 40.65, 0.01)], 'must not lie inside ring 1'],
    ];
    for (const [coordinates, message] of cases) {
      const res = await s.request('PUT', '/v1/geofences/holes/bad', { key: secret, json: fence(coordinates) });
      assertError(res, 400, 'coordinates', message);
    }
    const list = await s.request('GET', '/v1/geofences', { key: secret });
    assert.deepEqual(list.body.geofences, []);
  });

  it('refuses 21 rings of 10,000 positions, and any rings of over 10,000 positions together', async () => {
    // A staircase of `n` positions at 4 decimals: simple, and 21 of 10,000 fit the 5 MB body limit.
    const staircase = (x: number, n: number) => {
      const steps = (n - 4) / 2;
      const at = (dx: number, dy: number) => [Math.round((x + dx) * 1e4) / 1e4, Math.round((40 + dy) * 1e4) / 1e4];
      const ring: number[][] = [];
      for (let k = 0; k < steps; k++) ring.push(at(k * 1e-4, k * 1e-4), at((k + 1) * 1e-4, k * 1e-4));
      ring.push(at((steps + 1) * 1e-4, steps * 1e-4), at((steps + 1) * 1e-4, -1e-4), at(0, -1e-4), at(0, 0));
      return ring;
    };
    const key = s.keys.test.secret;
    const many = Array.from({ length: 21 }, (_, r) => staircase(-74 + r * 0.6, 10_000));
    // Refused before it is parsed: 210,000 arrays is more than any request needs.
    assertError(
      await s.request('PUT', '/v1/geofences/holes/big', { key, json: fence(many) }),
      413,
      'body',
      'arrays and objects',
    );
    const three = Array.from({ length: 3 }, (_, r) => staircase(-74 + r * 0.6, 4_000));
    assertError(
      await s.request('PUT', '/v1/geofences/holes/big', { key, json: fence(three) }),
      400,
      'coordinates',
      'at most 10000 positions in all its rings together (it has 12000)',
    );
  });

  it('puts a point in a hole outside the fence: no event there, an event in the fence', async () => {
    const holed = fence([square(-74, 40.6, 0.2), square(-73.95, 40.65, 0.05)]);
    assertOk(await s.request('PUT', '/v1/geofences/holes/ring', { key: s.keys.test.secret, json: holed }));
    const key = s.keys.test.publishable;
    const inHole = await track(s, trackBody('in-hole', [-73.925, 40.675]), key);
    assertOk(inHole);
    assert.deepEqual(typesOf(inHole), []);
    const inFence = await track(s, trackBody('in-fence', [-73.99, 40.61]), key);
    assert.deepEqual(typesOf(inFence), ['user.entered_geofence']);
    const context = await s.request('GET', '/v1/context?coordinates=40.675,-73.925', { key });
    assert.deepEqual(context.body.context.geofences, []);
  });

  it('validates a 10,000-position sawtooth as fast as a circle of as many positions (it took 1.6 s)', async () => {
    const circle = (() => {
      const ring = Array.from({ length: 9_999 }, (_, i) => {
        const a = (2 * Math.PI * i) / 9_999;
        return [-73.95 + 0.05 * Math.cos(a), 40.65 + 0.05 * Math.sin(a)];
      });
      return [...ring, ring[0]!];
    })();
    // The median of three PUTs of each, after one of each: compared with each other rather than with
    // a clock, so a busy machine slows both alike. The quadratic check made the sawtooth 15 to 30
    // times the circle here.
    const medianPut = async (ring: number[][], id: string) => {
      const times: number[] = [];
      for (let i = 0; i < 4; i++) {
        const started = performance.now();
        assertOk(await s.request('PUT', `/v1/geofences/holes/${id}`, { key: s.keys.test.secret, json: fence([ring]) }));
        if (i > 0) times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[1]!;
    };
    const saw = await medianPut(sawtooth(10_000), 'saw');
    const round = await medianPut(circle, 'circle');
    assert.ok(saw < 3 * round + 50, `sawtooth ${saw.toFixed(0)} ms, circle ${round.toFixed(0)} ms`);
  });

  it('refuses a body of 870,000 small arrays before parsing it (it held the server for a second)', async () => {
    const zeros = `{"description":"d","type":"polygon","coordinates":[[${Array.from({ length: 870_000 }, () => '[0,0]').join(',')}]]}`;
    const res = await raw(
      s,
      'PUT',
      '/v1/geofences/holes/zeros',
      { authorization: s.keys.test.secret, 'content-type': 'application/json' },
      zeros,
    );
    assert.equal(res.status, 413);
    assert.equal(res.body.meta.param, 'body');
    assert.match(String(res.body.meta.message), /^body must hold at most 25000 arrays and objects/);
  });

  it('answers 415 for JSON sent as text/plain, with CORS headers, and changes nothing', async () => {
    const secret = s.keys.test.secret;
    const before = await s.request('GET', '/v1/settings', { key: secret });
    const res = await raw(
      s,
      'PATCH',
      '/v1/settings',
      { authorization: secret, 'content-type': 'text/plain;charset=UTF-8', origin: 'https://app.example' },
      JSON.stringify({ features: { places: !before.body.features.places } }),
    );
    assert.equal(res.status, 415);
    assert.equal(res.body.meta.code, 415);
    assert.equal(res.body.meta.param, 'content-type');
    assert.match(String(res.body.meta.message), /^content-type must be application\/json/);
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    const after = await s.request('GET', '/v1/settings', { key: secret });
    assert.deepEqual(after.body, before.body);
    for (const [method, path] of [
      ['POST', '/v1/track'],
      ['PUT', '/v1/geofences/t/e'],
      ['POST', '/v1/beacons'],
      ['PATCH', '/v1/trips/abc/update'],
      ['POST', '/v1/nowhere'],
    ] as const) {
      const other = await raw(s, method, path, { authorization: secret, 'content-type': 'application/xml' }, '<a/>');
      assert.equal(other.status, 415, `${method} ${path}`);
      assert.equal(other.body.meta.param, 'content-type');
    }
    // No body is no body, whatever type it claims: the parameters may be in the query.
    const empty = await raw(s, 'PATCH', '/v1/settings', { authorization: secret, 'content-type': 'text/plain' }, '');
    assert.equal(empty.status, 200);
  });

  it('answers 414 for a long URL and 431 for long headers, in the error shape with CORS headers', async () => {
    const key = s.keys.test.secret;
    for (const length of [9_000, 20_000]) {
      const res = await raw(s, 'GET', `/v1/users?x=${'a'.repeat(length)}`, { authorization: key });
      assert.equal(res.status, 414, `a URL of ${length}`);
      assert.deepEqual(res.body.meta, {
        code: 414,
        param: 'url',
        message: 'url must be at most 8192 characters long.',
      });
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    }
    const res = await raw(s, 'GET', '/v1/users', { authorization: key, 'x-padding': 'a'.repeat(20_000) });
    assert.equal(res.status, 431);
    assert.equal(res.body.meta.param, 'headers');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const keys = Array.from({ length: 101 }, (_, i) => `k${i}=1`).join('&');
    assertError(await s.request('GET', `/v1/users?${keys}`, { key }), 400, 'query', 'at most 100 keys');
  });

  it('bounds metadata values and keys, and every list and name a request carries', async () => {
    const secret = s.keys.test.secret;
    const circle = { description: 'd', type: 'circle', coordinates: [-73.95, 40.75], radius: 100 };
    const tooLong = { ...circle, metadata: { note: 'x'.repeat(4 * 1024 * 1024) } };
    assertError(
      await s.request('PUT', '/v1/geofences/m/one', { key: secret, json: tooLong }),
      400,
      'metadata',
      'at most 1000 characters',
    );
    assertOk(
      await s.request('PUT', '/v1/geofences/m/one', {
        key: secret,
        json: { ...circle, metadata: { note: 'x'.repeat(1000) } },
      }),
    );
    assertError(
      await s.request('PUT', '/v1/geofences/m/two', {
        key: secret,
        json: { ...circle, metadata: { ['k'.repeat(300)]: 1 } },
      }),
      400,
      'metadata',
    );
    assertError(
      await s.request('PUT', '/v1/geofences/m/two', {
        key: secret,
        json: { ...circle, description: 'd'.repeat(1001) },
      }),
      400,
      'description',
    );
    const key = s.keys.test.publishable;
    assertError(
      await track(s, trackBody('m-device', [-73.95, 40.75], { metadata: { a: 'y'.repeat(1001) } }), key),
      400,
      'metadata',
    );
    assertError(await track(s, trackBody('d'.repeat(257), [-73.95, 40.75]), key), 400, 'deviceId');
    assertError(
      await track(s, trackBody('m-device', [-73.95, 40.75], { userId: 'u'.repeat(257) }), key),
      400,
      'userId',
    );
    const tags = Array.from({ length: 101 }, (_, i) => `t${i}`).join(',');
    assertError(
      await s.request('GET', `/v1/search/geofences?near=40.75,-73.95&tags=${tags}`, { key }),
      400,
      'tags',
      'at most 100 items',
    );
    assertError(
      await s.request('GET', `/v1/search/geofences?near=40.75,-73.95&tags=${'t'.repeat(300)}`, { key }),
      400,
      'tags',
    );
    const points = Array.from({ length: 26 }, () => '40.75,-73.95').join('|');
    assertError(
      await s.request('GET', `/v1/route/matrix?origins=${points}&destinations=40.7,-73.9&mode=car&units=metric`, {
        key,
      }),
      400,
      'origins',
      'at most 25 points',
    );
    const users = await s.request('GET', '/v1/users', { key: secret });
    const devices = (users.body.users as Array<{ deviceId: string }>).map((u) => u.deviceId);
    assert.ok(!devices.some((d) => d.startsWith('m-') || d.length > 256), 'no refused track created a user');
  });
});
