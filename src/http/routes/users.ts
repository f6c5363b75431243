import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Tenant } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { jsonListBody } from '../json-list-body.js';
import { cursor, listLimit, pathSegment } from '../params/common.js';
import { presentGeofence } from '../presenters/geofence-presenter.js';
import { presentUser } from '../presenters/user-presenter.js';

export function userRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  const tag = 'Users';
  /**
   * The fences each of `users` is in, without their geometry (it can be large and is one request away).
   * Each fence is read and presented once (1,000 users listed in the same fences would read each fence's
   * stored document, outline included, for every user), one after another with a turn of the event
   * loop before each: a fence with its outline is up to 400 KB of JSON to parse, and reads all started
   * in one turn (`setImmediate` each) ran back to back in the next.
   */
  const fencesOf = async (tenant: Tenant, users: User[]): Promise<unknown[][]> => {
    const now = clock.now();
    const presented = new Map<string, unknown>();
    for (const user of users) {
      for (const { geofenceId } of user.geofences) {
        if (presented.has(geofenceId)) continue;
        await nextTurn();
        const g = await services.geofences.find(tenant, geofenceId);
        presented.set(geofenceId, g === null ? null : presentGeofence(g, now, { geometry: false }));
      }
    }
    return users.map((u) => u.geofences.map((m) => presented.get(m.geofenceId)).filter((g) => g != null));
  };
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/users',
      auth: 'secret',
      tag,
      summary: 'List users, newest update first',
      query: { limit: listLimit(), updatedBefore: cursor(), updatedAfter: cursor() },
    },
    async ({ query, tenant }) => {
      const page = await services.users.list(tenant, {
        limit: query.limit,
        before: query.updatedBefore,
        after: query.updatedAfter,
      });
      const { items } = page;
      const fences = await fencesOf(tenant, items);
      // Each user presented and printed when its chunk is (json-list-body.ts): presenting 1,000 users
      // with full metadata at once held the event loop ~160 ms.
      return new JsonText(
        jsonListBody(
          `{"meta":{"code":200,"hasMore":${page.hasMore}},"users":[`,
          items.length,
          (i) => JSON.stringify(presentUser(items[i]!, fences[i])),
          ']}',
        ),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/users/:id',
      auth: 'secret',
      tag,
      summary: 'Get a user by _id, userId or deviceId',
      params: { id: pathSegment() },
    },
    async ({ params, tenant }) => {
      const user = await services.users.get(tenant, params.id);
      return { user: presentUser(user, (await fencesOf(tenant, [user]))[0]) };
    },
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/v1/users/:id',
      auth: 'secret',
      tag,
      summary: 'Delete a user',
      params: { id: pathSegment() },
    },
    async ({ params, tenant }) => {
      await services.users.delete(tenant, params.id);
      return {};
    },
  );
}
