import { auth, measure, warmEveryProcess } from '../lib/load.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';
import { metroPoint, seedGeofences, tenantOfKey } from './metro-seed.js';

/** Issue 3 budget: GET /v1/context >= 20,000 req/s, over 100,000 metro geofences. */
export async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const tenant = await tenantOfKey(ctx.dataDir, ctx.keys.publishable);
  await seedGeofences(ctx.dataDir, tenant, 0, Number(process.env.BENCH_CONTEXT_FENCES ?? 100_000));
  const headers = auth(ctx.keys.publishable);
  const requests = Array.from({ length: 10_000 }, () => {
    const [lon, lat] = metroPoint();
    return { path: `/v1/context?coordinates=${lat.toFixed(6)},${lon.toFixed(6)}`, headers };
  });
  // Every API process notices the seeding (another process) within its 200 ms poll and reloads its
  // indexes: let that happen, then load them with one call each, before the clock starts (a process
  // left cold loaded its index inside the measured row: 6,848 req/s at 307 µs with two, session 15).
  await new Promise((r) => setTimeout(r, 1000));
  await warmEveryProcess(ctx, [requests[0]!], 'context');
  return [await measure(ctx, 'GET /v1/context (100,000 geofences)', requests)];
}

export const context: Scenario = { name: 'context', run };
