import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DASHBOARD_OUTPUT } from '../../dashboard/build.js';
import { errorBody } from '../plugins/errors.js';

const TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/**
 * The dashboard (`/dashboard`): a page, a script and a stylesheet built from src/dashboard/app by
 * `npm ci` (prepare) or by `serve` when missing or stale. No key is needed for the files: the page
 * asks for a secret key and calls the public API with it, so it can do nothing the key could not.
 */
export function dashboardRoutes(app: FastifyInstance, outDir = DASHBOARD_OUTPUT): void {
  const send = async (reply: FastifyReply, file: string) => {
    let body: Buffer;
    try {
      body = await readFile(join(outDir, file));
    } catch {
      return reply
        .code(503)
        .send(errorBody(503, undefined, 'The dashboard is not built: run `npm run build:dashboard` (npm ci does).'));
    }
    // Revalidated on every load, so a rebuilt dashboard is picked up at once.
    return reply.type(TYPES[file]!).header('cache-control', 'no-cache').send(body);
  };
  const hide = { schema: { hide: true } };
  app.get('/dashboard', hide, (_req, reply) => send(reply, 'index.html'));
  app.get<{ Params: { file: string } }>('/dashboard/:file', hide, (req, reply) =>
    TYPES[req.params.file] === undefined
      ? reply.code(404).send(errorBody(404, undefined, `The dashboard has no file ${req.params.file}.`))
      : send(reply, req.params.file),
  );
}
