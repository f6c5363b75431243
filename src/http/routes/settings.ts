import type { FastifyInstance } from 'fastify';
import { DomainError, invalidParam } from '../../domain/errors.js';
import { parseJurisdiction } from '../../domain/jurisdiction/jurisdiction-settings.js';
import type { Metadata } from '../../domain/metadata.js';
import { parseKeyRestrictions } from '../../domain/projects/key-restrictions.js';
import type { Project } from '../../domain/projects/project.js';
import {
  parseFeatureSettings,
  parseSdkConfiguration,
  type SdkSettings,
  sdkSettingsJson,
} from '../../domain/sdk/sdk-settings.js';
import type { SdkSettingsPatch } from '../../domain/sdk/sdk-settings-service.js';
import { parseTrackingOptions, TRACKING_PRESETS } from '../../domain/sdk/tracking-options.js';
import { parseSegments } from '../../domain/segments/segment.js';
import type { PlaceSettings } from '../../domain/settings/place-settings.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import { dictionaryAnswerBody } from '../json-list-body.js';
import { features } from '../params/features.js';
import { jsonValue, metadata, param } from '../params/index.js';

const SLUG = /^[a-z0-9][a-z0-9-_.]*$/;
/** Most chains a setting names, and most entries of a place filter: the largest chain lists have a few hundred. */
const MAX_CHAINS = 1000;
/** Longest chain slug, chain mapping and filter entry. */
const MAX_NAME_LENGTH = 256;

const chainMetadata = () =>
  param(
    { type: 'object', additionalProperties: { type: 'object' }, description: 'chain slug -> metadata' },
    (raw, name) => {
      const dict = asDict(jsonValue({}).parse(raw, name), name);
      checkCount(dict, name);
      const out: Record<string, Metadata> = {};
      for (const [slug, value] of Object.entries(dict)) {
        checkSlug(slug, name);
        out[slug] = chainEntry(value, name, slug);
      }
      return out;
    },
  );

const chainMappings = () =>
  param(
    { type: 'object', additionalProperties: { type: 'string' }, description: 'chain slug -> your id' },
    (raw, name) => {
      const dict = asDict(jsonValue({}).parse(raw, name), name);
      checkCount(dict, name);
      for (const [slug, value] of Object.entries(dict)) {
        checkSlug(slug, name);
        if (typeof value !== 'string' || value.length > MAX_NAME_LENGTH)
          throw invalidParam(
            name,
            `values must be strings of at most ${MAX_NAME_LENGTH} characters ("${slug}" is not).`,
          );
      }
      return dict as Record<string, string>;
    },
  );

const placeFilters = () =>
  param({ type: 'object', properties: { chain: { type: 'array' }, category: { type: 'array' } } }, (raw, name) => {
    const dict = asDict(jsonValue({}).parse(raw, name), name);
    const out: PlaceSettings['placeFilters'] = { chain: [], category: [] };
    for (const [key, value] of Object.entries(dict)) {
      if (key !== 'chain' && key !== 'category')
        throw invalidParam(name, `may only have the keys chain and category ("${key}" is not one).`);
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length > MAX_NAME_LENGTH))
        throw invalidParam(name, `${key} must be an array of strings of at most ${MAX_NAME_LENGTH} characters.`);
      if (value.length > MAX_CHAINS) throw invalidParam(name, `${key} must have at most ${MAX_CHAINS} items.`);
      out[key] = value as string[];
    }
    return out;
  });

/** A JSON text (form bodies) read as its value; a preset name stays a string. */
const jsonText = (raw: unknown) => {
  if (typeof raw !== 'string' || !/^\s*[[{]/.test(raw)) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
};

// What the mobile SDKs read in `meta` of /v1/config and of every track; null removes a setting.
const sdkParams = {
  trackingOptions: param(
    {
      oneOf: [{ type: 'string', enum: [...TRACKING_PRESETS] }, { type: 'object' }],
      description: 'remote tracking options: a preset name or a full options object (docs/sdks.md); null removes',
    },
    (raw, name) => parseTrackingOptions(jsonText(raw), name),
  ),
  sdkConfiguration: param(
    { type: 'object', description: 'the SDK configuration the mobile SDKs read; null removes' },
    (raw, name) => parseSdkConfiguration(jsonText(raw), name),
  ),
  featureSettings: param(
    { type: 'object', description: 'feature settings the mobile SDKs read; null removes' },
    (raw, name) => parseFeatureSettings(jsonText(raw), name),
  ),
  jurisdiction: param(
    {
      type: 'object',
      description:
        'blockedCountries, allowedCountries, allowedStates, bufferMeters, exclusionTag (docs/jurisdiction.md); null removes',
    },
    (raw, name) => parseJurisdiction(jsonText(raw), name),
  ),
  keyRestrictions: param(
    { type: 'object', description: 'origins and apps a publishable key may be used from; null removes' },
    (raw, name) => parseKeyRestrictions(jsonText(raw), name),
  ),
};

export function settingsRoutes(app: FastifyInstance, { services, keys }: AppDeps): void {
  const tag = 'Settings';
  defineRoute(
    app,
    { method: 'GET', url: '/v1/settings', auth: 'secret', tag, summary: 'Get place settings and project features' },
    async ({ tenant, req }) =>
      settingsAnswer(await services.settings.get(tenant), req.auth!.project, await services.sdkSettings.get(tenant)),
  );
  defineRoute(
    app,
    {
      method: 'PATCH',
      url: '/v1/settings',
      auth: 'secret',
      tag,
      summary: 'Update place settings and project features',
      body: {
        chainMetadata: chainMetadata(),
        chainMappings: chainMappings(),
        placeFilters: placeFilters(),
        features: features(),
        segments: param({ type: 'array', items: { type: 'object' } }, (raw, name) => parseSegments(raw, name)),
        ...sdkParams,
      },
    },
    async ({ body, tenant, req }) => {
      const patch: Partial<PlaceSettings> = {};
      if (body.chainMetadata) patch.chainMetadata = body.chainMetadata;
      if (body.chainMappings) patch.chainMappings = body.chainMappings;
      if (body.placeFilters) patch.placeFilters = body.placeFilters;
      const settings = await services.settings.patch(tenant, patch);
      let project = req.auth!.project;
      if (body.features && Object.keys(body.features).length > 0) {
        project = (await services.projects.setFeatures(project.name, body.features)) ?? project;
        // Keys carry their project: drop them so the next request (track's Regions step) sees the change.
        keys.invalidate();
      }
      if (body.segments) {
        project = (await services.projects.setSegments(project.name, body.segments)) ?? project;
        keys.invalidate();
      }
      const sdkPatch = sdkPatchOf(body, req.body);
      const sdk = sdkPatch
        ? await services.sdkSettings.patch(tenant, sdkPatch)
        : await services.sdkSettings.get(tenant);
      return settingsAnswer(settings, project, sdk);
    },
  );
}

/**
 * The answer of GET and PATCH, its chains' metadata printed a chunk at a time with turns of the event
 * loop between (json-list-body.ts): at their limits they are 4 MB of JSON.
 */
function settingsAnswer(settings: PlaceSettings, project: Project, sdk: SdkSettings | null): JsonText {
  const answer = {
    meta: { code: 200 },
    ...settings,
    features: project.features,
    segments: project.segments ?? [],
    ...sdkSettingsJson(sdk),
  };
  return new JsonText(dictionaryAnswerBody(answer, 'chainMetadata'));
}

/** The SDK settings a PATCH names: parsed values, and null for those sent as null (removed). */
function sdkPatchOf(body: Partial<Record<keyof typeof sdkParams, unknown>>, raw: unknown): SdkSettingsPatch | null {
  const sent = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(sdkParams) as Array<keyof typeof sdkParams>) {
    if (body[key] !== undefined) patch[key] = body[key];
    else if (key in sent && sent[key] === null) patch[key] = null;
  }
  return Object.keys(patch).length > 0 ? (patch as SdkSettingsPatch) : null;
}

/**
 * One chain's metadata. The error names the body parameter (`chainMetadata`) as `param`, and the
 * message points at the chain within it (`chainMetadata.starbucks must ...`).
 */
function chainEntry(value: unknown, name: string, slug: string): Metadata {
  try {
    return metadata().parse(value, `${name}.${slug}`) ?? {};
  } catch (err) {
    if (err instanceof DomainError) throw new DomainError(err.kind, name, err.message);
    throw err;
  }
}

function asDict(v: unknown, name: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidParam(name, 'must be a dictionary.');
  return v as Record<string, unknown>;
}

function checkCount(dict: Record<string, unknown>, name: string): void {
  let count = 0;
  for (const _ in dict) if (++count > MAX_CHAINS) throw invalidParam(name, `must have at most ${MAX_CHAINS} chains.`);
}

function checkSlug(slug: string, name: string): void {
  if (!SLUG.test(slug) || slug.length > MAX_NAME_LENGTH)
    throw invalidParam(name, `keys must be chain slugs such as "starbucks" ("${slug}" is not).`);
}
