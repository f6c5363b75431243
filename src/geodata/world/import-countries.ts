import type { Feature, Geometry } from 'geojson';
import { labelPoint } from '../label-point.js';
import type { PolygonLayerBuild } from '../layer-files.js';
import type { PolygonCoordinates } from '../polygon-file.js';
import type { CountryRecord } from '../records.js';

interface BorderProps {
  id: string;
  iso1A2?: string;
  iso1A3?: string;
  nameEn: string;
  emojiFlag?: string;
  country?: string;
  groups?: string[];
  isoStatus?: string;
  level?: string;
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
 * from every geometry feature that codes to it. Pieces without an officially assigned code of their own
 * (Hawaii, England, Metropolitan France `FX`, Canary Islands `IC`) belong to the nearest enclosing group that
 * has one (US, GB, FR, ES); territories with their own code (PR, GU, GL) stay separate, as the API reports
 * them. Kosovo keeps its user-assigned XK. Pieces with no country at all (Bir Tawil) are left out.
 */
export async function buildCountries(): Promise<PolygonLayerBuild<CountryRecord>> {
  const coder = await import('@rapideditor/country-coder');
  const features = coder.borders.features as Feature<Geometry | null, BorderProps>[];
  const byCode = new Map<string, BorderProps>();
  for (const f of features) if (isCountryCode(f.properties)) byCode.set(f.properties.iso1A2!, f.properties);

  const parts = new Map<string, PolygonCoordinates[]>();
  for (const f of features) {
    const g = f.geometry;
    if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) continue;
    const p = f.properties;
    // Own code first; else the nearest enclosing group with one (Svalbard → SJ, Hawaii → US, FX → FR).
    const code = [p.iso1A2, ...(p.groups ?? []), p.country].find((c) => c !== undefined && byCode.has(c));
    if (!code) continue;
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
    build.records.push({
      code,
      code3: props.iso1A3 ?? '',
      name: SHORT_NAMES[code] ?? props.nameEn,
      flag: props.emojiFlag ?? '',
      lon,
      lat,
    });
    build.geometries.push(geometry);
  }
  return build;
}

// Exceptionally reserved codes (FX, IC, AC …) are not countries; XK is user-assigned but used everywhere.
function isCountryCode(p: BorderProps): boolean {
  return !!p.iso1A2 && (p.isoStatus === 'official' || p.isoStatus === 'usrAssn') && p.level !== 'subterritory';
}
