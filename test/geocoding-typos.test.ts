// store-independent: forward geocoding reads only the geodata pack
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertOk } from './helpers/assertions.js';
import { get, labels } from './helpers/geodata.js';
import { osmServerSuite } from './helpers/osm-server.js';

// Queens Village (NYC numbers, 32k tagged addresses) and east Baltimore (North Broadway: a direction word).
const QUEENS = 'queens-village-ny-2016.osm.pbf';
const BALTIMORE = 'baltimore-md-2015.osm.pbf';

type Address = { layer: string; confidence: string; addressLabel?: string; number?: string; postalCode?: string };

describe('forward geocoding forgives one typo and falls back instead of answering nothing', () => {
  const osm = osmServerSuite([QUEENS, BALTIMORE]);
  const forward = async (query: string): Promise<Address[]> => {
    const res = await get(osm.s, '/v1/geocode/forward', { query });
    assertOk(res);
    return res.body.addresses;
  };
  const firstLabel = async (query: string) => {
    const [a] = await forward(query);
    return a ? `${a.addressLabel} (${a.layer} ${a.confidence})` : 'nothing';
  };

  it('one typo in the street type word finds the exact address', async (t) => {
    if (osm.skipped(t)) return;
    for (const [query, label] of [
      ['112-02 223rd Ssreet, Queens', '112-02 223rd St'],
      ['112-02 223rd Stret', '112-02 223rd St'],
      ['89-12 Springfield Bouleard, Queens Village, NY', '89-12 Springfield Blvd'],
      ['89-12 Springfield Bvld', '89-12 Springfield Blvd'],
    ]) {
      assert.equal(await firstLabel(query!), `${label} (address exact)`, query);
    }
  });

  it('one typo in the direction word, or in the name, finds the exact address', async (t) => {
    if (osm.skipped(t)) return;
    for (const query of ['707 Nrth Broadway, Baltimore, MD', '707 Noth Broadway', '707 North Brokadway, Baltimore']) {
      assert.equal(await firstLabel(query), '707 N Broadway (address exact)', query);
    }
  });

  it('a unit word with one typo is read as the unit, not as part of the street', async (t) => {
    if (osm.skipped(t)) return;
    for (const query of [
      '89-12 Springfield Blvd Aptt 2',
      '89-12 Springfield Blvd Sutie 4B, Queens',
      '89-12 Springfield Blvd # 3',
    ]) {
      assert.equal(await firstLabel(query), '89-12 Springfield Blvd (address exact)', query);
    }
  });

  it('the house number is never corrected: a number the street lacks is not answered as a neighbour', async (t) => {
    if (osm.skipped(t)) return;
    // Whatever is answered for a number with a typo in the street, it carries the number typed.
    for (const a of await forward('89-10 Springfield Bouleard')) {
      if (a.layer === 'address') assert.equal(a.number, '89-10', JSON.stringify(a));
    }
  });

  it('nothing matching the street falls back to the street, then the postal code or the town', async (t) => {
    if (osm.skipped(t)) return;
    const street = await forward('999-99 Springfield Bouleard');
    assert.deepEqual([street[0]?.layer, street[0]?.confidence], ['street', 'fallback'], JSON.stringify(street[0]));
    const zip = await forward('99-99 Xqzvk Road, Queens Village, NY 11427');
    assert.deepEqual([zip[0]?.layer, zip[0]?.postalCode, zip[0]?.confidence], ['postalCode', '11427', 'fallback']);
    const town = await forward('99-99 Xqzvk Road, Queens Village, NY');
    assert.equal(town[0]?.layer, 'locality', JSON.stringify(town[0]));
    assert.ok(town.every((a) => a.confidence === 'fallback'));
    // Outside every imported region: the ZIP the address names.
    const far = await get(osm.s, '/v1/geocode/forward', { query: '20 W 34th St, New York, NY 10001' });
    assert.deepEqual(labels(far), ['postalCode:New York, NY 10001 US']);
    assert.equal(far.body.addresses[0].confidence, 'fallback');
    assert.deepEqual(await forward('99-99 Xqzvk Rd'), [], 'nothing at all matches');
  });
});
