import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** The first copy of the WAL-index header (`WalIndexHdr`): its change counter, frame count and salts. */
const HEADER_BYTES = 48;
/** Where in the header its change counter (`iChange`, a u32 in the machine's byte order) sits. */
export const CHANGE_COUNTER_OFFSET = 8;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Tells, for about a microsecond, whether any connection may have committed to the database since the
 * last look: every commit rewrites the WAL-index header at the start of `<database>-shm`, which all
 * connections of all processes share (SQLite maps it; a read of the file sees the same pages). Asking
 * SQLite itself (`PRAGMA data_version`) starts a read transaction, which cost a user search about 15
 * µs, a tenth of it, on every request that must see other processes' writes at once.
 *
 * Readers never write the header, so only commits (and a WAL restart after a checkpoint) move it.
 * Where the file cannot be read (an in-memory database), every look answers that it may have moved.
 */
export class WalIndexWatch {
  private fd: number | null | undefined;
  private readonly seen = Buffer.alloc(HEADER_BYTES);
  private readonly read = Buffer.alloc(HEADER_BYTES);
  private readonly counter = Buffer.alloc(4);
  private primed = false;

  constructor(private readonly databaseFile: string) {}

  /** False only when the header is as at the last look that answered true: nothing committed since. */
  moved(): boolean {
    const fd = this.open();
    if (fd === null) return true;
    let n = 0;
    try {
      n = readSync(fd, this.read, 0, HEADER_BYTES, 0);
    } catch {
      return true;
    }
    if (n < HEADER_BYTES) return true;
    if (this.primed && this.read.equals(this.seen)) return false;
    this.read.copy(this.seen);
    this.primed = true;
    return true;
  }

  /**
   * The header's change counter (SQLite's `iChange`): one more with each commit of any connection of
   * any process, and left as it is by reads, rollbacks, checkpoints and the WAL's restarts after them.
   * Null where the file cannot be read.
   */
  changeCounter(): number | null {
    const fd = this.open();
    if (fd === null) return null;
    try {
      if (readSync(fd, this.counter, 0, 4, CHANGE_COUNTER_OFFSET) < 4) return null;
    } catch {
      return null;
    }
    return LITTLE_ENDIAN ? this.counter.readUInt32LE(0) : this.counter.readUInt32BE(0);
  }

  private open(): number | null {
    if (this.fd === undefined) this.fd = openShm(this.databaseFile);
    return this.fd;
  }

  close(): void {
    if (typeof this.fd === 'number') closeSync(this.fd);
    this.fd = null;
  }
}

function openShm(databaseFile: string): number | null {
  if (databaseFile === '' || databaseFile === ':memory:') return null;
  try {
    return openSync(`${databaseFile}-shm`, 'r');
  } catch {
    return null;
  }
}
