import { createHash, randomBytes } from 'node:crypto';
import {
  type CryptoKey,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import { LRUCache } from 'lru-cache';
import type { Position } from '../../geo/types.js';
import type { Clock } from '../clock.js';
import { invalid } from '../errors.js';
import type { FraudFlags } from '../fraud/fraud-tracker.js';
import { newId } from '../ids.js';
import type { SettingsStore } from '../ports/settings-store.js';
import type { Region, RegionSet } from '../regions/region.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import type { SigningKey } from './signing-key.js';

const ALG = 'ES256';
const ISSUER = 'whereabouts';
/** How long a token is good for: long enough for a checkout, short enough that a stale one is refused. */
export const TOKEN_LIFETIME_SECONDS = 3600;
const MAX_DEVICE_REASONS = 20;

/** What the device sent with `verified: true` (radar-sdk-ios/android `trackVerified`). */
export interface VerifiedRequest {
  expectedCountryCode?: string | undefined;
  expectedStateCode?: string | undefined;
  /** The app's reason and transaction, kept in the token for its own back end. */
  reason?: string | undefined;
  transactionId?: string | undefined;
  /** `compromised` (a jailbroken device) and the device's own `fraudFailureReasons`. */
  compromised?: boolean | undefined;
  deviceFailureReasons?: string[] | undefined;
  /** The device's attestation of the app, as the SDK sent it (see `DeviceAttestation`). */
  attestation?: SentAttestation | undefined;
}

/** What the SDKs send to attest the app: iOS App Attest (`attestationString`, `keyId`, `attestationError`), Android Play Integrity (`integrityToken`, `integrityException`). */
export interface SentAttestation {
  attestationString?: string | undefined;
  keyId?: string | undefined;
  attestationError?: string | undefined;
  integrityToken?: string | undefined;
  integrityException?: string | undefined;
}

/**
 * What became of the device's attestation. It is recorded, never checked: checking an App Attest
 * object or a Play Integrity token takes Apple's or Google's services (or keys of the app's own this
 * server is not given), and this server reaches neither. So `checked` is always false and the check's
 * `passed` does not depend on it; the app's back end that needs it checks `sha256`'s original itself.
 */
export interface DeviceAttestation {
  /** `app_attest` (iOS), `play_integrity` (Android), or null when the device sent none. */
  type: 'app_attest' | 'play_integrity' | null;
  checked: false;
  /** `not_checked` (sent, not checkable here), `device_error` (the device could not attest), `not_provided`. */
  reason: 'not_checked' | 'device_error' | 'not_provided';
  /** SHA-256 (hex) of the attestation object or integrity token sent; null when none. */
  sha256: string | null;
  /** The App Attest key id (iOS). */
  keyId: string | null;
  /** What the device reported instead of an attestation (e.g. "Service unsupported"). */
  error: string | null;
}

/** The record of a sent attestation (see `DeviceAttestation`). */
export function recordAttestation(sent: SentAttestation | undefined): DeviceAttestation {
  const s = sent ?? {};
  const blob = s.attestationString || s.integrityToken || null;
  const type =
    s.attestationString || s.keyId || s.attestationError
      ? 'app_attest'
      : s.integrityToken || s.integrityException
        ? 'play_integrity'
        : null;
  const error = s.attestationError || s.integrityException || null;
  return {
    type,
    checked: false,
    reason: blob ? 'not_checked' : error ? 'device_error' : 'not_provided',
    sha256: blob ? createHash('sha256').update(blob).digest('hex') : null,
    keyId: s.keyId || null,
    error,
  };
}

/** The region with what the SDKs read of a verified check (Android: `passed` of country and state). */
export type CheckedRegion = Region & { passed: boolean; expected?: string };

/** One verified location check, as the track response and the token carry it. */
export interface VerifiedLocation {
  _id: string;
  token: string;
  /** Epoch ms. */
  expiresAt: number;
  expiresIn: number;
  passed: boolean;
  failureReasons: string[];
  fraud: FraudFlags & {
    passed: boolean;
    bypassed: boolean;
    verified: boolean;
    compromised: boolean;
    attested: boolean;
  };
  attestation: DeviceAttestation;
  country?: CheckedRegion;
  state?: CheckedRegion;
}

/** The claims of a token: what the app's back end reads after checking the signature. */
export interface VerifiedClaims extends JWTPayload {
  _id: string;
  live: boolean;
  user: { _id: string; userId: string | null; deviceId: string | null; installId: string | null };
  location: { type: 'Point'; coordinates: Position };
  locationAccuracy: number | null;
  country: { code: string; name: string; passed: boolean } | null;
  state: { code: string; name: string; passed: boolean } | null;
  passed: boolean;
  failureReasons: string[];
  fraud: VerifiedLocation['fraud'];
  attestation: DeviceAttestation;
  reason: string | null;
  transactionId: string | null;
  expiresAt: string;
}

interface TenantKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/**
 * Verified location: signed statements that a user was at a place, checked by the app's back end.
 * Each project environment signs with its own ES256 key, made on first use and kept in the store (one
 * per environment, whichever process makes it first), so tokens of test keys never pass as live ones
 * and one project's never pass as another's.
 */
export class VerifiedLocationService {
  readonly #keys = new LRUCache<string, Promise<TenantKeys>>({ max: 10_000 });

  constructor(
    private readonly store: SettingsStore,
    private readonly clock: Clock,
  ) {}

  /** A fresh nonce for `/v1/config?verified=true`: the SDKs fold it into their device attestation. */
  nonce(): string {
    return randomBytes(16).toString('base64url');
  }

  /** Checks the tracked user against the request's expectations and signs the outcome. */
  async issue(
    tenant: Tenant,
    user: User,
    regions: RegionSet | null,
    fraud: FraudFlags | undefined,
    req: VerifiedRequest,
  ): Promise<VerifiedLocation> {
    const keys = await this.#tenantKeys(tenant);
    const now = this.clock.now();
    const expiresAt = now + TOKEN_LIFETIME_SECONDS * 1000;
    const failureReasons: string[] = [];
    const flags: FraudFlags = fraud ?? { proxy: false, mocked: false, jumped: false };
    if (flags.proxy) failureReasons.push('fraud_proxy');
    if (flags.mocked) failureReasons.push('fraud_mocked');
    if (flags.jumped) failureReasons.push('fraud_jumped');
    if (req.compromised) failureReasons.push('fraud_compromised');
    for (const r of (req.deviceFailureReasons ?? []).slice(0, MAX_DEVICE_REASONS)) {
      if (!failureReasons.includes(r)) failureReasons.push(r);
    }
    const country = checkRegion(regions?.country, req.expectedCountryCode, 'country', failureReasons);
    const state = checkRegion(regions?.state, req.expectedStateCode, 'state', failureReasons);
    const passed = failureReasons.length === 0;
    const attestation = recordAttestation(req.attestation);
    const fraudOut = {
      ...flags,
      compromised: req.compromised === true,
      passed: !failureReasons.some((r) => r.startsWith('fraud_')),
      bypassed: false,
      verified: true,
      // Never true: the attestation is recorded, not checked (see DeviceAttestation).
      attested: false,
    };
    const id = newId();
    const claims: VerifiedClaims = {
      _id: id,
      live: tenant.live,
      user: { _id: user.id, userId: user.userId, deviceId: user.deviceId, installId: user.installId },
      location: { type: 'Point', coordinates: user.location ?? [0, 0] },
      locationAccuracy: user.locationAccuracy,
      country: country ? { code: country.code, name: country.name, passed: country.passed } : null,
      state: state ? { code: state.code, name: state.name, passed: state.passed } : null,
      passed,
      failureReasons,
      fraud: fraudOut,
      attestation,
      reason: req.reason ?? null,
      transactionId: req.transactionId ?? null,
      expiresAt: new Date(expiresAt).toISOString(),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: keys.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(user.id)
      .setJti(id)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(keys.privateKey);
    const out: VerifiedLocation = {
      _id: id,
      token,
      expiresAt,
      expiresIn: TOKEN_LIFETIME_SECONDS,
      passed,
      failureReasons,
      fraud: fraudOut,
      attestation,
    };
    if (country) out.country = country;
    if (state) out.state = state;
    return out;
  }

  /** The claims of a token this environment signed and that has not expired; else an `invalid('token')`. */
  async verify(tenant: Tenant, token: string): Promise<VerifiedClaims> {
    const keys = await this.#tenantKeys(tenant);
    try {
      const { payload } = await jwtVerify<VerifiedClaims>(token, keys.publicKey, {
        algorithms: [ALG],
        issuer: ISSUER,
        currentDate: new Date(this.clock.now()),
      });
      return payload;
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw invalid('token', 'token has expired.');
      if (err instanceof errors.JOSEError)
        throw invalid('token', "token is not a verified location token of this project's environment.");
      throw err;
    }
  }

  /** The environment's public keys as a JSON Web Key Set. */
  async jwks(tenant: Tenant): Promise<{ keys: JWK[] }> {
    const keys = await this.#tenantKeys(tenant);
    return { keys: [keys.publicJwk] };
  }

  #tenantKeys(tenant: Tenant): Promise<TenantKeys> {
    const key = `${tenant.projectId}:${tenant.live ? 1 : 0}`;
    let keys = this.#keys.get(key);
    if (!keys) {
      keys = this.#loadOrCreate(tenant);
      // A failed load (store unreachable) is not kept: the next request tries again.
      keys.catch(() => this.#keys.delete(key));
      this.#keys.set(key, keys);
    }
    return keys;
  }

  async #loadOrCreate(tenant: Tenant): Promise<TenantKeys> {
    const stored =
      (await this.store.signingKey(tenant)) ?? (await this.store.addSigningKey(tenant, await newKey(this.clock)));
    const publicJwk = { ...stored.publicJwk, kid: stored.kid, alg: ALG, use: 'sig' } as JWK;
    return {
      kid: stored.kid,
      privateKey: (await importJWK(stored.privateJwk as JWK, ALG)) as CryptoKey,
      publicKey: (await importJWK(publicJwk, ALG)) as CryptoKey,
      publicJwk,
    };
  }
}

async function newKey(clock: Clock): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  return {
    kid: randomBytes(12).toString('base64url'),
    privateJwk: (await exportJWK(privateKey)) as Record<string, unknown>,
    publicJwk: (await exportJWK(publicKey)) as Record<string, unknown>,
    createdAt: clock.now(),
  };
}

function checkRegion(
  region: Region | undefined,
  expected: string | undefined,
  type: 'country' | 'state',
  failureReasons: string[],
): CheckedRegion | undefined {
  const want = expected?.trim().toUpperCase();
  const passed = !want || region?.code.toUpperCase() === want;
  if (!passed) failureReasons.push(`${type}_not_expected`);
  if (!region) return undefined;
  return want ? { ...region, passed, expected: want } : { ...region, passed };
}
