import type { Feature, Geometry } from 'geojson';
import { labelPoint } from '../label-point.js';
import type { PolygonLayerBuild } from '../layer-files.js';
import type { PolygonCoordinates } from '../polygon-file.js';
import type { CountryRecord } from '../records.js';

interface BorderProps {
  id: string;
  iso1A2?: string;
  nameEn: string;
  emojiFlag?: string;
  country?: string;
}

// country-coder uses formal names for a few states; the API answers with the everyday short name.
const SHORT_NAMES: Readonly<Record<string, string>> = {
  US: 'United States',
  CN: 'China',
  NL: 'Netherlands',
  DK: 'Denmark',
  FM: 'Micronesia',
  VC: 'Saint Vincent and the Grenadines',
  SH: 'Saint Helena',
};

/**
 * Countries from `@rapideditor/country-coder`: one record per ISO 3166-1 alpha-2 code, its polygons merged
 * from every geometry feature that codes to it. Pieces without their own code (Hawaii, England, Svalbard)
 * belong to their `country` (US, GB, NO); territories with their own code (PR, GU, GL) stay separate, as
 * the API reports them. Disputed pieces with no country at all (Northern Cyprus, Bir Tawil) are left out.
 */
export async function buildCountries(): Promise<PolygonLayerBuild<CountryRecord>> {
  const coder = await import('@rapideditor/country-coder');
  const features = coder.borders.features as Feature<Geometry | null, BorderProps>[];
  const byCode = new Map<string, BorderProps>();
  for (const f of features) if (f.properties.iso1A2) byCode.set(f.properties.iso1A2, f.properties);

  const parts = new Map<string, PolygonCoordinates[]>();
  for (const f of features) {
    const g = f.geometry;
    if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) continue;
    const code = f.properties.iso1A2 ?? f.properties.country;
    if (!code || !byCode.has(code)) continue;
    const list = parts.get(code) ?? [];
    if (g.type === 'Polygon') list.push(g.coordinates as PolygonCoordinates);
    else for (const p of g.coordinates) list.push(p as PolygonCoordinates);
    parts.set(code, list);
  }

  const build: PolygonLayerBuild<CountryRecord> = { records: [], geometries: [] };
  for (const [code, polygons] of [...parts].sort(([a], [b]) => a.localeCompare(b))) {
    const props = byCode.get(code)!;
    const geometry = polygons as PolygonCoordinates;
    const [lon, lat] = labelPoint(geometry);
    build.records.push({ code, name: SHORT_NAMES[code] ?? props.nameEn, flag: props.emojiFlag ?? '', lon, lat });
    build.geometries.push(geometry);
  }
  return build;
}
