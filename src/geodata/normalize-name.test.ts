import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldedName, isLatinName, normalizeName } from './normalize-name.js';
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

test('ASCII names fold as the Unicode path folds them', () => {
  const chars = "aZ09 -'`.,&/#()_~\t";
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let n = 0; n < 5_000; n++) {
    let s = '';
    const length = Math.floor(random() * 12);
    for (let i = 0; i < length; i++) s += chars[Math.floor(random() * chars.length)];
    assert.equal(normalizeName(s), foldedName(s), JSON.stringify(s));
  }
  for (let c = 0; c < 0x80; c++) {
    const s = `a${String.fromCharCode(c)}B`;
    assert.equal(normalizeName(s), foldedName(s), JSON.stringify(s));
  }
  assert.equal(normalizeName("  89-12 Springfield Blvd, O'Neil  "), '89 12 springfield blvd oneil');
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
