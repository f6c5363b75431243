import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Geofence } from '../../domain/geofences/geofence.js';
import type { ImportRowError } from '../../domain/geofences/geofence-import.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { csvHeader, csvLine, geoJsonFeature } from '../geofence-import/export-rows.js';
import { importFormatOf, readImportRows } from '../geofence-import/import-rows.js';
import { HttpError } from '../http-error.js';
import { bool, oneOf, str } from '../params/index.js';

/**
 * Bodies up to this size for the import only (the server's limit stays for every other route):
 * 50,000 rows of circles are ~8 MB of CSV, of 64-position polygons ~140 MB of GeoJSON.
 */
export const IMPORT_BODY_LIMIT_BYTES = 160 * 1024 * 1024;

const IMPORT_TYPES = 'content-type must be text/csv, application/geo+json or application/json for an import.';

/**
 * The body's bytes, untouched. Held in a private field: `defineRoute` walks a body's keys for
 * ill-formed text, and a Buffer's keys are its bytes (each row is checked on its own instead).
 */
class RawBody {
  readonly #bytes: Buffer;
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }
  get bytes(): Buffer {
    return this.#bytes;
  }
}

/**
 * Bulk geofence import (CSV or a GeoJSON FeatureCollection, upserted by tag + externalId, a report of
 * refused rows) and export in the same two formats (docs/geofence-import.md). In a scope of their
 * own: the import reads its body as bytes under a larger limit than the rest of the API.
 */
export function geofenceImportRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Geofences';
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ['text/csv', 'application/geo+json', 'application/json'],
      { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT_BYTES },
      (_req, body, done) => done(null, new RawBody(body as Buffer)),
    );
    scope.addContentTypeParser('*', (_req, _payload, done) =>
      done(new HttpError(415, 'content-type', IMPORT_TYPES), undefined),
    );

    defineRoute(
      scope,
      {
        method: 'POST',
        url: '/v1/geofences/import',
        auth: 'secret',
        tag,
        summary: 'Create or update many geofences from a CSV or a GeoJSON FeatureCollection',
        query: { dryRun: bool().describe('check every row and count, write nothing') },
      },
      async ({ req, query, tenant }) => {
        const format = importFormatOf(req.headers['content-type']);
        if (!format || !(req.body instanceof RawBody)) throw new HttpError(400, 'body', IMPORT_TYPES);
        const { rows, errors } = await readImportRows(req.body.bytes, format);
        const result = await services.geofences.importMany(tenant, rows, { dryRun: query.dryRun === true });
        const all: ImportRowError[] = [...errors, ...result.errors].sort((a, b) => a.row - b.row);
        return { created: result.created, updated: result.updated, errors: all };
      },
    );
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geofences/export',
      auth: 'secret',
      tag,
      summary: "Every geofence of the project's environment, as CSV or a GeoJSON FeatureCollection",
      query: {
        format: oneOf(['csv', 'geojson'] as const, { caseInsensitive: true }).default('csv'),
        tag: str({ maxLength: 256 }),
      },
    },
    ({ query, tenant, reply }) => {
      const pages = () => services.geofences.pages(tenant, { tag: query.tag });
      const name = `geofences.${query.format === 'csv' ? 'csv' : 'geojson'}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      return query.format === 'csv'
        ? new JsonText(Readable.from(csvExport(pages)), 'text/csv; charset=utf-8')
        : new JsonText(Readable.from(geoJsonExport(pages)), 'application/geo+json; charset=utf-8');
    },
  );
}

type Pages = () => AsyncGenerator<Geofence[]>;

/** Two reads: the metadata keys of every fence make the header, then the lines. */
async function* csvExport(pages: Pages): AsyncGenerator<string> {
  const keys = new Set<string>();
  for await (const page of pages()) for (const g of page) for (const k of Object.keys(g.metadata ?? {})) keys.add(k);
  const metadataKeys = [...keys].sort();
  yield csvHeader(metadataKeys);
  for await (const page of pages()) yield page.map((g) => csvLine(g, metadataKeys)).join('');
}

async function* geoJsonExport(pages: Pages): AsyncGenerator<string> {
  yield '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const page of pages()) {
    const text = page.map((g) => JSON.stringify(geoJsonFeature(g))).join(',');
    yield first ? text : `,${text}`;
    first = false;
  }
  yield ']}';
}
