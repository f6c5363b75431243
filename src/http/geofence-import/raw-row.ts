import { MAX_IMPORT_ROWS } from '../../domain/geofences/geofence-import.js';
import { HttpError } from '../http-error.js';

/**
 * One record of an import file as read, before its fields are checked; `row` is 1-based. `fields`
 * are named as a PUT body names them; `read` makes them, and throws a `DomainError` for a record
 * that cannot be one (reported as that row's error).
 */
export interface RawRow {
  row: number;
  read: () => Record<string, unknown>;
}

/** Bytes handed to a parser per turn of the event loop. */
export const READ_CHUNK_BYTES = 256 * 1024;

export function tooManyRows(max = MAX_IMPORT_ROWS): HttpError {
  return new HttpError(413, 'body', `body must hold at most ${max} rows.`);
}

export function noRows(): HttpError {
  return new HttpError(400, 'body', 'body must hold at least one geofence.');
}
