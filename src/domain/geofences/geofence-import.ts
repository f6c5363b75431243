import { setImmediate as nextTurn } from 'node:timers/promises';
import { DomainError } from '../errors.js';
import type { GeofenceInput } from './geofence-input.js';

/** Most rows one import takes (a CSV's data rows or a FeatureCollection's features). */
export const MAX_IMPORT_ROWS = 50_000;

/** One row of an import, read and checked as a PUT body would be; `row` is 1-based. */
export interface ImportRow {
  row: number;
  tag: string;
  externalId: string;
  input: GeofenceInput;
}

/** A row refused, and why: the parameter and the message a PUT of it would have answered. */
export interface ImportRowError {
  row: number;
  param: string;
  message: string;
}

export interface ImportResult {
  created: number;
  updated: number;
  errors: ImportRowError[];
}

export interface ImportOptions {
  /** Checks every row and counts what would be created and updated; writes nothing. */
  dryRun?: boolean;
  /** Called after each batch with the rows done so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Fences written per transaction: on SQLite a batch of 64 took 15-30 ms of CPU (each fence an upsert
 * of a ~2 KB document, then its index update); 250 took ~100 ms, every other request waiting.
 */
export const IMPORT_BATCH = 64;
/** Shapes built per turn of the event loop at most (a large polygon's checks take milliseconds). */
export const IMPORT_SLICE_MS = 15;

/** The row error of a domain refusal; anything else is not the row's fault and is thrown. */
export function rowError(row: number, err: unknown): ImportRowError {
  if (err instanceof DomainError && err.kind === 'invalid') {
    return { row, param: err.param ?? 'row', message: err.message };
  }
  throw err;
}

/** Yields between slices of synchronous work: `tick()` after each item, awaiting when the slice is spent. */
export function timeSlicer(sliceMs = IMPORT_SLICE_MS) {
  let start = performance.now();
  return async (): Promise<void> => {
    if (performance.now() - start < sliceMs) return;
    await nextTurn();
    start = performance.now();
  };
}
