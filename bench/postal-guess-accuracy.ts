/**
 * How often the ZIP code in context is right before `import postal` (`approximate: true`: the postcode of
 * the nearest tagged OSM addresses where a region is imported, else the nearest Census ZCTA point): run
 * with `npx tsx bench/postal-guess-accuracy.ts`.
 *
 * Truth is the ZCTA polygon (the fixtures `zcta/hi-zcta-2010.geojson` and `zcta/dc-zcta-2010.geojson`,
 * imported into a copy of the world test pack) that contains each point. Points: a seeded sample spread
 * evenly over the land of the ZCTAs of Hawaii, of Oʻahu alone and of DC (area-weighted, so large rural
 * ZCTAs weigh a lot). The guesses come from a second copy with `osm/honolulu-oahu-hi-2018.osm.pbf` imported
 * and no ZCTA polygons. Options: `--sample N` (points per set, default 2000).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importPostal } from '../src/geodata/import-postal.js';
import { importOsm } from '../src/geodata/osm/import-osm.js';
import { openGeodataPack } from '../src/geodata/pack.js';
import { taggedPostcodeOf } from '../src/geodata/tagged-postcode.js';
import { copyOfSharedTestPack, fixturesDir, missingFixturesMessage } from '../src/geodata/test-pack.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

const { values } = parseArgs({ options: { sample: { type: 'string', default: '2000' } } });
const sampleSize = Number(values.sample);
const fixtures = fixturesDir();
if (!fixtures.present) throw new Error(missingFixturesMessage(fixtures.dir));

const SETS = [
  { name: 'Hawaii', box: [-160.25, 18.9, -154.8, 22.24] },
  { name: 'Oʻahu', box: [-158.3, 21.24, -157.64, 21.72] },
  { name: 'DC', box: [-77.12, 38.8, -76.9, 39.0] },
] as const;

const withPostal = await copyOfSharedTestPack();
const withOsm = await copyOfSharedTestPack();
try {
  await importPostal(
    withPostal.dataDir,
    ['hi-zcta-2010.geojson', 'dc-zcta-2010.geojson'].map((f) => join(fixtures.dir, 'zcta', f)),
  );
  const truth = await openGeodataPack(withPostal.dataDir);
  const plain = await openGeodataPack(withOsm.dataDir);
  await importOsm(withOsm.dataDir, join(fixtures.dir, 'osm', 'honolulu-oahu-hi-2018.osm.pbf'));
  const osm = await openGeodataPack(withOsm.dataDir);
  const truthAt = (lon: number, lat: number) => {
    const t = truth.regionsAt(lon, lat).postalCode;
    return t && !t.approximate ? t.code : undefined;
  };
  console.log(
    '| points spread over | nearest ZCTA point, county first | and the postcode of nearby Oʻahu OSM addresses |',
  );
  console.log('|---|---|---|');
  for (const set of SETS) {
    const random = seededRandom(0x21b);
    const [x0, y0, x1, y1] = set.box;
    let n = 0;
    let nearest = 0;
    let tagged = 0;
    while (n < sampleSize) {
      const lon = x0 + random() * (x1 - x0);
      const lat = y0 + random() * (y1 - y0);
      const code = truthAt(lon, lat);
      if (!code) continue;
      n++;
      if (plain.regionsAt(lon, lat).postalCode?.code === code) nearest++;
      const guess = osm.regionsAt(lon, lat).postalCode;
      const fromAddresses = guess?.approximate ? taggedPostcodeOf(osm)?.(lon, lat) : undefined;
      if ((fromAddresses ?? guess?.code) === code) tagged++;
    }
    const pct = (k: number) => `${((100 * k) / n).toFixed(1)}% (${k}/${n})`;
    console.log(`| ${set.name} | ${pct(nearest)} | ${pct(tagged)} |`);
  }
} finally {
  await withPostal.remove();
  await withOsm.remove();
}
