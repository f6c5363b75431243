/**
 * Independent check of the car graph against pgRouting on the same extract (issue 7): the shortest car
 * distance by length between random pairs of pgRouting vertices, oneways respected on both sides, should
 * agree within 2% for at least 95% of pairs. Not part of `npm test`.
 *
 * Needs Debian's `postgresql-15-pgrouting osm2pgrouting osmium-tool` and a PostgreSQL to load into:
 *
 *   apt-get install postgresql-15-pgrouting osm2pgrouting osmium-tool
 *   createdb -U postgres routing_check
 *   ROUTING_CHECK_DB=postgres://postgres@localhost/routing_check \
 *     node --import tsx bench/routing-check.ts [file.osm.pbf] [pairs]
 *
 * Defaults: the Oʻahu fixture from GEODATA_FIXTURES and 200 pairs. The first run converts the PBF to
 * XML (osmium) and loads it with osm2pgrouting's car configuration into that database (never a test
 * database); later runs reuse the `ways` table.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readOsmFile } from '../src/geodata/osm/osm-file.js';
import { fixturesDir } from '../src/geodata/test-pack.js';
import { CAR_SPEEDS, wayUse } from '../src/routing/graph/profiles.js';
import { buildRoadGraphs, openRoadGraphs } from '../src/routing/graph/road-graphs.js';

const CAR_CONFIG = '/usr/share/osm2pgrouting/mapconfig_for_cars.xml';
const CAR_CLASSES = new Set(Object.keys(CAR_SPEEDS));

async function main(): Promise<void> {
  const pbf = process.argv[2] ?? path.join(fixturesDir().dir, 'osm', 'honolulu-oahu-hi-2018.osm.pbf');
  const pairs = Number(process.argv[3] ?? 200);
  const url = process.env.ROUTING_CHECK_DB;
  if (!url) throw new Error('set ROUTING_CHECK_DB to a database for pgRouting (not a test database)');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const work = mkdtempSync(path.join(tmpdir(), 'routing-check-'));
  try {
    await db.query(
      'CREATE EXTENSION IF NOT EXISTS postgis; CREATE EXTENSION IF NOT EXISTS pgrouting; CREATE EXTENSION IF NOT EXISTS hstore',
    );
    const loaded = await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'ways'");
    if (loaded.rowCount === 0) {
      const xml = path.join(work, 'extract.osm');
      execFileSync('osmium', ['cat', pbf, '-o', xml, '--overwrite'], { stdio: 'inherit' });
      const u = new URL(url);
      execFileSync(
        'osm2pgrouting',
        [
          '--f',
          xml,
          '--conf',
          existsSync(CAR_CONFIG) ? CAR_CONFIG : '/usr/share/osm2pgrouting/mapconfig.xml',
          '--dbname',
          u.pathname.slice(1),
          '--username',
          decodeURIComponent(u.username || 'postgres'),
          '--host',
          u.hostname || 'localhost',
          '--port',
          u.port || '5432',
          '--clean',
          ...(u.password ? ['--password', decodeURIComponent(u.password)] : []),
        ],
        { stdio: 'inherit' },
      );
    }

    const started = Date.now();
    const osm = await readOsmFile(pbf);
    await buildRoadGraphs(osm, work, () => {});
    const graphs = await openRoadGraphs(work);
    const car = graphs?.graph('car');
    if (!car) throw new Error('no car graph built');
    process.stderr.write(`built our graphs in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    // Access is our decision, not a graph fact (osm2pgrouting keeps private and military roads): drop
    // the ways our car profile refuses from pgRouting's side too, so the check compares topology,
    // oneways and lengths.
    const refused = osm.ways
      .filter((w) => w.tags.highway !== undefined && CAR_CLASSES.has(w.tags.highway) && !wayUse(w.tags, 'car'))
      .map((w) => w.id);
    await db.query(
      'DROP TABLE IF EXISTS routing_check_refused; CREATE TABLE routing_check_refused (osm_id bigint PRIMARY KEY)',
    );
    await db.query('INSERT INTO routing_check_refused SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING', [refused]);
    const usable = 'FROM ways w WHERE NOT EXISTS (SELECT 1 FROM routing_check_refused r WHERE r.osm_id = w.osm_id)';
    process.stderr.write(`${refused.length} ways refused by our car access rules are left out on both sides\n`);

    // Vertices of the largest connected piece on pgRouting's side, so both routers have an answer.
    const edges = `SELECT gid AS id, source, target,
        CASE WHEN cost > 0 THEN length_m ELSE -1 END AS cost,
        CASE WHEN reverse_cost > 0 THEN length_m ELSE -1 END AS reverse_cost ${usable}`;
    const comp = await db.query(
      `WITH c AS (SELECT * FROM pgr_connectedComponents('SELECT gid AS id, source, target, length_m AS cost, length_m AS reverse_cost ${usable}')),
            big AS (SELECT component FROM c GROUP BY component ORDER BY count(*) DESC LIMIT 1)
       SELECT v.id, ST_X(v.the_geom) AS lon, ST_Y(v.the_geom) AS lat
       FROM ways_vertices_pgr v JOIN c ON c.node = v.id JOIN big USING (component)`,
    );
    const vertices = comp.rows as Array<{ id: string; lon: number; lat: number }>;
    let seed = 7;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    let agree = 0;
    let compared = 0;
    const misses: string[] = [];
    while (compared < pairs) {
      const a = vertices[Math.floor(rnd() * vertices.length)]!;
      const b = vertices[Math.floor(rnd() * vertices.length)]!;
      if (a.id === b.id) continue;
      const res = await db.query('SELECT sum(cost) AS m FROM pgr_dijkstra($1, $2::bigint, $3::bigint, true)', [
        edges,
        a.id,
        b.id,
      ]);
      const theirs = res.rows[0]?.m === null || res.rows[0]?.m === undefined ? null : Number(res.rows[0].m);
      if (theirs === null) continue; // oneways make b unreachable from a on their side: not a pair
      const sa = car.snap([a.lon, a.lat], 20);
      const sb = car.snap([b.lon, b.lat], 20);
      const ours = sa && sb ? car.shortestMeters(sa, sb) + sa.offMeters + sb.offMeters : Number.POSITIVE_INFINITY;
      compared++;
      const ok = Math.abs(ours - theirs) <= 0.02 * Math.max(theirs, 1);
      if (ok) agree++;
      else
        misses.push(
          `${a.lat},${a.lon} -> ${b.lat},${b.lon}: ours ${ours.toFixed(0)} m, pgRouting ${theirs.toFixed(0)} m`,
        );
    }
    process.stdout.write(`${agree}/${compared} pairs agree within 2% (${((100 * agree) / compared).toFixed(1)}%)\n`);
    for (const m of misses.slice(0, 20)) process.stdout.write(`  ${m}\n`);
  } finally {
    await db.end();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exitCode = 1;
});
