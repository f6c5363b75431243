import { auth, measure, warmEveryProcess } from '../lib/load.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { metroPoint, seedGeofences, seedUsers, tenantOfKey } from './metro-seed.js';

/**
 * Issue 3 budgets: search geofences and search users >= 15,000 req/s each. 100,000 metro geofences
 * and 100,000 users; queries as the SDKs send them (radius 1000, limit 10).
 */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const tenant = await tenantOfKey(ctx.dataDir, ctx.keys.publishable);
  await seedGeofences(ctx.dataDir, tenant, 0, 100_000);
  await seedUsers(ctx.dataDir, tenant, 100_000);
  const points = Array.from({ length: 10_000 }, () => {
    const [lon, lat] = metroPoint();
    return `${lat.toFixed(6)},${lon.toFixed(6)}`;
  });
  const pk = auth(ctx.keys.publishable);
  const sk = auth(ctx.keys.secret);
  const geofences = points.map((p) => ({
    path: `/v1/search/geofences?near=${p}&radius=1000&limit=10&includeGeometry=false`,
    headers: pk,
  }));
  const withGeometry = points.map((p) => ({
    path: `/v1/search/geofences?near=${p}&radius=1000&limit=10&includeGeometry=true`,
    headers: pk,
  }));
  const users = points.map((p) => ({ path: `/v1/search/users?near=${p}&radius=1000&limit=10`, headers: sk }));
  // Every API process loads its indexes before the clock starts, after its 200 ms poll has noticed the
  // seeding (another process) and reloaded them.
  await new Promise((r) => setTimeout(r, 1000));
  await warmEveryProcess(ctx, [geofences[0]!, users[0]!], 'search');
  return [
    await measure(ctx, 'GET /v1/search/geofences (100,000 geofences)', geofences),
    await measure(ctx, 'GET /v1/search/geofences includeGeometry (100,000)', withGeometry),
    await measure(ctx, 'GET /v1/search/users (100,000 users)', users),
  ];
}

export const search: Scenario = { name: 'search', run };
