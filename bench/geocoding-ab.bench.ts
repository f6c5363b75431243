/**
 * The geocoding bench's autocomplete and forward queries through two builds of the geocoder in one process:
 * this checkout's and the one at AGAINST (another checkout, e.g. `git worktree add <dir> <commit>`), each
 * on its own pack, one query to each in turn (which goes first alternates). A shared machine's load then
 * falls on both alike, where two bench runs minutes apart see different loads. Prints per build the mean,
 * p50, p99 and p99.9 per query of wall and CPU time in µs, and how many queries' first answers differ.
 *
 *   AGAINST=<checkout> [AGAINST_PACK=<folder with pack/>] GEODATA_FIXTURES=<shared/data> \
 *     node --import tsx bench/geocoding-ab.bench.ts
 *
 * This checkout's pack is the geocoding scenario's (world + Queens, built into the temp folder when
 * missing); AGAINST_PACK defaults to it, and must be given when the other build reads another pack format.
 * Only the geocoder is timed: no HTTP, no server (`npm run bench -- geocoding` measures those).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GeocodeAddress } from '../src/geocoding/address.js';
import { openAddressLayer } from '../src/geodata/osm/addresses/address-layer.js';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { geocodingQueries } from './lib/geocoding-queries.js';
import { queensPack } from './scenarios/geocoding.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Build {
  name: string;
  pack: unknown;
  autocomplete(pack: unknown, query: string, opts: { near: [number, number] }): GeocodeAddress[];
  forward(pack: unknown, query: string): GeocodeAddress[];
}

/** A checkout's geocoder on a pack, with its per-pack tables built as the server builds them at start. */
async function openBuild(name: string, root: string, packDir: string): Promise<Build> {
  const from = (file: string) => import(path.join(root, 'src', file));
  const [{ openGeodataPack }, { autocomplete }, { forwardGeocode }, { prepareGeocoding }] = await Promise.all([
    from('geodata/pack.ts'),
    from('geocoding/autocomplete.ts'),
    from('geocoding/forward-geocode.ts'),
    from('geocoding/entry-scores.ts'),
  ]);
  const pack = await openGeodataPack(packDir);
  prepareGeocoding(pack);
  return { name, pack, autocomplete, forward: forwardGeocode };
}

const against = process.env.AGAINST;
if (!against) throw new Error('AGAINST: set it to the checkout to compare with (git worktree add <dir> <commit>)');
const packDir = await queensPack();
const builds = [
  await openBuild('this', ROOT, packDir),
  await openBuild(path.basename(against), path.resolve(against), process.env.AGAINST_PACK ?? packDir),
];
const layer = await openAddressLayer(path.join(packDir, 'pack', 'osm', 'queens-village-ny-2016'));
if (!layer) throw new Error('Queens address layer missing');
const queries = geocodingQueries(layer, seededRandom(42));

/**
 * Runs `call` once per build for each input, alternating which build goes first; per build its wall times
 * and the process's CPU times (which leave out the waits for a CPU that other processes cause), in µs.
 */
function alternate<T>(inputs: T[], call: (b: Build, input: T) => GeocodeAddress[]) {
  const wall = builds.map(() => [] as number[]);
  const cpu = builds.map(() => [] as number[]);
  let differ = 0;
  inputs.forEach((input, k) => {
    const first: Array<string | undefined> = [];
    for (const j of k % 2 === 0 ? [0, 1] : [1, 0]) {
      const c = process.cpuUsage();
      const t = performance.now();
      const out = call(builds[j]!, input);
      wall[j]!.push((performance.now() - t) * 1000);
      const used = process.cpuUsage(c);
      cpu[j]!.push(used.user + used.system);
      first[j] = out[0]?.formattedAddress;
    }
    if (first[0] !== first[1]) differ++;
  });
  return { wall, cpu, differ };
}

const latLon = (near: string) => near.split(',').map(Number) as [number, number];
const rows = [
  [
    'autocomplete',
    alternate(queries.autocomplete, (b, q) => {
      const [lat, lon] = latLon(q.near);
      return b.autocomplete(b.pack, q.query, { near: [lon, lat] });
    }),
  ],
  ['forward', alternate(queries.forward, (b, q) => b.forward(b.pack, q))],
] as const;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
/** Mean, p50, p99 and p99.9 of µs figures. */
function spread(figures: number[]): string[] {
  const t = [...figures].sort((x, y) => x - y);
  const mean = t.reduce((s, x) => s + x, 0) / t.length;
  return [mean, quantile(t, 0.5), quantile(t, 0.99), quantile(t, 0.999)].map((x) => x.toFixed(0));
}
console.log(
  '| query | build | wall µs: mean | p50 | p99 | p99.9 | CPU µs: mean | p50 | p99 | p99.9 | first answer differs |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [kind, { wall, cpu, differ }] of rows) {
  builds.forEach((b, j) => {
    const cells = [...spread(wall[j]!), ...spread(cpu[j]!), j === 0 ? `${differ} of ${wall[j]!.length}` : ''];
    console.log(`| ${kind} | ${b.name} | ${cells.join(' | ')} |`);
  });
}
