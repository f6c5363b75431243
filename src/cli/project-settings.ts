import type { Project } from '../domain/projects/project.js';
import { type RetentionPolicy, retentionOf } from '../domain/retention/retention.js';

const RETENTION_FLAGS: Record<string, keyof RetentionPolicy> = {
  'keep-events': 'eventsDays',
  'keep-trips': 'tripsDays',
  'keep-users': 'usersDays',
};

/** Applies `projects set` flags; throws with a message naming the flag on a bad value. */
export function applyProjectSettings(p: Project, flags: Record<string, string | true>): Project {
  const next: Project = { ...p, features: { ...p.features }, limits: { ...p.limits } };
  for (const [flag, value] of Object.entries(flags)) {
    switch (flag) {
      case 'disabled':
        next.disabled = onOff(flag, value);
        break;
      case 'regions':
      case 'places':
      case 'insights':
        next.features[flag] = onOff(flag, value);
        break;
      case 'rate-limit':
        next.limits.requestsPerSecond = positiveInt(flag, value);
        break;
      case 'quota':
        next.limits.monthlyQuota = value === 'none' ? null : positiveInt(flag, value);
        break;
      case 'trip-expiry-minutes':
        next.tripExpiryMinutes = positiveInt(flag, value);
        break;
      case 'keep-events':
      case 'keep-trips':
      case 'keep-users':
        next.retention = {
          ...retentionOf(next),
          [RETENTION_FLAGS[flag]!]: value === 'forever' ? null : positiveInt(flag, value, 'or forever'),
        };
        break;
      default:
        throw new Error(`--${flag} is not a project setting.`);
    }
  }
  return next;
}

function onOff(flag: string, value: string | true): boolean {
  if (value === true || value === 'on' || value === 'true') return true;
  if (value === 'off' || value === 'false') return false;
  throw new Error(`--${flag} must be on or off.`);
}

function positiveInt(flag: string, value: string | true, orElse = ''): number {
  const n = Number(value);
  if (value === true || !Number.isInteger(n) || n < 1) {
    throw new Error(`--${flag} must be a positive whole number${orElse ? ` ${orElse}` : ''}.`);
  }
  return n;
}
