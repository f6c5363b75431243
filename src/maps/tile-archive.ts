import Database from 'better-sqlite3';
import type { TileCoord } from './tile-grid.js';

/**
 * A tile archive in the MBTiles 1.3 layout (SQLite: `metadata` and `tiles`, rows in the TMS scheme,
 * y counted from the south), readable by any MBTiles tool. Tiles are stored as plain (not gzipped)
 * vector-tile bytes, because the server joins a region's tile to the world layers by concatenation.
 */
export function writeTileArchive(
  path: string,
  metadata: Record<string, string>,
  tiles: Iterable<[TileCoord, Uint8Array]>,
): number {
  const db = new Database(path);
  let count = 0;
  try {
    db.pragma('journal_mode = OFF');
    db.exec(`CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);`);
    const meta = db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
    const put = db.prepare('INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    db.transaction(() => {
      for (const [k, v] of Object.entries(metadata)) meta.run(k, v);
      for (const [{ z, x, y }, data] of tiles) {
        put.run(z, x, 2 ** z - 1 - y, data);
        count++;
      }
    })();
  } finally {
    db.close();
  }
  return count;
}

/** An archive opened read-only; `tile` answers in microseconds (an indexed row). */
export class TileArchive {
  private readonly db: Database.Database;
  private readonly get: Database.Statement<[number, number, number], { tile_data: Buffer }>;

  constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    this.get = this.db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
  }

  tile({ z, x, y }: TileCoord): Buffer | undefined {
    return this.get.get(z, x, 2 ** z - 1 - y)?.tile_data;
  }

  close(): void {
    this.db.close();
  }
}
