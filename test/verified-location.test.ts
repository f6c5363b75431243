import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { startGeodataServer } from './helpers/geodata.js';
import { loadRadarJs } from './helpers/radar-sdk-js.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, deviceIds, track, trackBody } from './helpers/tracking.js';

/** What radar-sdk-ios sends for trackVerified (RadarAPIClient.m, verified: YES). */
const iosVerifiedBody = (deviceId: string, extra: Record<string, unknown> = {}) =>
  trackBody(deviceId, BROOKLYN, {
    userId: 'verified-user',
    installId: 'install-1',
    deviceType: 'iOS',
    source: 'FOREGROUND_LOCATION',
    foreground: true,
    stopped: true,
    verified: true,
    attestationString: 'not-checkable-here',
    keyId: 'key-1',
    encrypted: false,
    compromised: false,
    fraudFailureReasons: [],
    expectedCountryCode: 'US',
    reason: 'checkout',
    transactionId: 'tx-42',
    ...extra,
  });

describe('verified location', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.now());
  const deviceId = deviceIds(clock, 'verified-device');
  const checkToken = (token: string, key = s.keys.test.secret) =>
    s.request('GET', `/v1/verify/token?token=${encodeURIComponent(token)}`, { key });
  const jwks = (publishableKey: string) =>
    s.request('GET', `/v1/verify/jwks.json?publishableKey=${encodeURIComponent(publishableKey)}`, { key: null });

  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('/v1/config?verified=true answers a fresh nonce at the top level, where iOS reads it', async () => {
    const a = await s.request('GET', '/v1/config?installId=i&verified=true', { key: s.keys.test.publishable });
    const b = await s.request('GET', '/v1/config?installId=i&verified=true', { key: s.keys.test.publishable });
    assert.equal(a.status, 200);
    assert.match(a.body.nonce, /^[A-Za-z0-9_-]{20,}$/);
    assert.notEqual(a.body.nonce, b.body.nonce);
    const plain = await s.request('GET', '/v1/config?verified=false', { key: s.keys.test.publishable });
    assert.equal('nonce' in plain.body, false);
  });

  it('a verified track answers what iOS and Android parse: token, expiresAt, expiresIn, passed, user, events', async () => {
    const res = await track(s, iosVerifiedBody(deviceId()));
    assert.equal(res.status, 200);
    const b = res.body;
    assert.match(b.token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(b.expiresAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(Date.parse(b.expiresAt), clock.now() + 3_600_000);
    assert.equal(b.expiresIn, 3600);
    assert.equal(typeof b.passed, 'boolean');
    assert.ok(Array.isArray(b.failureReasons));
    assert.match(b._id, /^[0-9a-f]{24}$/);
    assert.ok(b.user && Array.isArray(b.events), 'iOS needs user and events beside the token');
    assert.equal(b.user.fraud.passed, true);
    assert.equal(b.user.fraud.verified, true);
    // Without a geodata pack the country is unknown: an expected country cannot pass.
    assert.deepEqual(b.failureReasons, ['country_not_expected']);
    assert.equal(b.passed, false);

    const header = decodeProtectedHeader(b.token);
    assert.equal(header.alg, 'ES256');
    assert.ok(header.kid);
  });

  it('the secret key checks a token and answers its claims', async () => {
    const res = await track(s, iosVerifiedBody(deviceId(), { expectedCountryCode: undefined }));
    assert.equal(res.body.passed, true);
    assert.deepEqual(res.body.failureReasons, []);
    const check = await checkToken(res.body.token);
    assert.equal(check.status, 200);
    const c = check.body.claims;
    assert.equal(c.passed, true);
    assert.equal(c.live, false);
    assert.equal(c.user._id, res.body.user._id);
    assert.equal(c.user.userId, 'verified-user');
    assert.deepEqual(c.location, { type: 'Point', coordinates: BROOKLYN });
    assert.equal(c.locationAccuracy, 10);
    assert.equal(c.reason, 'checkout');
    assert.equal(c.transactionId, 'tx-42');
    assert.equal(c.expiresAt, res.body.expiresAt);
    assert.equal(c._id, res.body._id);
    assert.equal(c.sub, res.body.user._id);
  });

  it('failure reasons: mocked, compromised and what the device found fail the check', async () => {
    const res = await track(
      s,
      iosVerifiedBody(deviceId(), {
        expectedCountryCode: undefined,
        mocked: true,
        compromised: true,
        fraudFailureReasons: ['fraud_sharing_capturing_screen'],
      }),
    );
    assert.equal(res.body.passed, false);
    assert.deepEqual(res.body.failureReasons, ['fraud_mocked', 'fraud_compromised', 'fraud_sharing_capturing_screen']);
    assert.equal(res.body.user.fraud.passed, false);
    assert.equal((await checkToken(res.body.token)).body.claims.passed, false);
  });

  it('POST /v1/track/verify, as older SDKs call it, is a verified track', async () => {
    const body = iosVerifiedBody(deviceId(), { verified: undefined, expectedCountryCode: undefined });
    const res = await s.request('POST', '/v1/track/verify', { key: s.keys.test.publishable, json: body });
    assert.equal(res.status, 200);
    assert.equal((await checkToken(res.body.token)).status, 200);
    assert.ok(res.body.user._id && Array.isArray(res.body.events));
  });

  it('refused tokens: tampered, of another environment or project, expired; bad input names token', async () => {
    const res = await track(s, iosVerifiedBody(deviceId(), { expectedCountryCode: undefined }));
    const token: string = res.body.token;
    const [h, p, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, passed: true, user: { _id: 'x' } })).toString('base64url')}.${sig}`;
    const other = await s.createProject('verified-other');
    const cases: Array<[Promise<Awaited<ReturnType<typeof checkToken>>>, RegExp]> = [
      [checkToken(forged), /^token is not a verified location token/],
      [checkToken('not-a-token'), /^token is not a verified location token/],
      [checkToken(token, s.keys.live.secret), /^token is not a verified location token/],
      [checkToken(token, other.keys.test.secret), /^token is not a verified location token/],
      [s.request('GET', '/v1/verify/token', { key: s.keys.test.secret }), /^token is required/],
    ];
    for (const [pending, message] of cases) {
      const r = await pending;
      assert.equal(r.status, 400);
      assert.equal(r.body.meta.param, 'token');
      assert.match(r.body.meta.message, message);
    }
    const withPublishable = await checkToken(token, s.keys.test.publishable);
    assert.equal(withPublishable.status, 403);
    clock.advance(3_601_000);
    const expired = await checkToken(token);
    assert.equal(expired.status, 400);
    assert.match(expired.body.meta.message, /^token has expired/);
  });

  it("the JWKS lets the app's back end check tokens itself; one key per environment, kept", async () => {
    const res = await track(s, iosVerifiedBody(deviceId(), { expectedCountryCode: undefined }));
    const set = await jwks(s.keys.test.publishable);
    assert.equal(set.status, 200);
    assert.equal(set.body.keys.length, 1);
    const [key] = set.body.keys;
    assert.equal(key.kty, 'EC');
    assert.equal(key.crv, 'P-256');
    assert.equal(key.alg, 'ES256');
    assert.equal('d' in key, false, 'never the private part');
    const { payload } = await jwtVerify(res.body.token, createLocalJWKSet(set.body), {
      currentDate: new Date(clock.now()),
    });
    assert.equal(payload.sub, res.body.user._id);

    const live = await jwks(s.keys.live.publishable);
    assert.notEqual(live.body.keys[0].kid, key.kid);
    await assert.rejects(
      jwtVerify(res.body.token, createLocalJWKSet(live.body), { currentDate: new Date(clock.now()) }),
      'a test token does not pass the live keys',
    );
    assert.deepEqual((await jwks(s.keys.test.publishable)).body, set.body, 'the key is kept');
    for (const bad of [s.keys.test.secret, 'prj_test_pk_nope']) {
      const r = await jwks(bad);
      assert.equal(r.status, 400);
      assert.equal(r.body.meta.param, 'publishableKey');
    }
  });

  it('records the device attestation (iOS App Attest, Android Play Integrity) in the token, marked not checked', async () => {
    const sha = (x: string) => createHash('sha256').update(x).digest('hex');
    const attestationString = `o2NmbXRvYXBwbGUtYXBwYXR0ZXN0${'A'.repeat(5000)}`;
    const ios = await track(s, iosVerifiedBody(deviceId(), { expectedCountryCode: undefined, attestationString }));
    assert.equal(ios.status, 200, JSON.stringify(ios.body));
    const iosAttestation = {
      type: 'app_attest',
      checked: false,
      reason: 'not_checked',
      sha256: sha(attestationString),
      keyId: 'key-1',
      error: null,
    };
    assert.deepEqual(ios.body.attestation, iosAttestation);
    assert.equal(ios.body.user.fraud.attested, false);
    assert.equal(ios.body.passed, true, 'an unchecked attestation does not fail the check');
    const claims = (await checkToken(ios.body.token)).body.claims;
    assert.deepEqual(claims.attestation, iosAttestation);
    assert.equal(claims.fraud.attested, false);

    // iOS on a device without App Attest: no object, the SDK's error instead.
    const unsupported = await track(
      s,
      iosVerifiedBody(deviceId(), {
        expectedCountryCode: undefined,
        attestationString: undefined,
        keyId: undefined,
        attestationError: 'Service unsupported',
      }),
    );
    assert.deepEqual(unsupported.body.attestation, {
      type: 'app_attest',
      checked: false,
      reason: 'device_error',
      sha256: null,
      keyId: null,
      error: 'Service unsupported',
    });

    // As radar-sdk-android sends trackVerified (RadarApiClient.track with verified = true).
    const integrityToken = `eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.${'b'.repeat(1500)}`;
    const android = await track(
      s,
      trackBody(deviceId(), BROOKLYN, {
        installId: 'install-android',
        deviceType: 'Android',
        source: 'FOREGROUND_LOCATION',
        verified: true,
        integrityToken,
        integrityException: null,
        encrypted: false,
      }),
    );
    assert.equal(android.status, 200, JSON.stringify(android.body));
    assert.deepEqual(android.body.attestation, {
      type: 'play_integrity',
      checked: false,
      reason: 'not_checked',
      sha256: sha(integrityToken),
      keyId: null,
      error: null,
    });
    const plain = await track(s, iosVerifiedBody(deviceId(), { attestationString: undefined, keyId: undefined }));
    assert.equal(plain.body.attestation.reason, 'not_provided');
    assert.equal(plain.body.attestation.type, null);
  });

  it('bad attestation fields are refused naming them, and change nothing', async () => {
    const id = deviceId();
    const huge = await track(
      s,
      iosVerifiedBody(id, { attestationString: 'A'.repeat(70_000), userId: 'never-attested' }),
    );
    assert.equal(huge.status, 400);
    assert.equal(huge.body.meta.param, 'attestationString');
    assert.match(huge.body.meta.message, /^attestationString /);
    const wrongType = await track(s, iosVerifiedBody(id, { integrityToken: { a: 1 }, userId: 'never-attested' }));
    assert.equal(wrongType.body.meta.param, 'integrityToken');
    const users = await s.request('GET', '/v1/users?limit=100', { key: s.keys.test.secret });
    assert.ok(!(users.body.users as Array<{ userId: string }>).some((u) => u.userId === 'never-attested'));
  });

  it('bad verified input is refused naming the parameter, and changes nothing', async () => {
    const id = deviceId();
    const bad = await track(s, iosVerifiedBody(id, { verified: 'perhaps', userId: 'never-stored' }));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.meta.param, 'verified');
    const long = await track(s, iosVerifiedBody(id, { expectedCountryCode: 'USA-TOO-LONG', userId: 'never-stored' }));
    assert.equal(long.body.meta.param, 'expectedCountryCode');
    const users = await s.request('GET', '/v1/users?limit=100', { key: s.keys.test.secret });
    assert.ok(!(users.body.users as Array<{ userId: string }>).some((u) => u.userId === 'never-stored'));
  });

  it('published radar-sdk-js: trackOnce passes verified through and reads a checkable token', async () => {
    const Radar = await loadRadarJs(s.url, s.keys.test.publishable, BROOKLYN);
    Radar.setUserId('js-verified');
    clock.advance(2000);
    const res = await Radar.trackOnce({ latitude: BROOKLYN[1], longitude: BROOKLYN[0], accuracy: 10, verified: true });
    assert.match(res.user._id, /^[0-9a-f]{24}$/);
    const check = await checkToken(res.response.token);
    assert.equal(check.status, 200);
    assert.equal(check.body.claims.user.userId, 'js-verified');
  });
});

describe('verified location with reference data: the expected country and state', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.now());
  before(async () => {
    s = await startGeodataServer({ clock });
  });
  after(() => s.close());

  it('passes where the user is, fails elsewhere, with user.country/state.passed as Android reads them', async () => {
    const ok = await track(s, iosVerifiedBody('geo-device-1', { expectedCountryCode: 'US', expectedStateCode: 'NY' }));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.passed, true);
    assert.deepEqual(ok.body.failureReasons, []);
    // Android: passed = user.fraud.passed && user.country.passed && user.state.passed
    assert.equal(ok.body.user.fraud.passed && ok.body.user.country.passed && ok.body.user.state.passed, true);
    assert.equal(ok.body.user.country.code, 'US');
    assert.equal(ok.body.user.state.code, 'NY');
    const claims = (await s.request('GET', `/v1/verify/token?token=${ok.body.token}`, { key: s.keys.test.secret })).body
      .claims;
    assert.deepEqual(claims.country, { code: 'US', name: claims.country.name, passed: true });
    assert.equal(claims.state.code, 'NY');

    clock.advance(2000);
    const elsewhere = await track(
      s,
      iosVerifiedBody('geo-device-2', { expectedCountryCode: 'us', expectedStateCode: 'CA' }),
    );
    assert.equal(elsewhere.body.passed, false);
    assert.deepEqual(elsewhere.body.failureReasons, ['state_not_expected']);
    assert.equal(elsewhere.body.user.country.passed, true);
    assert.equal(elsewhere.body.user.state.passed, false);
    assert.equal(elsewhere.body.user.state.expected, 'CA');
  });
});
