import type { Clock } from '../clock.js';
import { geofenceEvents } from '../events/geofence-events.js';
import { detectTransitions, type GeofenceTransitions } from '../geofences/detect-transitions.js';
import type { TrackCandidates, TrackIdentity, UserStore } from '../ports/user-store.js';
import { tenantKey } from '../tenant.js';
import type { User } from '../users/user.js';
import { deliveriesFor } from '../webhooks/webhook.js';
import type { GeofenceIndexRegistry } from './geofence-index-registry.js';
import type { KeyedMutex, Release } from './keyed-mutex.js';
import { decideUpdatedAt, nextUser, resolveTrackedUser } from './next-user.js';
import { runParticipants } from './run-participants.js';
import type { TrackParticipant } from './track-participant.js';
import type { TrackRequest, TrackResult } from './track-request.js';

export interface TrackDeps {
  users: UserStore;
  indexes: GeofenceIndexRegistry;
  participants: readonly TrackParticipant[];
  mutex: KeyedMutex;
  clock: Clock;
}

// Fixes worse than this still search only 100 m around the point (as detectTransitions bands exits).
const MAX_CANDIDATE_MARGIN_METERS = 100;

/**
 * One location update, end to end (ARCHITECTURE.md §4): lock the user, find or create it, decide the
 * update's time, detect geofence transitions, let participants (trips, ...) add theirs, then write the
 * user and every event in one transaction. Tracks of one user never interleave.
 */
export async function trackUser(deps: TrackDeps, req: TrackRequest): Promise<TrackResult> {
  const identity: TrackIdentity = { userId: req.userId ?? null, deviceId: req.deviceId };
  // A store that serialises one user's tracks itself (across processes) needs no in-process lock.
  const locked = deps.users.serialisesTracks ? undefined : await lockTrackedUser(deps, req, identity);
  try {
    return await deps.users.trackUpdate(
      req.tenant,
      identity,
      async (found, unit) => {
        const now = deps.clock.now();
        const previous = resolveTrackedUser(found, req.userId);
        const at = decideUpdatedAt(previous, req.updatedAt, now);
        const user = nextUser(previous, req, at);
        const transitions = await detectGeofenceTransitions(deps, req, user, at, now);
        user.geofences = transitions.memberships;
        const origin = {
          user,
          at,
          now,
          location: req.location,
          accuracyMeters: req.accuracyMeters,
          replayed: req.replayed,
        };
        const events = geofenceEvents(transitions, origin);
        const inside = transitions.inside.map((pg) => pg.geofence);
        const entered = transitions.entered.map((e) => e.geofence.geofence);
        const contributed = await runParticipants(deps.participants, {
          req,
          user,
          previous,
          at,
          now,
          entered,
          inside,
          unit,
        });
        events.push(...contributed.events);
        return {
          user,
          events,
          deliveries: deliveriesFor(req.project, events, now),
          result: { user, events, inside, userFields: contributed.userFields },
        };
      },
      locked?.found,
    );
  } finally {
    locked?.release();
  }
}

/**
 * Serialises tracks of one user, and returns the candidates it read (they cannot change while the
 * locks are held). Identity keys first (deviceId, userId): every track that could make a record
 * match an identity holds that identity's key. Then the `_id` of the record it found, because one
 * record can be reached through two identities (a device track and a userId track from another
 * device); `_id` keys are taken last and their holders wait for nothing, so this cannot deadlock.
 */
async function lockTrackedUser(
  deps: TrackDeps,
  req: TrackRequest,
  identity: TrackIdentity,
): Promise<{ release: Release; found: TrackCandidates }> {
  const scope = tenantKey(req.tenant);
  const keys = [`${scope}:d:${identity.deviceId}`];
  if (identity.userId !== null) keys.push(`${scope}:u:${identity.userId}`);
  const releaseIdentity = await deps.mutex.lock(keys);
  try {
    const candidates = await deps.users.findTrackCandidates(req.tenant, identity);
    const found = resolveTrackedUser(candidates, req.userId);
    if (!found) return { release: releaseIdentity, found: candidates };
    const recordKey = `${scope}:id:${found.id}`;
    const contended = deps.mutex.isHeld(recordKey);
    const releaseRecord = await deps.mutex.lock([recordKey]);
    const release = () => {
      releaseRecord();
      releaseIdentity();
    };
    // A track that reached the record through another identity held it and may have changed it.
    if (!contended) return { release, found: candidates };
    try {
      return { release, found: await deps.users.findTrackCandidates(req.tenant, identity) };
    } catch (err) {
      releaseRecord();
      throw err;
    }
  } catch (err) {
    releaseIdentity();
    throw err;
  }
}

/** Transitions of the user's fences at this point, from the tenant's spatial index. */
async function detectGeofenceTransitions(
  deps: TrackDeps,
  req: TrackRequest,
  user: User,
  at: number,
  now: number,
): Promise<GeofenceTransitions> {
  const index = await deps.indexes.get(req.tenant);
  const [lon, lat] = req.location;
  const candidates = index.candidatesAt(lon, lat, Math.min(req.accuracyMeters, MAX_CANDIDATE_MARGIN_METERS));
  const change = {
    at,
    location: req.location,
    accuracyMeters: req.accuracyMeters,
    stopped: req.stopped ?? false,
    appUserId: user.userId,
    memberships: user.geofences,
  };
  return detectTransitions(change, candidates, (id) => index.get(id), now);
}
