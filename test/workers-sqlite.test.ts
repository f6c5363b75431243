import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';

const skip =
  process.env.TEST_STORE === 'postgres' ? 'the SQLite half of `npm test` runs it (npm run test:sqlite)' : false;

describe('serve with WORKERS above 1 on SQLite', { skip }, () => {
  it('refuses to start, naming PostgreSQL (DATABASE_URL) as the way to run several processes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-workers-'));
    try {
      const res = await runCli(['serve'], { DATA_DIR: dataDir, GEODATA_DIR: dataDir, PORT: '0', WORKERS: '2' });
      assert.notEqual(res.code, 0);
      assert.match(res.stderr, /^Configuration error: WORKERS=2: /);
      assert.match(res.stderr, /PostgreSQL/);
      assert.match(res.stderr, /DATABASE_URL/);
      // Refused before anything was opened: no database file, no world pack built.
      assert.deepEqual(fs.readdirSync(dataDir), []);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the other commands alone: they write the file beside the one server', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-workers-'));
    try {
      const res = await runCli(['projects', 'create', 'beside', '--json'], { DATA_DIR: dataDir, WORKERS: '2' });
      assert.equal(res.code, 0, res.stderr);
      assert.match(JSON.parse(res.stdout).keys.test.secret, /^prj_test_sk_/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
