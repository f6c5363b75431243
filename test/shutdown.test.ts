import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { monthOf } from '../src/domain/projects/usage-meter.js';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { startServe } from './helpers/cli.js';
import { request } from './helpers/server.js';
import { BROOKLYN, offset, trackBody } from './helpers/tracking.js';

/**
 * SIGTERM to the real `serve` process under track load: it exits 0, and every track it acknowledged
 * is in the database afterwards, with the usage counted for it. On SQLite (the embedded default) the
 * database is reopened directly; the PostgreSQL run of the suite skips it (one process's shutdown
 * does not depend on the engine, and the store's own close is covered by the store contract).
 */
describe('graceful shutdown', { skip: process.env.TEST_STORE === 'postgres' && 'SQLite only' }, () => {
  let dataDir: string;
  let packDir: string;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-shutdown-'));
    packDir = (await sharedTestPack()).dataDir;
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('on SIGTERM under track load, finishes the requests in flight, stores every acknowledged track and exits 0', async () => {
    const server = await startServe({ DATA_DIR: dataDir, GEODATA_DIR: packDir });
    const key = /test publishable\s+(\S+)/.exec(server.stdout())![1]!;
    const acked: Array<{ deviceId: string; updatedAt: string }> = [];
    const refused: number[] = [];
    let sigtermAt = 0;
    let ackedAfterSigterm = 0;
    let n = 0;
    let connectionErrors = 0;
    const loop = async () => {
      // Until the server is gone: connection errors are what a client of a stopped server sees.
      while (connectionErrors < 20) {
        const deviceId = `device-${n++}`;
        try {
          const res = await request(server.url, 'POST', '/v1/track', {
            key,
            json: trackBody(deviceId, offset(BROOKLYN, n % 100, 0)),
          });
          if (res.status === 200) {
            acked.push({ deviceId, updatedAt: res.body.user.updatedAt });
            if (sigtermAt) ackedAfterSigterm++;
          } else refused.push(res.status);
        } catch {
          connectionErrors++;
        }
      }
    };
    const exited = new Promise<number | null>((r) => server.child.on('exit', (code) => r(code)));
    const loops = Array.from({ length: 8 }, loop);
    while (acked.length < 100) await new Promise((r) => setTimeout(r, 5));
    sigtermAt = Date.now();
    server.child.kill('SIGTERM');
    const code = await exited;
    await Promise.all(loops);

    assert.equal(code, 0, server.stderr());
    assert.match(server.stdout(), /shutting down/);
    // A request refused while closing is 503 (Fastify's answer on a kept-alive connection), never a 5xx of ours.
    assert.deepEqual(
      refused.filter((s) => s !== 503),
      [],
    );
    assert.ok(ackedAfterSigterm > 0, 'requests in flight at SIGTERM were answered, not cut');

    const store = SqliteStore.open(dataDir);
    try {
      const project = (await store.projects.findByName('default'))!;
      const tenant = { projectId: project.id, live: false };
      for (const t of acked) {
        const user = await store.users.get(tenant, t.deviceId);
        assert.ok(user, `acknowledged track of ${t.deviceId} is stored`);
        assert.equal(new Date(user.updatedAt).toISOString(), t.updatedAt);
      }
      // Counted up to the last request: the final second's counts were flushed, not dropped.
      const counted = await store.usage.monthTotal(project.id, monthOf(Date.now()));
      assert.ok(counted >= acked.length, `usage ${counted} counts the ${acked.length} acknowledged tracks`);
    } finally {
      await store.close();
    }
  });

  it('cuts a request still in flight after SHUTDOWN_GRACE_SECONDS and exits', async () => {
    const server = await startServe({
      DATA_DIR: path.join(dataDir, 'grace'),
      GEODATA_DIR: packDir,
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    const key = /test publishable\s+(\S+)/.exec(server.stdout())![1]!;
    // Headers and half a body, then nothing: a request in flight that would hold the server forever.
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /v1/track HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"deviceId":`,
    );
    socket.on('error', () => {});
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const exited = new Promise<number | null>((r) => server.child.on('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    const code = await exited;
    socket.destroy();
    assert.equal(code, 0, server.stderr());
    const took = Date.now() - started;
    assert.ok(took < 6000, `exited ${took} ms after SIGTERM`);
    assert.match(server.stdout(), /grace period/);
  });
});
