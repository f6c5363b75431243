import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { serverSuite } from './helpers/server-suite.js';

describe('system endpoints, errors and CORS', () => {
  const srv = serverSuite();

  it('answers /healthz and /readyz without a key', async () => {
    const health = await srv.s.request('GET', '/healthz');
    assertOk(health);
    const ready = await srv.s.request('GET', '/readyz');
    assertOk(ready);
    assert.equal(ready.body.store, process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite');
  });

  it('answers CORS preflight on any path before auth, naming authorization', async () => {
    for (const path of ['/v1/track', '/v1/geofences/a/b', '/v1/does-not-exist']) {
      const res = await srv.s.request('OPTIONS', path, {
        headers: {
          origin: 'http://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-radar-device-type,x-radar-custom',
        },
      });
      assert.equal(res.status, 204);
      const allowed = res.headers.get('access-control-allow-headers') ?? '';
      for (const h of ['authorization', 'content-type', 'x-radar-device-type', 'x-radar-custom'])
        assert.ok(allowed.includes(h), h);
      assert.ok((res.headers.get('access-control-allow-methods') ?? '').includes('PATCH'));
      assert.equal(res.headers.get('access-control-allow-origin'), 'http://app.example');
    }
  });

  it('exposes the request id on every response', async () => {
    const res = await srv.s.request('GET', '/v1/users', { key: srv.s.keys.test.secret });
    const id = res.headers.get('x-request-id');
    assert.ok(id && id.length > 8);
    assert.equal(res.headers.get('x-radar-request-id'), id);
    assert.ok((res.headers.get('access-control-expose-headers') ?? '').includes('x-radar-request-id'));
  });

  it('returns JSON 404 for unknown paths', async () => {
    const res = await srv.s.request('GET', '/v1/nothing-here', { key: srv.s.keys.test.secret });
    assertError(res, 404);
  });

  it('returns 400 param body for malformed JSON and 413 for oversized bodies', async () => {
    const bad = await srv.s.request('PUT', '/v1/geofences/t/e', {
      key: srv.s.keys.test.secret,
      json: '{"description": ',
    });
    assertError(bad, 400, 'body');
    const huge = await srv.s.request('PUT', '/v1/geofences/t/e', {
      key: srv.s.keys.test.secret,
      json: JSON.stringify({ description: 'x'.repeat(6 * 1024 * 1024) }),
    });
    assertError(huge, 413, 'body');
  });

  it('refuses an unsupported content type with 415 in the error shape', async () => {
    const res = await fetch(`${srv.s.url}/v1/geofences/t/e`, {
      method: 'PUT',
      headers: { authorization: srv.s.keys.test.secret, 'content-type': 'text/csv' },
      body: 'description,type\nd,circle',
    });
    assert.equal(res.status, 415);
    assert.equal(((await res.json()) as { meta: { param: string } }).meta.param, 'content-type');
  });

  it('answers the SDK config call', async () => {
    assertOk(
      await srv.s.request(
        'GET',
        '/v1/config?deviceId=a&installId=b&sessionId=1&locationAuthorization=GRANTED_FOREGROUND',
        {
          key: srv.s.keys.test.publishable,
        },
      ),
    );
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const spec = await srv.s.request('GET', '/v1/openapi.json');
    assert.equal(spec.status, 200);
    assert.ok(spec.body.paths['/v1/geofences/{tag}/{externalId}']);
    const docs = await fetch(`${srv.s.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
