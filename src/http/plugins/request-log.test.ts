import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Fastify, { LogController } from 'fastify';
import { registerRequestLog, requestIdGenerator, requestLoggerFactory } from './request-log.js';

/** A Fastify app as app.ts builds it (request ids, request loggers), its log lines kept. */
function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    genReqId: requestIdGenerator(),
    childLoggerFactory: requestLoggerFactory,
    logController: new LogController({ disableRequestLogging: true }),
  });
  registerRequestLog(app);
  app.get('/', (req) => {
    req.log.warn({ extra: 1 }, 'handler warns');
    req.log.debug('handler debugs');
    return { id: req.id };
  });
  return { app, lines };
}

describe('request ids', () => {
  it('are unique, UUID-shaped, and differ between processes (generators)', () => {
    const next = requestIdGenerator();
    const ids = Array.from({ length: 1000 }, next);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(requestIdGenerator()(), requestIdGenerator()());
  });
});

describe('request logger', () => {
  it("binds the request id to every line at info level, one line per request besides the handler's", async () => {
    const { app, lines } = appLogging('info');
    const res = await app.inject({ method: 'GET', url: '/' });
    const { id } = res.json() as { id: string };
    const mine = lines.filter((l) => l.reqId === id);
    assert.deepEqual(
      mine.map((l) => l.msg),
      ['handler warns', 'request completed'],
    );
    assert.equal(mine[0]!.extra, 1);
    const done = mine[1]!;
    assert.deepEqual([done.method, done.url, done.statusCode, done.level], ['GET', '/', 200, 30]);
    assert.equal(typeof done.responseTime, 'number');
    await app.close();
  });

  it('writes only enabled levels, still with the request id', async () => {
    const { app, lines } = appLogging('warn');
    const res = await app.inject({ method: 'GET', url: '/' });
    const { id } = res.json() as { id: string };
    assert.deepEqual(
      lines.map((l) => [l.msg, l.reqId, l.level]),
      [['handler warns', id, 40]],
    );
    await app.close();
  });

  it('makes children that keep the request id', async () => {
    const { app, lines } = appLogging('info');
    app.get('/child', (req) => {
      req.log.child({ part: 'x' }).info('from a child');
      return { id: req.id };
    });
    const res = await app.inject({ method: 'GET', url: '/child' });
    const { id } = res.json() as { id: string };
    const line = lines.find((l) => l.msg === 'from a child');
    assert.equal(line?.reqId, id);
    assert.equal(line?.part, 'x');
    await app.close();
  });
});
