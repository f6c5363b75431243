import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, trackBody } from './helpers/tracking.js';

describe('user.ip and user.fraud in the track response', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const trackAt = (body: Record<string, unknown>, headers: Record<string, string> = {}, server = s) => {
    clock.advance(1000);
    return server.request('POST', '/v1/track', { key: server.keys.test.publishable, json: body, headers });
  };

  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('a first update: the request address as ip, every flag false', async () => {
    const res = await trackAt(trackBody('dev-fraud-1', BROOKLYN));
    assertOk(res);
    assert.equal(res.body.user.ip, '127.0.0.1');
    assert.deepEqual(res.body.user.fraud, { proxy: false, mocked: false, jumped: false });
  });

  it('mocked: what the client reported, as JSON or form text', async () => {
    const json = await trackAt(trackBody('dev-fraud-mock', BROOKLYN, { mocked: true }));
    assert.equal(json.body.user.fraud.mocked, true);
    clock.advance(1000);
    const form = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      form: {
        deviceId: 'dev-fraud-mock',
        latitude: String(BROOKLYN[1]),
        longitude: String(BROOKLYN[0]),
        accuracy: '10',
        mocked: 'true',
      },
    });
    assert.equal(form.body.user.fraud.mocked, true);
    const honest = await trackAt(trackBody('dev-fraud-mock', BROOKLYN, { mocked: false }));
    assert.equal(honest.body.user.fraud.mocked, false);
    assertError(
      await trackAt(trackBody('dev-fraud-mock', BROOKLYN, { mocked: 'maybe' })),
      400,
      'mocked',
      'mocked must be',
    );
  });

  it('jumped: an impossible move since the last update; a normal drive is not one', async () => {
    const device = 'dev-fraud-drive';
    let p = BROOKLYN;
    assertOk(await trackAt(trackBody(device, p)));
    // A highway drive: 35 m/s, one fix a minute (the 1 s advance of trackAt included), for ten minutes.
    for (let i = 0; i < 10; i++) {
      clock.advance(59_000);
      p = offset(p, 0, 2100);
      const res = await trackAt(trackBody(device, p));
      assert.equal(res.body.user.fraud.jumped, false, `minute ${i + 1}`);
    }
    // 60 km in a minute (1000 m/s): a jump.
    clock.advance(59_000);
    const jump = await trackAt(trackBody(device, offset(p, 0, 60_000)));
    assert.equal(jump.body.user.fraud.jumped, true);
    // The next update from there, at driving speed, is not.
    clock.advance(59_000);
    const after = await trackAt(trackBody(device, offset(p, 0, 61_000)));
    assert.equal(after.body.user.fraud.jumped, false);
  });

  it('jumped: two poor fixes far apart are not a jump within their accuracy', async () => {
    const device = 'dev-fraud-poor';
    assertOk(await trackAt(trackBody(device, BROOKLYN, { accuracy: 3000 })));
    const res = await trackAt(trackBody(device, offset(BROOKLYN, 4000, 0), { accuracy: 1000 }));
    assert.equal(res.body.user.fraud.jumped, false);
    const fine = await trackAt(trackBody(device, offset(BROOKLYN, 4000, 0), { accuracy: 10 }));
    const far = await trackAt(trackBody(device, offset(BROOKLYN, 4000, 3000), { accuracy: 10 }));
    assert.equal(fine.body.user.fraud.jumped, false);
    assert.equal(far.body.user.fraud.jumped, true);
  });

  it('proxy: false, as the open IP data (DB-IP Lite) has no proxy, VPN or hosting information', async () => {
    const res = await trackAt(trackBody('dev-fraud-proxy', BROOKLYN), { 'x-forwarded-for': '185.220.101.1' });
    assert.equal(res.body.user.fraud.proxy, false);
    // Without TRUST_PROXY the forwarded header is not believed.
    assert.equal(res.body.user.ip, '127.0.0.1');
  });

  it('with TRUST_PROXY the ip is the forwarded client address', async () => {
    const proxied = await startServer({ clock, env: { TRUST_PROXY: 'true' } });
    try {
      const res = await trackAt(trackBody('dev-fraud-xff', BROOKLYN), { 'x-forwarded-for': '203.0.113.7' }, proxied);
      assertOk(res);
      assert.equal(res.body.user.ip, '203.0.113.7');
    } finally {
      await proxied.close();
    }
  });
});
