import type { Clock } from '../clock.js';
import { invalid, missingParam } from '../errors.js';
import type { DeviceLogStore } from '../ports/device-log-store.js';
import type { Tenant } from '../tenant.js';
import { DEVICE_LOG_KEEP, DEVICE_LOG_MAX_LINES, DEVICE_LOG_MAX_MESSAGE, type DeviceLogLine } from './device-log.js';

/** A log line as the SDK sends it, before checks. */
export interface RawLogLine {
  level?: unknown;
  type?: unknown;
  message?: unknown;
  createdAt?: number | undefined;
}

/** Device logs: kept for the operator to read (`projects logs`), bounded per device. */
export class DeviceLogService {
  constructor(
    private readonly store: DeviceLogStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Checks every line first, so a bad one refuses the request and nothing is kept; then appends
   * them. Returns how many were kept.
   */
  async append(
    tenant: Tenant,
    device: { deviceId: string | undefined; installId: string | undefined; sessionId: string | undefined },
    raw: readonly RawLogLine[],
  ): Promise<number> {
    const deviceId = device.deviceId ?? device.installId;
    if (deviceId === undefined) throw missingParam('deviceId');
    if (raw.length > DEVICE_LOG_MAX_LINES)
      throw invalid('logs', `logs must hold at most ${DEVICE_LOG_MAX_LINES} lines.`);
    const now = this.clock.now();
    const lines = raw.map((r, i): DeviceLogLine => {
      const at = `logs[${i}]`;
      if (typeof r.message !== 'string' || r.message === '') throw invalid('logs', `${at}.message must be a string.`);
      if (r.message.length > DEVICE_LOG_MAX_MESSAGE)
        throw invalid('logs', `${at}.message must be at most ${DEVICE_LOG_MAX_MESSAGE} characters.`);
      return {
        level: shortText(r.level, `${at}.level`) ?? 'info',
        type: shortText(r.type, `${at}.type`),
        message: r.message,
        createdAt: Math.min(r.createdAt ?? now, now),
        receivedAt: now,
        sessionId: device.sessionId ?? null,
      };
    });
    if (lines.length > 0) await this.store.append(tenant, deviceId, lines, DEVICE_LOG_KEEP);
    return lines.length;
  }

  list(tenant: Tenant, deviceId: string, limit = DEVICE_LOG_KEEP): Promise<DeviceLogLine[]> {
    return this.store.list(tenant, deviceId, limit);
  }
}

/** A level or type: a short word, lower-cased levels (Android sends `ERROR`, iOS `error`). */
function shortText(raw: unknown, at: string): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > 64)
    throw invalid('logs', `${at} must be a string of at most 64 characters.`);
  return at.endsWith('.level') ? raw.toLowerCase() : raw;
}
