import type { FastifyInstance } from 'fastify';
import type { Beacon } from '../../domain/beacons/beacon.js';
import { invalidParam } from '../../domain/errors.js';
import type { Position } from '../../geo/types.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { createdPage, createdPageParams, pathSegment } from '../params/common.js';
import { bool, jsonValue, metadata, oneOf, param, str, toNumber } from '../params/index.js';
import { presentBeacon } from '../presenters/beacon-presenter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** iBeacon major and minor are 16-bit numbers, carried as strings as the SDKs do. */
const uint16 = () =>
  param({ type: 'string', pattern: '^\\d{1,5}$' }, (raw, name) => {
    const n = toNumber(raw);
    if (n === null || !Number.isInteger(n) || n < 0 || n > 65535)
      throw invalidParam(name, 'must be an integer from 0 to 65535.');
    return String(n);
  });

const point = () =>
  param({ type: 'array', items: { type: 'number' }, description: '[longitude,latitude]' }, (raw, name): Position => {
    const v = jsonValue({}).parse(raw, name) as unknown[];
    const rule = 'must be [longitude,latitude] with longitude -180 to 180 and latitude -90 to 90.';
    if (!Array.isArray(v) || v.length < 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number')
      throw invalidParam(name, rule);
    const [lon, lat] = v as [number, number];
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90) throw invalidParam(name, rule);
    return [lon, lat];
  });

const identity = {
  description: str().required(),
  type: oneOf(['ibeacon'] as const, { caseInsensitive: true }).required(),
  uuid: str({ pattern: UUID, patternRule: 'must be a UUID such as 2f234454-cf6d-4a0f-adf2-f4911ba9ffa6.' }).required(),
  major: uint16().required(),
  minor: uint16().required(),
};

export function beaconRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const tag = 'Beacons';
  const show = (b: Beacon) => ({ beacon: presentBeacon(b) });
  const byTag = { tag: pathSegment(), externalId: pathSegment() };
  // major and minor are read as on create, so the "007" a client sent finds the beacon stored as "7".
  const byIdentifiers = { uuid: pathSegment(), major: uint16().required(), minor: uint16().required() };

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/beacons',
      auth: 'secret',
      tag,
      summary: 'List beacons, newest first',
      query: {
        ...createdPageParams(),
        tag: str({ maxLength: 256 }),
        externalId: str({ maxLength: 256 }),
      },
    },
    async ({ query, tenant }) => {
      const page = await services.beacons.list(tenant, {
        ...createdPage(query),
        tag: query.tag,
        externalId: query.externalId,
      });
      return { meta: { hasMore: page.hasMore }, beacons: page.items.map(presentBeacon) };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/beacons',
      auth: 'secret',
      tag,
      summary: 'Create a beacon',
      body: {
        ...identity,
        tag: str({ maxLength: 256 }),
        externalId: str({ maxLength: 256 }),
        coordinates: point(),
        enabled: bool().required(),
        metadata: metadata().required(),
      },
    },
    async ({ body, tenant }) => show(await services.beacons.create(tenant, { ...body, location: body.coordinates })),
  );

  defineRoute(
    app,
    {
      method: 'PUT',
      url: '/v1/beacons/:tag/:externalId',
      auth: 'secret',
      tag,
      summary: 'Create or update a beacon by tag and externalId',
      params: byTag,
      body: { ...identity, coordinates: point().required(), enabled: bool(), metadata: metadata() },
    },
    async ({ params, body, tenant }) =>
      show(
        await services.beacons.upsert(tenant, params.tag, params.externalId, { ...body, location: body.coordinates }),
      ),
  );

  const routes = [
    { url: '/v1/beacons/:id', params: { id: pathSegment() } },
    { url: '/v1/beacons/:tag/:externalId', params: byTag },
    { url: '/v1/beacons/:uuid/:major/:minor', params: byIdentifiers },
  ] as const;
  for (const { url, params } of routes) {
    const find = (tenant: Parameters<typeof services.beacons.get>[0], p: Record<string, string>) =>
      p.id !== undefined
        ? services.beacons.get(tenant, p.id)
        : p.uuid !== undefined
          ? services.beacons.getByIdentifiers(tenant, p.uuid, p.major!, p.minor!)
          : services.beacons.getByTag(tenant, p.tag!, p.externalId!);
    defineRoute(
      app,
      { method: 'GET', url, auth: 'secret', tag, summary: 'Get a beacon', params },
      async ({ params: p, tenant }) => show(await find(tenant, p as Record<string, string>)),
    );
    defineRoute(
      app,
      { method: 'DELETE', url, auth: 'secret', tag, summary: 'Delete a beacon', params },
      async ({ params: p, tenant }) => {
        await services.beacons.delete(tenant, await find(tenant, p as Record<string, string>));
        return {};
      },
    );
  }
}
