/** One line of an SDK's debug log, as `POST /v1/logs` brings it. Times are epoch ms. */
export interface DeviceLogLine {
  /** `none`, `error`, `warning`, `info`, `debug` (the SDKs' levels), lower case. */
  level: string;
  /** The SDK's log type (`SDK_CALL`, `SDK_ERROR`, `APP_LIFECYCLE`, …), when it sends one. */
  type: string | null;
  message: string;
  /** When the device logged it (its clock). */
  createdAt: number;
  /** When the server received it. */
  receivedAt: number;
  sessionId: string | null;
}

/** Lines kept per device: the newest ones, older lines dropped as new ones arrive. */
export const DEVICE_LOG_KEEP = 1000;
/** Lines one request may bring (an SDK flushes its buffer in one; iOS keeps at most a few hundred). */
export const DEVICE_LOG_MAX_LINES = 1000;
/** Characters of one message. */
export const DEVICE_LOG_MAX_MESSAGE = 10_000;
