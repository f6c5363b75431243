import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * BENCH_WAL_FRAMES=1: which tables and indexes a saturated SQLite row's commits wrote, as shares of the
 * WAL frames (one frame is one page written at a commit, the unit commits and checkpoints pay for). A read transaction held from the row's start keeps the WAL from being restarted, so every
 * frame the row appends is still in the file at its end; the frames' page numbers are then named
 * through `dbstat`. The row runs meanwhile without RESTARTs and with a growing WAL, so its own req/s
 * and µs are not comparable with a normal run's.
 */
export class WalFrameWatch {
  private constructor(
    private readonly file: string,
    private readonly reader: Database.Database,
    private readonly firstFrame: number,
  ) {}

  /** Holds a snapshot of `<dataDir>/whereabouts.db`, or null (and says why) when there is no such file. */
  static start(dataDir: string): WalFrameWatch | null {
    const file = path.join(dataDir, 'whereabouts.db');
    if (!existsSync(file)) {
      process.stderr.write(`BENCH_WAL_FRAMES: no SQLite file at ${file} (PostgreSQL run?), nothing counted\n`);
      return null;
    }
    const reader = new Database(file, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM schema_migrations').get();
    // Frames there now were written before the snapshot (or just after it): the row's start from here.
    return new WalFrameWatch(file, reader, walFrames(`${file}-wal`).pages.length);
  }

  /** Ends the hold and returns the row's frames by table or index, largest first. */
  report(requests: number): string {
    this.reader.prepare('COMMIT').run();
    this.reader.close();
    const { pages, commits } = walFrames(`${this.file}-wal`, this.firstFrame);
    const db = new Database(this.file, { readonly: true });
    const names = new Map<number, string>();
    try {
      for (const r of db.prepare('SELECT name, pageno, pagetype FROM dbstat').iterate() as Iterable<{
        name: string;
        pageno: number;
        pagetype: string;
      }>)
        names.set(r.pageno, r.pagetype === 'leaf' ? r.name : `${r.name} (${r.pagetype})`);
    } finally {
      db.close();
    }
    const counts = new Map<string, number>();
    for (const p of pages) {
      const name = names.get(p) ?? '(free or past the end)';
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const perRequest = requests > 0 ? (pages.length / requests).toFixed(1) : '–';
    const lines = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([name, n]) => `  ${((100 * n) / pages.length).toFixed(1).padStart(5)}%  ${name}`);
    return [`WAL frames: ${pages.length} in ${commits} commits, ${perRequest} a request:`, ...lines].join('\n');
  }
}

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * The page number of each frame of the WAL's current generation from frame `from` on (frames whose salts
 * match the header's; the first that does not ends it), and how many of them end a commit.
 */
function walFrames(walFile: string, from = 0): { pages: number[]; commits: number } {
  const pages: number[] = [];
  let commits = 0;
  if (!existsSync(walFile)) return { pages, commits };
  const fd = openSync(walFile, 'r');
  try {
    const header = Buffer.alloc(WAL_HEADER_BYTES);
    if (readSync(fd, header, 0, WAL_HEADER_BYTES, 0) < WAL_HEADER_BYTES) return { pages, commits };
    const pageSize = header.readUInt32BE(8);
    const [salt1, salt2] = [header.readUInt32BE(16), header.readUInt32BE(20)];
    const frame = Buffer.alloc(FRAME_HEADER_BYTES);
    for (let i = 0; ; i++) {
      const at = WAL_HEADER_BYTES + i * (FRAME_HEADER_BYTES + pageSize);
      if (readSync(fd, frame, 0, FRAME_HEADER_BYTES, at) < FRAME_HEADER_BYTES) break;
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      if (i < from) continue;
      pages.push(frame.readUInt32BE(0));
      if (frame.readUInt32BE(4) !== 0) commits++;
    }
  } finally {
    closeSync(fd);
  }
  return { pages, commits };
}
