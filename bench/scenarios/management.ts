import { auth, measure } from '../lib/load.js';
import type { BenchContext, BenchResult, Scenario } from '../lib/types.js';

/** Issue 2 budgets: GET /v1/geofences/:id >= 15,000 req/s; PUT upsert >= 5,000 req/s, p99 < 10 ms. */
export const management: Scenario = {
  name: 'management',
  async run(ctx: BenchContext): Promise<BenchResult[]> {
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const res = await fetch(`${ctx.url}/v1/geofences/bench/g${i}`, {
        method: 'PUT',
        headers: auth(ctx.keys.secret, true),
        body: JSON.stringify(circleBody(i)),
      });
      ids.push(((await res.json()) as { geofence: { _id: string } }).geofence._id);
    }
    // The cost every endpoint pays (routing, request id, CORS, auth, rate limit, usage), for comparison.
    const config = await measure(ctx, 'GET /v1/config (HTTP baseline: auth only)', [
      { path: '/v1/config', headers: auth(ctx.keys.secret) },
    ]);
    const get = await measure(
      ctx,
      'GET /v1/geofences/:id',
      ids.map((id) => ({ path: `/v1/geofences/${id}`, headers: auth(ctx.keys.secret) })),
    );
    let n = 0;
    const put = await measure(ctx, 'PUT /v1/geofences/:tag/:externalId', () => {
      const i = n++;
      // Half updates of existing fences, half creations of new ones.
      const externalId = i % 2 === 0 ? `g${i % 1000}` : `new${i}`;
      return {
        method: 'PUT',
        path: `/v1/geofences/bench/${externalId}`,
        headers: auth(ctx.keys.secret, true),
        body: JSON.stringify(circleBody(i)),
      };
    });
    return [config, get, put];
  },
};

function circleBody(i: number) {
  return {
    description: `Store ${i}`,
    type: 'circle',
    coordinates: [-74.0 + (i % 100) * 0.002, 40.7 + Math.floor(i / 100) * 0.002],
    radius: 100 + (i % 5) * 50,
    metadata: { n: i, chain: i % 3 === 0 ? 'a' : 'b' },
  };
}
