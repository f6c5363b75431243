import {
  type ImportRow,
  type ImportRowError,
  MAX_IMPORT_ROWS,
  rowError,
  timeSlicer,
} from '../../domain/geofences/geofence-import.js';
import { pathSegment } from '../params/common.js';
import { geofenceUpsertBody } from '../params/geofence-body.js';
import { paramsParser } from '../params/index.js';
import { rejectIllFormedText } from '../params/well-formed-text.js';
import { readCsvRows } from './csv-rows.js';
import { readGeoJsonRows } from './geojson-rows.js';
import type { RawRow } from './raw-row.js';

export type ImportFormat = 'csv' | 'geojson';

/** A row is a PUT of `/v1/geofences/:tag/:externalId` with the rest of its fields as the body. */
const parseKey = paramsParser({ tag: pathSegment(), externalId: pathSegment() });
const parseBody = paramsParser(geofenceUpsertBody);

/**
 * An import file's rows, each read and checked by the rules of a geofence PUT (the same parameter
 * parsers): the rows that pass, and an error for each that does not. A body that is not a CSV or a
 * FeatureCollection at all, or holds too many rows, throws (a 400 or 413 for the whole request).
 */
export async function readImportRows(
  body: Buffer,
  format: ImportFormat,
  /** The CLI takes files of any length; the API MAX_IMPORT_ROWS a request. */
  maxRows = MAX_IMPORT_ROWS,
): Promise<{ rows: ImportRow[]; errors: ImportRowError[] }> {
  const raw = format === 'csv' ? await readCsvRows(body, maxRows) : await readGeoJsonRows(body, maxRows);
  return checkRows(raw);
}

async function checkRows(raw: RawRow[]): Promise<{ rows: ImportRow[]; errors: ImportRowError[] }> {
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  const tick = timeSlicer();
  for (const r of raw) {
    try {
      const fields = r.read();
      rejectIllFormedText(fields);
      const { tag, externalId } = parseKey(fields);
      rows.push({ row: r.row, tag, externalId, input: parseBody(fields) });
    } catch (err) {
      errors.push(rowError(r.row, err));
    }
    await tick();
  }
  return { rows, errors };
}

/** Which reader a request's content type names, or undefined for any other. */
export function importFormatOf(contentType: string | undefined): ImportFormat | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/geo+json' || type === 'application/json') return 'geojson';
  return undefined;
}
