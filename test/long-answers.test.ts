import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Tenant } from '../src/domain/tenant.js';
import { CHUNK_CHARS } from '../src/http/json-list-body.js';
import { assertOk } from './helpers/assertions.js';
import { makeUser } from './helpers/fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
/** The longest metadata allowed: 16 values of 1,000 characters (docs/limits.md). */
const fullMetadata = (i: number) =>
  Object.fromEntries(Array.from({ length: 16 }, (_, k) => [`key${k}`, `${i}-${k}-`.padEnd(1000, 'é')]));

/** The raw text of an answer, and how it was framed. */
async function raw(s: TestServer, path: string, key: string) {
  const res = await fetch(`${s.url}${path}`, { headers: { authorization: key } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
    text: await res.text(),
  };
}

/**
 * A list answer longer than a chunk is printed a chunk at a time with turns of the event loop between
 * (src/http/json-list-body.ts): the same bytes as printing it in one go, and other requests answered
 * while it is sent.
 */
describe('long list answers', () => {
  let s: TestServer;
  let key: string;
  let tenant: Tenant;
  const USERS = 200;
  const FENCES = 40;
  before(async () => {
    s = await startServer();
    key = s.keys.test.secret;
    tenant = { projectId: s.projectId, live: false };
    for (let i = 0; i < USERS; i++)
      await s.deps.store.users.save(
        makeUser(tenant, {
          id: `b${String(i).padStart(23, '0')}`,
          userId: `user-${i}`,
          deviceId: `device-${i}`,
          description: 'd'.repeat(1000),
          metadata: fullMetadata(i),
          updatedAt: T0 + i * 1000,
        }),
      );
    for (let i = 0; i < FENCES; i++) {
      const res = await s.request('PUT', `/v1/geofences/long/fence-${i}`, {
        key,
        json: {
          description: 'f'.repeat(1000),
          type: 'circle',
          coordinates: [-73.9867 + i * 1e-3, 40.7039],
          radius: 100,
          metadata: fullMetadata(i),
        },
      });
      assertOk(res);
    }
  });
  after(() => s.close());

  it('sends a long user list in chunks, as the JSON that printing it whole gives', async () => {
    const res = await raw(s, '/v1/users?limit=1000', key);
    assert.equal(res.status, 200);
    assert.equal(res.type, 'application/json; charset=utf-8');
    assert.ok(res.text.length > 4 * CHUNK_CHARS, `${res.text.length} characters: more than four chunks`);
    // Streamed: no content-length (chunked transfer); a string printed in one go carries one.
    assert.equal(res.length, null);
    const body = JSON.parse(res.text);
    // Byte for byte what JSON.stringify prints: field order, escapes, number forms.
    assert.equal(res.text, JSON.stringify(body));
    assert.deepEqual(Object.keys(body), ['meta', 'users']);
    assert.deepEqual(body.meta, { code: 200, hasMore: false });
    assert.equal(body.users.length, USERS);
    assert.deepEqual(
      body.users.map((u: { userId: string }) => u.userId),
      Array.from({ length: USERS }, (_, i) => `user-${USERS - 1 - i}`),
    );
    // Each item is the user as its own read prints it.
    for (const u of [body.users[0], body.users[77], body.users[USERS - 1]]) {
      const one = await raw(s, `/v1/users/${u._id}`, key);
      assert.equal(JSON.stringify(u), JSON.stringify(JSON.parse(one.text).user));
    }
  });

  it('keeps a short list in one piece with a content-length', async () => {
    const res = await raw(s, '/v1/users?limit=3', key);
    assert.equal(res.status, 200);
    assert.equal(Number(res.length), Buffer.byteLength(res.text));
    const body = JSON.parse(res.text);
    assert.equal(res.text, JSON.stringify(body));
    assert.deepEqual(body.meta, { code: 200, hasMore: true });
    assert.deepEqual(
      body.users.map((u: { userId: string }) => u.userId),
      [`user-${USERS - 1}`, `user-${USERS - 2}`, `user-${USERS - 3}`],
    );
  });

  it('sends a long geofence list in chunks, each fence as its own read prints it', async () => {
    const res = await raw(s, '/v1/geofences?limit=1000', key);
    assert.equal(res.status, 200);
    assert.equal(res.length, null);
    const body = JSON.parse(res.text);
    assert.equal(res.text, JSON.stringify(body));
    assert.equal(body.geofences.length, FENCES);
    for (const g of [body.geofences[0], body.geofences[FENCES - 1]]) {
      const one = await raw(s, `/v1/geofences/${g._id}`, key);
      assert.deepEqual(g, JSON.parse(one.text).geofence);
    }
  });

  it('answers /healthz while a long list is being sent', async () => {
    // Both asked at once: the list (3 MB) needs a dozen turns of the event loop, /healthz one.
    const order: string[] = [];
    const big = raw(s, '/v1/users?limit=1000', key).then((r) => {
      order.push('list');
      return r;
    });
    const health = fetch(`${s.url}/healthz`)
      .then((r) => r.text())
      .then(() => order.push('healthz'));
    const [list] = await Promise.all([big, health]);
    assert.equal(list.status, 200);
    assert.equal(JSON.parse(list.text).users.length, USERS);
    assert.deepEqual(order, ['healthz', 'list']);
  });
});
