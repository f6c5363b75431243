import type { Position } from '../../../geo/types.js';
import type { PolygonCoordinates } from '../../polygon-file.js';
import type { OsmFile, OsmRelation, OsmTags, OsmWay } from '../osm-file.js';
import { assembleRings, polygonsOf, signedArea } from './assemble-rings.js';
import { BOUNDARY_ROLES, type BoundaryRecord, type BoundaryRole } from './boundary-record.js';
import { type LandRings, landRingsOf, trimToLand } from './land.js';

/** One area per role, index for index with its polygons. */
export type BoundaryBuild = Record<BoundaryRole, { records: BoundaryRecord[]; geometries: PolygonCoordinates[] }>;

export interface BoundaryExtraction {
  layers: BoundaryBuild;
  /** Relations left out because the extract clips them (a way or node missing, a ring that does not close). */
  clipped: number;
  /** Whether closed coastline rings trimmed the areas to land. */
  land: LandRings | null;
}

const LEVELS = new Set(['2', '4', '6', '8']);

/**
 * The extract's administrative areas (`boundary=administrative`, admin levels 2, 4, 6 and 8): level 2
 * with an ISO 3166-1 code is a country; level 4 with an ISO 3166-2 code is a state, and so is a level 6
 * or 8 area with one where its country has no level-4 area in the extract (Liechtenstein's ISO
 * subdivisions are its level-8 municipalities); level 6 is a county and level 8 a locality. Only areas
 * whose every ring closes inside the extract are kept. Where the extract has closed coastline rings,
 * areas are trimmed to them (OSM draws sea borders kilometres offshore; a jurisdiction ends at the coast).
 */
export function extractBoundaries(osm: OsmFile): BoundaryExtraction {
  const wayById = new Map<number, OsmWay>();
  for (const w of osm.ways) wayById.set(w.id, w);
  const land = landRingsOf(
    osm,
    osm.ways.filter((w) => w.tags.natural === 'coastline'),
  );
  const layers = Object.fromEntries(
    BOUNDARY_ROLES.map((r) => [r, { records: [], geometries: [] }]),
  ) as unknown as BoundaryBuild;
  const areas: Array<{ record: BoundaryRecord; geometry: Position[][][]; iso2: string | undefined; fips: string }> = [];
  let clipped = 0;
  for (const rel of osm.relations) {
    const t = rel.tags;
    if (t.boundary !== 'administrative' || !LEVELS.has(t.admin_level ?? '')) continue;
    const geometry = relationPolygons(osm, rel, wayById);
    if (!geometry) {
      clipped++;
      continue;
    }
    const iso1 = (t['ISO3166-1:alpha2'] ?? t['ISO3166-1'] ?? '').toUpperCase();
    const iso2 = t['ISO3166-2']?.toUpperCase();
    const countryCode = /^[A-Z]{2}$/.test(iso1) ? iso1 : (iso2?.slice(0, 2) ?? isInCountry(t));
    const record: BoundaryRecord = {
      id: rel.id,
      adminLevel: Number(t.admin_level),
      name: t.name ?? '',
      countryCode,
      code: '',
    };
    areas.push({ record, geometry: land ? trimToLand(geometry, land) : geometry, iso2, fips: fipsOf(t) });
  }
  const countriesWithLevel4 = new Set(
    areas.filter((a) => a.record.adminLevel === 4 && a.iso2).map((a) => a.record.countryCode),
  );
  const add = (role: BoundaryRole, record: BoundaryRecord, geometry: Position[][][]) => {
    if (geometry.length === 0) return;
    layers[role].records.push(record);
    layers[role].geometries.push(geometry);
  };
  for (const { record, geometry, iso2, fips } of areas) {
    const level = record.adminLevel;
    if (level === 2 && /^[A-Z]{2}$/.test(record.countryCode))
      add('country', { ...record, code: record.countryCode }, geometry);
    const isoState = iso2 && /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(iso2);
    if (isoState && (level === 4 || (level > 4 && !countriesWithLevel4.has(record.countryCode))))
      add('state', { ...record, code: iso2.slice(3) }, geometry);
    if (level === 6) add('county', { ...record, code: fips }, geometry);
    if (level === 8) add('locality', record, geometry);
  }
  return { layers, clipped, land };
}

/** The relation's outer and inner rings as MultiPolygon coordinates, or null when the extract clips it. */
function relationPolygons(osm: OsmFile, rel: OsmRelation, wayById: Map<number, OsmWay>): Position[][][] | null {
  const outer: OsmWay[] = [];
  const inner: OsmWay[] = [];
  for (const m of rel.members) {
    if (m.type !== 'way' || (m.role !== 'outer' && m.role !== 'inner' && m.role !== '')) continue;
    const way = wayById.get(m.ref);
    if (!way) return null;
    (m.role === 'inner' ? inner : outer).push(way);
  }
  if (outer.length === 0) return null;
  const outerRings = assembleRings(osm, outer);
  const innerRings = assembleRings(osm, inner);
  if (!outerRings || !innerRings || outerRings.length === 0) return null;
  // Largest first, so an inner ring finds the outer it belongs to before a small island inside it.
  outerRings.sort((a, b) => Math.abs(signedArea(b)) - Math.abs(signedArea(a)));
  return polygonsOf(outerRings, innerRings);
}

/** `is_in:iso_3166_2=US:HI` style tags name the country of areas without codes of their own. */
function isInCountry(t: OsmTags): string {
  const v = t['is_in:iso_3166_2'] ?? t['is_in:country_code'] ?? '';
  return /^[A-Za-z]{2}/.test(v) ? v.slice(0, 2).toUpperCase() : '';
}

/** US counties carry `nist:fips_code` (state and county, the state's leading zero dropped: `1001`). */
function fipsOf(t: OsmTags): string {
  const v = t['nist:fips_code'] ?? '';
  return /^\d{4,5}$/.test(v) ? v.padStart(5, '0') : '';
}
