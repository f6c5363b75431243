import { existsSync, statSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { osmRegionDirs } from './osm/osm-region.js';
import { type GeodataPack, type OpenPackOptions, openGeodataPack } from './pack.js';
import { packPaths } from './pack-files.js';

/** Where readers get the pack from: the one open now, or null with the reason there is none. */
export interface PackSource {
  current(): GeodataPack | null;
  /** Why `current()` is null (what to run to fix it); meaningless while a pack is open. */
  unavailableReason(): string;
}

/** What the watcher reports, for the server's log. */
export interface PackWatchEvents {
  reloaded(pack: GeodataPack): void;
  failed(err: Error): void;
}

/** How often the pack manifests are checked for an import by another process, ms. */
const POLL_MS = 1000;

/**
 * The geodata pack of a running server, swapped as a whole when an import (another process: the CLI)
 * replaces one of its folders. Imports rename a finished folder into place and write each folder's
 * `manifest.json` last, so a changed manifest means a complete new layer: the watcher polls the three
 * manifests (stat only; works on any file system, including container volumes where inotify does not)
 * and reopens the whole pack. Requests keep using the old pack until the new one is ready; a reload
 * that fails keeps the old one.
 */
export class LivePack implements PackSource {
  private pack: GeodataPack | null = null;
  private reason: string;
  private reloading: Promise<void> | null = null;
  private pending = false;
  private readonly unwatch: Array<() => void> = [];
  /** The manifests' identities when the current pack was opened, so a reload happens once per import. */
  private loadedSignature = '';

  /** `prepare` runs on every newly opened pack before it is served (e.g. the geocoder's tables). */
  constructor(
    readonly dataDir: string,
    private readonly opts: OpenPackOptions & { prepare?: (pack: GeodataPack) => void } = {},
  ) {
    this.reason = missingPackReason(dataDir);
  }

  current(): GeodataPack | null {
    return this.pack;
  }

  unavailableReason(): string {
    return this.reason;
  }

  /**
   * Opens the pack; null (and the reason set) when its world folder has not been built. Throws when the
   * pack cannot be read (an older format, a damaged file, a missing operator IP database), leaving
   * no pack and the error as the reason.
   */
  async load(): Promise<GeodataPack | null> {
    this.loadedSignature = this.signature();
    if (!existsSync(join(packPaths(this.dataDir).world, 'manifest.json'))) {
      this.pack = null;
      this.reason = missingPackReason(this.dataDir);
      return null;
    }
    try {
      const pack = await openGeodataPack(this.dataDir, this.opts);
      this.opts.prepare?.(pack);
      this.pack = pack;
      return pack;
    } catch (err) {
      this.pack = null;
      this.reason = `the geodata pack cannot be read: ${(err as Error).message}`;
      throw err;
    }
  }

  /** Reopens the pack; concurrent calls share one reload and a call during a reload queues one more. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.pending = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      try {
        do {
          this.pending = false;
          const previous = this.pack;
          try {
            // A world folder caught mid-swap (or deleted) reads as missing: keep serving the old pack.
            if (!(await this.load()) && previous) this.pack = previous;
          } catch (err) {
            // A failed reload keeps serving what worked before.
            if (previous) this.pack = previous;
            throw err;
          }
        } while (this.pending);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  /** Starts watching for imports; returns the stop function (also called by `close`). */
  watch(events: PackWatchEvents, intervalMs = POLL_MS): () => void {
    const paths = packPaths(this.dataDir);
    // The osm folder itself too: its mtime changes when an import renames a region folder in or out.
    const manifests = [paths.world, paths.dma, paths.postal].map((dir) => join(dir, 'manifest.json'));
    manifests.push(paths.osm);
    const onChange = (now: { mtimeMs: number; ino: number }, before: { mtimeMs: number; ino: number }) => {
      if (now.mtimeMs === before.mtimeMs && now.ino === before.ino) return;
      // Already loaded (e.g. `serve` reloaded right after building the pack itself).
      if (this.signature() === this.loadedSignature) return;
      this.reload().then(
        () => {
          if (this.pack) events.reloaded(this.pack);
        },
        (err: unknown) => events.failed(err as Error),
      );
    };
    for (const m of manifests) {
      watchFile(m, { interval: intervalMs, persistent: false }, onChange);
      // With the listener: other servers in this process may watch the same files.
      this.unwatch.push(() => unwatchFile(m, onChange));
    }
    return () => this.close();
  }

  close(): void {
    for (const stop of this.unwatch.splice(0)) stop();
  }

  private signature(): string {
    const { world, dma, postal } = packPaths(this.dataDir);
    return [world, dma, postal, ...osmRegionDirs(this.dataDir)]
      .map((dir) => {
        const st = statSync(join(dir, 'manifest.json'), { throwIfNoEntry: false });
        return st ? `${st.ino}:${st.mtimeMs}` : '-';
      })
      .join('|');
  }
}

function missingPackReason(dataDir: string): string {
  return `no geodata pack in ${packPaths(dataDir).root}: run \`npm run cli -- import world\` (or start the server with \`npm start\`, which builds it)`;
}
