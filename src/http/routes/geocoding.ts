import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.js';
import { defineRoute } from '../define-route.js';
import { searchLimit } from '../params/common.js';
import { countryCode, countryCodes, ipAddress, layers } from '../params/geocode.js';
import { latLng, str } from '../params/index.js';
import { addressesJson } from '../presenters/address-json.js';

const query = () => str({ maxLength: 512 }).required();

/** Forward, reverse and IP geocoding, autocomplete, and the credits of the data behind them. */
export function geocodingRoutes(app: FastifyInstance, { services }: AppDeps): void {
  const { geocoding } = services;

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geocode/forward',
      auth: 'publishable',
      tag: 'Geocoding',
      summary: 'Addresses for a free-text query: OSM addresses, streets, intersections and places; world areas',
      query: { query: query(), layers: layers(), country: countryCodes() },
    },
    ({ query: q }) => ({ addresses: geocoding.forward(q.query, { layers: q.layers, country: q.country }) }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geocode/reverse',
      auth: 'publishable',
      tag: 'Geocoding',
      summary: 'Addresses at coordinates, finest layer first, with distance in meters',
      query: { coordinates: latLng().required(), layers: layers() },
    },
    ({ query: q }) => ({ addresses: geocoding.reverse(q.coordinates, q.layers) }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/geocode/ip',
      auth: 'publishable',
      tag: 'Geocoding',
      summary: 'Location of an IP address (default: the request address; X-Forwarded-For with TRUST_PROXY)',
      query: { ip: ipAddress() },
    },
    async ({ query: q, req, tenant }) => {
      const found = geocoding.ip(q.ip ?? req.ip, q.ip === undefined);
      await services.jurisdiction.checkCountry(tenant, found.address.countryCode, found.address.country);
      return { address: found.address, proxy: found.proxy, ip: found.ip };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/search/autocomplete',
      auth: 'publishable',
      tag: 'Search',
      summary: 'Completions of a partial query, prefix and typo tolerant, biased toward near (else the request IP)',
      query: {
        query: query(),
        near: latLng(),
        layers: layers(),
        limit: searchLimit(),
        country: countryCodes(),
        // radar-sdk-js names the filter countryCode; the mobile SDKs name it country.
        countryCode: countryCodes(),
      },
    },
    ({ query: q, req }) =>
      addressesJson(
        geocoding.autocomplete(q.query, {
          near: q.near,
          nearIp: req.ip,
          layers: q.layers,
          limit: q.limit,
          country: q.country ?? q.countryCode,
        }),
        req.id,
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/addresses/validate',
      auth: 'publishable',
      tag: 'Geocoding',
      summary: 'An address checked against the imported OSM address layers: the record and how well it matched',
      query: {
        number: str({ maxLength: 32 }),
        street: str({ maxLength: 256 }),
        unit: str({ maxLength: 64 }),
        city: str({ maxLength: 128 }),
        stateCode: str({ maxLength: 64 }),
        postalCode: str({
          pattern: /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/,
          patternRule: 'must be a postal code, such as 11427.',
        }),
        countryCode: countryCode(),
        addressLabel: str({ maxLength: 512 }),
      },
    },
    ({ query: q }) => {
      // Blank parameters (a form's empty field) arrive absent: see `isAbsent`.
      const v = geocoding.validateAddress(q);
      const result = { verificationStatus: v.status, differences: v.differences, reason: v.reason };
      return { address: v.address, result };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/attribution',
      auth: 'none',
      tag: 'Geocoding',
      summary: 'Sources of the reference data, their licences and the attribution text to show',
    },
    () => geocoding.attribution(),
  );
}
