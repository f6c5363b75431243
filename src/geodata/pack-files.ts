import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Folders of a pack under the data directory. Each is replaced as a whole by its importer. */
export interface PackPaths {
  root: string;
  /** Built by `import world` from npm packages. */
  world: string;
  /** Operator county → DMA table and merged DMA polygons. */
  dma: string;
  /** Operator ZCTA polygons. */
  postal: string;
  /** One folder per imported OpenStreetMap region (`pack/osm/<region>/`). */
  osm: string;
}

/** The pack folders under `dataDir` (`<dataDir>/pack/world` and so on). */
export function packPaths(dataDir: string): PackPaths {
  const root = join(dataDir, 'pack');
  return {
    root,
    world: join(root, 'world'),
    dma: join(root, 'dma'),
    postal: join(root, 'postal'),
    osm: join(root, 'osm'),
  };
}

/** Writes a value as compact JSON. */
export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(value));
}

/** Reads and parses a JSON file. */
export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

/**
 * Builds a pack folder beside the target and swaps it in only when `build` succeeded, so a failed or
 * interrupted import never leaves a half-written layer: readers see the old folder or the new one.
 */
export async function replaceDirectory(target: string, build: (tempDir: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(dirname(target), `.${basename(target)}.new-${suffix}`);
  const old = join(dirname(target), `.${basename(target)}.old-${suffix}`);
  await mkdir(temp, { recursive: true });
  try {
    await build(temp);
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  let hadOld = false;
  try {
    await rename(target, old);
    hadOld = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await rename(temp, target);
  if (hadOld) await rm(old, { recursive: true, force: true });
}
