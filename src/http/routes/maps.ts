import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keyFromAuthorization } from '../../domain/projects/keys.js';
import { findInstalledPackage } from '../../geodata/package-dir.js';
import { markerSvg } from '../../maps/markers.js';
import { PackMapTiles } from '../../maps/pack-map-tiles.js';
import { styleSprite } from '../../maps/sprite.js';
import { mapStyle } from '../../maps/styles.js';
import { parseTileCoord } from '../../maps/tile-grid.js';
import type { AppDeps } from '../context.js';
import { HttpError } from '../http-error.js';

const GLYPHS_DIR = fileURLToPath(new URL('../../maps/glyphs/', import.meta.url));
const DEFAULT_FONT = 'DejaVu Sans Book';
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

/**
 * The self-hosted map: vector tiles (`/maps/tiles`), MapLibre styles under Radar's names
 * (`/maps/styles`, what radar-sdk-js's maps plugin asks for), their glyphs, sprites and marker images,
 * and MapLibre GL JS itself (`/maps/lib`) so pages load nothing from a CDN. Tiles and styles take the
 * publishable key as the `Authorization` header (the SDK) or `?key=` (a plain MapLibre page, which
 * cannot set headers on tile requests); the other files are public.
 */
export async function mapRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const tiles = new PackMapTiles(deps.geodata);
  app.addHook('onClose', async () => tiles.close());
  await app.register(async (scope) => {
    // Before the key check (a route's own hook): a key in the query string stands for the header.
    scope.addHook('onRequest', (req, _reply, done) => {
      const key = (req.query as Record<string, unknown>).key;
      if (typeof key === 'string' && key !== '' && !req.headers.authorization) req.headers.authorization = key;
      done();
    });
    keyedRoutes(scope, tiles);
  });
  publicRoutes(app);
}

function keyedRoutes(app: FastifyInstance, tiles: PackMapTiles): void {
  app.get<{ Params: { z: string; x: string; y: string } }>(
    '/maps/tiles/:z/:x/:y.pbf',
    {
      // A map asks dozens of tiles at once: the per-key limit (10 a second by default) would refuse most.
      config: { auth: 'publishable', perKeyLimit: false },
      schema: {
        tags: ['Maps'],
        summary: 'A vector tile (Mapbox Vector Tile) of the world pack and imported OSM regions',
      },
    },
    async (req, reply) => {
      const c = parseTileCoord(req.params.z, req.params.x, req.params.y);
      if ('param' in c) throw new HttpError(400, c.param, c.message);
      const set = tiles.current();
      if (!set) throw new HttpError(503, undefined, `Geodata is unavailable: ${tiles.unavailableReason()}.`);
      const t = set.cached(c) ?? (await set.tile(c));
      reply.header('cache-control', 'public, max-age=3600');
      reply.header('etag', t.etag);
      if (req.headers['if-none-match'] === t.etag) return reply.code(304).send();
      if (!t.data) return reply.code(204).send();
      return reply.type('application/vnd.mapbox-vector-tile').send(t.data);
    },
  );

  app.get<{ Params: { name: string }; Querystring: { language?: string } }>(
    '/maps/styles/:name',
    {
      config: { auth: 'publishable' },
      schema: { tags: ['Maps'], summary: 'A MapLibre style: radar-default-v1, radar-light-v1 or radar-dark-v1' },
    },
    async (req, reply) => {
      const style = mapStyle(req.params.name, {
        origin: originOf(req),
        key: keyFromAuthorization(req.headers.authorization),
        attribution: tiles.attribution(),
      });
      if (!style) {
        throw new HttpError(
          404,
          'style',
          `style ${JSON.stringify(req.params.name)} is not served here: use radar-default-v1, radar-light-v1 or radar-dark-v1.`,
        );
      }
      // The tiles come next: their world layers start loading on their thread now.
      tiles.current()?.warm();
      // The style carries the key on its tile URLs: kept by the browser only.
      reply.header('cache-control', 'private, max-age=300');
      return style;
    },
  );
}

function publicRoutes(app: FastifyInstance): void {
  const hidden = { schema: { hide: true } };
  app.get<{ Params: { fontstack: string; range: string } }>(
    '/maps/fonts/:fontstack/:range.pbf',
    hidden,
    async (req, reply) => {
      const m = /^(\d{1,5})-(\d{1,5})$/.exec(req.params.range);
      if (!m || Number(m[1]) % 256 !== 0 || Number(m[2]) !== Number(m[1]) + 255 || Number(m[1]) > 65280) {
        throw new HttpError(
          400,
          'range',
          'range must be a glyph range such as 0-255 (256 code points from a multiple of 256).',
        );
      }
      const stack = req.params.fontstack.split(',').map((s) => s.trim());
      const font = stack.find((f) => /^[\w ]+$/.test(f) && existsSync(join(GLYPHS_DIR, f))) ?? DEFAULT_FONT;
      const path = join(GLYPHS_DIR, font, `${req.params.range}.pbf`);
      reply.header('cache-control', 'public, max-age=86400');
      reply.type('application/x-protobuf');
      // A range the server has no glyphs for is an empty glyph set, not an error.
      return existsSync(path) ? reply.send(await readFile(path)) : reply.send(Buffer.alloc(0));
    },
  );

  app.get<{ Params: { file: string } }>('/maps/sprites/:file', hidden, async (req, reply) => {
    const m = /^([\w-]+?)(@2x)?\.(json|png)$/.exec(req.params.file);
    const sprite = m ? styleSprite(m[1]!, m[2] ? 2 : 1) : null;
    if (!m || !sprite)
      throw new HttpError(404, 'sprite', `sprite ${JSON.stringify(req.params.file)} is not served here.`);
    reply.header('cache-control', 'public, max-age=86400');
    return m[3] === 'json' ? sprite.index : reply.type('image/png').send(sprite.png);
  });

  app.get<{ Params: { name: string } }>(
    '/maps/markers/:name',
    { schema: { tags: ['Maps'], summary: 'A marker image, as radar-sdk-js asks for it' } },
    async (req, reply) => {
      const svg = markerSvg(req.params.name.replace(/\.svg$/, ''));
      if (!svg) throw new HttpError(404, 'marker', `marker ${JSON.stringify(req.params.name)} is not served here.`);
      reply.header('cache-control', 'public, max-age=86400');
      return reply.type('image/svg+xml').send(svg);
    },
  );

  // MapLibre GL JS from the installed package, so a page needs nothing from a CDN.
  // The package's dist/ has a package.json of its own, which the search may stop at.
  const pkg = findInstalledPackage('maplibre-gl');
  const libDir = pkg
    ? ([join(pkg.dir, 'dist'), pkg.dir].find((d) => existsSync(join(d, 'maplibre-gl.js'))) ?? null)
    : null;
  const files = new Set(
    libDir && existsSync(libDir) ? readdirSync(libDir).filter((f) => CONTENT_TYPES[extname(f)]) : [],
  );
  app.get<{ Params: { file: string } }>('/maps/lib/:file', hidden, async (req, reply) => {
    if (!libDir || !files.has(req.params.file)) {
      throw new HttpError(404, 'file', `file ${JSON.stringify(req.params.file)} is not part of MapLibre GL JS.`);
    }
    reply.header('cache-control', 'public, max-age=86400');
    return reply.type(CONTENT_TYPES[extname(req.params.file)]!).send(await readFile(join(libDir, req.params.file)));
  });
}

/** The server's address as the client reached it (behind a proxy when TRUST_PROXY is set). */
function originOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}
