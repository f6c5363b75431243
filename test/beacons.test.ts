import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { assertExactlyOnce, assertNewestFirst, pageThrough } from './helpers/fixtures.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';

const UUID = '2f234454-cf6d-4a0f-adf2-f4911ba9ffa6';

/** A valid POST /beacons body. */
function beaconBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    description: 'Front door',
    type: 'ibeacon',
    uuid: randomUUID(),
    major: '100',
    minor: '1',
    coordinates: [-73.9867, 40.7039],
    enabled: true,
    metadata: { floor: 1 },
    ...extra,
  };
}

describe('beacons', () => {
  let s: TestServer;
  let clock: ManualClock;
  let key: string;
  const post = (json: unknown) => s.request('POST', '/v1/beacons', { key, json });
  before(async () => {
    clock = new ManualClock();
    s = await startServer({ clock });
    key = s.keys.test.secret;
  });
  after(() => s.close());

  describe('create (POST)', () => {
    it('creates a beacon with every field', async () => {
      const res = await post(
        beaconBody({
          uuid: UUID.toUpperCase(),
          major: 65535,
          minor: 0,
          tag: 'doors',
          externalId: 'd-1',
          enabled: false,
        }),
      );
      assertOk(res);
      const b = res.body.beacon;
      assert.match(b._id, /^[0-9a-f]{24}$/);
      assert.equal(b.live, false);
      assert.equal(b.description, 'Front door');
      assert.equal(b.type, 'ibeacon');
      assert.equal(b.uuid, UUID, 'uuid is kept in lower case');
      assert.equal(b.major, '65535', 'major and minor are strings');
      assert.equal(b.minor, '0');
      assert.equal(b.tag, 'doors');
      assert.equal(b.externalId, 'd-1');
      assert.deepEqual(b.geometry, { type: 'Point', coordinates: [-73.9867, 40.7039] });
      assert.equal(b.enabled, false);
      assert.deepEqual(b.metadata, { floor: 1 });
      assertIsoMs(b.createdAt);
      assertIsoMs(b.updatedAt);
    });

    it('reads metadata as a JSON string and a form body with JSON strings', async () => {
      const json = await post(beaconBody({ metadata: '{"a":"b","n":2,"ok":true}' }));
      assertOk(json);
      assert.deepEqual(json.body.beacon.metadata, { a: 'b', n: 2, ok: true });

      const form = await s.request('POST', '/v1/beacons', {
        key,
        form: {
          description: 'Form beacon',
          type: 'iBeacon',
          uuid: randomUUID(),
          major: '7',
          minor: '8',
          coordinates: '[2.35,48.85]',
          enabled: 'true',
          metadata: '{"room":"lobby"}',
        },
      });
      assertOk(form);
      const b = form.body.beacon;
      assert.equal(b.type, 'ibeacon');
      assert.deepEqual(b.geometry.coordinates, [2.35, 48.85]);
      assert.equal(b.enabled, true);
      assert.deepEqual(b.metadata, { room: 'lobby' });
    });

    it('409s a second beacon with the same uuid/major/minor, in any letter case', async () => {
      const uuid = randomUUID();
      assertOk(await post(beaconBody({ uuid, major: '5', minor: '6' })));
      assertError(await post(beaconBody({ uuid, major: '5', minor: '6' })), 409, 'uuid');
      assertError(await post(beaconBody({ uuid: uuid.toUpperCase(), major: 5, minor: 6 })), 409, 'uuid');
      assertOk(await post(beaconBody({ uuid, major: '5', minor: '7' })));
    });

    it('409s a second beacon with the same tag and externalId', async () => {
      assertOk(await post(beaconBody({ tag: 'clash', externalId: 'x' })));
      assertError(await post(beaconBody({ tag: 'clash', externalId: 'x' })), 409, 'externalId');
      assertOk(await post(beaconBody({ tag: 'clash', externalId: 'y' })));
    });
  });

  describe('upsert (PUT by tag/externalId)', () => {
    it('creates, then updates in place keeping _id and createdAt while updatedAt moves', async () => {
      const uuid = randomUUID();
      const body = { description: 'Desk', type: 'ibeacon', uuid, major: '1', minor: '2', coordinates: [1, 2] };
      const created = await s.request('PUT', '/v1/beacons/desks/k-1', { key, json: body });
      assertOk(created);
      const b = created.body.beacon;
      assert.equal(b.tag, 'desks');
      assert.equal(b.externalId, 'k-1');
      assert.equal(b.enabled, true, 'enabled defaults to true');
      assert.equal(b.metadata, undefined);

      clock.advance(2000);
      const updated = await s.request('PUT', '/v1/beacons/desks/k-1', {
        key,
        json: { ...body, description: 'Desk 2', minor: '3', enabled: false, metadata: '{"x":1}' },
      });
      assertOk(updated);
      const u = updated.body.beacon;
      assert.equal(u._id, b._id);
      assert.equal(u.createdAt, b.createdAt);
      assert.equal(Date.parse(u.updatedAt) - Date.parse(b.updatedAt), 2000);
      assert.equal(u.description, 'Desk 2');
      assert.equal(u.minor, '3');
      assert.equal(u.enabled, false);
      assert.deepEqual(u.metadata, { x: 1 });
      assertError(await s.request('GET', `/v1/beacons/${uuid}/1/2`, { key }), 404);
      assertOk(await s.request('GET', `/v1/beacons/${uuid}/1/3`, { key }));
    });

    it('409s an upsert onto another beacon’s uuid/major/minor and changes nothing', async () => {
      const taken = beaconBody();
      assertOk(await post(taken));
      const mine = {
        description: 'Mine',
        type: 'ibeacon',
        uuid: randomUUID(),
        major: '1',
        minor: '1',
        coordinates: [0, 0],
      };
      assertOk(await s.request('PUT', '/v1/beacons/up/mine', { key, json: mine }));
      const clash = await s.request('PUT', '/v1/beacons/up/mine', {
        key,
        json: { ...mine, uuid: taken.uuid, major: taken.major, minor: taken.minor },
      });
      assertError(clash, 409, 'uuid');
      const still = await s.request('GET', '/v1/beacons/up/mine', { key });
      assert.equal(still.body.beacon.uuid, mine.uuid);
      const create = await s.request('PUT', '/v1/beacons/up/new', {
        key,
        json: { ...mine, uuid: taken.uuid, major: taken.major, minor: taken.minor },
      });
      assertError(create, 409, 'uuid');
      assertError(await s.request('GET', '/v1/beacons/up/new', { key }), 404);
    });

    it('serves concurrent upserts of one new tag/externalId as one beacon, and concurrent creates of one identity as one', async () => {
      const body = {
        description: 'Race',
        type: 'ibeacon',
        uuid: randomUUID(),
        major: '9',
        minor: '9',
        coordinates: [0, 0],
      };
      const upserts = await Promise.all(
        Array.from({ length: 10 }, () => s.request('PUT', '/v1/beacons/race/one', { key, json: body })),
      );
      for (const r of upserts) assertOk(r);
      assert.equal(new Set(upserts.map((r) => r.body.beacon._id)).size, 1);

      const same = beaconBody();
      const creates = await Promise.all(Array.from({ length: 10 }, () => post(same)));
      assert.deepEqual(creates.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('requires coordinates on upsert', async () => {
      const res = await s.request('PUT', '/v1/beacons/up/nocoords', {
        key,
        json: { description: 'x', type: 'ibeacon', uuid: randomUUID(), major: '1', minor: '1' },
      });
      assertError(res, 400, 'coordinates');
    });
  });

  describe('get and delete', () => {
    it('gets by _id, by uuid/major/minor (any letter case) and by tag/externalId', async () => {
      const uuid = randomUUID();
      const b = (await post(beaconBody({ uuid, major: '10', minor: '20', tag: 'get', externalId: 'g-1' }))).body.beacon;
      const byId = await s.request('GET', `/v1/beacons/${b._id}`, { key });
      assertOk(byId);
      assert.deepEqual(byId.body.beacon, b);
      const byIdentifiers = await s.request('GET', `/v1/beacons/${uuid.toUpperCase()}/10/20`, { key });
      assertOk(byIdentifiers);
      assert.deepEqual(byIdentifiers.body.beacon, b);
      const byTag = await s.request('GET', '/v1/beacons/get/g-1', { key });
      assertOk(byTag);
      assert.deepEqual(byTag.body.beacon, b);
    });

    it('reads major and minor in the path as the numbers they are (007 is 7)', async () => {
      const uuid = randomUUID();
      const b = (await post(beaconBody({ uuid, major: '007', minor: '0010' }))).body.beacon;
      assert.equal(b.major, '7');
      assert.equal(b.minor, '10');
      assertOk(await s.request('GET', `/v1/beacons/${uuid}/7/10`, { key }));
      assertOk(await s.request('GET', `/v1/beacons/${uuid}/007/0010`, { key }));
      assertError(await s.request('GET', `/v1/beacons/${uuid}/x/10`, { key }), 400, 'major');
      assertError(await s.request('GET', `/v1/beacons/${uuid}/7/70000`, { key }), 400, 'minor');
    });

    it('404s unknown beacons', async () => {
      assertError(await s.request('GET', '/v1/beacons/0123456789abcdef01234567', { key }), 404);
      assertError(await s.request('GET', `/v1/beacons/${randomUUID()}/1/1`, { key }), 404);
      assertError(await s.request('GET', '/v1/beacons/get/none', { key }), 404);
    });

    it('deletes by _id, then 404', async () => {
      const b = (await post(beaconBody())).body.beacon;
      assertOk(await s.request('DELETE', `/v1/beacons/${b._id}`, { key }));
      assertError(await s.request('GET', `/v1/beacons/${b._id}`, { key }), 404);
      assertError(await s.request('GET', `/v1/beacons/${b.uuid}/${b.major}/${b.minor}`, { key }), 404);
      assertError(await s.request('DELETE', `/v1/beacons/${b._id}`, { key }), 404);
      // Its identifiers are free again.
      assertOk(await post(beaconBody({ uuid: b.uuid, major: b.major, minor: b.minor })));
    });

    it('deletes by uuid/major/minor, then 404', async () => {
      const b = (await post(beaconBody({ major: '3', minor: '4' }))).body.beacon;
      assertOk(await s.request('DELETE', `/v1/beacons/${b.uuid}/3/4`, { key }));
      assertError(await s.request('GET', `/v1/beacons/${b._id}`, { key }), 404);
      assertError(await s.request('DELETE', `/v1/beacons/${b.uuid}/3/4`, { key }), 404);
    });
  });

  describe('list', () => {
    const ids: string[] = [];
    const times: string[] = [];
    before(async () => {
      for (const [i, tag] of ['lst-a', 'lst-b', 'lst-a', 'lst-b'].entries()) {
        clock.advance(1000);
        const b = (await post(beaconBody({ tag, externalId: `e${i}` }))).body.beacon;
        ids.push(b._id);
        times.push(b.createdAt);
      }
    });
    const idsOf = (res: { body: { beacons: Array<{ _id: string }> } }) => res.body.beacons.map((b) => b._id);

    it('lists newest first with limit and hasMore', async () => {
      const page = await s.request('GET', '/v1/beacons?limit=2', { key });
      assertOk(page);
      assert.equal(page.body.meta.hasMore, true);
      assert.deepEqual(idsOf(page), [ids[3], ids[2]]);
      const all = await s.request('GET', '/v1/beacons?limit=1000', { key });
      assert.equal(all.body.meta.hasMore, false);
      assertNewestFirst(all.body.beacons, 'createdAt');
    });

    it('filters by tag, externalId, createdBefore and createdAfter', async () => {
      const q = (qs: string) => s.request('GET', `/v1/beacons?${qs}`, { key });
      assert.deepEqual(idsOf(await q('tag=lst-a')), [ids[2], ids[0]]);
      assert.deepEqual(idsOf(await q('tag=lst-b&externalId=e1')), [ids[1]]);
      assert.deepEqual(idsOf(await q('externalId=e3')), [ids[3]]);
      assert.deepEqual(idsOf(await q(`tag=lst-a&createdBefore=${encodeURIComponent(times[2]!)}`)), [ids[0]]);
      const between = await q(
        `createdAfter=${encodeURIComponent(times[0]!)}&createdBefore=${encodeURIComponent(times[3]!)}`,
      );
      assert.deepEqual(idsOf(between), [ids[2], ids[1]]);
      const tagged = await q('tag=lst-b&limit=1');
      assert.equal(tagged.body.meta.hasMore, true);
      assert.deepEqual(idsOf(await q('tag=nothing')), []);
    });

    it('rejects bad list parameters', async () => {
      assertError(await s.request('GET', '/v1/beacons?limit=0', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/beacons?limit=1001', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/beacons?limit=abc', { key }), 400, 'limit');
      assertError(await s.request('GET', '/v1/beacons?createdBefore=now', { key }), 400, 'createdBefore');
      assertError(await s.request('GET', '/v1/beacons?createdAfter=2026-02-30', { key }), 400, 'createdAfter');
      assertError(await s.request('GET', `/v1/beacons?tag=${'t'.repeat(257)}`, { key }), 400, 'tag');
      assertError(await s.request('GET', `/v1/beacons?externalId=${'e'.repeat(257)}`, { key }), 400, 'externalId');
    });
  });

  describe('rejected bodies name the parameter', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['description missing', beaconBody({ description: undefined }), 'description'],
      ['description blank', beaconBody({ description: ' ' }), 'description'],
      ['type missing', beaconBody({ type: undefined }), 'type'],
      ['type not ibeacon', beaconBody({ type: 'eddystone' }), 'type'],
      ['uuid missing', beaconBody({ uuid: undefined }), 'uuid'],
      ['uuid not a UUID', beaconBody({ uuid: 'not-a-uuid' }), 'uuid'],
      ['uuid too short', beaconBody({ uuid: '2f234454-cf6d-4a0f-adf2-f4911ba9ffa' }), 'uuid'],
      ['major missing', beaconBody({ major: undefined }), 'major'],
      ['major negative', beaconBody({ major: -1 }), 'major'],
      ['major above 65535', beaconBody({ major: '65536' }), 'major'],
      ['major not a number', beaconBody({ major: 'abc' }), 'major'],
      ['major fractional', beaconBody({ major: 1.5 }), 'major'],
      ['minor missing', beaconBody({ minor: undefined }), 'minor'],
      ['minor above 65535', beaconBody({ minor: 70_000 }), 'minor'],
      ['coordinates not JSON', beaconBody({ coordinates: 'here' }), 'coordinates'],
      ['coordinates too short', beaconBody({ coordinates: [1] }), 'coordinates'],
      ['coordinates longitude out of range', beaconBody({ coordinates: [200, 0] }), 'coordinates'],
      ['coordinates latitude out of range', beaconBody({ coordinates: [0, 95] }), 'coordinates'],
      ['coordinates strings', beaconBody({ coordinates: ['1', '2'] }), 'coordinates'],
      ['enabled missing (required on create)', beaconBody({ enabled: undefined }), 'enabled'],
      ['enabled not a boolean', beaconBody({ enabled: 'maybe' }), 'enabled'],
      ['metadata missing (required on create)', beaconBody({ metadata: undefined }), 'metadata'],
      [
        'metadata with 17 keys',
        beaconBody({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }),
        'metadata',
      ],
      ['metadata with a nested value', beaconBody({ metadata: { a: { b: 1 } } }), 'metadata'],
      ['metadata not a dictionary', beaconBody({ metadata: '[1,2]' }), 'metadata'],
      ['metadata not JSON', beaconBody({ metadata: '{oops' }), 'metadata'],
      ['tag too long', beaconBody({ tag: 't'.repeat(257) }), 'tag'],
      ['externalId too long', beaconBody({ externalId: 'e'.repeat(257) }), 'externalId'],
    ];
    for (const [name, body, param] of cases) {
      it(`POST: ${name} -> 400 ${param}`, async () => {
        assertError(await post(body), 400, param);
      });
    }

    it('PUT rejects the same way and creates nothing', async () => {
      const base = {
        description: 'x',
        type: 'ibeacon',
        uuid: randomUUID(),
        major: '1',
        minor: '1',
        coordinates: [0, 0],
      };
      const put = (json: unknown) => s.request('PUT', '/v1/beacons/rej/r', { key, json });
      assertError(await put({ ...base, description: undefined }), 400, 'description');
      assertError(await put({ ...base, type: 'altbeacon' }), 400, 'type');
      assertError(await put({ ...base, uuid: '1234' }), 400, 'uuid');
      assertError(await put({ ...base, major: 65536 }), 400, 'major');
      assertError(await put({ ...base, minor: 'x' }), 400, 'minor');
      assertError(await put({ ...base, coordinates: [0, 91] }), 400, 'coordinates');
      assertError(await put({ ...base, enabled: 'yes please' }), 400, 'enabled');
      assertError(await put({ ...base, metadata: { deep: { er: 1 } } }), 400, 'metadata');
      assertError(await s.request('GET', '/v1/beacons/rej/r', { key }), 404);
    });
  });
});

describe('beacon pagination exactness', () => {
  it('pages 60 beacons created in runs of 7 per millisecond with limit=10: each exactly once, newest first', async () => {
    const clock = new ManualClock();
    const s = await startServer({ clock });
    try {
      const key = s.keys.live.secret;
      const ids: string[] = [];
      for (let start = 0; start < 60; start += 7) {
        const group = await Promise.all(
          Array.from({ length: Math.min(7, 60 - start) }, () =>
            s.request('POST', '/v1/beacons', { key, json: beaconBody() }),
          ),
        );
        for (const r of group) {
          assertOk(r);
          ids.push(r.body.beacon._id);
        }
        clock.advance(1);
      }
      const items = await pageThrough(s, key, {
        path: '/v1/beacons',
        field: 'beacons',
        timeField: 'createdAt',
        cursor: 'createdBefore',
        limit: 10,
      });
      assertExactlyOnce(items, ids);
      assertNewestFirst(items, 'createdAt');
    } finally {
      await s.close();
    }
  });

  it('pages beacons created concurrently on the real clock', async () => {
    const s = await startServer();
    try {
      const key = s.keys.test.secret;
      const created = await Promise.all(
        Array.from({ length: 80 }, () => s.request('POST', '/v1/beacons', { key, json: beaconBody() })),
      );
      const ids = created.map((r) => {
        assertOk(r);
        return r.body.beacon._id as string;
      });
      const items = await pageThrough(s, key, {
        path: '/v1/beacons',
        field: 'beacons',
        timeField: 'createdAt',
        cursor: 'createdBefore',
        limit: 25,
      });
      assertExactlyOnce(items, ids);
      assertNewestFirst(items, 'createdAt');
    } finally {
      await s.close();
    }
  });
});
