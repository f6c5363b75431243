import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../src/compose.js';
import { loadConfig } from '../src/config.js';
import { runCli } from './helpers/cli.js';
import { engineEnv } from './helpers/engine.js';

describe('npm run cli -- import geofences', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let cleanup: () => Promise<void>;
  let projectId: string;
  before(async () => {
    const engine = await engineEnv();
    cleanup = engine.cleanup;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-cli-fences-'));
    env = { ...engine.env, DATA_DIR: dataDir };
    const created = await runCli(['projects', 'create', 'fences', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    projectId = JSON.parse(created.stdout).projectId;
  });
  after(async () => {
    await cleanup?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a CSV through the API’s checks with a progress bar, reporting refused rows; --dry-run writes nothing', async () => {
    const file = path.join(dataDir, 'fences.csv');
    const lines = ['tag,externalId,description,type,latitude,longitude,radius,metadata.kind'];
    for (let i = 1; i <= 600; i++) lines.push(`depots,d${i},Depot ${i},circle,${40 + i / 1000},-74,150,depot`);
    lines[300] = 'depots,d300,Bad,circle,40,-74,2,depot'; // row 300: radius under 10 m
    fs.writeFileSync(file, `${lines.join('\n')}\n`);

    const dry = await runCli(['import', 'geofences', 'fences', file, '--dry-run'], env);
    assert.equal(dry.code, 1, dry.stderr);
    assert.match(dry.stdout, /^row 300: radius must be/m);
    assert.match(dry.stdout, /would create 599, would update 0, refused 1 row/);

    const real = await runCli(['import', 'geofences', 'fences', file], env);
    assert.equal(real.code, 1, real.stderr);
    assert.match(real.stdout, /created 599, updated 0, refused 1 row/);
    assert.match(real.stderr, /Importing .*fences\.csv \[#+\] 600\/600 geofences/);

    const store = await openStore(loadConfig({ ...process.env, ...env }));
    try {
      const tenant = { projectId, live: false };
      const g = await store.geofences.getByTag(tenant, 'depots', 'd42');
      assert.equal(g?.description, 'Depot 42');
      assert.deepEqual(g?.metadata, { kind: 'depot' });
      assert.equal(await store.geofences.getByTag(tenant, 'depots', 'd300'), null);
      assert.equal((await store.geofences.all({ projectId, live: true })).length, 0);
    } finally {
      await store.close();
    }

    const bad = await runCli(['import', 'geofences', 'nope', file], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no project named "nope"/);
  });
});
