import type { FastifyInstance } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import { placeSnapshot } from '../../domain/places/place.js';
import { CATEGORY_GROUPS, CATEGORY_PARENTS } from '../../geodata/osm/places/categories.js';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { searchLimit, searchRadius } from '../params/common.js';
import { countryCodes } from '../params/geocode.js';
import { commaList, latLng, metadata, param } from '../params/index.js';

const GROUPS = Object.keys(CATEGORY_GROUPS);

/** `categories`: category slugs of docs/places-categories.md; an unknown one is refused, not ignored. */
const categoryList = () =>
  param({ type: 'string', description: 'comma-separated category slugs' }, (raw, name) => {
    const items = commaList({ max: 100 }).parse(raw, name) as string[];
    const bad = items.find((c) => !CATEGORY_PARENTS.has(c));
    if (bad !== undefined)
      throw invalidParam(name, `must list category slugs such as food-beverage or coffee-shop ("${bad}" is not one).`);
    return items;
  });

export function searchPlacesRoutes(app: FastifyInstance, { services }: AppDeps): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/search/places',
      auth: 'publishable',
      tag: 'Search',
      summary: 'Places of imported OpenStreetMap regions near a point, by chain, category or group, nearest first',
      query: {
        near: latLng().required(),
        radius: searchRadius(),
        chains: commaList({ max: 100 }),
        categories: categoryList(),
        groups: commaList({ values: GROUPS }),
        chainMetadata: metadata({ inferTypes: true }),
        // The mobile SDKs send `country` (their countryCodes joined by commas); countryCodes is taken too.
        country: countryCodes().describe('only places in these countries, e.g. US,MX'),
        countryCodes: countryCodes(),
        limit: searchLimit(),
      },
    },
    async ({ query, tenant }) => {
      if (!query.chains?.length && !query.categories?.length && !query.groups?.length) {
        throw invalidParam('chains', 'chains, categories or groups: at least one of them must be given.');
      }
      const settings = await services.settings.get(tenant);
      const hits = services.places.search(settings, {
        near: query.near,
        radiusMeters: query.radius,
        chains: query.chains,
        categories: query.categories,
        groups: query.groups,
        chainMetadata: query.chainMetadata,
        countries: query.country ?? query.countryCodes,
        limit: query.limit,
      });
      return { places: hits.map((h) => placeSnapshot(h.place)) };
    },
  );
}
