import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportSummary } from '../../src/geodata/manifest.js';
import { importOsm, osmRegionName } from '../../src/geodata/osm/import-osm.js';
import { packPaths } from '../../src/geodata/pack-files.js';
import { findInstalledPackage } from '../../src/geodata/package-dir.js';
import {
  copyOfSharedTestPack,
  fixturesDir,
  missingFixturesMessage,
  type TestPack,
  takeLock,
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
 * Each region is imported once per code version and copied into every test pack that asks for it
 * (test files of one run share Oʻahu, Imperial …; see {@link importedRegion}).
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
    for (const p of paths) {
      const cached = await importedRegion(p);
      const target = join(packPaths(pack.dataDir).osm, osmRegionName(p));
      await mkdir(packPaths(pack.dataDir).osm, { recursive: true });
      await cp(join(cached, 'region'), target, { recursive: true });
      const summary = JSON.parse(await readFile(join(cached, 'summary.json'), 'utf8')) as ImportSummary;
      imports.push({ ...summary, packDir: target });
    }
    return { ...pack, imports };
  } catch (err) {
    await pack.remove();
    throw err;
  }
}

/**
 * The folder (`region/` and `summary.json`) of one extract imported by `importOsm`, built once into
 * `<tmpdir>/whereabouts-test-osm-<key>` and reused. The key hashes the extract (name, size, time), the
 * parser and name-suggestion-index versions and every source file under `src/`, so a code change
 * imports again. Parallel test processes wait on a lock file; the folder is renamed into place complete.
 */
async function importedRegion(pbf: string): Promise<string> {
  const dir = join(tmpdir(), `whereabouts-test-osm-${await regionKey(pbf)}`);
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(join(dir, 'summary.json'))) {
      // Touched on use, so that the clean-up of stale imports spares the ones still in use.
      const now = new Date();
      await utimes(dir, now, now).catch(() => {});
      return dir;
    }
    if (await takeLock(lock)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    if (!existsSync(join(dir, 'summary.json'))) {
      const temp = await mkdtemp(`${dir}.build-`);
      try {
        const summary = await importOsm(temp, pbf);
        await rename(summary.packDir, join(temp, 'region'));
        await writeFile(join(temp, 'summary.json'), JSON.stringify(summary));
        await rm(join(temp, 'pack'), { recursive: true, force: true });
        await rename(temp, dir);
      } catch (err) {
        await rm(temp, { recursive: true, force: true });
        if (!existsSync(join(dir, 'summary.json'))) throw err;
      }
      await removeStale(dir);
    }
  } finally {
    await rm(lock, { force: true });
  }
  return dir;
}

async function regionKey(pbf: string): Promise<string> {
  const hash = createHash('sha256');
  const st = await stat(pbf);
  hash.update(`${pbf}\n${st.size}\n${st.mtimeMs}\n`);
  for (const name of ['osm-pbf-parser-node', 'name-suggestion-index', '@rapideditor/country-coder']) {
    hash.update(`${name}@${findInstalledPackage(name)?.version ?? 'absent'}\n`);
  }
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const f of files.sort()) hash.update(`${f}\n`).update(await readFile(join(src, f)));
  return hash.digest('hex').slice(0, 16);
}

/** Imported regions of other code versions, unused for a day, are removed. */
async function removeStale(keep: string): Promise<void> {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!/^whereabouts-test-osm-[0-9a-f]{16}(\.build-.+)?$/.test(name) || path === keep) continue;
    const st = await stat(path).catch(() => null);
    if (st && st.mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}
