import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { around } from 'geokdbush';
import KDBush from 'kdbush';
import { numbers, strings } from '../../column-tables.js';
import { readTable, writeTable } from '../../table-file.js';
import type { OsmFile } from '../osm-file.js';
import type { OsmBuildResult } from '../osm-layer-builder.js';
import { type CollectedAddress, collectAddresses } from './collect-addresses.js';

/** One address of the layer, as tagged (empty strings where a tag is absent), without the build's sort keys. */
export type AddressRow = Omit<CollectedAddress, 'key' | 'value'>;

/** A hit of a nearest-feature search: the row, its distance in meters and the nearest point of it. */
export interface NearestHit {
  index: number;
  distance: number;
  lon: number;
  lat: number;
}

const NONE = 0xffffffff;
const FILES = {
  addresses: 'addresses.table',
  streets: 'streets.table',
  parts: 'street-parts.table',
  intersections: 'intersections.table',
};
const M_PER_DEG = 111_320;
// Street vertices further apart than this get extra index points, so a point beside the middle of a long
// straight segment still finds it.
const SAMPLE_METERS = 40;

/** Writes the region's addresses, streets and intersections into `dir` (four table files). */
export async function buildAddressLayer(
  osm: OsmFile,
  dir: string,
  progress: (m: string) => void,
): Promise<OsmBuildResult> {
  progress('collecting addresses and streets');
  const { addresses, streets, intersections, skipped } = collectAddresses(osm);
  const f64 = <T>(rows: T[], get: (r: T) => number) => Float64Array.from(rows, get);
  const u32 = <T>(rows: T[], get: (r: T) => number) => Uint32Array.from(rows, (r) => (get(r) < 0 ? NONE : get(r)));
  const col = <T>(rows: T[], get: (r: T) => string) => rows.map(get);

  // Per street, its addresses ordered by house number: interpolation reads neighbours from this.
  const onStreet = streets.map((): number[] => []);
  addresses.forEach((a, i) => {
    if (a.streetId >= 0) onStreet[a.streetId]!.push(i);
  });
  const addrStart = new Uint32Array(streets.length + 1);
  const addrList: number[] = [];
  onStreet.forEach((list, s) => {
    list.sort((x, y) => addresses[x]!.value - addresses[y]!.value);
    addrList.push(...list);
    addrStart[s + 1] = addrList.length;
  });
  const partStart = new Uint32Array(streets.length + 1);
  const pointStart: number[] = [0];
  const lons: number[] = [];
  const lats: number[] = [];
  streets.forEach((s, i) => {
    for (const part of s.parts) {
      for (const [lon, lat] of part) {
        lons.push(lon);
        lats.push(lat);
      }
      pointStart.push(lons.length);
    }
    partStart[i + 1] = pointStart.length - 1;
  });
  const labels = streets.map((s) => labelPoint(s.parts));

  await writeTable(join(dir, FILES.addresses), {
    strings: {
      number: col(addresses, (a) => a.number),
      unit: col(addresses, (a) => a.unit),
      street: col(addresses, (a) => a.street),
      postcode: col(addresses, (a) => a.postcode),
      city: col(addresses, (a) => a.city),
      state: col(addresses, (a) => a.state),
      key: col(addresses, (a) => a.key),
    },
    numbers: {
      lon: f64(addresses, (a) => a.lon),
      lat: f64(addresses, (a) => a.lat),
      streetId: u32(addresses, (a) => a.streetId),
      value: Uint32Array.from(addresses, (a) => a.value),
    },
    meta: {},
  });
  await writeTable(join(dir, FILES.streets), {
    strings: { name: col(streets, (s) => s.name), key: col(streets, (s) => s.key) },
    numbers: {
      lon: f64(labels, (p) => p[0]),
      lat: f64(labels, (p) => p[1]),
      partStart,
      addrStart,
      addrList: Uint32Array.from(addrList),
    },
    meta: {},
  });
  await writeTable(join(dir, FILES.parts), {
    strings: {},
    numbers: { pointStart: Uint32Array.from(pointStart), lon: Float64Array.from(lons), lat: Float64Array.from(lats) },
    meta: {},
  });
  await writeTable(join(dir, FILES.intersections), {
    strings: {},
    numbers: {
      lon: f64(intersections, (x) => x.lon),
      lat: f64(intersections, (x) => x.lat),
      a: u32(intersections, (x) => x.a),
      b: u32(intersections, (x) => x.b),
    },
    meta: {},
  });
  const notes =
    skipped > 0
      ? [`${skipped} features with addr:housenumber lacked addr:street (or a position) and were skipped`]
      : [];
  return {
    counts: { addresses: addresses.length, streets: streets.length, intersections: intersections.length },
    notes,
  };
}

/** Opens what {@link buildAddressLayer} wrote; null when the folder has none. */
export async function openAddressLayer(dir: string): Promise<AddressLayer | null> {
  if (!existsSync(join(dir, FILES.addresses))) return null;
  const [a, s, p, x] = await Promise.all([
    readTable(join(dir, FILES.addresses)),
    readTable(join(dir, FILES.streets)),
    readTable(join(dir, FILES.parts)),
    readTable(join(dir, FILES.intersections)),
  ]);
  return new AddressLayer(a, s, p, x);
}

type Table = Awaited<ReturnType<typeof readTable>>;

/**
 * The addresses, streets and intersections of one region, opened for geocoding. Addresses and streets are
 * sorted by key (`89 12 springfield blvd`, `springfield blvd`), so a typed prefix is one range; spatial
 * searches go through kdbush indexes built on open (tens of milliseconds for a county).
 */
export class AddressLayer {
  readonly count: number;
  readonly streetCount: number;
  readonly intersectionCount: number;
  /** Sorted search keys: house number key, a space, street key. */
  readonly addressKeys: readonly string[];
  /** Sorted street keys (one per street; same-named streets far apart repeat the key). */
  readonly streetKeys: readonly string[];
  readonly addressValue: Uint32Array;
  private readonly a: {
    number: string[];
    unit: string[];
    street: string[];
    postcode: string[];
    city: string[];
    state: string[];
    lon: Float64Array;
    lat: Float64Array;
    streetId: Uint32Array;
  };
  private readonly streetNames: string[];
  private readonly streetLon: Float64Array;
  private readonly streetLat: Float64Array;
  private readonly partStart: Uint32Array;
  private readonly addrStart: Uint32Array;
  private readonly addrList: Uint32Array;
  private readonly pointStart: Uint32Array;
  private readonly ptLon: Float64Array;
  private readonly ptLat: Float64Array;
  private readonly xLon: Float64Array;
  private readonly xLat: Float64Array;
  private readonly xA: Uint32Array;
  private readonly xB: Uint32Array;
  private readonly addressIndex: KDBush;
  private readonly intersectionIndex: KDBush;
  /** Sample points along streets; `sampleSegment[k]` is the index of the segment's first point. */
  private readonly sampleIndex: KDBush;
  private readonly sampleSegment: Uint32Array;
  private readonly segmentStreet: Uint32Array;

  constructor(a: Table, s: Table, p: Table, x: Table) {
    this.a = {
      number: strings(a, 'number').toArray(),
      unit: strings(a, 'unit').toArray(),
      street: strings(a, 'street').toArray(),
      postcode: strings(a, 'postcode').toArray(),
      city: strings(a, 'city').toArray(),
      state: strings(a, 'state').toArray(),
      lon: numbers(a, 'lon', Float64Array),
      lat: numbers(a, 'lat', Float64Array),
      streetId: numbers(a, 'streetId', Uint32Array),
    };
    this.addressKeys = strings(a, 'key').toArray();
    this.addressValue = numbers(a, 'value', Uint32Array);
    this.count = this.addressKeys.length;
    this.streetNames = strings(s, 'name').toArray();
    this.streetKeys = strings(s, 'key').toArray();
    this.streetCount = this.streetKeys.length;
    this.streetLon = numbers(s, 'lon', Float64Array);
    this.streetLat = numbers(s, 'lat', Float64Array);
    this.partStart = numbers(s, 'partStart', Uint32Array);
    this.addrStart = numbers(s, 'addrStart', Uint32Array);
    this.addrList = numbers(s, 'addrList', Uint32Array);
    this.pointStart = numbers(p, 'pointStart', Uint32Array);
    this.ptLon = numbers(p, 'lon', Float64Array);
    this.ptLat = numbers(p, 'lat', Float64Array);
    this.xLon = numbers(x, 'lon', Float64Array);
    this.xLat = numbers(x, 'lat', Float64Array);
    this.xA = numbers(x, 'a', Uint32Array);
    this.xB = numbers(x, 'b', Uint32Array);
    this.intersectionCount = this.xLon.length;

    this.addressIndex = pointIndex(this.a.lon, this.a.lat);
    this.intersectionIndex = pointIndex(this.xLon, this.xLat);
    // Which street each point (as a segment start) belongs to; the last point of a part starts no segment.
    // Two passes over typed arrays (count, then fill): Oahu's 7,500 streets make ~150,000 sample points.
    this.segmentStreet = new Uint32Array(this.ptLon.length).fill(NONE);
    const steps = new Uint32Array(this.ptLon.length);
    let total = 0;
    for (let st = 0; st < this.streetCount; st++) {
      for (let part = this.partStart[st]!; part < this.partStart[st + 1]!; part++) {
        for (let i = this.pointStart[part]!; i + 1 < this.pointStart[part + 1]!; i++) {
          this.segmentStreet[i] = st;
          const len = metersBetween(this.ptLon[i]!, this.ptLat[i]!, this.ptLon[i + 1]!, this.ptLat[i + 1]!);
          steps[i] = Math.max(1, Math.ceil(len / SAMPLE_METERS));
          total += steps[i]!;
        }
      }
    }
    this.sampleSegment = new Uint32Array(total);
    this.sampleIndex = new KDBush(Math.max(1, total), 64, Float64Array);
    let k = 0;
    for (let i = 0; i < steps.length; i++) {
      const n = steps[i]!;
      for (let j = 0; j < n; j++) {
        const t = j / n;
        this.sampleIndex.add(
          this.ptLon[i]! + t * (this.ptLon[i + 1]! - this.ptLon[i]!),
          this.ptLat[i]! + t * (this.ptLat[i + 1]! - this.ptLat[i]!),
        );
        this.sampleSegment[k++] = i;
      }
    }
    if (total === 0) this.sampleIndex.add(0, 90); // kdbush needs one point; far from any query
    this.sampleIndex.finish();
  }

  /** The postcode tagged on address `i` (`''` when none), without building its row. */
  postcodeAt(i: number): string {
    return this.a.postcode[i]!;
  }

  address(i: number): AddressRow {
    const a = this.a;
    const sid = a.streetId[i]!;
    return {
      number: a.number[i]!,
      unit: a.unit[i]!,
      street: a.street[i]!,
      postcode: a.postcode[i]!,
      city: a.city[i]!,
      state: a.state[i]!,
      lon: a.lon[i]!,
      lat: a.lat[i]!,
      streetId: sid === NONE ? -1 : sid,
    };
  }

  addressLon(i: number): number {
    return this.a.lon[i]!;
  }

  addressLat(i: number): number {
    return this.a.lat[i]!;
  }

  addressStreetId(i: number): number {
    const sid = this.a.streetId[i]!;
    return sid === NONE ? -1 : sid;
  }

  /** `[from, to)` of the addresses whose key starts with `prefix`. */
  addressRange(prefix: string): [number, number] {
    return prefixRange(this.addressKeys, prefix);
  }

  /** `[from, to)` of the streets whose key starts with `prefix`. */
  streetRange(prefix: string): [number, number] {
    return prefixRange(this.streetKeys, prefix);
  }

  streetName(i: number): string {
    return this.streetNames[i]!;
  }

  /** A point on the street to show it at: the middle vertex of its longest piece. */
  streetPoint(i: number): [number, number] {
    return [this.streetLon[i]!, this.streetLat[i]!];
  }

  /** The street's addresses ordered by house number value (a view; do not modify). */
  streetAddresses(i: number): Uint32Array {
    return this.addrList.subarray(this.addrStart[i]!, this.addrStart[i + 1]!);
  }

  /** The point of the street nearest to `[lon, lat]` and its distance in meters. */
  nearestPointOnStreet(st: number, lon: number, lat: number): NearestHit {
    let best: NearestHit = { index: st, distance: Infinity, lon, lat };
    for (let part = this.partStart[st]!; part < this.partStart[st + 1]!; part++) {
      for (let i = this.pointStart[part]!; i + 1 < this.pointStart[part + 1]!; i++) {
        const hit = this.segmentHit(i, lon, lat);
        if (hit.distance < best.distance) best = { ...hit, index: st };
      }
    }
    return best;
  }

  intersection(i: number): { lon: number; lat: number; a: number; b: number } {
    return { lon: this.xLon[i]!, lat: this.xLat[i]!, a: this.xA[i]!, b: this.xB[i]! };
  }

  /** The intersections of two streets (in either order). */
  intersectionsOf(a: number, b: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.intersectionCount; i++) {
      const x = this.xA[i]!;
      const y = this.xB[i]!;
      if ((x === a && y === b) || (x === b && y === a)) out.push(i);
    }
    return out;
  }

  /**
   * The `k` addresses nearest to `[lon, lat]` within `maxMeters`, nearest first, as rows only: a k-nearest
   * walk of the tree (geokdbush), not every address in range, so a dense block costs microseconds.
   */
  nearestAddressRows(lon: number, lat: number, k: number, maxMeters: number): number[] {
    return (around(this.addressIndex, lon, lat, k, maxMeters / 1000) as number[]).filter((i) => i < this.count);
  }

  /** The addresses within `maxMeters`, nearest first, at most `limit`. */
  nearestAddresses(lon: number, lat: number, maxMeters: number, limit: number): NearestHit[] {
    return nearestPoints(this.addressIndex, this.a.lon, this.a.lat, lon, lat, maxMeters, limit);
  }

  nearestIntersection(lon: number, lat: number, maxMeters: number): NearestHit | null {
    return nearestPoints(this.intersectionIndex, this.xLon, this.xLat, lon, lat, maxMeters, 1)[0] ?? null;
  }

  /** The street nearest to a point within `maxMeters` (distance to its line, not its vertices). */
  nearestStreet(lon: number, lat: number, maxMeters: number): NearestHit | null {
    const [dLon, dLat] = degreeBox(lat, maxMeters + SAMPLE_METERS);
    const ids = this.sampleIndex.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
    let best: NearestHit | null = null;
    for (const k of ids) {
      const hit = this.segmentHit(this.sampleSegment[k]!, lon, lat);
      if (hit.distance <= maxMeters && (!best || hit.distance < best.distance)) best = hit;
    }
    return best;
  }

  /** Distance from a point to segment `i → i+1`, with the nearest point; `index` is the segment's street. */
  private segmentHit(i: number, lon: number, lat: number): NearestHit {
    const k = Math.cos((lat * Math.PI) / 180);
    const ax = (this.ptLon[i]! - lon) * k;
    const ay = this.ptLat[i]! - lat;
    const bx = (this.ptLon[i + 1]! - lon) * k;
    const by = this.ptLat[i + 1]! - lat;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
    const px = ax + t * dx;
    const py = ay + t * dy;
    return {
      index: this.segmentStreet[i]!,
      distance: Math.hypot(px, py) * M_PER_DEG,
      lon: lon + px / k,
      lat: lat + py,
    };
  }
}

function pointIndex(lons: Float64Array, lats: Float64Array): KDBush {
  const index = new KDBush(Math.max(1, lons.length), 64, Float64Array);
  for (let i = 0; i < lons.length; i++) index.add(lons[i]!, lats[i]!);
  if (lons.length === 0) index.add(0, 90); // kdbush needs one point; far from any query
  index.finish();
  return index;
}

function nearestPoints(
  index: KDBush,
  lons: Float64Array,
  lats: Float64Array,
  lon: number,
  lat: number,
  maxMeters: number,
  limit: number,
): NearestHit[] {
  const [dLon, dLat] = degreeBox(lat, maxMeters);
  if (limit === 1)
    return nearestPoint(index.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat), lons, lats, lon, lat, maxMeters);
  const hits: NearestHit[] = [];
  for (const i of index.range(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
    if (i >= lons.length) continue;
    const d = metersBetween(lon, lat, lons[i]!, lats[i]!);
    if (d <= maxMeters) hits.push({ index: i, distance: d, lon: lons[i]!, lat: lats[i]! });
  }
  return hits.sort((x, y) => x.distance - y.distance).slice(0, limit);
}

// The nearest one alone (a street's postcode neighbour, reverse geocoding's address): a scan for the
// minimum instead of a hit object per point in range and a sort (300 m in Queens holds ~500 addresses).
// The first of equally near points wins, as in the stable sort.
function nearestPoint(
  ids: number[],
  lons: Float64Array,
  lats: Float64Array,
  lon: number,
  lat: number,
  maxMeters: number,
): NearestHit[] {
  let best = -1;
  let bestDistance = Infinity;
  for (const i of ids) {
    if (i >= lons.length) continue;
    const d = metersBetween(lon, lat, lons[i]!, lats[i]!);
    if (d <= maxMeters && d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best < 0 ? [] : [{ index: best, distance: bestDistance, lon: lons[best]!, lat: lats[best]! }];
}

function degreeBox(lat: number, meters: number): [number, number] {
  const dLat = meters / M_PER_DEG;
  return [dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180)), dLat];
}

/** Meters between two nearby points (equirectangular: exact enough within a few kilometers). */
export function metersBetween(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const k = Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180);
  return Math.hypot((lon2 - lon1) * k, lat2 - lat1) * M_PER_DEG;
}

/** `[from, to)` of the sorted `keys` that start with `prefix`. */
export function prefixRange(keys: readonly string[], prefix: string): [number, number] {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const from = lo;
  // The keys that start with `prefix` follow `from`, a handful as a rule: found by doubling steps, then
  // bisecting the last one, in a few comparisons instead of a second search of the whole array.
  let step = 1;
  while (lo + step <= keys.length && keys[lo + step - 1]!.startsWith(prefix)) {
    lo += step;
    step *= 2;
  }
  // keys[from..lo) start with `prefix`; the first that does not is in [lo, min(lo + step, length)).
  hi = Math.min(lo + step, keys.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]!.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

function labelPoint(parts: [number, number][][]): [number, number] {
  let longest = parts[0]!;
  for (const p of parts) if (p.length > longest.length) longest = p;
  return longest[Math.floor(longest.length / 2)]!;
}
