import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What an installed npm package is: where it lives and which version it is. */
export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
}

/**
 * Finds an installed npm package by name, or `null` when it is not installed (optional dependencies).
 * Resolves the package's entry point and walks up to its `package.json`, because several data packages
 * declare an `exports` map that hides `package.json` and their data files from `require.resolve`.
 */
export function findInstalledPackage(name: string): InstalledPackage | null {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve(name));
  } catch {
    return findInNodeModules(name);
  }
  let dir = dirname(entry);
  for (;;) {
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest?.name === name) return { name, version: manifest.version ?? '0.0.0', dir };
    const parent = dirname(dir);
    if (parent === dir) return findInNodeModules(name);
    dir = parent;
  }
}

/**
 * Like {@link findInstalledPackage} but throws a clear error naming the package, for the required sources.
 */
export function requireInstalledPackage(name: string): InstalledPackage {
  const found = findInstalledPackage(name);
  if (!found) throw new Error(`npm package ${name} is not installed: run npm install`);
  return found;
}

// Packages with no entry point at all (pure data packages such as us-atlas or the DB-IP mmdb) cannot be
// resolved by import.meta.resolve, so look for them in the node_modules folders above this file.
function findInNodeModules(name: string): InstalledPackage | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    const manifest = readManifest(join(candidate, 'package.json'));
    if (manifest?.name === name) return { name, version: manifest.version ?? '0.0.0', dir: candidate };
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function readManifest(path: string): { name?: string; version?: string } | null {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
  } catch {
    return null;
  }
}
