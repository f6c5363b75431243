import type { FraudFlags } from '../../domain/fraud/fraud-tracker.js';
import { type SdkSettings, sdkMeta } from '../../domain/sdk/sdk-settings.js';
import type { Tenant } from '../../domain/tenant.js';
import type { TrackRequest, TrackResult } from '../../domain/tracking/track-request.js';
import type { Services } from '../../services.js';
import { bool, num, type Parsed, param, str } from '../params/index.js';
import { GeofenceJson } from '../presenters/geofence-json.js';

/**
 * Track body fields of the mobile SDKs beyond the spec's: geofence sync (`nearbyGeofences`,
 * `nearbyGeofencesLimit`, Android only) and verified location (`verified` and what goes with it).
 */
export const sdkTrackBody = {
  nearbyGeofences: bool(),
  nearbyGeofencesLimit: num({ min: 0, max: 100, integer: true }),
  verified: bool(),
  expectedCountryCode: str({ maxLength: 8 }),
  expectedStateCode: str({ maxLength: 8 }),
  reason: str({ maxLength: 256 }),
  transactionId: str({ maxLength: 256 }),
  compromised: bool(),
  // Device attestation (recorded in the token, not checked: docs/sdks.md). An App Attest object is a
  // few KB of base64, a Play Integrity token about as much; 64 KB leaves room and bounds the body.
  attestationString: str({ maxLength: 65_536 }),
  keyId: str({ maxLength: 256 }),
  attestationError: str({ maxLength: 1000 }),
  integrityToken: str({ maxLength: 65_536 }),
  integrityException: str({ maxLength: 1000 }),
  fraudFailureReasons: param({ type: 'array', items: { type: 'string' } }, (raw): string[] =>
    // The device's own findings (iOS: mocked by software, screen captured): kept when they are text.
    Array.isArray(raw) ? raw.filter((r): r is string => typeof r === 'string' && r.length <= 100).slice(0, 20) : [],
  ),
};
export type SdkTrackBody = Parsed<typeof sdkTrackBody>;

/** What the SDKs assume when they do not say: Android's `syncGeofencesLimit` default; iOS sends none. */
export const DEFAULT_NEARBY_GEOFENCES = 10;
/** Fences farther than this are not worth registering with the OS: the device re-syncs as it moves. */
const NEARBY_RADIUS_METERS = 100_000;

// With the outline: the SDKs register polygons by geometryCenter and geometryRadius, but read geometry.
const nearbyJson = new GeofenceJson({ geometry: true }, 20_000);

/** JSON text to splice into a track response: inside `meta` and after `user`. */
export interface TrackExtras {
  meta: string;
  tail: string;
}

/**
 * The SDK parts of one track's response: remote settings in meta (from `settings`, the tenant's SDK
 * settings the track read once), nearby fences, a verified token.
 */
export async function trackExtras(
  services: Services,
  tenant: Tenant,
  settings: SdkSettings | null,
  req: TrackRequest,
  body: SdkTrackBody,
  result: TrackResult,
  now: number,
): Promise<TrackExtras> {
  let tail = '';
  if (body.nearbyGeofences) {
    // 0 is what Android's continuous preset sends: its own "no limit set".
    const limit = body.nearbyGeofencesLimit || DEFAULT_NEARBY_GEOFENCES;
    const hits = await services.geofenceSearch.near(tenant, {
      near: req.location,
      radiusMeters: NEARBY_RADIUS_METERS,
      limit,
      appUserId: result.user.userId,
    });
    tail += `,"nearbyGeofences":${nearbyJson.list(
      hits.map((h) => h.geofence),
      now,
    )}`;
  }
  if (body.verified) {
    const v = await services.verified.issue(
      tenant,
      result.user,
      services.regions.at(req.location),
      result.userFields.fraud as FraudFlags | undefined,
      {
        expectedCountryCode: body.expectedCountryCode,
        expectedStateCode: body.expectedStateCode,
        reason: body.reason,
        transactionId: body.transactionId,
        compromised: body.compromised,
        deviceFailureReasons: body.fraudFailureReasons,
        attestation: {
          attestationString: body.attestationString,
          keyId: body.keyId,
          attestationError: body.attestationError,
          integrityToken: body.integrityToken,
          integrityException: body.integrityException,
        },
      },
    );
    // The SDKs read `passed` of user.fraud, user.country and user.state (Android computes the token's
    // `passed` from them), so the verified check's outcome goes into the user as well.
    result.userFields = { ...result.userFields, fraud: v.fraud };
    if (v.country) result.userFields.country = v.country;
    if (v.state) result.userFields.state = v.state;
    tail += `,${JSON.stringify({
      token: v.token,
      expiresAt: new Date(v.expiresAt).toISOString(),
      expiresIn: v.expiresIn,
      passed: v.passed,
      failureReasons: v.failureReasons,
      attestation: v.attestation,
      _id: v._id,
    }).slice(1, -1)}`;
  }
  return { meta: sdkMetaText(settings, req.deviceType), tail };
}

/**
 * `,"trackingOptions":…` and the others of the tenant's `settings` that are set, for a `meta` object;
 * empty when none is.
 */
export function sdkMetaText(settings: SdkSettings | null, platform: TrackRequest['deviceType']): string {
  const meta = sdkMeta(settings, platform);
  const text = JSON.stringify(meta);
  return text === '{}' ? '' : `,${text.slice(1, -1)}`;
}
