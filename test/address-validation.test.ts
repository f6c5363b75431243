// store-independent: address validation reads the imported extract's addresses in the pack
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { haversineMeters } from './helpers/fixtures.js';
import { get } from './helpers/geodata.js';
import { osmServerSuite } from './helpers/osm-server.js';
import { loadRadarJs } from './helpers/radar-sdk-js.js';

// Queens Village (2016): 32k addresses with NYC's hyphenated numbers and tagged postcodes.
const QUEENS = 'queens-village-ny-2016.osm.pbf';
// 89-12 Springfield Boulevard, Queens Village, NY 11427 (an address point of the extract).
const KNOWN = {
  number: '89-12',
  street: 'Springfield Boulevard',
  city: 'Queens Village',
  stateCode: 'NY',
  postalCode: '11427',
  countryCode: 'US',
};
const KNOWN_AT: [number, number] = [-73.7437464, 40.7285663];

type Validation = {
  address: Record<string, any>;
  result: { verificationStatus: string; differences: { field: string; given: string; matched?: string }[] };
};

describe('GET /v1/addresses/validate against an imported OSM region (Queens)', () => {
  const osm = osmServerSuite([QUEENS]);
  const validate = async (params: Record<string, string>): Promise<Validation> => {
    const res = await get(osm.s, '/v1/addresses/validate', params);
    assertOk(res);
    assert.equal(res.body.meta.code, 200);
    return res.body;
  };

  it('a real address is verified, and the record is the one of the address layer', async (t) => {
    if (osm.skipped(t)) return;
    const v = await validate(KNOWN);
    assert.equal(v.result.verificationStatus, 'verified');
    assert.deepEqual(v.result.differences, []);
    const a = v.address;
    assert.equal(a.number, '89-12');
    assert.equal(a.street, 'Springfield Blvd');
    assert.equal(a.postalCode, '11427');
    assert.equal(a.stateCode, 'NY');
    assert.equal(a.countryCode, 'US');
    assert.equal(a.layer, 'address');
    assert.match(String(a.formattedAddress), /^89-12 Springfield Blvd, [A-Za-z ]+, NY 11427 US$/);
    assert.ok(haversineMeters([a.longitude, a.latitude], KNOWN_AT) < 1);
    // The same address as one line, and without the parts a form may leave blank.
    const line = await validate({ addressLabel: '89-12 Springfield Blvd, Queens Village, NY 11427' });
    assert.equal(line.result.verificationStatus, 'verified');
    assert.equal(line.address.formattedAddress, a.formattedAddress);
    const bare = await validate({ number: '89-12', street: 'springfield blvd', city: '', unit: '' });
    assert.equal(bare.result.verificationStatus, 'verified');
  });

  it('a wrong ZIP, a misspelt street or a number the street lacks is partially verified, naming what differed', async (t) => {
    if (osm.skipped(t)) return;
    const zip = await validate({ ...KNOWN, postalCode: '11428' });
    assert.equal(zip.result.verificationStatus, 'partially verified');
    assert.deepEqual(zip.result.differences, [{ field: 'postalCode', given: '11428', matched: '11427' }]);
    assert.equal(zip.address.postalCode, '11427');
    assert.equal(zip.address.number, '89-12');

    const typo = await validate({ ...KNOWN, street: 'Sprinfield Blvd' });
    assert.equal(typo.result.verificationStatus, 'partially verified');
    assert.deepEqual(typo.result.differences, [
      { field: 'street', given: 'Sprinfield Blvd', matched: 'Springfield Blvd' },
    ]);
    assert.equal(typo.address.formattedAddress, zip.address.formattedAddress);

    // 194th Street has 100-01 and 100-11 (odd side) but no 100-07: placed between them, the number flagged.
    const number = await validate({ number: '100-07', street: '194th Street', stateCode: 'NY', countryCode: 'US' });
    assert.equal(number.result.verificationStatus, 'partially verified');
    assert.deepEqual(number.result.differences, [{ field: 'number', given: '100-07' }]);
    assert.equal(number.address.confidence, 'interpolated');
    assert.equal(number.address.addressLabel, '100-07 194th St');

    const state = await validate({ ...KNOWN, stateCode: 'NJ' });
    assert.equal(state.result.verificationStatus, 'partially verified');
    assert.deepEqual(state.result.differences, [{ field: 'stateCode', given: 'NJ', matched: 'NY' }]);
  });

  it('a misspelt street that could be either of two streets is ambiguous; a street alone is partially verified', async (t) => {
    if (osm.skipped(t)) return;
    // `Huson Road` is one letter from both Hudson Road and Huron Road of the extract.
    const asked: Record<string, string>[] = [
      { street: 'Huson Road' },
      { number: '100', street: 'Huson Rd', stateCode: 'NY' },
    ];
    for (const params of asked) {
      const v = await validate(params);
      assert.equal(v.result.verificationStatus, 'ambiguous', JSON.stringify(params));
      assert.match(String(v.address.street), /^(Hudson|Huron) Rd$/);
      assert.ok(v.result.differences.some((d) => d.field === 'street' && d.given === params.street));
    }
    const street = await validate({ street: 'Hudson Road' });
    assert.equal(street.result.verificationStatus, 'partially verified');
    assert.deepEqual(street.result.differences, [{ field: 'number' }]);
    assert.equal(street.address.layer, 'street');
    assert.equal(street.address.street, 'Hudson Rd');
  });

  it('an address outside every imported region is unverified, not an error, and echoes the input', async (t) => {
    if (osm.skipped(t)) return;
    const input = {
      number: '1600',
      street: 'Pennsylvania Ave NW',
      city: 'Washington',
      stateCode: 'DC',
      postalCode: '20500',
      countryCode: 'US',
    };
    const v = await validate(input);
    assert.equal(v.result.verificationStatus, 'unverified');
    assert.deepEqual(v.result.differences, []);
    assert.equal(v.address.formattedAddress, '1600 Pennsylvania Ave NW, Washington, DC 20500 US');
    assert.equal(v.address.latitude, undefined);
    assert.equal(v.address.postalCode, '20500');
  });

  it('bad input is a 400 naming the parameter', async (t) => {
    if (osm.skipped(t)) return;
    const bad = (params: Record<string, string>) => get(osm.s, '/v1/addresses/validate', params);
    assertError(await bad({ number: '12', city: 'Queens Village' }), 400, 'addressLabel', 'addressLabel is required');
    assertError(await bad({ ...KNOWN, countryCode: 'USA' }), 400, 'countryCode');
    assertError(await bad({ ...KNOWN, postalCode: '<script>' }), 400, 'postalCode');
    assertError(await bad({ ...KNOWN, street: 'x'.repeat(300) }), 400, 'street');
    assertError(await bad({ addressLabel: '11427' }), 400, 'addressLabel');
    // Odd but well-formed text is no error: nothing matches it.
    const odd = await validate({ number: '?', street: '!!! ###', postalCode: '00000' });
    assert.equal(odd.result.verificationStatus, 'unverified');
    const noKey = await osm.s.request('GET', '/v1/addresses/validate?street=Springfield%20Blvd', { key: null });
    assert.equal(noKey.status, 401);
  });

  it('radar-sdk-js validateAddress reads address and result.verificationStatus', async (t) => {
    if (osm.skipped(t)) return;
    const Radar = (await loadRadarJs(osm.s.url, osm.s.keys.test.publishable, KNOWN_AT)) as unknown as {
      validateAddress(p: Record<string, string>): Promise<Validation>;
    };
    const ok = await Radar.validateAddress(KNOWN);
    assert.equal(ok.result.verificationStatus, 'verified');
    assert.equal(ok.address.number, '89-12');
    assert.equal(ok.address.postalCode, '11427');
    const partly = await Radar.validateAddress({ ...KNOWN, postalCode: '11428' });
    assert.equal(partly.result.verificationStatus, 'partially verified');
    const outside = await Radar.validateAddress({ ...KNOWN, street: 'Pennsylvania Ave NW', number: '1600' });
    assert.equal(outside.result.verificationStatus, 'unverified');
    await assert.rejects(
      Radar.validateAddress({ city: 'Queens Village', stateCode: 'NY', postalCode: '11427', countryCode: 'US' }),
      (err: Error) => err.name === 'RadarBadRequestError' && /^addressLabel/.test(err.message),
    );
  });
});
