import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../../test/helpers/seeded-random.js';

/**
 * A synthetic OSM extract for the import-scale bench: a square grid of city blocks around a US-sized
 * metro (the central half of each axis) and its countryside. Streets run east–west (numbered) and
 * north–south (named), split into ways of a few blocks, each segment bent by a shape node, with highway
 * classes and `maxspeed` as a US grid has them. Metro blocks carry houses on all four sides (closed
 * building ways with `addr:*` tags), every third countryside block one house; some metro blocks a POI
 * (brand and category tags). A county boundary relation surrounds the grid, a city relation the metro.
 * Coordinates are jittered by a few meters so the PBF compresses like real data, not like a lattice.
 * Written as OPL (nodes, then ways, then relations, ids ascending) and turned into PBF by osmium-tool.
 * Deterministic: the same side and seed give the same file.
 */

/** Bump when the generated data changes, so cached extracts are rebuilt. */
export const GENERATOR_VERSION = 1;

/** South-west corner of the grid (central Indiana: flat, gridded, far from any real pack region). */
const ORIGIN = { lon: -86.6, lat: 39.4 };
/** A block is about 200 m by 200 m. */
const BLOCK_LAT = 0.0018;
const BLOCK_LON = 0.00234;
const JITTER_M = 4;
const M_PER_DEG_LAT = 111_195;
const CITY = 'Gridville';
const STATE = 'IN';
/** Houses per side of a metro block. */
const HOUSES_PER_SIDE = 2;
/** Blocks per way: OSM splits streets where attributes change; a few blocks is typical. */
const BLOCKS_PER_WAY = 6;

const AVENUES = [
  'Oak',
  'Maple',
  'Cedar',
  'Elm',
  'Pine',
  'Walnut',
  'Chestnut',
  'Spruce',
  'Birch',
  'Willow',
  'Hickory',
  'Poplar',
  'Sycamore',
  'Magnolia',
  'Dogwood',
  'Juniper',
  'Laurel',
  'Aspen',
  'Hawthorn',
  'Linden',
  'Lincoln',
  'Washington',
  'Jefferson',
  'Madison',
  'Monroe',
  'Jackson',
  'Harrison',
  'Franklin',
  'Grant',
  'Garfield',
  'Meridian',
  'Delaware',
];
const SUFFIXES = ['Avenue', 'Drive', 'Boulevard', 'Road', 'Lane', 'Parkway', 'Court', 'Way'];
/** POIs: brands with their OSM category tags, and a few unbranded places. */
const POIS: Array<Record<string, string>> = [
  { name: 'Starbucks', brand: 'Starbucks', 'brand:wikidata': 'Q37158', amenity: 'cafe', cuisine: 'coffee_shop' },
  { name: "McDonald's", brand: "McDonald's", 'brand:wikidata': 'Q38076', amenity: 'fast_food', cuisine: 'burger' },
  { name: 'Shell', brand: 'Shell', 'brand:wikidata': 'Q110716465', amenity: 'fuel' },
  { name: 'Walgreens', brand: 'Walgreens', 'brand:wikidata': 'Q1591889', amenity: 'pharmacy', shop: 'chemist' },
  { name: 'Kroger', brand: 'Kroger', 'brand:wikidata': 'Q153417', shop: 'supermarket' },
  { name: 'Subway', brand: 'Subway', 'brand:wikidata': 'Q244457', amenity: 'fast_food', cuisine: 'sandwich' },
  { name: 'Dollar General', brand: 'Dollar General', 'brand:wikidata': 'Q145168', shop: 'variety_store' },
  { name: 'Target', brand: 'Target', 'brand:wikidata': 'Q1046951', shop: 'department_store' },
  { name: 'Corner Diner', amenity: 'restaurant', cuisine: 'american' },
  { name: 'Grid Elementary School', amenity: 'school' },
  { name: 'Public Library', amenity: 'library' },
  { name: 'Hometown Hardware', shop: 'hardware' },
];

export interface SyntheticExtract {
  /** Blocks per side of the square grid. */
  side: number;
  /** Street addresses in the file, a sample of up to 2,000, for forward and reverse geocoding. */
  addresses: Array<{ number: string; street: string; postcode: string; lon: number; lat: number }>;
  /** The grid's bounds, for routes across the area. */
  bbox: { west: number; south: number; east: number; north: number };
}

/** osmium-tool's path, or undefined when Debian's `osmium-tool` is not installed. */
export function osmiumPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v osmium'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/** Writes the extract of `side` × `side` blocks to `pbfPath` (through OPL files in a temporary folder). */
export async function writeSyntheticExtract(side: number, pbfPath: string, seed = 1): Promise<SyntheticExtract> {
  const osmium = osmiumPath();
  if (!osmium) throw new Error('osmium-tool is not installed (apt-get install -y osmium-tool)');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'whereabouts-synthetic-'));
  try {
    const files = ['nodes.opl', 'ways.opl', 'relations.opl'].map((f) => path.join(tmp, f));
    const [nodes, ways, relations] = files.map((f) => new OplWriter(f));
    const extract = generate(side, seededRandom(seed), nodes!, ways!, relations!);
    for (const w of [nodes!, ways!, relations!]) w.close();
    const converted = spawnSync(osmium, ['cat', ...files, '--overwrite', '-o', pbfPath], { encoding: 'utf8' });
    if (converted.status !== 0) throw new Error(`osmium cat failed: ${converted.stderr}`);
    return extract;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The side whose extract is about `megabytes` of PBF: PBF size grows with the number of blocks (the
 * metro share is fixed), so a small extract's bytes per block scale to the target.
 */
export async function sideForMegabytes(megabytes: number): Promise<number> {
  const probeSide = 60;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'whereabouts-synthetic-probe-'));
  try {
    const probe = path.join(tmp, 'probe.osm.pbf');
    await writeSyntheticExtract(probeSide, probe);
    const bytesPerBlock = statSync(probe).size / probeSide ** 2;
    return Math.max(8, Math.round(Math.sqrt((megabytes * 2 ** 20) / bytesPerBlock)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function generate(
  side: number,
  random: () => number,
  nodes: OplWriter,
  ways: OplWriter,
  relations: OplWriter,
): SyntheticExtract {
  const lonAt = (i: number) => ORIGIN.lon + i * BLOCK_LON;
  const latAt = (j: number) => ORIGIN.lat + j * BLOCK_LAT;
  const jitter = () => ((random() - 0.5) * 2 * JITTER_M) / M_PER_DEG_LAT;
  const metroLo = Math.floor(side / 4);
  const metroHi = Math.ceil((3 * side) / 4);
  const inMetro = (i: number, j: number) => i >= metroLo && i < metroHi && j >= metroLo && j < metroHi;

  // Node ids by role, ascending in the order they are written.
  const junction = (i: number, j: number) => 1 + j * (side + 1) + i;
  const junctions = (side + 1) ** 2;
  const ewShape = (i: number, j: number) => 1 + junctions + j * side + i;
  const nsShape = (i: number, j: number) => 1 + junctions + (side + 1) * side + i * side + j;
  let nextNode = 1 + junctions + 2 * (side + 1) * side;
  let nextWay = 1;
  let nextRelation = 1;

  for (let j = 0; j <= side; j++)
    for (let i = 0; i <= side; i++) nodes.node(junction(i, j), lonAt(i) + jitter(), latAt(j) + jitter());
  for (let j = 0; j <= side; j++)
    for (let i = 0; i < side; i++) nodes.node(ewShape(i, j), lonAt(i + 0.5) + jitter() * 3, latAt(j) + jitter() * 3);
  for (let i = 0; i <= side; i++)
    for (let j = 0; j < side; j++) nodes.node(nsShape(i, j), lonAt(i) + jitter() * 3, latAt(j + 0.5) + jitter() * 3);

  const ewName = (j: number) => `${ordinal(j + 1)} Street`;
  const nsName = (i: number) =>
    `${AVENUES[i % AVENUES.length]} ${SUFFIXES[Math.floor(i / AVENUES.length) % SUFFIXES.length]}`;
  const roadTags = (k: number, metro: boolean, name: string): Record<string, string> => {
    if (k % 10 === 0) return { highway: 'primary', name, maxspeed: '45 mph', lanes: '4', ref: `IN ${100 + k}` };
    if (k % 5 === 0) return { highway: 'secondary', name, maxspeed: '35 mph' };
    return metro
      ? { highway: 'residential', name, maxspeed: '25 mph' }
      : { highway: 'unclassified', name, maxspeed: '40 mph', surface: k % 3 === 0 ? 'gravel' : 'asphalt' };
  };
  for (let j = 0; j <= side; j++)
    for (let i0 = 0; i0 < side; i0 += BLOCKS_PER_WAY) {
      const refs: number[] = [];
      for (let i = i0; i < Math.min(side, i0 + BLOCKS_PER_WAY); i++) refs.push(junction(i, j), ewShape(i, j));
      refs.push(junction(Math.min(side, i0 + BLOCKS_PER_WAY), j));
      ways.way(nextWay++, refs, roadTags(j, inMetro(i0, Math.min(j, side - 1)), ewName(j)));
    }
  for (let i = 0; i <= side; i++)
    for (let j0 = 0; j0 < side; j0 += BLOCKS_PER_WAY) {
      const refs: number[] = [];
      for (let j = j0; j < Math.min(side, j0 + BLOCKS_PER_WAY); j++) refs.push(junction(i, j), nsShape(i, j));
      refs.push(junction(i, Math.min(side, j0 + BLOCKS_PER_WAY)));
      ways.way(nextWay++, refs, roadTags(i, inMetro(Math.min(i, side - 1), j0), nsName(i)));
    }

  // Houses: a 12 m square set back from the street, its address on the street it faces.
  const addresses: SyntheticExtract['addresses'] = [];
  let addressCount = 0;
  const house = (lon: number, lat: number, number: number, street: string, postcode: string) => {
    const h = 6 / M_PER_DEG_LAT;
    const hLon = h / Math.cos((lat * Math.PI) / 180);
    const first = nextNode;
    for (const [dx, dy] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const)
      nodes.node(nextNode++, lon + dx * hLon + jitter() / 4, lat + dy * h + jitter() / 4);
    const tags: Record<string, string> = {
      building: 'house',
      'addr:housenumber': String(number),
      'addr:street': street,
      'addr:postcode': postcode,
      'addr:city': CITY,
      'addr:state': STATE,
    };
    ways.way(nextWay++, [first, first + 1, first + 2, first + 3, first], tags);
    // A reservoir sample, so the geocoding queries spread over the whole file.
    addressCount++;
    const slot = addressCount <= 2000 ? addressCount - 1 : Math.floor(random() * addressCount);
    if (slot < 2000) addresses[slot] = { number: String(number), street, postcode, lon, lat };
  };
  const setback = 0.22;
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      const postcode = String(46000 + Math.floor(j / 10) * 100 + Math.floor(i / 10));
      const metro = inMetro(i, j);
      if (!metro && (i + 2 * j) % 3 !== 0) continue;
      const perSide = metro ? HOUSES_PER_SIDE : 1;
      for (let k = 0; k < perSide; k++) {
        const t = (k + 1) / (perSide + 1);
        // South side faces street j, north side street j+1, west side avenue i, east side avenue i+1.
        house(lonAt(i + t), latAt(j + setback), 100 * i + 2 * k + 10, ewName(j), postcode);
        if (!metro) continue;
        house(lonAt(i + t), latAt(j + 1 - setback), 100 * i + 2 * k + 11, ewName(j + 1), postcode);
        house(lonAt(i + setback), latAt(j + t), 100 * j + 2 * k + 11, nsName(i), postcode);
        house(lonAt(i + 1 - setback), latAt(j + t), 100 * j + 2 * k + 10, nsName(i + 1), postcode);
      }
      if (metro && random() < 0.15) {
        const poi = POIS[Math.floor(random() * POIS.length)]!;
        nodes.node(nextNode++, lonAt(i + 0.5) + jitter(), latAt(j + 0.5) + jitter(), {
          ...poi,
          'addr:housenumber': String(100 * i + 50),
          'addr:street': ewName(j),
          'addr:postcode': postcode,
          'addr:city': CITY,
        });
      }
    }

  // Boundaries: the county around the grid, the city around the metro, each one closed way of junctions.
  const ring = (lo: number, hi: number): number[] => {
    const refs: number[] = [];
    for (let i = lo; i < hi; i++) refs.push(junction(i, lo));
    for (let j = lo; j < hi; j++) refs.push(junction(hi, j));
    for (let i = hi; i > lo; i--) refs.push(junction(i, hi));
    for (let j = hi; j > lo; j--) refs.push(junction(lo, j));
    refs.push(junction(lo, lo));
    return refs;
  };
  for (const [lo, hi, level, name] of [
    [0, side, '6', 'Synthetic County'],
    [metroLo, metroHi, '8', CITY],
  ] as const) {
    const way = nextWay++;
    ways.way(way, ring(lo, hi), { boundary: 'administrative', admin_level: level });
    relations.relation(nextRelation++, [`w${way}@outer`], {
      type: 'boundary',
      boundary: 'administrative',
      admin_level: level,
      name,
    });
  }

  return {
    side,
    addresses,
    bbox: { west: lonAt(0), south: latAt(0), east: lonAt(side), north: latAt(side) },
  };
}

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** OPL lines into a file, buffered (millions of small writes), written synchronously so memory stays flat. */
class OplWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private size = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  node(id: number, lon: number, lat: number, tags?: Record<string, string>): void {
    this.line(`n${id} v1${tags ? ` T${oplTags(tags)}` : ''} x${lon.toFixed(7)} y${lat.toFixed(7)}`);
  }

  way(id: number, refs: number[], tags: Record<string, string>): void {
    this.line(`w${id} v1 T${oplTags(tags)} N${refs.map((r) => `n${r}`).join(',')}`);
  }

  relation(id: number, members: string[], tags: Record<string, string>): void {
    this.line(`r${id} v1 T${oplTags(tags)} M${members.join(',')}`);
  }

  private line(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.buffer.length) writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** OPL escapes every character outside a small safe set as `%<hex code point>%`. */
function oplTags(tags: Record<string, string>): string {
  const esc = (s: string) => s.replace(/[^A-Za-z0-9_.:;/-]/gu, (c) => `%${c.codePointAt(0)!.toString(16)}%`);
  return Object.entries(tags)
    .map(([k, v]) => `${esc(k)}=${esc(v)}`)
    .join(',');
}
