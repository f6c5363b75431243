import http from 'node:http';
import Fastify from 'fastify';

/**
 * The floor under a row: a server that does only what every answer to it must do (read the request,
 * parse its JSON body, send a stored answer of the real answer's bytes) and nothing the product adds.
 * Run in its own process by `measureFloor` (bench/lib/floor.ts); prints its port on stdout.
 * argv: `node` (node:http alone) or `fastify` (the framework the server is built on, no plugins);
 * FLOOR_ANSWER: the answer's text.
 */
const mode = process.argv[2];
const answer = process.env.FLOOR_ANSWER ?? '{"meta":{"code":200}}';
const contentType = 'application/json; charset=utf-8';

function parseBody(text: string): void {
  // The parse is part of the floor: every server must read the body it is sent.
  if (text) JSON.parse(text);
}

if (mode === 'node') {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      parseBody(body);
      res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
} else if (mode === 'fastify') {
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    parseBody(body as string);
    done(null, null);
  });
  app.all('*', async (_req, reply) => reply.type(contentType).send(answer));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${new URL(address).port}\n`);
} else {
  throw new Error('floor-server: mode must be node or fastify');
}
