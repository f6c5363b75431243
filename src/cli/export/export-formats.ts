import fs from 'node:fs';
import { fileWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { ExportKind } from './export-sources.js';

export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

type ColumnType = 'STRING' | 'DOUBLE' | 'BOOLEAN';
interface Column {
  name: string;
  type: ColumnType;
  /** The value from a record as the API prints it; null when absent. */
  of(r: Record<string, unknown>): string | number | boolean | null;
}

const field =
  (...path: string[]) =>
  (r: Record<string, unknown>): string | number | boolean | null => {
    let v: unknown = r;
    for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
    return v === undefined || v === null || typeof v === 'object' ? null : (v as string | number | boolean);
  };
const coordinate =
  (i: 0 | 1, key = 'location') =>
  (r: Record<string, unknown>) => {
    const c = (r[key] as { coordinates?: number[] } | undefined)?.coordinates?.[i];
    return typeof c === 'number' ? c : null;
  };
const col = (name: string, type: ColumnType, of: Column['of'] = field(name)): Column => ({ name, type, of });
/** The whole record as the API prints it, for what the flat columns leave out. */
const RECORD = col('record', 'STRING', (r) => JSON.stringify(r));

/**
 * The flat columns of CSV and Parquet, per kind: the fields most analyses filter and join on, and
 * `record`, the whole record as JSON (nested parts such as geofences, trips and metadata vary by
 * event type and would otherwise need a column each). NDJSON writes each record as it is.
 */
export const COLUMNS: Record<ExportKind, Column[]> = {
  events: [
    col('_id', 'STRING'),
    col('type', 'STRING'),
    col('createdAt', 'STRING'),
    col('actualCreatedAt', 'STRING'),
    col('live', 'BOOLEAN'),
    col('user_id', 'STRING', field('user', '_id')),
    col('userId', 'STRING', field('user', 'userId')),
    col('deviceId', 'STRING', field('user', 'deviceId')),
    col('latitude', 'DOUBLE', coordinate(1)),
    col('longitude', 'DOUBLE', coordinate(0)),
    col('locationAccuracy', 'DOUBLE'),
    col('confidence', 'DOUBLE'),
    col('geofenceTag', 'STRING', field('geofence', 'tag')),
    col('geofenceExternalId', 'STRING', field('geofence', 'externalId')),
    RECORD,
  ],
  users: [
    col('_id', 'STRING'),
    col('userId', 'STRING'),
    col('deviceId', 'STRING'),
    col('createdAt', 'STRING'),
    col('updatedAt', 'STRING'),
    col('live', 'BOOLEAN'),
    col('latitude', 'DOUBLE', coordinate(1)),
    col('longitude', 'DOUBLE', coordinate(0)),
    col('locationAccuracy', 'DOUBLE'),
    RECORD,
  ],
  trips: [
    col('_id', 'STRING'),
    col('externalId', 'STRING'),
    col('status', 'STRING'),
    col('mode', 'STRING'),
    col('userId', 'STRING'),
    col('createdAt', 'STRING'),
    col('updatedAt', 'STRING'),
    col('destinationGeofenceTag', 'STRING'),
    col('destinationGeofenceExternalId', 'STRING'),
    RECORD,
  ],
  locations: [
    col('tripId', 'STRING'),
    col('tripExternalId', 'STRING'),
    col('userId', 'STRING'),
    col('latitude', 'DOUBLE'),
    col('longitude', 'DOUBLE'),
    col('updatedAt', 'STRING'),
  ],
};

/** Writes pages of records to a file as they come; only the current page is held. */
export interface ExportWriter {
  write(records: Array<Record<string, unknown>>): Promise<void>;
  close(): Promise<void>;
}

export function exportWriter(format: ExportFormat, kind: ExportKind, out: string): ExportWriter {
  if (format === 'parquet') return parquetWriter(COLUMNS[kind], out);
  const stream = fs.createWriteStream(out);
  const put = (text: string) =>
    new Promise<void>((resolve, reject) => {
      // Waits for the file to take the page (backpressure), so pages never pile up in memory.
      stream.write(text, (err) => (err ? reject(err) : resolve()));
    });
  const columns = COLUMNS[kind];
  let header = format === 'csv';
  return {
    async write(records) {
      if (format === 'ndjson') return put(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      let text = '';
      if (header) {
        text = `${columns.map((c) => csvField(c.name)).join(',')}\r\n`;
        header = false;
      }
      for (const r of records) text += `${columns.map((c) => csvField(c.of(r))).join(',')}\r\n`;
      await put(text);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (header) stream.write(`${columns.map((c) => csvField(c.name)).join(',')}\r\n`);
        stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
      }),
  };
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled; null is empty. */
export function csvField(v: string | number | boolean | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * Parquet through hyparquet-writer's `ParquetWriter`, which writes a file a row group at a time: each
 * group is encoded as soon as it is full, and the file writer flushes to disk every megabyte, so
 * memory stays at one row group whatever the file's size. Times are ISO 8601 strings, as the API prints them.
 */
function parquetWriter(columns: Column[], out: string): ExportWriter {
  const writer = fileWriter(out);
  const schema = schemaFromColumnData({
    columnData: columns.map((c) => ({ name: c.name, type: c.type, nullable: true, data: [] })),
  });
  const parquet = new ParquetWriter({ writer, schema });
  // Pages are gathered into row groups of up to ROW_GROUP rows: readers scan few large groups faster
  // than many small ones, and memory stays bounded by one group.
  let group: Array<Record<string, unknown>> = [];
  const flush = async () => {
    if (group.length === 0) return;
    const rows = group;
    group = [];
    await parquet.write({
      columnData: columns.map((c) => ({ name: c.name, type: c.type, nullable: true, data: rows.map((r) => c.of(r)) })),
      rowGroupSize: rows.length,
    });
  };
  return {
    async write(records) {
      group.push(...records);
      if (group.length >= ROW_GROUP) await flush();
    },
    async close() {
      await flush();
      parquet.finish();
    },
  };
}

/** Rows per Parquet row group (at most; the last one is what is left). */
const ROW_GROUP = 10_000;
