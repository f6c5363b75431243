import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { runCli } from './helpers/cli.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, trackBody } from './helpers/tracking.js';

describe('Usage: counts per project, environment, endpoint and month; cost; quota from the same counts', () => {
  let s: TestServer;
  let env: Record<string, string>;
  const clock = new ManualClock(Date.parse('2026-01-20T12:00:00.000Z'));
  const usage = (args: string[]) => runCli(['projects', 'usage', ...args], env);

  before(async () => {
    s = await startServer({ clock });
    env = { DATA_DIR: s.dataDir, DATABASE_URL: s.deps.config.databaseUrl ?? '' };
  });
  after(() => s.close());

  it('projects usage prints the month table by environment and endpoint, and the cost', async () => {
    for (let i = 0; i < 3; i++) assertOk(await s.request('GET', '/v1/config', { key: s.keys.test.publishable }));
    for (let i = 0; i < 2; i++) assertOk(await s.request('GET', '/v1/config', { key: s.keys.live.publishable }));
    assertOk(
      await s.request('POST', '/v1/track', { key: s.keys.test.publishable, json: trackBody('dev-usage', BROOKLYN) }),
    );
    assertOk(await s.request('GET', '/v1/users', { key: s.keys.test.secret }));
    // Another project's requests are its own.
    const other = await s.createProject('usage-other');
    assertOk(await s.request('GET', '/v1/config', { key: other.keys.test.publishable }));
    await s.deps.usage.flush();

    const res = await usage(['default', '--month', '2026-01']);
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, -1).sort(), [
      'live\tGET /v1/config\t2',
      'test\tGET /v1/config\t3',
      'test\tGET /v1/users\t1',
      'test\tPOST /v1/track\t1',
    ]);
    assert.equal(lines.at(-1), 'total 7 requests in 2026-01; cost $0.00 (100,000 free, $0.50 per 1,000 beyond)');
    const otherUsage = await usage(['usage-other', '--month', '2026-01']);
    assert.match(otherUsage.stdout, /^test\tGET \/v1\/config\t1\ntotal 1 requests/);
  });

  it('charges $0.50 per 1,000 requests beyond 100,000, and keeps months apart', async () => {
    await s.deps.store.usage.add([
      { projectId: s.projectId, live: true, endpoint: 'POST /v1/track', month: '2026-01', count: 150_000 },
      { projectId: s.projectId, live: true, endpoint: 'POST /v1/track', month: '2026-02', count: 5 },
    ]);
    const jan = await usage(['default', '--month', '2026-01']);
    assert.match(jan.stdout, /^live\tPOST \/v1\/track\t150000$/m);
    // 150,007 requests: 50,007 beyond the free 100,000, at $0.50 per 1,000.
    assert.match(jan.stdout, /total 150007 requests in 2026-01; cost \$25\.00 /);
    const feb = await usage(['default', '--month', '2026-02']);
    assert.match(feb.stdout, /total 5 requests in 2026-02; cost \$0\.00/);
    const missing = await usage(['nope']);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /No project named "nope"/);
  });

  it('the monthly quota reads the same counts: 402 once they reach it', async () => {
    const p = await s.createProject('usage-quota');
    await s.deps.store.usage.add([
      { projectId: p.projectId, live: false, endpoint: 'GET /v1/config', month: '2026-01', count: 999 },
    ]);
    await s.updateProject('usage-quota', (x) => ({ ...x, limits: { ...x.limits, monthlyQuota: 1000 } }));
    assertOk(await s.request('GET', '/v1/config', { key: p.keys.live.publishable }));
    assertError(await s.request('GET', '/v1/config', { key: p.keys.test.publishable }), 402, 'Authorization');
    assertError(
      await s.request('POST', '/v1/track', { key: p.keys.test.publishable, json: trackBody('d', BROOKLYN) }),
      402,
    );
  });
});
