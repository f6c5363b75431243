import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type GeodataPack, openGeodataPack } from '../geodata/pack.js';
import { sharedTestPack } from '../geodata/test-pack.js';
import type { GeocodeAddress } from './address.js';
import { autocomplete } from './autocomplete.js';
import { prepareGeocoding } from './entry-scores.js';
import { forwardGeocode } from './forward-geocode.js';
import { expandLayers } from './layers.js';
import { reverseGeocode } from './reverse-geocode.js';

// The world pack every test shares (built once per run: it reads every data package); read-only here.
let pack: GeodataPack;
before(async () => {
  pack = await openGeodataPack((await sharedTestPack()).dataDir);
  prepareGeocoding(pack);
});

const HONOLULU: [number, number] = [-157.8583, 21.3069];
const labels = (xs: GeocodeAddress[]) => xs.map((a) => `${a.layer}:${a.formattedAddress}`);

describe('forwardGeocode', () => {
  test('"honolulu" is Honolulu, HI, US first, in the Address shape', () => {
    const [first] = forwardGeocode(pack, 'honolulu');
    assert.ok(first);
    assert.equal(first.layer, 'locality');
    assert.equal(first.confidence, 'exact');
    assert.equal(first.city, 'Honolulu');
    assert.equal(first.state, 'Hawaii');
    assert.equal(first.stateCode, 'HI');
    assert.equal(first.countryCode, 'US');
    assert.equal(first.country, 'United States');
    assert.equal(first.countryFlag, '🇺🇸');
    assert.equal(first.county, 'Honolulu County');
    assert.equal(first.formattedAddress, 'Honolulu, HI US');
    assert.equal(first.addressLabel, 'Honolulu');
    assert.deepEqual(first.geometry, { type: 'Point', coordinates: [first.longitude, first.latitude] });
    assert.ok(Math.abs(first.latitude - 21.307) < 0.05 && Math.abs(first.longitude + 157.858) < 0.05);
    assert.equal(first.distance, undefined);
  });

  test('"paris" ranks Paris, FR before Paris, TX; qualifiers pick Texas', () => {
    const paris = forwardGeocode(pack, 'paris');
    assert.equal(paris[0]?.countryCode, 'FR');
    const tx = paris.findIndex((a) => a.stateCode === 'TX');
    assert.ok(tx > 0, labels(paris).join(' | '));
    for (const q of ['paris, tx', 'Paris, Texas', 'paris tx', 'paris texas us']) {
      const [first] = forwardGeocode(pack, q);
      assert.equal(first?.formattedAddress, 'Paris, TX US', q);
      assert.equal(first?.confidence, 'exact', q);
    }
  });

  test('postal codes, counties, states and countries (by name and by code)', () => {
    const zip = forwardGeocode(pack, '96813')[0];
    assert.equal(zip?.layer, 'postalCode');
    assert.equal(zip?.postalCode, '96813');
    assert.equal(zip?.city, 'Honolulu');
    assert.equal(zip?.formattedAddress, 'Honolulu, HI 96813 US');
    assert.equal(forwardGeocode(pack, '96813-1234')[0]?.postalCode, '96813');
    assert.equal(forwardGeocode(pack, 'honolulu county')[0]?.layer, 'county');
    for (const q of ['hawaii', 'HI']) {
      const [first] = forwardGeocode(pack, q);
      assert.equal(first?.layer, 'state', q);
      assert.equal(first?.stateCode, 'HI', q);
      assert.equal(first?.formattedAddress, 'Hawaii, US', q);
    }
    for (const q of ['liechtenstein', 'LI', 'LIE']) {
      const [first] = forwardGeocode(pack, q);
      assert.equal(first?.layer, 'country', q);
      assert.equal(first?.countryCode, 'LI', q);
      assert.equal(first?.countryFlag, '🇱🇮', q);
    }
  });

  test('a typo falls back, saying so', () => {
    const [first] = forwardGeocode(pack, 'hnolulu');
    assert.equal(first?.city, 'Honolulu');
    assert.equal(first?.confidence, 'fallback');
    assert.deepEqual(forwardGeocode(pack, 'xqzvkw'), []);
    assert.deepEqual(forwardGeocode(pack, '  ,  '), []);
  });

  test('layer filters', () => {
    assert.deepEqual(
      new Set(forwardGeocode(pack, 'honolulu', { layers: expandLayers('county') }).map((a) => a.layer)),
      new Set(['county']),
    );
    assert.equal(forwardGeocode(pack, 'honolulu', { layers: expandLayers('locality') })[0]?.layer, 'locality');
    assert.equal(forwardGeocode(pack, 'hawaii', { layers: expandLayers('country,state') })[0]?.layer, 'state');
    assert.equal(forwardGeocode(pack, '96813', { layers: expandLayers('postalCode') })[0]?.layer, 'postalCode');
    assert.equal(forwardGeocode(pack, 'liechtenstein', { layers: expandLayers('coarse') })[0]?.layer, 'country');
    assert.deepEqual(forwardGeocode(pack, 'honolulu', { layers: expandLayers('fine') }), []);
    assert.deepEqual(forwardGeocode(pack, 'honolulu', { layers: expandLayers('address,street') }), []);
  });

  test('country filter', () => {
    const us = forwardGeocode(pack, 'paris', { country: ['US'] });
    assert.ok(us.length > 3);
    assert.ok(us.every((a) => a.countryCode === 'US'));
    assert.ok(forwardGeocode(pack, 'paris', { country: ['FR'] }).every((a) => a.countryCode === 'FR'));
    assert.deepEqual(forwardGeocode(pack, 'honolulu', { country: ['LI'] }), []);
  });
});

describe('reverseGeocode', () => {
  test('a point in Honolulu: locality, postal code, county, state, country with distances', () => {
    const results = reverseGeocode(pack, ...HONOLULU);
    const byLayer = new Map(results.map((a) => [a.layer, a]));
    const city = byLayer.get('locality');
    assert.equal(city?.city, 'Honolulu');
    assert.ok(city && typeof city.distance === 'number' && city.distance < 3000, `distance ${city?.distance}`);
    assert.match(byLayer.get('postalCode')?.postalCode ?? '', /^968\d\d$/);
    assert.equal(byLayer.get('county')?.county, 'Honolulu County');
    assert.equal(byLayer.get('state')?.stateCode, 'HI');
    assert.equal(byLayer.get('country')?.countryCode, 'US');
    for (const a of results) {
      assert.equal(typeof a.distance, 'number');
      assert.equal(a.countryCode, 'US');
      assert.equal(a.confidence, undefined);
    }
    assert.equal(city?.postalCode, byLayer.get('postalCode')?.postalCode, 'one context for all results');
  });

  test('near a known city: Vaduz, Liechtenstein; Baltimore, MD', () => {
    const vaduz = reverseGeocode(pack, 9.521, 47.141);
    assert.equal(vaduz.find((a) => a.layer === 'locality')?.city, 'Vaduz');
    assert.equal(vaduz.find((a) => a.layer === 'country')?.countryCode, 'LI');
    assert.equal(
      vaduz.find((a) => a.layer === 'postalCode'),
      undefined,
    );
    const baltimore = reverseGeocode(pack, -76.61, 39.29, expandLayers('locality'));
    assert.deepEqual(labels(baltimore), ['locality:Baltimore, MD US']);
  });

  test('layer filters and empty places', () => {
    assert.deepEqual(
      reverseGeocode(pack, ...HONOLULU, expandLayers('state')).map((a) => a.layer),
      ['state'],
    );
    assert.deepEqual(reverseGeocode(pack, ...HONOLULU, expandLayers('fine')), []);
    assert.ok(reverseGeocode(pack, ...HONOLULU, expandLayers('coarse')).length >= 5);
    assert.deepEqual(reverseGeocode(pack, 0, 0), [], '(0, 0) is open sea');
  });
});

describe('autocomplete', () => {
  test('prefix and typo matching', () => {
    for (const q of ['honol', 'Honolulu', 'hnolulu', 'honolul']) {
      assert.equal(autocomplete(pack, q)[0]?.city, 'Honolulu', q);
    }
    assert.deepEqual(autocomplete(pack, ''), []);
  });

  test('a near bias and distances in metres', () => {
    const near: [number, number] = [-89.65, 39.8]; // Springfield, IL
    const [first] = autocomplete(pack, 'springf', { near });
    assert.equal(first?.formattedAddress, 'Springfield, IL US');
    assert.ok(first && first.distance !== undefined && first.distance < 10_000);
    assert.equal(autocomplete(pack, 'paris', { near: [-95.55, 33.66] })[0]?.stateCode, 'TX');
    assert.equal(autocomplete(pack, 'paris')[0]?.countryCode, 'FR');
    assert.equal(autocomplete(pack, 'paris, t')[0]?.formattedAddress, 'Paris, TX US');
  });

  test('a qualifier keeps only places in the areas it names, and as-typed matches it drops still count', () => {
    // `San Jose` is thousands of places; those outside an area starting `ca` are dropped before scoring.
    const inCa = autocomplete(pack, 'san jose, ca', { limit: 20 });
    assert.equal(inCa[0]?.formattedAddress, 'San Jose, CA US');
    assert.ok(inCa.every((a) => [a.stateCode, a.state, a.county, a.country].some((w) => /^ca/i.test(w ?? ''))));
    // `keda` matches more than ten places as typed, though few in areas starting `we`: no typo variants
    // (`kenda`, `leda`) are looked for, just as when every match was scored before the qualifier check.
    const west = autocomplete(pack, 'keda, we');
    assert.ok(west.length > 0 && west.every((a) => a.city?.startsWith('Keda')), JSON.stringify(labels(west)));
  });

  test('limit, layers and country', () => {
    assert.equal(autocomplete(pack, 'san', { limit: 3 }).length, 3);
    assert.equal(autocomplete(pack, 'san', { limit: 500 }).length, 100);
    assert.equal(autocomplete(pack, 'san', { limit: 0 }).length, 1);
    const zips = autocomplete(pack, '968', { near: HONOLULU, layers: expandLayers('postalCode') });
    assert.ok(zips.length === 10 && zips.every((a) => a.layer === 'postalCode' && a.postalCode?.startsWith('968')));
    const states = autocomplete(pack, 'new', { layers: expandLayers('state'), country: ['US'] });
    assert.ok(states.length >= 4 && states.every((a) => a.layer === 'state' && a.countryCode === 'US'));
    assert.ok(autocomplete(pack, 'san', { country: ['MX'] }).every((a) => a.countryCode === 'MX'));
    assert.deepEqual(autocomplete(pack, 'honol', { layers: expandLayers('fine') }), []);
  });
});
