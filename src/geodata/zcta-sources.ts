import { closeSync, createReadStream, openSync, statSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Unzip, UnzipInflate } from 'fflate';
import type { Feature, Geometry } from 'geojson';
import * as shapefile from 'shapefile';

export type ZctaProps = Record<string, unknown> | null;
export type ZctaFeature = Feature<Geometry | null, ZctaProps>;

/** Features of one input file, and how many there are when known up front (for the progress bar). */
export interface ZctaSource {
  total: number;
  features: AsyncIterable<ZctaFeature>;
  close(): Promise<void>;
}

/**
 * Opens a ZCTA input: a GeoJSON FeatureCollection, a shapefile (`.shp` with its `.dbf` beside it), or a
 * zip holding one shapefile, such as the Census Bureau's `tl_2020_us_zcta520.zip` as published.
 */
export async function openZctaSource(path: string): Promise<ZctaSource> {
  const ext = extname(path).toLowerCase();
  if (ext === '.zip') return openZippedShapefile(path);
  if (ext === '.shp') return openShapefile(path, path.replace(/\.shp$/i, '.dbf'), async () => {});
  const features = readFeatureCollection(await readFile(path, 'utf8'), path);
  return { total: features.length, features: iterate(features), close: async () => {} };
}

async function* iterate<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

function readFeatureCollection(text: string, path: string): ZctaFeature[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not GeoJSON (the file is not valid JSON), nor a shapefile (.shp or .zip)`);
  }
  const fc = doc as { type?: unknown; features?: unknown };
  if (fc?.type !== 'FeatureCollection' || !Array.isArray(fc.features)) {
    throw new Error(`${path}: not GeoJSON: expected a FeatureCollection with a features array`);
  }
  return fc.features as ZctaFeature[];
}

async function openShapefile(shp: string, dbf: string, cleanup: () => Promise<void>): Promise<ZctaSource> {
  // The .shx holds one 8-byte entry per record after a 100-byte header: the count without reading the .shp.
  const shx = shp.replace(/\.shp$/i, '.shx');
  let total = 0;
  try {
    total = Math.max(0, (statSync(shx).size - 100) / 8);
  } catch {
    total = 0;
  }
  let source: Awaited<ReturnType<typeof shapefile.open>>;
  try {
    source = await shapefile.open(shp, dbf, { encoding: 'utf-8' });
  } catch (err) {
    await cleanup();
    throw new Error(`${basename(shp)}: not a readable shapefile (${(err as Error).message})`);
  }
  async function* features(): AsyncIterable<ZctaFeature> {
    for (;;) {
      const next = await source.read();
      if (next.done) return;
      yield next.value as ZctaFeature;
    }
  }
  return { total, features: features(), close: cleanup };
}

/**
 * Unpacks the `.shp`, `.shx` and `.dbf` of a zipped shapefile into a temporary folder (streamed: the
 * national ZCTA file is about 500 MB zipped) and opens them. The folder goes with `close`.
 */
async function openZippedShapefile(zip: string): Promise<ZctaSource> {
  const dir = await mkdtemp(join(tmpdir(), 'whereabouts-zcta-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const found = new Map<string, string>();
  try {
    await new Promise<void>((resolve, reject) => {
      const unzip = new Unzip((file) => {
        const ext = extname(file.name).toLowerCase();
        if (!['.shp', '.shx', '.dbf'].includes(ext) || file.name.includes('__MACOSX') || found.has(ext)) return;
        const out = join(dir, `zcta${ext}`);
        found.set(ext, out);
        const fd = openSync(out, 'w');
        file.ondata = (err, chunk, final) => {
          if (err) return reject(err);
          writeSync(fd, chunk);
          if (final) closeSync(fd);
        };
        file.start();
      });
      unzip.register(UnzipInflate);
      const stream = createReadStream(zip);
      stream.on('data', (chunk) => {
        try {
          unzip.push(chunk as Buffer);
        } catch (err) {
          stream.destroy();
          reject(err);
        }
      });
      stream.on('end', () => {
        try {
          unzip.push(new Uint8Array(0), true);
          resolve();
        } catch (err) {
          reject(err);
        }
      });
      stream.on('error', reject);
    });
  } catch (err) {
    await cleanup();
    throw new Error(`${basename(zip)}: not a readable zip (${(err as Error).message})`);
  }
  const shp = found.get('.shp');
  const dbf = found.get('.dbf');
  if (!shp || !dbf) {
    await cleanup();
    throw new Error(`${basename(zip)}: the zip holds no shapefile (.shp with its .dbf)`);
  }
  return openShapefile(shp, dbf, cleanup);
}
