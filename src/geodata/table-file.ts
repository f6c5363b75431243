import { readFile, writeFile } from 'node:fs/promises';
import { StringColumn } from './string-column.js';

/** Typed arrays a table column can be. */
export type NumberColumn = Float64Array | Uint32Array | Uint8Array;

/** A table as stored in the pack: string columns, typed number columns and a small JSON `meta` object. */
export interface Table<M = unknown> {
  strings: Record<string, StringColumn>;
  numbers: Record<string, NumberColumn>;
  meta: M;
}

/** A table to write: string columns as arrays or columns. */
export type TableToWrite = Omit<Table, 'strings'> & { strings: Record<string, readonly string[] | StringColumn> };

interface Header {
  meta: unknown;
  strings: { name: string; count: number; offset: number; bytes: number }[];
  numbers: { name: string; type: 'f64' | 'u32' | 'u8'; offset: number; length: number }[];
}

const MAGIC = 0x54415757; // "WWAT": refuses files that are not tables
const SEP = '\n';

/**
 * Writes a table as `[magic][header length][JSON header][binary columns]`. String columns are stored as one
 * newline-joined UTF-8 run each and number columns as raw little-endian arrays: opening the pack then costs a
 * decode per column and a few views instead of parsing millions of JSON tokens (seconds for the 200,000
 * localities), and each string column stays one string (`StringColumn`).
 */
export async function writeTable(path: string, table: TableToWrite): Promise<void> {
  const header: Header = { meta: table.meta, strings: [], numbers: [] };
  const blobs: Buffer[] = [];
  let offset = 0;
  const append = (bytes: Buffer) => {
    blobs.push(bytes);
    offset += bytes.length;
    const pad = (8 - (offset % 8)) % 8; // keep every array 8-byte aligned for Float64Array views
    if (pad) {
      blobs.push(Buffer.alloc(pad));
      offset += pad;
    }
  };
  for (const [name, values] of Object.entries(table.strings)) {
    const bytes = Buffer.from(Array.from(values, (v) => v.replaceAll(SEP, ' ')).join(SEP), 'utf8');
    header.strings.push({ name, count: values.length, offset, bytes: bytes.length });
    append(bytes);
  }
  for (const [name, values] of Object.entries(table.numbers)) {
    const type = values instanceof Float64Array ? 'f64' : values instanceof Uint32Array ? 'u32' : 'u8';
    header.numbers.push({ name, type, offset, length: values.length });
    append(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headerBytes = json.length + ((8 - ((json.length + 8) % 8)) % 8);
  const prefix = Buffer.alloc(8 + headerBytes, 0x20);
  prefix.writeUInt32LE(MAGIC, 0);
  prefix.writeUInt32LE(headerBytes, 4);
  json.copy(prefix, 8);
  await writeFile(path, Buffer.concat([prefix, ...blobs]));
}

/** Reads a table written by {@link writeTable}; throws when the file is not one. */
export async function readTable<M>(path: string): Promise<Table<M>> {
  const file = await readFile(path);
  const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(new Uint8Array(file).buffer);
  if (bytes.length < 8 || bytes.readUInt32LE(0) !== MAGIC) throw new Error(`${path} is not a Whereabouts table file`);
  const headerBytes = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.toString('utf8', 8, 8 + headerBytes)) as Header;
  const base = bytes.byteOffset + 8 + headerBytes;
  const strings: Record<string, StringColumn> = {};
  for (const s of header.strings) {
    const start = 8 + headerBytes + s.offset;
    // A column of one empty string and an empty column both store zero bytes; the count tells them apart.
    strings[s.name] = StringColumn.split(bytes.toString('utf8', start, start + s.bytes), s.count, SEP);
  }
  const numbers: Record<string, NumberColumn> = {};
  for (const n of header.numbers) {
    const Type = n.type === 'f64' ? Float64Array : n.type === 'u32' ? Uint32Array : Uint8Array;
    numbers[n.name] = new Type(bytes.buffer, base + n.offset, n.length);
  }
  return { strings, numbers, meta: header.meta as M };
}
