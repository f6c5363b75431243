import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { runCli } from './helpers/cli.js';
import type { TestServer } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';

const RESTRICTIONS = { origins: ['https://*.example.com', 'http://localhost:3000'], apps: ['com.example.app'] };

/** Sets the restrictions on both environments (a preflight carries no key, so it is judged by every tenant's). */
async function restrict(s: TestServer, keyRestrictions: unknown): Promise<void> {
  for (const key of [s.keys.test.secret, s.keys.live.secret]) {
    assertOk(await s.request('PATCH', '/v1/settings', { key, json: { keyRestrictions } }));
  }
}

describe('publishable key restrictions', () => {
  const srv = serverSuite({}, (s) => restrict(s, RESTRICTIONS));
  const users = (headers: Record<string, string>, key?: string) =>
    srv.s.request('GET', '/v1/search/geofences?near=40.7,-73.9', { key: key ?? srv.s.keys.test.publishable, headers });

  it('GET /v1/settings echoes them; bad ones are 400 naming keyRestrictions', async () => {
    const s = srv.s;
    const got = await s.request('GET', '/v1/settings', { key: s.keys.test.secret });
    assert.deepEqual(got.body.keyRestrictions, RESTRICTIONS);
    for (const bad of [{ origins: ['example.com/path'] }, { apps: [''] }, { hosts: [] }, 'x']) {
      const res = await s.request('PATCH', '/v1/settings', { key: s.keys.test.secret, json: { keyRestrictions: bad } });
      assertError(res, 400, 'keyRestrictions');
    }
  });

  it('an allowed origin (wildcard, port), a Referer on an allowed site and an allowed app id pass', async () => {
    assertOk(await users({ origin: 'https://shop.example.com' }));
    assertOk(await users({ origin: 'http://localhost:3000' }));
    assertOk(await users({ referer: 'https://www.example.com/cart?x=1' }));
    assertOk(await users({ 'x-radar-mobile-origin': 'com.example.app' }));
  });

  it('another origin, port, app, or no such header at all is 403 naming Authorization', async () => {
    const cases: Array<Record<string, string>> = [
      { origin: 'https://evil.test' },
      { origin: 'https://example.com.evil.test' },
      { origin: 'http://localhost:3001' },
      { origin: 'http://shop.example.com' },
      { referer: 'https://evil.test/page' },
      { 'x-radar-mobile-origin': 'com.other.app' },
      {},
    ];
    for (const headers of cases) {
      assertError(await users(headers), 403, 'Authorization');
    }
  });

  it('secret keys are not restricted', async () => {
    const s = srv.s;
    assertOk(
      await s.request('GET', '/v1/users', { key: s.keys.test.secret, headers: { origin: 'https://evil.test' } }),
    );
  });

  it('a CORS preflight from a refused origin gets no allow headers; an allowed one gets them', async () => {
    const preflight = (origin: string) =>
      fetch(`${srv.s.url}/v1/track`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
    const refused = await preflight('https://evil.test');
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('access-control-allow-headers'), null);
    assert.equal(refused.headers.get('access-control-allow-methods'), null);
    const allowed = await preflight('https://app.example.com');
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /authorization/);
  });

  it('removing the restrictions (null) opens the key again, preflights included', async () => {
    const s = srv.s;
    await restrict(s, null);
    assertOk(await users({ origin: 'https://evil.test' }));
    const res = await fetch(`${s.url}/v1/track`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
    });
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://evil.test');
  });

  it('the CLI sets both per environment, refusing bad values, seen by the running server', async () => {
    const s = srv.s;
    const env = { DATA_DIR: s.dataDir, DATABASE_URL: s.deps.config.databaseUrl ?? '' };
    const bad = await runCli(['projects', 'set', 'default', '--jurisdiction', '{"allowedStates":["NJ"]}'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--jurisdiction: jurisdiction.allowedStates\[0\] must be one of ISO 3166-2 codes/);
    const args = [
      '--key-restrictions',
      '{"apps":["com.example.app"]}',
      '--jurisdiction',
      '{"blockedCountries":["CU"]}',
    ];
    const ok = await runCli(['projects', 'set', 'default', ...args, '--env', 'live'], env);
    assert.equal(ok.code, 0, ok.stderr);
    const got = (await s.request('GET', '/v1/settings', { key: s.keys.live.secret })).body;
    assert.deepEqual(got.jurisdiction.blockedCountries, ['CU']);
    assert.deepEqual(got.keyRestrictions, { origins: [], apps: ['com.example.app'] });
    const live = (headers: Record<string, string>) =>
      s.request('GET', '/v1/search/geofences?near=40.7,-73.9', { key: s.keys.live.publishable, headers });
    assertError(await live({ origin: 'https://shop.example.com' }), 403, 'Authorization');
    assertOk(await live({ 'x-radar-mobile-origin': 'com.example.app' }));
  });
});
