import type { Geofence } from '../../domain/geofences/geofence.js';
import { inferScalar } from '../params/index.js';
import { iso } from '../presenters/wire.js';
import { METADATA_PREFIX } from './csv-rows.js';

/**
 * The columns of an import CSV, as an export writes them (then `metadata.<key>` for every key any
 * fence has). The fields past `enabled` are the rest of a PUT's, so that an export imports back
 * unchanged.
 */
export const CSV_COLUMNS = [
  'tag',
  'externalId',
  'description',
  'type',
  'latitude',
  'longitude',
  'coordinates',
  'radius',
  'enabled',
  'userId',
  'disableAfter',
  'deleteAfter',
  'stopDetection',
  'dwellThreshold',
] as const;

export function csvHeader(metadataKeys: readonly string[]): string {
  return `${[...CSV_COLUMNS, ...metadataKeys.map((k) => METADATA_PREFIX + k)].map(csvCell).join(',')}\n`;
}

/**
 * One fence as a CSV line. A circle is its center and radius; a polygon its rings as JSON; an
 * isochrone the polygon it was drawn as (re-imported, it is a polygon). A metadata string that would
 * read back as a number or boolean is written in quotes (`"12"`), which the import reads as a string.
 */
export function csvLine(g: Geofence, metadataKeys: readonly string[]): string {
  const circle = g.type === 'circle';
  const cells: Array<string | number | boolean | null | undefined> = [
    g.tag,
    g.externalId,
    g.description,
    circle ? 'circle' : 'polygon',
    circle ? g.geometryCenter[1] : null,
    circle ? g.geometryCenter[0] : null,
    circle ? null : JSON.stringify(g.geometry.coordinates),
    circle ? g.geometryRadius : null,
    g.enabled,
    g.userId,
    iso(g.disableAfter),
    iso(g.deleteAfter),
    g.stopDetection,
    g.dwellThreshold,
    ...metadataKeys.map((k) => metadataCell(g.metadata?.[k])),
  ];
  return `${cells.map((c) => csvCell(c === null || c === undefined ? '' : String(c))).join(',')}\n`;
}

function metadataCell(v: string | number | boolean | undefined): string | undefined {
  if (typeof v !== 'string') return v === undefined ? undefined : String(v);
  return inferScalar(v) === v ? v : `"${v}"`;
}

/** RFC 4180: a cell with a comma, quote, line break or edge spaces is quoted, its quotes doubled. */
function csvCell(s: string): string {
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One fence as a GeoJSON Feature: a circle a Point with `radius`, the others their Polygon. */
export function geoJsonFeature(g: Geofence): Record<string, unknown> {
  const circle = g.type === 'circle';
  const properties: Record<string, unknown> = {
    tag: g.tag,
    externalId: g.externalId,
    description: g.description,
    ...(circle ? { radius: g.geometryRadius } : {}),
    enabled: g.enabled,
  };
  if (g.metadata) properties.metadata = g.metadata;
  if (g.userId !== null) properties.userId = g.userId;
  if (g.disableAfter !== null) properties.disableAfter = iso(g.disableAfter);
  if (g.deleteAfter !== null) properties.deleteAfter = iso(g.deleteAfter);
  if (g.stopDetection !== null) properties.stopDetection = g.stopDetection;
  if (g.dwellThreshold !== null) properties.dwellThreshold = g.dwellThreshold;
  return {
    type: 'Feature',
    geometry: circle ? { type: 'Point', coordinates: g.geometryCenter } : g.geometry,
    properties,
  };
}
