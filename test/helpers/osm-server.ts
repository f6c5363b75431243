import { after, before } from 'node:test';
import type { Clock } from '../../src/domain/clock.js';
import { type OsmTestPack, withOsmRegion } from './osm.js';
import { startServer, type TestServer } from './server.js';

/** A suite's server on imported OSM regions; `s` and `pack` are set once its `before` hook has run. */
export interface OsmServerSuite {
  readonly s: TestServer;
  readonly pack: OsmTestPack;
  /** Why the suite's tests skip (the OSM fixtures are absent), or undefined. */
  readonly skip: string | undefined;
  /** Skips `t` when the fixtures are absent; true when it did. */
  skipped(t: { skip(message: string): void }): boolean;
}

/**
 * Registers the current suite's `before` and `after` hooks: the named `.osm.pbf` fixtures imported into a
 * private pack (see {@link withOsmRegion}) and a server on it, both removed after. Every OSM-backed test
 * file needs exactly this, and each test must skip (not fail) on a machine without the fixtures.
 */
export function osmServerSuite(names: string[], opts: { clock?: Clock } = {}): OsmServerSuite {
  let made: OsmTestPack | { skip: string } | undefined;
  let server: TestServer | undefined;
  before(async () => {
    made = await withOsmRegion(...names);
    if ('skip' in made) return;
    server = await startServer({ ...opts, env: { GEODATA_DIR: made.dataDir } });
  });
  after(async () => {
    await server?.close();
    if (made && !('skip' in made)) await made.remove();
  });
  const suite: OsmServerSuite = {
    get s() {
      return server as TestServer;
    },
    get pack() {
      return made as OsmTestPack;
    },
    get skip() {
      return made && 'skip' in made ? made.skip : undefined;
    },
    skipped(t) {
      const why = suite.skip;
      if (why) t.skip(why);
      return why !== undefined;
    },
  };
  return suite;
}
