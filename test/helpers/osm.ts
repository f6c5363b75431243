import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportSummary } from '../../src/geodata/manifest.js';
import { importOsm } from '../../src/geodata/osm/import-osm.js';
import {
  copyOfSharedTestPack,
  fixturesDir,
  missingFixturesMessage,
  type TestPack,
} from '../../src/geodata/test-pack.js';

/** A private copy of the world pack with OSM extracts imported into it, and how to remove it. */
export interface OsmTestPack extends TestPack {
  /** One import summary per extract, in the order given. */
  imports: ImportSummary[];
}

/** The path of an OSM fixture (`osm/<name>` under the shared data folder), or a skip message when absent. */
export function osmFixture(name: string): { path: string } | { skip: string } {
  const fixtures = fixturesDir();
  if (!fixtures.present) return { skip: missingFixturesMessage(fixtures.dir) };
  const path = join(fixtures.dir, 'osm', name);
  return existsSync(path) ? { path } : { skip: `OSM fixture ${name} not found in ${join(fixtures.dir, 'osm')}` };
}

/**
 * A writable copy of the shared world pack with the named `.osm.pbf` fixtures (e.g.
 * `imperial-county-ca-2024.osm.pbf`) imported through the real `importOsm`, for a server's
 * GEODATA_DIR. Returns a skip message instead when the fixtures are absent, so tests can `t.skip()`.
 */
export async function withOsmRegion(...names: string[]): Promise<OsmTestPack | { skip: string }> {
  const paths: string[] = [];
  for (const name of names) {
    const f = osmFixture(name);
    if ('skip' in f) return f;
    paths.push(f.path);
  }
  const pack = await copyOfSharedTestPack();
  try {
    const imports: ImportSummary[] = [];
    for (const p of paths) imports.push(await importOsm(pack.dataDir, p));
    return { ...pack, imports };
  } catch (err) {
    await pack.remove();
    throw err;
  }
}
