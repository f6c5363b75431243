/**
 * Geocoding accuracy on tagged OSM addresses: run with `npx tsx bench/geocoding-accuracy.ts`.
 *
 * Imports the address extracts of the fixtures (GEODATA_FIXTURES, default ../shared/data) into a copy of
 * the shared world test pack (or uses GEODATA_DIR when it already holds them all), takes a seeded sample
 * of each extract's tagged US addresses (a house number, a point in the extract's state) and measures:
 * - exact: `"<number> <street>, <ST> <postcode>"` finds the address (that number on that street first, or
 *   a first answer within 30 m of the tagged point);
 * - one typo: the same with one edit (deletion, swap, substitution or insertion of a letter) anywhere in the
 *   street, its type and direction words included, never in the number;
 * - no commas: `"<number> <street> <ST> <postcode>"` (read by pelias-parser), found as above;
 * - reverse: the address's point returns that number and street first;
 * - autocomplete: the first 60% of `"<number> <street>"`, `near` the middle of the extract, lists the
 *   address in its top 5.
 * Options: `--sample N` (per extract, default 300), `--verbose` (prints the misses).
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
import { importOsm, osmRegionName } from '../src/geodata/osm/import-osm.js';
import { openGeodataPack } from '../src/geodata/pack.js';
import { copyOfSharedTestPack, fixturesDir, missingFixturesMessage } from '../src/geodata/test-pack.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const EXTRACTS = [
  { file: 'queens-village-ny-2016.osm.pbf', state: 'NY' },
  { file: 'baltimore-md-2015.osm.pbf', state: 'MD' },
  { file: 'honolulu-oahu-hi-2018.osm.pbf', state: 'HI' },
  { file: 'imperial-county-ca-2024.osm.pbf', state: 'CA' },
];

const { values } = parseArgs({
  options: { sample: { type: 'string', default: '300' }, verbose: { type: 'boolean', default: false } },
});
const sampleSize = Number(values.sample);

async function dataDir(): Promise<{ dir: string; remove?: () => Promise<void> }> {
  const given = process.env.GEODATA_DIR;
  const has = (dir: string) =>
    EXTRACTS.every((e) => existsSync(join(dir, 'pack', 'osm', osmRegionName(e.file), 'manifest.json')));
  if (given && has(given)) return { dir: given };
  const fixtures = fixturesDir();
  if (!fixtures.present) throw new Error(missingFixturesMessage(fixtures.dir));
  const pack = await copyOfSharedTestPack();
  for (const e of EXTRACTS) {
    console.log(`importing ${e.file} into a copy of the world test pack…`);
    await importOsm(pack.dataDir, join(fixtures.dir, 'osm', e.file));
  }
  return { dir: pack.dataDir, remove: pack.remove };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `text` with one edit at a letter (never a digit), chosen by `random`; the edit changes the text. */
function oneTypo(text: string, random: () => number): string {
  const letters = [...text].flatMap((c, i) => (/[a-z]/i.test(c) ? [i] : []));
  for (;;) {
    const i = letters[Math.floor(random() * letters.length)]!;
    const c = LETTERS[Math.floor(random() * LETTERS.length)]!;
    const kind = Math.floor(random() * 4);
    let out = text;
    if (kind === 0) out = text.slice(0, i) + text.slice(i + 1);
    else if (kind === 1 && /[a-z]/i.test(text[i + 1] ?? ''))
      out = text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2);
    else if (kind === 2) out = text.slice(0, i) + c + text.slice(i + 1);
    else if (kind === 3) out = text.slice(0, i) + c + text.slice(i);
    if (out.toLowerCase() !== text.toLowerCase()) return out;
  }
}

const { dir, remove } = await dataDir();
try {
  const pack = await openGeodataPack(dir);
  prepareGeocoding(pack);
  const addressLayer = expandLayers('address');
  const rows: string[] = [];
  const misses: string[] = [];
  for (const extract of EXTRACTS) {
    const layer = pack.osmRegions.find((r) => r.name === osmRegionName(extract.file))?.addresses;
    if (!layer) throw new Error(`${extract.file}: no address layer`);
    // A fixed sequence per extract (mulberry32): the same sample on every run.
    const random = seededRandom(0x5eed);
    const picked: number[] = [];
    const seen = new Set<number>();
    for (let tries = 0; picked.length < Math.min(sampleSize, layer.count) && tries < 50 * sampleSize; tries++) {
      const i = Math.floor(random() * layer.count);
      const a = layer.address(i);
      // US addresses a person could type: a house number, a named street, a point in the extract's state
      // (Imperial's extract reaches into Mexicali and Yuma, AZ).
      if (seen.has(i) || !/^\d/.test(a.number) || !/[a-z]/i.test(a.street)) continue;
      if (pack.regionsAt(a.lon, a.lat).state?.code !== extract.state) continue;
      seen.add(i);
      picked.push(i);
    }
    let cLon = 0;
    let cLat = 0;
    for (let i = 0; i < layer.count; i++) {
      cLon += layer.addressLon(i) / layer.count;
      cLat += layer.addressLat(i) / layer.count;
    }
    const ok = { exact: 0, typo: 0, free: 0, reverse: 0, autocomplete: 0 };
    const sameAddress = (a: { number?: string; street?: string }, number: string, street: string) =>
      a.number === number && a.street !== undefined && streetKey(a.street) === streetKey(street);

    // Found: the first answer is that number on that street, or lies within 30 m of the tagged point (the
    // same address is often tagged twice, on a building and on its entrance or a unit).
    const lands = (query: string, a: { number: string; street: string; lon: number; lat: number }, what: string) => {
      const [f] = forwardGeocode(pack, query);
      const off = f ? metersBetween(f.longitude, f.latitude, a.lon, a.lat) : Infinity;
      const found = f !== undefined && (off <= 30 || (f.layer === 'address' && sameAddress(f, a.number, a.street)));
      if (!found)
        misses.push(
          `${what}  ${query} → ${f ? `${f.formattedAddress} (${f.confidence}, ${Math.round(off)} m)` : 'nothing'}`,
        );
      return found;
    };

    for (const i of picked) {
      const a = layer.address(i);
      const tail = a.postcode ? `${extract.state} ${a.postcode}` : extract.state;
      if (lands(`${a.number} ${a.street}, ${tail}`, a, 'exact')) ok.exact++;
      if (lands(`${a.number} ${oneTypo(a.street, random)}, ${tail}`, a, 'typo')) ok.typo++;
      if (lands(`${a.number} ${a.street} ${tail}`, a, 'no commas')) ok.free++;
      const [r] = reverseGeocode(pack, a.lon, a.lat, addressLayer);
      if (r && sameAddress(r, a.number, a.street)) ok.reverse++;
      const text = `${a.number} ${a.street}`;
      const typed = text.slice(0, Math.ceil(text.length * 0.6));
      const top = autocomplete(pack, typed, { near: [cLon, cLat], limit: 5 });
      if (top.some((x) => x.layer === 'address' && sameAddress(x, a.number, a.street))) ok.autocomplete++;
      else misses.push(`autocomplete  "${typed}" (${text}) → ${top.map((x) => x.addressLabel).join(' | ')}`);
    }
    const n = picked.length;
    const pct = (k: number) => `${((100 * k) / n).toFixed(1)}%`;
    rows.push(
      `| ${osmRegionName(extract.file)} | ${n} | ${pct(ok.exact)} | ${pct(ok.typo)} | ${pct(ok.free)} | ${pct(ok.reverse)} | ${pct(ok.autocomplete)} |`,
    );
  }
  if (values.verbose) for (const m of misses) console.log(m);
  console.log('| extract | sample | exact | one typo (not in the number) | no commas | reverse | autocomplete top 5 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('targets: exact ≥ 99%, one typo ≥ 90%, autocomplete top 5 ≥ 99%');
} finally {
  await remove?.();
}
