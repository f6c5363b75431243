import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Geometry } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { labelPoint } from '../label-point.js';
import type { PolygonLayerBuild } from '../layer-files.js';
import type { InstalledPackage } from '../package-dir.js';
import type { PolygonCoordinates } from '../polygon-file.js';
import type { CountyRecord, StateRecord } from '../records.js';
import { US_STATES } from '../us-states.js';
import type { GeonamesAdminNames } from './geonames-admin.js';

/** The us-atlas county topology, typed for what the importers read. */
export type UsAtlasTopology = Topology<{
  counties: GeometryCollection<{ name: string }>;
  states: GeometryCollection<{ name: string }>;
}>;

/** Reads `counties-10m.json` (states and counties in one shared topology) from the us-atlas package. */
export async function readUsAtlas(usAtlas: InstalledPackage): Promise<UsAtlasTopology> {
  return JSON.parse(await readFile(join(usAtlas.dir, 'counties-10m.json'), 'utf8')) as UsAtlasTopology;
}

/** US states, DC and territories from us-atlas (Census cartographic boundaries 1:10m). */
export function buildUsStates(topology: UsAtlasTopology): PolygonLayerBuild<StateRecord> {
  const build: PolygonLayerBuild<StateRecord> = { records: [], geometries: [] };
  for (const f of feature(topology, topology.objects.states).features) {
    const fips = String(f.id);
    const state = US_STATES[fips];
    const geometry = polygonCoordinates(f.geometry);
    if (!state || !geometry) continue;
    const [lon, lat] = labelPoint(geometry);
    build.records.push({ code: state.code, name: state.name, countryCode: 'US', fips, lon, lat });
    build.geometries.push(geometry);
  }
  return build;
}

/**
 * US counties from us-atlas, named after GeoNames (`Honolulu County`, `City of Baltimore`) because us-atlas
 * gives bare names that repeat (`Baltimore` is both 24005 and 24510).
 */
export function buildUsCounties(topology: UsAtlasTopology, names: GeonamesAdminNames): PolygonLayerBuild<CountyRecord> {
  const build: PolygonLayerBuild<CountyRecord> = { records: [], geometries: [] };
  for (const f of feature(topology, topology.objects.counties).features) {
    const fips = String(f.id);
    const state = US_STATES[fips.slice(0, 2)];
    const geometry = polygonCoordinates(f.geometry);
    if (!state || !geometry) continue;
    const name =
      names.admin2.get(`US.${state.code}.${fips.slice(2)}`) ?? countyName(f.properties?.name ?? fips, state.code);
    const [lon, lat] = labelPoint(geometry);
    build.records.push({ fips, name, stateCode: state.code, lon, lat });
    build.geometries.push(geometry);
  }
  return build;
}

function countyName(bare: string, stateCode: string): string {
  if (/\b(city|county|borough|parish|area|municipality|municipio)$/i.test(bare)) return bare;
  if (stateCode === 'LA') return `${bare} Parish`;
  if (stateCode === 'PR') return `${bare} Municipio`;
  return `${bare} County`;
}

/** Polygon or MultiPolygon coordinates of a GeoJSON geometry, or null for anything else (or no geometry). */
export function polygonCoordinates(geometry: Geometry | null | undefined): PolygonCoordinates | null {
  if (!geometry) return null;
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    return geometry.coordinates as PolygonCoordinates;
  }
  return null;
}
