import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { invalidParam } from '../../domain/errors.js';
import { MAX_IMPORT_ROWS } from '../../domain/geofences/geofence-import.js';
import { HttpError } from '../http-error.js';
import { inferScalar, toNumber } from '../params/index.js';
import { noRows, type RawRow, READ_CHUNK_BYTES, tooManyRows } from './raw-row.js';

/** Columns named `metadata.<key>` fill the row's metadata dictionary. */
export const METADATA_PREFIX = 'metadata.';

/**
 * The data rows of a CSV with a header row, each as a dictionary of its non-empty cells
 * (`metadata.<key>` cells gathered under `metadata`). Fed to csv-parse a chunk per turn of the event
 * loop: parsing 8 MB in one piece held it for a tenth of a second. A row with fewer or more cells than
 * the header is read as far as it goes (its missing fields are then reported by name).
 */
export async function readCsvRows(body: Buffer, maxRows = MAX_IMPORT_ROWS): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  let failure: Error | undefined;
  const parser = parse({ bom: true, columns: true, relax_column_count: true, skip_empty_lines: true, trim: true });
  parser.on('data', (record: Record<string, string>) => {
    if (rows.length >= maxRows) {
      failure ??= tooManyRows(maxRows);
      return;
    }
    rows.push({ row: rows.length + 1, read: () => csvFields(record) });
  });
  const ended = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (err: Error) => {
      failure ??= new HttpError(400, 'body', `body must be CSV with a header row: ${err.message}`);
      resolve();
    });
  });
  for (let at = 0; at < body.length && !failure; at += READ_CHUNK_BYTES) {
    parser.write(body.subarray(at, at + READ_CHUNK_BYTES));
    await nextTurn();
  }
  parser.end();
  await ended;
  if (failure) throw failure;
  if (rows.length === 0) throw noRows();
  return rows;
}

/**
 * A row's fields as a PUT names them: a circle's center from `latitude` and `longitude` (a polygon's
 * ring is the JSON in `coordinates`).
 */
function csvFields(record: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  let metadata: Record<string, string | number | boolean> | undefined;
  for (const [column, value] of Object.entries(record)) {
    if (value === undefined || value === '') continue;
    if (column.startsWith(METADATA_PREFIX)) {
      // Typed as a form's metadata is: `12` a number, `true` a boolean, `"12"` (quoted) a string.
      metadata ??= {};
      metadata[column.slice(METADATA_PREFIX.length)] = inferScalar(value);
    } else fields[column] = value;
  }
  if (metadata) fields.metadata = metadata;
  const { latitude, longitude, ...rest } = fields;
  if ((latitude === undefined && longitude === undefined) || rest.coordinates !== undefined) return rest;
  return { ...rest, coordinates: [coordinate(longitude, 'longitude', 180), coordinate(latitude, 'latitude', 90)] };
}

function coordinate(value: unknown, name: string, limit: number): number {
  const n = typeof value === 'string' ? toNumber(value) : null;
  if (n === null || n < -limit || n > limit)
    throw invalidParam(name, `must be a number between -${limit} and ${limit}.`);
  return n;
}
