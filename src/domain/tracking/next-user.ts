import { newId } from '../ids.js';
import type { TrackCandidates } from '../ports/user-store.js';
import type { User } from '../users/user.js';
import type { TrackRequest } from './track-request.js';

/**
 * The user a track acts on: the one with its `userId` when given; else the device's user, to which
 * a first `userId` attaches. A device whose user already has another `userId` gets a new user (the
 * app logged in someone else), as does an unknown identity (null: create).
 */
export function resolveTrackedUser(found: TrackCandidates, userId: string | undefined): User | null {
  if (found.byUserId) return found.byUserId;
  const device = found.byDeviceId;
  if (!device) return null;
  if (userId === undefined || device.userId === null || device.userId === userId) return device;
  return null;
}

/**
 * The update's time (epoch ms): the client's `updatedAt` when it is after the user's last update and
 * not in the server's future (historical data must come in chronological order); else server time.
 */
export function decideUpdatedAt(previous: User | null, clientAt: number | undefined, now: number): number {
  if (clientAt === undefined || clientAt > now) return now;
  return previous === null || clientAt > previous.updatedAt ? clientAt : now;
}

/**
 * The user after this update, memberships not yet decided. Fields the update leaves out (or sends as
 * null) keep their previous values, except `foreground` and `stopped`, which describe this update
 * only and read false when absent.
 */
export function nextUser(previous: User | null, req: TrackRequest, at: number): User {
  return {
    id: previous?.id ?? newId(),
    projectId: req.tenant.projectId,
    live: req.tenant.live,
    userId: req.userId ?? previous?.userId ?? null,
    deviceId: req.deviceId,
    installId: req.installId ?? previous?.installId ?? null,
    description: req.description ?? previous?.description ?? null,
    metadata: req.metadata ?? previous?.metadata ?? null,
    location: req.location,
    locationAccuracy: req.accuracyMeters,
    foreground: req.foreground ?? false,
    stopped: req.stopped ?? false,
    deviceType: req.deviceType ?? previous?.deviceType ?? null,
    ip: req.ip ?? previous?.ip ?? null,
    // Like foreground and stopped, it describes this update only.
    source: req.source ?? null,
    geofences: previous?.geofences ?? [],
    state: previous?.state ?? {},
    // A user first seen through historical data was created at that time, not after it.
    createdAt: previous?.createdAt ?? at,
    updatedAt: at,
  };
}
