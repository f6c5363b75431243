import type { FastifyInstance } from 'fastify';
import type { Geofence } from '../../domain/geofences/geofence.js';
import type { Tenant } from '../../domain/tenant.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { jsonListBody } from '../json-list-body.js';
import { createdPage, createdPageParams, cursor, listLimit, pathSegment } from '../params/common.js';
import { geofenceUpsertBody } from '../params/geofence-body.js';
import { str } from '../params/index.js';
import { geofenceJson, presentGeofence } from '../presenters/geofence-presenter.js';
import { JsonCache } from '../presenters/json-cache.js';
import { presentUser } from '../presenters/user-presenter.js';

const upsertBody = geofenceUpsertBody;

export function geofenceRoutes(app: FastifyInstance, { services, clock, store }: AppDeps): void {
  const tag = 'Geofences';
  const byTag = { tag: pathSegment(), externalId: pathSegment() };
  const documents = new JsonCache();
  services.geofences.onChange((tenant, change) => documents.forget(tenant, change.upserted?.id ?? change.deletedId!));
  const unfollow = store.onExternalChange((change) => documents.storeChanged(change, 'geofences'));
  app.addHook('onClose', async () => unfollow());
  /** The response text of a fence. */
  const answer = (g: Geofence, now: number) => `{"meta":{"code":200},"geofence":${geofenceJson(g, now)}}`;
  /**
   * The response text of a fence read, kept until the fence changes (or its `disableAfter` passes). A
   * write's answer is not kept: kept texts outlive the young generation, and with every PUT's kept, a
   * stream of upserts filled the old generation and the external memory with texts no one read back
   * (5,000 PUT/s: a 100 ms major GC every few seconds). The first GET after a write prints it again.
   */
  const show = (tenant: Tenant, g: Geofence) => {
    const now = clock.now();
    const until = [g.disableAfter, g.deleteAfter].filter((t): t is number => t !== null && t > now);
    const body = Buffer.from(answer(g, now));
    documents.put(tenant, g.id, body, until.length ? Math.min(...until) : undefined);
    return new JsonText(body);
  };
  const cached = (tenant: Tenant, id: string) => {
    store.syncExternalChanges();
    const body = documents.get(tenant, id, clock.now());
    return body === undefined ? undefined : new JsonText(body);
  };
  const lookup = (tenant: Tenant, p: { id?: string; tag?: string; externalId?: string }) =>
    p.id !== undefined
      ? services.geofences.get(tenant, p.id)
      : services.geofences.getByTag(tenant, p.tag!, p.externalId!);

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geofences',
      auth: 'secret',
      tag,
      summary: 'List geofences, newest first',
      query: { ...createdPageParams(), tag: str({ maxLength: 256 }) },
    },
    async ({ query, tenant }) => {
      const page = await services.geofences.list(tenant, {
        ...createdPage(query),
        tag: query.tag,
      });
      // Each fence printed when its chunk is (json-list-body.ts), by `geofenceJson`, about 4.5 times
      // faster than JSON.stringify on an outline's doubles: 1,000 fences can be 400 MB of JSON.
      const now = clock.now();
      const { items } = page;
      return new JsonText(
        jsonListBody(
          `{"meta":{"code":200,"hasMore":${page.hasMore}},"geofences":[`,
          items.length,
          (i) => geofenceJson(items[i]!, now),
          ']}',
        ),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/v1/geofences/:tag/:externalId',
      auth: 'secret',
      tag,
      summary: 'Create or update a geofence by tag and externalId',
      params: byTag,
      body: upsertBody,
    },
    async ({ params, body, tenant }) =>
      new JsonText(answer(await services.geofences.upsert(tenant, params.tag, params.externalId, body), clock.now())),
  );

  for (const [url, params] of [
    ['/v1/geofences/:id', { id: pathSegment() }],
    ['/v1/geofences/:tag/:externalId', byTag],
  ] as const) {
    defineRoute(
      app,
      { method: 'GET', url, auth: 'secret', tag, summary: 'Get a geofence', params },
      // A cached document answers synchronously.
      ({ params: p, tenant }) => {
        const id = (p as { id?: string }).id;
        return (id !== undefined ? cached(tenant, id) : undefined) ?? lookup(tenant, p).then((g) => show(tenant, g));
      },
    );
    defineRoute(
      app,
      { method: 'DELETE', url, auth: 'secret', tag, summary: 'Delete a geofence', params },
      async ({ params: p, tenant }) => {
        await services.geofences.delete(tenant, await lookup(tenant, p));
        return {};
      },
    );
  }

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geofences/:tag/:externalId/users',
      auth: 'secret',
      tag,
      summary: 'Users currently inside a geofence',
      params: byTag,
      query: { limit: listLimit(), updatedBefore: cursor(), updatedAfter: cursor() },
    },
    async ({ params, query, tenant }) => {
      const geofence = await lookup(tenant, params);
      const page = await services.geofences.usersInside(tenant, geofence, {
        limit: query.limit,
        before: query.updatedBefore,
        after: query.updatedAfter,
      });
      const inside = presentGeofence(geofence, clock.now(), { geometry: false });
      return { meta: { hasMore: page.hasMore }, users: page.items.map((u) => presentUser(u, [inside])) };
    },
  );
}
