/**
 * Geocoding accuracy on a sample of Queens addresses (issue 6): run with `npx tsx bench/geocoding-accuracy.ts`.
 *
 * Imports `osm/queens-village-ny-2016.osm.pbf` from the fixtures (GEODATA_FIXTURES, default ../shared/data)
 * into a copy of the shared world test pack (or uses GEODATA_DIR when it already holds that region), takes
 * a fixed sample of its tagged addresses and measures:
 * - forward: `"<number> <street>, Queens, NY <postcode>"` lands within 30 m of the tagged point (the
 *   comma form, read by the quick path when the street is known), and the same without commas (read by
 *   pelias-parser);
 * - reverse: the address's point returns that number and street first (also reported: a point up to 10 m
 *   off it, where in Queens row houses, 6-8 m apart, the neighbour is often nearer);
 * - autocomplete: the first 60% of `"<number> <street>"`, `near` the middle of the extract, lists the
 *   address in its top 5.
 * Options: `--sample N` (default 500), `--verbose` (prints the misses).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocomplete } from '../src/geocoding/autocomplete.js';
import { prepareGeocoding } from '../src/geocoding/entry-scores.js';
import { forwardGeocode } from '../src/geocoding/forward-geocode.js';
import { expandLayers } from '../src/geocoding/layers.js';
import { reverseGeocode } from '../src/geocoding/reverse-geocode.js';
import { metersBetween } from '../src/geodata/osm/addresses/address-layer.js';
import { streetKey } from '../src/geodata/osm/addresses/street-names.js';
import { importOsm } from '../src/geodata/osm/import-osm.js';
import { openGeodataPack } from '../src/geodata/pack.js';
import { copyOfSharedTestPack, fixturesDir, missingFixturesMessage } from '../src/geodata/test-pack.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const FILE = 'queens-village-ny-2016.osm.pbf';
const REGION = 'queens-village-ny-2016';

const { values } = parseArgs({
  options: { sample: { type: 'string', default: '500' }, verbose: { type: 'boolean', default: false } },
});
const sampleSize = Number(values.sample);

// A fixed sequence (mulberry32): the same sample on every run.
const random = seededRandom(0x5eed);

async function dataDir(): Promise<{ dir: string; remove?: () => Promise<void> }> {
  const given = process.env.GEODATA_DIR;
  if (given && existsSync(join(given, 'pack', 'osm', REGION, 'manifest.json'))) return { dir: given };
  const fixtures = fixturesDir();
  const pbf = join(fixtures.dir, 'osm', FILE);
  if (!existsSync(pbf)) throw new Error(missingFixturesMessage(fixtures.dir));
  const pack = await copyOfSharedTestPack();
  console.log(`importing ${FILE} into a copy of the world test pack…`);
  await importOsm(pack.dataDir, pbf);
  return { dir: pack.dataDir, remove: pack.remove };
}

const { dir, remove } = await dataDir();
try {
  const pack = await openGeodataPack(dir);
  prepareGeocoding(pack);
  const region = pack.osmRegions.find((r) => r.name === REGION);
  const layer = region?.addresses;
  if (!layer) throw new Error(`region ${REGION} has no address layer`);

  const picked = new Set<number>();
  while (picked.size < Math.min(sampleSize, layer.count)) picked.add(Math.floor(random() * layer.count));
  // The middle of the extract: where a user of a Queens app would be.
  let cLon = 0;
  let cLat = 0;
  for (let i = 0; i < layer.count; i++) {
    cLon += layer.addressLon(i) / layer.count;
    cLat += layer.addressLat(i) / layer.count;
  }
  const addressLayer = expandLayers('address');
  let fwdOk = 0;
  let fwdFreeOk = 0;
  let revOk = 0;
  let revNoisyOk = 0;
  let acOk = 0;
  const misses: string[] = [];
  const sameAddress = (a: { number?: string; street?: string }, number: string, street: string) =>
    a.number === number && a.street !== undefined && streetKey(a.street) === streetKey(street);

  for (const i of picked) {
    const a = layer.address(i);
    const text = `${a.number} ${a.street}`;

    const query = `${text}, Queens, NY${a.postcode ? ` ${a.postcode}` : ''}`;
    const [f] = forwardGeocode(pack, query);
    const off = f ? metersBetween(f.longitude, f.latitude, a.lon, a.lat) : Infinity;
    if (off <= 30) fwdOk++;
    else
      misses.push(
        `forward  ${query} → ${f ? `${f.formattedAddress} (${f.confidence}, ${Math.round(off)} m)` : 'nothing'}`,
      );

    const [r] = reverseGeocode(pack, a.lon, a.lat, addressLayer);
    if (r && sameAddress(r, a.number, a.street)) revOk++;
    else misses.push(`reverse  ${text} → ${r?.formattedAddress ?? 'nothing'}`);
    const free = `${text} Queens NY ${a.postcode}`.trim();
    const [g] = forwardGeocode(pack, free);
    const gOff = g ? metersBetween(g.longitude, g.latitude, a.lon, a.lat) : Infinity;
    if (gOff <= 30) fwdFreeOk++;
    else
      misses.push(
        `forward  ${free} → ${g ? `${g.formattedAddress} (${g.confidence}, ${Math.round(gOff)} m)` : 'nothing'}`,
      );

    const bearing = random() * 2 * Math.PI;
    const meters = random() * 10;
    const lat = a.lat + (meters * Math.cos(bearing)) / 111_320;
    const lon = a.lon + (meters * Math.sin(bearing)) / (111_320 * Math.cos((a.lat * Math.PI) / 180));
    const [noisy] = reverseGeocode(pack, lon, lat, addressLayer);
    if (noisy && sameAddress(noisy, a.number, a.street)) revNoisyOk++;

    const typed = text.slice(0, Math.ceil(text.length * 0.6));
    const top = autocomplete(pack, typed, { near: [cLon, cLat], limit: 5 });
    if (top.some((x) => x.layer === 'address' && sameAddress(x, a.number, a.street))) acOk++;
    else misses.push(`autocomplete  "${typed}" (${text}) → ${top.map((x) => x.addressLabel).join(' | ')}`);
  }
  const n = picked.size;
  const pct = (k: number) => `${((100 * k) / n).toFixed(1)}%`;
  if (values.verbose) for (const m of misses) console.log(m);
  console.log(`sample: ${n} of ${layer.count} Queens addresses`);
  console.log(`forward within 30 m:              ${pct(fwdOk)} (${fwdOk}/${n}; target ≥ 95%)`);
  console.log(`forward without commas (pelias):  ${pct(fwdFreeOk)} (${fwdFreeOk}/${n})`);
  console.log(`reverse right number and street:  ${pct(revOk)} (${revOk}/${n}; target ≥ 95%)`);
  console.log(`reverse, point up to 10 m off:      ${pct(revNoisyOk)} (${revNoisyOk}/${n}; for reference)`);
  console.log(`autocomplete top 5 from 60%:      ${pct(acOk)} (${acOk}/${n}; target ≥ 90%)`);
} finally {
  await remove?.();
}
