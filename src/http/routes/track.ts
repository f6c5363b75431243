import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { parseRangedBeacons } from '../../domain/beacons/ranged-beacons.js';
import { DomainError, invalidParam } from '../../domain/errors.js';
import { jurisdictionFields } from '../../domain/jurisdiction/jurisdiction-fields.js';
import { type JurisdictionCheck, verdictAfterTrack } from '../../domain/jurisdiction/jurisdiction-service.js';
import type { Region, RegionSet } from '../../domain/regions/region.js';
import type { SdkSettings } from '../../domain/sdk/sdk-settings.js';
import type { Tenant } from '../../domain/tenant.js';
import type { TrackRequest, TrackResult } from '../../domain/tracking/track-request.js';
import type { DeviceType } from '../../domain/users/user.js';
import type { RateDecision, RateRule } from '../../ratelimit/rate-limiter.js';
import type { AppDeps } from '../context.js';
import { defineRoute, JsonText } from '../define-route.js';
import {
  bool,
  datetime,
  metadata,
  num,
  oneOf,
  type Parsed,
  param,
  parseParams,
  str,
  toNumber,
} from '../params/index.js';
import { applyRateHeaders, rateLimited } from '../plugins/auth.js';
import { eventsJson } from '../presenters/event-presenter.js';
import { sharedGeofenceJson } from '../presenters/geofence-json.js';
import { userJsonWith } from '../presenters/user-presenter.js';
import { sdkMetaText, sdkTrackBody, type TrackExtras, trackExtras } from './track-sdk.js';

const DEVICE_TYPES = ['iOS', 'Android', 'Web'] as const;

/** Every body rule of the spec; any other field (source, sdkVersion, speed, ...) is ignored. */
export const trackBody = {
  deviceId: str({ maxLength: 256 }).describe('required unless installId is given'),
  userId: str({ maxLength: 256 }),
  latitude: num({ min: -90, max: 90 }).required(),
  longitude: num({ min: -180, max: 180 }).required(),
  accuracy: num({ min: 0, exclusiveMin: true }).required(),
  foreground: bool(),
  stopped: bool(),
  replayed: bool(),
  description: str({ maxLength: 1000 }),
  metadata: metadata(),
  deviceType: oneOf(DEVICE_TYPES, { caseInsensitive: true }),
  updatedAt: datetime(),
  installId: str({ maxLength: 256 }),
  // Kept as the SDK names it (a newer SDK may name a new source): the mobile SDKs read it back.
  source: str({ maxLength: 64 }).describe('what gave the fix, e.g. FOREGROUND_LOCATION'),
  /** What the device ranged (beacon events); read again by BeaconsTracker from the raw body. */
  beacons: param({ type: 'array', items: { type: 'object' } }, (raw, name) => parseRangedBeacons(raw, name)),
  /** The client says the OS reported a mocked location (`user.fraud.mocked`). */
  mocked: bool(),
};
type TrackBody = Parsed<typeof trackBody>;

/** Spec Limits: per device, whatever the key. A refused request, here or later, changes nothing. */
const DEVICE_LIMITS: RateRule[] = [
  { windowMs: 1000, max: 1, label: '1 track per second per device' },
  { windowMs: 3_600_000, max: 180, label: '180 tracks per hour per device' },
  { windowMs: 86_400_000, max: 1000, label: '1,000 tracks per day per device' },
];
const MAX_REPLAYS = 1000;

const replays = () =>
  param({ type: 'array', maxItems: MAX_REPLAYS, items: { type: 'object' } }, (raw, name): unknown[] => {
    const list = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (!Array.isArray(list) || list.length === 0)
      throw invalidParam(name, 'must be a non-empty array of track bodies.');
    if (list.length > MAX_REPLAYS) throw invalidParam(name, `must have at most ${MAX_REPLAYS} items.`);
    return list;
  });

/** A track's SDK settings, read once, and its jurisdiction check on them (null without lists). */
interface Judged {
  settings: SdkSettings | null;
  checked: JurisdictionCheck | null;
}

/** What a track took from its device's windows, given back if the track is refused after all. */
interface DeviceCharge {
  key: string;
  at: number;
  decision: RateDecision;
}

export function trackRoutes(app: FastifyInstance, { services, clock, rateLimiter }: AppDeps): void {
  const tag = 'Tracking';
  app.decorateRequest('deviceCharge', null);
  /**
   * Counts the track in its device's windows once the body's parameters are read, and before the
   * track runs: two tracks of a device in the same second cannot both pass. What the track refuses
   * later (a bad `tripOptions`) is given back by `refundRefused`.
   */
  const limitDevice = async (req: FastifyRequest, reply: FastifyReply, tenant: Tenant, deviceId: string) => {
    const key = `track:${tenant.projectId}:${tenant.live ? 1 : 0}:${deviceId}`;
    const at = clock.now();
    const decision = await rateLimiter.consume(key, DEVICE_LIMITS, at);
    applyRateHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(decision);
    req.deviceCharge = { key, at, decision };
  };
  /**
   * A track answered 400 or above (refused for what it carries, or failed) was not accepted: its
   * device windows get back what it took, before the answer leaves, so the client's next request
   * finds them as they were. The per-device limits count accepted tracks only.
   */
  const refundRefused: onSendHookHandler = (req, reply, payload, done) => {
    const charge = req.deviceCharge;
    if (charge === null || reply.statusCode < 400) return done(null, payload);
    req.deviceCharge = null;
    reply.header('ratelimit-remaining', charge.decision.remaining + 1);
    const refunded = rateLimiter.refund(charge.key, DEVICE_LIMITS, charge.at);
    if (refunded instanceof Promise) refunded.then(() => done(null, payload));
    else done(null, payload);
  };
  // The fences a user is in come from the tracking index, the same objects track after track: their
  // text is printed once per fence version.
  const fenceJson = sharedGeofenceJson();
  const present = (r: TrackResult, extras: TrackExtras = { meta: '', tail: '' }) => {
    const user = userJsonWith(r.user, fenceJson.list(r.inside, clock.now()), r.userFields);
    const events = eventsJson(r.events);
    return new JsonText(`{"meta":{"code":200${extras.meta}},"events":${events},"user":${user}${extras.tail}}`);
  };
  /** The body with its deviceId: as sent, else found from its installId (`UserService.deviceOfInstall`). */
  const withDevice = async <B extends TrackBody>(b: B, tenant: Tenant, name = 'deviceId') => {
    if (b.deviceId !== undefined) return b as B & { deviceId: string };
    if (b.installId === undefined) throw invalidParam(name, 'is required (or installId).');
    return { ...b, deviceId: await services.users.deviceOfInstall(tenant, b.installId) };
  };
  // The mobile SDKs' parts (remote settings in meta, nearbyGeofences, verified tokens): track-sdk.ts.
  const track = async (
    body: TrackBody & Parsed<typeof sdkTrackBody> & { deviceId: string },
    req: FastifyRequest,
    tenant: Tenant,
    { settings, checked }: Judged,
  ) => {
    const request = toTrackRequest(body, req, tenant, clock.now());
    // The Regions step answers from the regions the check already found (when it found all of them).
    if (checked?.regions && request.project.features.regions) request.regions = checked.regions;
    const result = await services.tracking.track(request);
    if (checked) withJurisdiction(result, checked);
    return present(result, await trackExtras(services, tenant, settings, request, body, result, clock.now()));
  };
  /** The answer's jurisdiction fields, over the Regions step's country and state (or found for them). */
  const withJurisdiction = (result: TrackResult, checked: JurisdictionCheck) => {
    const verdict = verdictAfterTrack(checked, result.inside);
    const f = result.userFields;
    const regions: RegionSet =
      f.country || f.state
        ? { country: f.country as Region | undefined, state: f.state as Region | undefined }
        : verdict.regions;
    const fraud = (f.fraud as Record<string, unknown> | undefined) ?? {};
    // The track's own fields object (run-participants.ts builds one per track): added to, not copied.
    Object.assign(f, jurisdictionFields(verdict, regions, fraud));
  };
  /**
   * The jurisdiction check, before the device limits and the track's transaction: a refused (451)
   * track takes nothing from the device's windows, writes nothing and fires no event. With the Regions
   * feature on it looks up every region at once, for the Regions step to reuse.
   */
  const judge = (
    req: FastifyRequest,
    settings: SdkSettings | null,
    body: { latitude: number; longitude: number },
  ): JurisdictionCheck | null =>
    services.jurisdiction.check(
      settings?.jurisdiction,
      [body.longitude, body.latitude],
      'latitude',
      req.auth!.project.features.regions,
    );
  /** The tenant's SDK settings, read once a track (its lists here, its answer's meta after) and judged on. */
  const judged = async (req: FastifyRequest, tenant: Tenant, body: TrackBody): Promise<Judged> => {
    const settings = await services.sdkSettings.get(tenant);
    return { settings, checked: judge(req, settings, body) };
  };

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/track',
      auth: 'publishable',
      tag,
      summary: 'Track a location update',
      body: { ...trackBody, ...sdkTrackBody },
      perKeyLimit: false,
      onSend: refundRefused,
    },
    async ({ body, tenant, req, reply }) => {
      const judgement = await judged(req, tenant, body);
      const device = await withDevice(body, tenant);
      await limitDevice(req, reply, tenant, device.deviceId);
      return track(device, req, tenant, judgement);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/track/verify',
      auth: 'publishable',
      tag,
      summary: 'Track a location update and answer a verified location token (older SDKs)',
      body: { ...trackBody, ...sdkTrackBody },
      perKeyLimit: false,
    },
    async ({ body, tenant, req, reply }) => {
      const judgement = await judged(req, tenant, body);
      const device = await withDevice(body, tenant);
      await limitDevice(req, reply, tenant, device.deviceId);
      return track({ ...device, verified: true }, req, tenant, judgement);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/track/replay',
      auth: 'publishable',
      tag,
      summary: 'Replay location updates buffered offline, in chronological order',
      body: { replays: replays().required() },
      perKeyLimit: false,
      onSend: refundRefused,
    },
    async ({ body, tenant, req, reply }) => {
      const items = await Promise.all(
        body.replays.map((raw, i) => withDevice(parseReplay(raw, i), tenant, `replays[${i}].deviceId`)),
      );
      // Every replayed fix is judged first: one in a refused country refuses the whole request.
      const settings = await services.sdkSettings.get(tenant);
      for (const item of items) judge(req, settings, item);
      // One request, one count against the device limits, however many updates it carries.
      await limitDevice(req, reply, tenant, items[0]!.deviceId);
      const reqs = items.map((b, i) =>
        toTrackRequest(b, req, tenant, clock.now(), body.replays[i] as Record<string, unknown>),
      );
      const meta = sdkMetaText(settings, reqs[reqs.length - 1]!.deviceType);
      return present(await services.tracking.replay(reqs), { meta, tail: '' });
    },
  );
}

function parseReplay(raw: unknown, i: number): TrackBody {
  const name = `replays[${i}]`;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw invalidParam(name, 'must be a track body (an object).');
  try {
    return parseParams(trackBody, raw);
  } catch (err) {
    if (!(err instanceof DomainError) || err.param === undefined) throw err;
    throw new DomainError(err.kind, `${name}.${err.param}`, `${name}.${err.message}`);
  }
}

function toTrackRequest(
  b: TrackBody & { deviceId: string },
  req: FastifyRequest,
  tenant: Tenant,
  now: number,
  raw = req.body as Record<string, unknown>,
): TrackRequest {
  return {
    tenant,
    project: req.auth!.project,
    deviceId: b.deviceId,
    userId: b.userId,
    installId: b.installId,
    source: b.source,
    location: [b.longitude, b.latitude],
    accuracyMeters: b.accuracy,
    foreground: b.foreground,
    stopped: b.stopped,
    description: b.description,
    metadata: b.metadata,
    deviceType: b.deviceType ?? headerDeviceType(req),
    updatedAt: b.updatedAt ?? msDiffTime(raw, now),
    replayed: b.replayed ?? false,
    ip: req.ip,
    body: raw ?? {},
  };
}

/** The web SDK names its platform in a header; the body wins when both are present. */
function headerDeviceType(req: FastifyRequest): DeviceType | undefined {
  const h = String(req.headers['x-radar-device-type'] ?? '').toLowerCase();
  return DEVICE_TYPES.find((t) => t.toLowerCase() === h);
}

/** Mobile SDKs date buffered fixes by their age (`updatedAtMsDiff`, ms) instead of `updatedAt`. */
function msDiffTime(raw: Record<string, unknown> | undefined, now: number): number | undefined {
  const diff = toNumber(raw?.updatedAtMsDiff);
  return diff !== null && diff >= 0 ? now - diff : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    deviceCharge: DeviceCharge | null;
  }
}
