import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidParam } from '../../domain/errors.js';
import type { DeviceType } from '../../domain/users/user.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { bool, str } from '../params/index.js';
import { sdkMetaText } from './track-sdk.js';

/**
 * What the SDKs ask of the server besides tracks: their configuration (`GET /v1/config`, sent on every
 * initialize and after trackOnce) and verified location (the token check for the app's back end and
 * the public keys it can check tokens with itself). docs/sdks.md says how to use them.
 */
export function sdkRoutes(app: FastifyInstance, { services, keys }: AppDeps): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/config',
      auth: 'publishable',
      tag: 'SDK',
      summary: 'SDK configuration: remote tracking options, SDK configuration, feature settings; a nonce',
      // The SDKs also send installId, sessionId, id, locationAuthorization, usage, clientSdkConfiguration:
      // nothing here depends on them.
      query: { verified: bool() },
    },
    async ({ query, tenant, req }) => {
      const meta = sdkMetaText(await services.sdkSettings.get(tenant), platformOf(req));
      // iOS reads `nonce` at the top level (RadarConfig), for its device attestation before a verified track.
      const nonce = query.verified ? `,"nonce":${JSON.stringify(services.verified.nonce())}` : '';
      return new JsonText(`{"meta":{"code":200${meta}}${nonce}}`);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/verify/token',
      auth: 'secret',
      tag: 'SDK',
      summary: "Check a verified location token of this key's environment and answer its claims",
      query: { token: str({ maxLength: 16_384 }).required() },
    },
    async ({ query, tenant }) => ({ claims: await services.verified.verify(tenant, query.token) }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/verify/jwks.json',
      auth: 'none',
      tag: 'SDK',
      summary: "The public keys of a publishable key's environment, to check verified location tokens",
      // A JWKS is fetched by libraries that send no Authorization header: the (public) publishable key
      // in the query names the environment. Never a secret key: it would end up in logs and caches.
      query: { publishableKey: str({ maxLength: 256 }).required() },
      perKeyLimit: false,
    },
    async ({ query, reply }) => {
      const key = query.publishableKey.includes('_sk_') ? undefined : await keys.resolve(query.publishableKey);
      if (key?.level !== 'publishable') throw invalidParam('publishableKey', 'is not a publishable key.');
      // Back ends cache the set; the key of an environment never changes.
      reply.header('cache-control', 'public, max-age=3600');
      const jwks = await services.verified.jwks({ projectId: key.project.id, live: key.live });
      return new JsonText(JSON.stringify(jwks));
    },
  );
}

/** The SDK's platform, from its `X-Radar-Device-Type` header (iOS, Android, Web). */
function platformOf(req: FastifyRequest): DeviceType | undefined {
  const h = String(req.headers['x-radar-device-type'] ?? '').toLowerCase();
  return (['iOS', 'Android', 'Web'] as const).find((t) => t.toLowerCase() === h);
}
