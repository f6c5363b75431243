import type { FastifyInstance } from 'fastify';
import type { Tenant } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { cursor, listLimit, pathSegment } from '../params/common.js';
import { presentGeofence } from '../presenters/geofence-presenter.js';
import { presentUser } from '../presenters/user-presenter.js';

export function userRoutes(app: FastifyInstance, { services, clock }: AppDeps): void {
  const tag = 'Users';
  /** The fences a user is in, without their geometry (it can be large and is one request away). */
  const userGeofences = async (tenant: Tenant, user: User) => {
    const fences = await Promise.all(user.geofences.map((m) => services.geofences.find(tenant, m.geofenceId)));
    return fences.filter((g) => g !== null).map((g) => presentGeofence(g, clock.now(), { geometry: false }));
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
      const users = await Promise.all(page.items.map(async (u) => presentUser(u, await userGeofences(tenant, u))));
      return { meta: { hasMore: page.hasMore }, users };
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
      return { user: presentUser(user, await userGeofences(tenant, user)) };
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
