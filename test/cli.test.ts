import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sharedTestPack } from '../src/geodata/test-pack.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { type CliResult, runCli } from './helpers/cli.js';
import { circleBody } from './helpers/fixtures.js';
import { poll } from './helpers/poll.js';
import { startServer, type TestServer } from './helpers/server.js';

/** The checkout root, found from this file so the test runs from any clone. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KEY = /^prj_(test|live)_(pk|sk)_([0-9a-z]+)$/;

/** The real CLI as a child process (the shared helper), with this file's shorter timeout. */
const cli = (args: string[], env: Record<string, string>): Promise<CliResult> => runCli(args, env, 90_000);

interface CreatedProject {
  projectId: string;
  keys: { test: { publishable: string; secret: string }; live: { publishable: string; secret: string } };
}

function allKeys(p: CreatedProject): string[] {
  return [p.keys.test.publishable, p.keys.test.secret, p.keys.live.publishable, p.keys.live.secret];
}

describe('serve on an empty data directory', () => {
  it('creates the project "default", prints its four keys once, serves them, and stops on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-serve-'));
    try {
      // The shared world pack: without one, serve would first build it (test/cli-import.test.ts covers that).
      const geodata = { GEODATA_DIR: (await sharedTestPack()).dataDir };
      const first = await serve({ DATA_DIR: dataDir, ...geodata });
      const printed = first.output().match(/prj_(test|live)_(pk|sk)_[0-9a-z]+/g) ?? [];
      assert.equal(new Set(printed).size, 4, first.output());
      const testPk = printed.find((k) => k.startsWith('prj_test_pk_'))!;
      const liveSk = printed.find((k) => k.startsWith('prj_live_sk_'))!;
      assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
      assert.equal((await fetch(`${first.url}/v1/config`, { headers: { authorization: testPk } })).status, 200);
      assert.equal((await fetch(`${first.url}/v1/settings`, { headers: { authorization: liveSk } })).status, 200);
      // Beside the keys, the dashboard's address, which serves its page.
      // Printed once the server listens: a write that may follow the listening log by a moment.
      await poll(async () => first.output().includes('Dashboard: '), 5000, 50);
      const dashboard = /Dashboard: (http:\/\/\S+\/dashboard)/.exec(first.output())?.[1];
      assert.equal(dashboard, `${first.url}/dashboard`, first.output());
      const page = await fetch(dashboard!);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<script type="module" src="\/dashboard\/app.js">/);
      assert.equal(await first.stop(), 0);

      const again = await serve({ DATA_DIR: dataDir, ...geodata });
      assert.equal((await fetch(`${again.url}/v1/config`, { headers: { authorization: testPk } })).status, 200);
      assert.doesNotMatch(again.output(), /prj_(test|live)_(pk|sk)_/, 'keys are printed only on the first start');
      assert.equal(await again.stop(), 0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Whether this run's servers use PostgreSQL (the second half of npm test). */
const isPostgresRun = () => process.env.TEST_STORE === 'postgres';

describe('command line', () => {
  let s: TestServer;
  let env: Record<string, string>;
  let created: CreatedProject;
  /** Runs of the CLI that do not depend on each other, started together to keep this file quick. */
  let runs: Record<'duplicate' | 'printConfig' | 'badEnv' | 'serveDb' | 'serveRedis', CliResult>;
  before(async () => {
    s = await startServer();
    // The CLI must write where the server reads: its SQLite file, or its PostgreSQL schema.
    env = { DATA_DIR: s.dataDir, DATABASE_URL: s.deps.config.databaseUrl ?? '' };
    const [first, duplicate, printConfig, badEnv, serveDb, serveRedis] = await Promise.all([
      cli(['projects', 'create', 'from-cli', '--json'], env),
      // startServer made "default".
      cli(['projects', 'create', 'default', '--json'], env),
      cli(['print-config'], {
        ...env,
        PORT: '4321',
        DATABASE_URL: 'postgres://wa:s3cret-pw@db.example:5432/whereabouts?sslmode=require&password=qs-s3cret',
        REDIS_URL: 'redis://:r3dis-pw@cache.example:6379/0',
      }),
      cli(['print-config'], { ...env, PORT: 'eighty' }),
      cli(['serve'], { ...env, PORT: '0', DATABASE_URL: 'postgres://wa:pw@127.0.0.1:1/wa' }),
      cli(['serve'], { ...env, PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' }),
    ]);
    assert.equal(first.code, 0, first.stderr);
    created = JSON.parse(first.stdout) as CreatedProject;
    runs = { duplicate, printConfig, badEnv, serveDb, serveRedis };
  });
  after(() => s.close());

  it('projects create --json prints exactly the documented shape', () => {
    assert.deepEqual(Object.keys(created), ['projectId', 'keys']);
    assert.equal(typeof created.projectId, 'string');
    assert.ok(created.projectId.length > 0);
    assert.deepEqual(Object.keys(created.keys), ['test', 'live']);
    for (const env of ['test', 'live'] as const) {
      assert.deepEqual(Object.keys(created.keys[env]), ['publishable', 'secret']);
      assert.match(created.keys[env].publishable, new RegExp(`^prj_${env}_pk_[0-9a-z]+$`));
      assert.match(created.keys[env].secret, new RegExp(`^prj_${env}_sk_[0-9a-z]+$`));
    }
  });

  it('the running server accepts the new keys at once, as a project of their own', async () => {
    assertOk(await s.request('GET', '/v1/config', { key: created.keys.test.publishable }));
    assertOk(await s.request('GET', '/v1/config', { key: created.keys.live.publishable }));
    const put = await s.request('PUT', '/v1/geofences/cli/g', { key: created.keys.live.secret, json: circleBody() });
    assertOk(put);
    assert.equal(put.body.geofence.live, true);
    assertOk(await s.request('GET', '/v1/settings', { key: created.keys.test.secret }));
    assertError(await s.request('GET', '/v1/settings', { key: created.keys.test.publishable }), 403, 'Authorization');
    assertError(await s.request('GET', '/v1/geofences/cli/g', { key: s.keys.live.secret }), 404);
  });

  it('projects create refuses a name that exists, with a message and a non-zero exit', () => {
    const res = runs.duplicate;
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /default/);
    assert.equal(res.stdout, '');
  });

  it('projects set --disabled on makes the running server answer 402 within a second, and off undoes it', async () => {
    const key = created.keys.live.secret;
    assertOk(await s.request('GET', '/v1/settings', { key }));
    const off = await cli(['projects', 'set', 'from-cli', '--disabled', 'on'], env);
    assert.equal(off.code, 0, off.stderr);
    const disabledAfter = await pollStatus(s, key, 402, 1000);
    assert.ok(disabledAfter !== null, 'the server still accepted the key a second after the CLI disabled the project');
    assertError(await s.request('GET', '/v1/settings', { key }), 402, 'Authorization');
    // The server's own project is untouched.
    assertOk(await s.request('GET', '/v1/settings', { key: s.keys.live.secret }));

    const on = await cli(['projects', 'set', 'from-cli', '--disabled', 'off'], env);
    assert.equal(on.code, 0, on.stderr);
    assert.ok((await pollStatus(s, key, 200, 1000)) !== null, 'the project was not enabled again within a second');
  });

  it('projects set --keep-events/--keep-trips/--keep-users set the retention policy and refuse a bad value', async () => {
    const set = await cli(['projects', 'set', 'from-cli', '--keep-events', '30', '--keep-users', 'forever'], env);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /keeps events 30d, trips 90d, users forever/);
    const bad = await cli(['projects', 'set', 'from-cli', '--keep-trips', '0'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /^--keep-trips must be a positive whole number or forever/);
    const stored = await s.deps.store.projects.findByName('from-cli');
    assert.deepEqual(stored?.retention, { eventsDays: 30, tripsDays: 90, usersDays: null });
    const list = await cli(['projects', 'list'], env);
    assert.match(list.stdout, /from-cli\t.*keeps events 30d, trips 90d, users forever/);
  });

  it('projects webhooks adds (secret shown once), disables and removes webhooks and refuses bad input; projects deliveries prints the log', async () => {
    const add = await cli(
      [
        ...['projects', 'webhooks', 'from-cli', '--add', 'https://hooks.example/in'],
        ...['--types', 'user.entered_geofence', '--mode', 'multiple'],
      ],
      env,
    );
    assert.equal(add.code, 0, add.stderr);
    const [hook] = JSON.parse(add.stdout) as Array<{
      id: string;
      secret: string;
      types: string[];
      live: boolean;
      mode: string;
    }>;
    assert.equal(hook!.mode, 'multiple');
    assert.match(hook!.secret, /^whsec_[0-9a-f]{48}$/);
    assert.deepEqual(hook!.types, ['user.entered_geofence']);
    assert.equal(hook!.live, false);
    assert.match((hook as unknown as { createdAt: string }).createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [off, badUrl, badId, badType, log, badMode, badLog] = await Promise.all([
      cli(['projects', 'webhooks', 'from-cli', '--disable', hook!.id], env),
      cli(['projects', 'webhooks', 'from-cli', '--add', 'ftp://hooks.example/in'], env),
      cli(['projects', 'webhooks', 'from-cli', '--remove', 'no-such-id'], env),
      cli(['projects', 'webhooks', 'from-cli', '--add', 'https://hooks.example/in', '--types', 'entered'], env),
      cli(['projects', 'deliveries', 'from-cli'], env),
      cli(['projects', 'webhooks', 'from-cli', '--add', 'https://hooks.example/in', '--mode', 'batch'], env),
      cli(['projects', 'deliveries', 'from-cli', '--limit', '0'], env),
    ]);
    assert.match(badLog.stderr, /^--limit must be a whole number 1-1000/);
    assert.match(badMode.stderr, /^--mode must be single or multiple/);
    assert.equal(off.code, 0, off.stderr);
    const [listed] = JSON.parse(off.stdout) as Array<{ enabled: boolean; secret: string }>;
    assert.equal(listed!.enabled, false);
    assert.equal(listed!.secret, `…${hook!.secret.slice(-4)}`, 'a listing masks the secret');
    assert.match(badUrl.stderr, /^--add must be an http or https URL/);
    assert.match(badId.stderr, /^--remove must name one of the project's webhooks/);
    assert.match(badType.stderr, /^--types: "entered" is not an event type/);
    for (const bad of [badUrl, badId, badType, badMode, badLog]) assert.notEqual(bad.code, 0);
    assert.equal(log.code, 0, log.stderr);
    assert.equal(log.stdout, 'no deliveries\n');
    const stored = await s.deps.store.projects.findByName('from-cli');
    assert.equal(stored?.webhooks?.length, 1, 'refused changes left the one webhook');
    const removed = await cli(['projects', 'webhooks', 'from-cli', '--remove', hook!.id], env);
    assert.equal(removed.stdout, '[]\n');
  });

  it('keys are random, with at least 128 bits after the prefix', () => {
    // The CLI's project and the one startServer made in-process.
    const keys = [...allKeys(created), ...Object.values(s.keys).flatMap((k) => Object.values(k) as string[])];
    assert.equal(new Set(keys).size, keys.length, 'every key is different');
    const chars = new Set<string>();
    for (const key of keys) {
      const secret = KEY.exec(key)?.[3];
      assert.ok(secret, `${key} has the prj_(test|live)_(pk|sk)_ shape`);
      // Base-36 characters carry log2(36) bits each when drawn uniformly.
      assert.ok(secret.length * Math.log2(36) >= 128, `${key}: ${secret.length} characters are under 128 bits`);
      for (const c of secret) chars.add(c);
    }
    assert.ok(chars.size >= 28, `keys use only ${chars.size} distinct characters`);
  });

  it('keeps only sha256 hashes of the keys in the PostgreSQL store', {
    skip: !isPostgresRun() && 'the SQLite case is the next test',
  }, async () => {
    const client = new pg.Client({ connectionString: s.deps.config.databaseUrl! });
    await client.connect();
    try {
      const { rows } = await client.query<{ key_hash: string; project_id: string }>(
        'SELECT key_hash, project_id FROM api_keys',
      );
      const stored = new Set(rows.map((r) => r.key_hash));
      for (const key of allKeys(created)) assert.ok(stored.has(createHash('sha256').update(key).digest('hex')));
      // No column of any table holds a raw key's random part.
      const dump =
        JSON.stringify((await client.query('SELECT * FROM api_keys')).rows) +
        JSON.stringify((await client.query('SELECT * FROM projects')).rows);
      for (const key of allKeys(created)) assert.equal(dump.indexOf(KEY.exec(key)![3]!), -1, 'a raw key is stored');
    } finally {
      await client.end();
    }
  });

  it('keeps only sha256 hashes of the keys in the SQLite file', {
    skip: isPostgresRun() && 'the server runs on PostgreSQL: see the previous test',
  }, () => {
    const db = new Database(path.join(s.dataDir, 'whereabouts.db'), { readonly: true, fileMustExist: true });
    try {
      const stored = new Set(
        (db.prepare('SELECT key_hash FROM api_keys').all() as Array<{ key_hash: string }>).map((r) => r.key_hash),
      );
      for (const key of allKeys(created)) {
        assert.ok(stored.has(createHash('sha256').update(key).digest('hex')), 'the hash of each key is stored');
      }
    } finally {
      db.close();
    }
    // No file of the store (database, WAL, shared memory) holds a raw key or its random part.
    for (const file of fs.readdirSync(s.dataDir).filter((f) => f.startsWith('whereabouts.db'))) {
      const bytes = fs.readFileSync(path.join(s.dataDir, file));
      for (const key of [...allKeys(created), ...Object.values(s.keys).flatMap((k) => Object.values(k) as string[])]) {
        const secret = KEY.exec(key)![3]!;
        assert.equal(bytes.indexOf(secret), -1, `${file} contains a raw key`);
      }
    }
  });

  it('print-config shows the configuration with secrets masked', () => {
    const res = runs.printConfig;
    assert.equal(res.code, 0, res.stderr);
    const config = JSON.parse(res.stdout);
    assert.equal(config.port, 4321);
    assert.equal(config.dataDir, path.resolve(s.dataDir));
    for (const secret of ['s3cret-pw', 'qs-s3cret', 'r3dis-pw'])
      assert.ok(!res.stdout.includes(secret), `${secret} is shown`);
    assert.match(config.databaseUrl, /db\.example/);
    assert.match(config.databaseUrl, /sslmode=require/);
    assert.match(config.redisUrl, /cache\.example/);
  });

  it('serve stops with a clear message and a non-zero exit when DATABASE_URL or REDIS_URL is set', () => {
    const { serveDb: db, serveRedis: redis } = runs;
    assert.notEqual(db.code, 0);
    assert.match(db.stderr, /DATABASE_URL/);
    assert.ok(!db.stderr.includes(':pw@'), 'the message does not repeat the password');
    assert.notEqual(redis.code, 0);
    assert.match(redis.stderr, /REDIS_URL/);
  });

  it('rejects an invalid environment with a message naming the variable', () => {
    const res = runs.badEnv;
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /PORT/);
  });
});

/**
 * Starts `serve` as a child process on a free port and resolves once it listens, with its output so
 * far; `stop` sends SIGTERM and resolves with the exit code.
 */
function serve(
  env: Record<string, string>,
): Promise<{ url: string; output: () => string; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'main.ts'), 'serve'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not listen within 90 s: ${out}`));
    }, 90_000);
    const onData = (d: Buffer) => {
      out += d;
      const url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.on('data', (more: Buffer) => {
        out += more;
      });
      resolve({
        url,
        output: () => out,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => {
      out += d;
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening: ${out}`));
    });
  });
}

/** Polls until the key gets `status` on /v1/settings; returns the milliseconds it took, or null. */
async function pollStatus(s: TestServer, key: string, status: number, withinMs: number): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start <= withinMs) {
    if ((await s.request('GET', '/v1/settings', { key })).status === status) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 25));
  }
  return null;
}
