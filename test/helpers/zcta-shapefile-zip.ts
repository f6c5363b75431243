import { zipSync } from 'fflate';

type Ring = [number, number][];
interface ZctaFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown };
}

// The attributes of the Census 2020 ZCTA file (tl_2020_us_zcta520), filled from the 2010 fixture's.
const FIELDS: { name: string; length: number; from: string }[] = [
  { name: 'ZCTA5CE20', length: 5, from: 'ZCTA5CE10' },
  { name: 'GEOID20', length: 5, from: 'ZCTA5CE10' },
  { name: 'INTPTLAT20', length: 11, from: 'INTPTLAT10' },
  { name: 'INTPTLON20', length: 12, from: 'INTPTLON10' },
];

/**
 * The Census Bureau's zipped ZCTA shapefile as it publishes it (`tl_2020_us_zcta520.zip`: .shp, .shx,
 * .dbf, .prj), written from a GeoJSON FeatureCollection of 2010 ZCTAs. The shapefile format
 * (ESRI technical description, 1998) is written by hand: polygons (type 5), outer rings clockwise and
 * holes counter-clockwise as the format wants; the zip by fflate.
 */
export function zctaShapefileZip(fc: { features: ZctaFeature[] }): Uint8Array {
  const features = fc.features.filter((f) => f.geometry?.type === 'Polygon' || f.geometry?.type === 'MultiPolygon');
  const shapes = features.map((f) => {
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
    // Outer rings clockwise (negative shoelace area), holes counter-clockwise.
    return polygons.flatMap((rings) =>
      rings.map((ring, i) => (area(ring) < 0 === (i === 0) ? ring : [...ring].reverse())),
    );
  });
  const { shp, shx } = writeShp(shapes);
  const name = 'tl_2020_us_zcta520';
  return zipSync({
    [`${name}.shp`]: shp,
    [`${name}.shx`]: shx,
    [`${name}.dbf`]: writeDbf(features),
    [`${name}.prj`]: new TextEncoder().encode('GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983"]]'),
  });
}

function area(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  return sum / 2;
}

function box(points: [number, number][]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

function header(view: DataView, fileBytes: number, bbox: number[]): void {
  view.setInt32(0, 9994);
  view.setInt32(24, fileBytes / 2);
  view.setInt32(28, 1000, true);
  view.setInt32(32, 5, true);
  for (const [i, v] of bbox.entries()) view.setFloat64(36 + 8 * i, v, true);
}

function writeShp(shapes: Ring[][]): { shp: Uint8Array; shx: Uint8Array } {
  const contents = shapes.map((rings) => 44 + 4 * rings.length + 16 * rings.reduce((n, r) => n + r.length, 0));
  const shpBytes = 100 + contents.reduce((n, c) => n + 8 + c, 0);
  const shp = new Uint8Array(shpBytes);
  const shx = new Uint8Array(100 + 8 * shapes.length);
  const sv = new DataView(shp.buffer);
  const xv = new DataView(shx.buffer);
  const all = box(shapes.flat(2));
  header(sv, shpBytes, all);
  header(xv, shx.length, all);
  let at = 100;
  shapes.forEach((rings, k) => {
    xv.setInt32(100 + 8 * k, at / 2);
    xv.setInt32(104 + 8 * k, contents[k]! / 2);
    sv.setInt32(at, k + 1);
    sv.setInt32(at + 4, contents[k]! / 2);
    let c = at + 8;
    sv.setInt32(c, 5, true);
    for (const [i, v] of box(rings.flat()).entries()) sv.setFloat64(c + 4 + 8 * i, v, true);
    sv.setInt32(c + 36, rings.length, true);
    sv.setInt32(
      c + 40,
      rings.reduce((n, r) => n + r.length, 0),
      true,
    );
    c += 44;
    let start = 0;
    for (const ring of rings) {
      sv.setInt32(c, start, true);
      c += 4;
      start += ring.length;
    }
    for (const [x, y] of rings.flat()) {
      sv.setFloat64(c, x, true);
      sv.setFloat64(c + 8, y, true);
      c += 16;
    }
    at = c;
  });
  return { shp, shx };
}

function writeDbf(features: ZctaFeature[]): Uint8Array {
  const recordBytes = 1 + FIELDS.reduce((n, f) => n + f.length, 0);
  const headerBytes = 32 + 32 * FIELDS.length + 1;
  const out = new Uint8Array(headerBytes + recordBytes * features.length + 1).fill(0x20, headerBytes);
  const view = new DataView(out.buffer);
  out.set([0x03, 120, 1, 1]);
  view.setUint32(4, features.length, true);
  view.setUint16(8, headerBytes, true);
  view.setUint16(10, recordBytes, true);
  const ascii = (s: string, at: number) => out.set(new TextEncoder().encode(s), at);
  FIELDS.forEach((f, i) => {
    const at = 32 + 32 * i;
    out.fill(0, at, at + 32);
    ascii(f.name, at);
    ascii('C', at + 11);
    out[at + 16] = f.length;
  });
  out[headerBytes - 1] = 0x0d;
  features.forEach((feature, k) => {
    let at = headerBytes + k * recordBytes + 1;
    for (const f of FIELDS) {
      ascii(String(feature.properties[f.from] ?? '').slice(0, f.length), at);
      at += f.length;
    }
  });
  out[out.length - 1] = 0x1a;
  return out;
}
