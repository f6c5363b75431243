import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../src/domain/ports/store.js';
import { monthOf } from '../src/domain/projects/usage-meter.js';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { PostgresStore } from '../src/storage/postgres/postgres-store.js';
import { SqliteStore } from '../src/storage/sqlite/sqlite-store.js';
import { startServe } from './helpers/cli.js';
import { engineEnv } from './helpers/engine.js';
import { request } from './helpers/server.js';
import { BROOKLYN, offset, trackBody } from './helpers/tracking.js';

/** The store `serve` ran on, opened again once it has exited. */
function reopen(dataDir: string, env: Record<string, string>): Promise<Store> | Store {
  return env.DATABASE_URL ? PostgresStore.open(env.DATABASE_URL) : SqliteStore.open(dataDir);
}

/**
 * SIGTERM to the real `serve` process under track load: it exits 0, and every track it acknowledged
 * is in the database afterwards, with the usage counted for it.
 */
describe('graceful shutdown', () => {
  let dataDir: string;
  let packDir: string;
  let engine: Awaited<ReturnType<typeof engineEnv>>;
  /** The first server's publishable key: on PostgreSQL the second server finds its project already made. */
  let firstKey = '';
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-shutdown-'));
    packDir = (await sharedTestPack()).dataDir;
    engine = await engineEnv();
  });
  after(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await engine?.cleanup();
  });

  it('on SIGTERM under track load, finishes the requests in flight, stores every acknowledged track and exits 0', async () => {
    const server = await startServe({ DATA_DIR: dataDir, GEODATA_DIR: packDir, ...engine.env });
    const key = /test publishable\s+(\S+)/.exec(server.stdout())![1]!;
    firstKey = key;
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

    const store = await reopen(dataDir, engine.env);
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
      ...engine.env,
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    const key = /test publishable\s+(\S+)/.exec(server.stdout())?.[1] ?? firstKey;
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
