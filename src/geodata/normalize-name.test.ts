import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLatinName, normalizeName } from './normalize-name.js';
import { isPublicIp } from './public-ip.js';

test('names fold to ASCII search keys', () => {
  assert.equal(normalizeName('Zürich'), 'zurich');
  assert.equal(normalizeName("O'Fallon"), 'ofallon');
  assert.equal(normalizeName('Wilkes-Barre'), 'wilkes barre');
  assert.equal(normalizeName('  São   Paulo '), 'sao paulo');
  assert.equal(normalizeName('Łódź'), 'lodz');
  assert.equal(normalizeName('Straße'), 'strasse');
  assert.equal(normalizeName('‘Aiea'), 'aiea');
  assert.equal(normalizeName('東京'), '');
  assert.ok(isLatinName('Île-de-France'));
  assert.ok(!isLatinName('Москва'));
});

test('public and special IP addresses', () => {
  for (const ip of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) assert.ok(isPublicIp(ip), ip);
  for (const ip of [
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '127.0.0.1',
    '169.254.1.1',
    '224.0.0.1',
    '::1',
    'fc00::1',
    'x',
  ]) {
    assert.ok(!isPublicIp(ip), ip);
  }
});
